#include "training/sparse_ridge.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "parallel.h"
#include "rfk/host/train.hpp"

namespace rfk::host {
namespace {

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Threads for one application of the operator. Parallel starts and joins its threads on every
// call, tens of microseconds each, and CG applies the operator once per iteration: a small design
// runs on fewer threads, down to the caller alone (a 600-row binning fit spent more time in the
// kernel than in its arithmetic). The count changes no bit: every column of Z' u and every row of
// Z v is summed in one fixed order, whichever thread does it.
unsigned ThreadsFor(const SparseDesign& Z, std::size_t rows, unsigned threads) {
  constexpr std::size_t kMinWork = std::size_t{1} << 17;  // multiply-adds that pay for a thread
  const std::size_t work = rows * (std::size_t{Z.Df} + Z.P);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, work / kMinWork)));
}

class Operator {
 public:
  Operator(const SparseDesign& Z, const std::vector<std::uint32_t>& rows, const double* w,
           double lambda, unsigned threads)
      : Z_(Z), rows_(rows), lambda_(lambda), threads_(ThreadsFor(Z, rows.size(), threads)), w_(rows.size(), 1.0),
        u_(rows.size()) {
    if (w)
      for (std::size_t r = 0; r < rows.size(); ++r) w_[r] = w[rows[r]];
    m_ = 0;
    for (double v : w_) m_ += v;
    // Column means mu (for centering) and the diagonal of the centered operator.
    const std::uint32_t C = Z.Columns();
    mu_.assign(C, 0.0);
    diag_.assign(C, 0.0);
    std::vector<double> sq(C, 0.0);
    ApplyTranspose(w_, &mu_);
    for (double& v : mu_) v /= m_;
    // Weighted sums of squares: dense columns explicitly; a bin column's is scale^2 times its
    // rows' summed weight (mu * m / scale).
    for (std::uint32_t j = 0; j < Z.Df; ++j) {
      double s = 0;
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const double z = Z.Zf[std::size_t{rows[r]} * Z.Df + j];
        s += w_[r] * z * z;
      }
      sq[j] = s;
    }
    for (std::uint32_t j = Z.Df; j < C; ++j) sq[j] = mu_[j] * m_ * Z.scale;  // count * scale^2
    for (std::uint32_t j = 0; j < C; ++j) diag_[j] = sq[j] / m_ - mu_[j] * mu_[j] + lambda;
  }

  // out = Z' u over the listed rows (u indexed like `rows`).
  void ApplyTranspose(const std::vector<double>& u, std::vector<double>* out) const {
    const std::uint32_t Df = Z_.Df;
    Parallel(threads_, [&](unsigned t) {
      // Dense columns split into fixed ranges; each column sums rows in order.
      for (std::uint32_t j = t; j < Df; j += threads_) {
        double s = 0;
        for (std::size_t r = 0; r < rows_.size(); ++r) s += double(Z_.Zf[std::size_t{rows_[r]} * Df + j]) * u[r];
        (*out)[j] = s;
      }
      // Grids own disjoint column ranges: one thread per grid, rows in order.
      for (std::uint32_t p = t; p < Z_.P; p += threads_) {
        const std::uint32_t* cp = Z_.cols + std::size_t{p} * Z_.n;
        for (std::size_t r = 0; r < rows_.size(); ++r) {
          const std::uint32_t c = cp[rows_[r]];
          if (c != kNoBinColumn) (*out)[Df + c] += Z_.scale * u[r];
        }
      }
    });
  }

  // out = A v = (1/m) Z' W (Z v) - mu (mu' v) + lambda v, W = diag(w)
  void Apply(const std::vector<double>& v, std::vector<double>* out) {
    const std::uint32_t Df = Z_.Df;
    Parallel(threads_, [&](unsigned t) {
      const std::size_t chunk = (rows_.size() + threads_ - 1) / threads_;
      const std::size_t b = std::min(rows_.size(), t * chunk), e = std::min(rows_.size(), b + chunk);
      for (std::size_t r = b; r < e; ++r) {
        const std::size_t i = rows_[r];
        double s = 0;
        for (std::uint32_t j = 0; j < Df; ++j) s += double(Z_.Zf[i * Df + j]) * v[j];
        for (std::uint32_t p = 0; p < Z_.P; ++p) {
          const std::uint32_t c = Z_.cols[std::size_t{p} * Z_.n + i];
          if (c != kNoBinColumn) s += Z_.scale * v[Df + c];
        }
        u_[r] = w_[r] * s;
      }
    });
    std::fill(out->begin(), out->end(), 0.0);
    ApplyTranspose(u_, out);
    const double mv = Dot(mu_, v);
    for (std::size_t j = 0; j < out->size(); ++j) (*out)[j] = (*out)[j] / m_ - mu_[j] * mv + lambda_ * v[j];
  }

  const std::vector<double>& mu() const { return mu_; }
  const std::vector<double>& w() const { return w_; }
  const std::vector<double>& diag() const { return diag_; }
  double m() const { return m_; }

 private:
  const SparseDesign& Z_;
  const std::vector<std::uint32_t>& rows_;
  double lambda_;
  unsigned threads_;
  std::vector<double> w_;  // the listed rows' weights
  double m_;               // their sum
  std::vector<double> u_, mu_, diag_;
};

}  // namespace

RidgeSolution SolveRidgeCg(const SparseDesign& Z, const std::vector<std::uint32_t>& rows,
                           const double* Y, const double* w, std::uint32_t K, double lambda,
                           const CgOptions& opt, CgStats* stats, const RidgeSolution* start) {
  if (rows.empty()) throw TrainError("cannot fit a model to zero rows");
  if (!(lambda > 0)) throw TrainError("binning features need --lambda > 0 (the system is singular without it)");
  const unsigned threads = std::max(1u, opt.threads);
  Operator A(Z, rows, w, lambda, threads);
  const std::uint32_t C = Z.Columns();
  const double m = A.m();
  RidgeSolution sol;
  sol.W.assign(std::size_t{C} * K, 0.0);
  sol.bias.assign(K, 0.0);
  if (stats) *stats = CgStats{};

  std::vector<double> b(C), x(C), r(C), z(C), p(C), Ap(C), yk(rows.size());
  for (std::uint32_t k = 0; k < K; ++k) {
    double ybar = 0;
    for (std::size_t t = 0; t < rows.size(); ++t) {
      yk[t] = A.w()[t] * Y[std::size_t{rows[t]} * K + k];
      ybar += yk[t];
    }
    ybar /= m;
    // b = (1/m) Z' W y - mu ybar
    std::fill(b.begin(), b.end(), 0.0);
    A.ApplyTranspose(yk, &b);
    for (std::uint32_t j = 0; j < C; ++j) b[j] = b[j] / m - A.mu()[j] * ybar;
    const double bnorm = std::sqrt(Dot(b, b));
    r = b;
    if (start != nullptr && start->W.size() == sol.W.size()) {
      for (std::uint32_t j = 0; j < C; ++j) x[j] = start->W[std::size_t{j} * K + k];
      A.Apply(x, &Ap);
      for (std::uint32_t j = 0; j < C; ++j) r[j] = b[j] - Ap[j];
    } else {
      std::fill(x.begin(), x.end(), 0.0);
    }
    for (std::uint32_t j = 0; j < C; ++j) z[j] = r[j] / A.diag()[j];
    p = z;
    double rz = Dot(r, z);
    int it = 0;
    double rel = bnorm > 0 ? std::sqrt(Dot(r, r)) / bnorm : 0.0;
    while (rel > opt.tolerance && it < opt.max_iterations) {
      A.Apply(p, &Ap);
      const double alpha = rz / Dot(p, Ap);
      for (std::uint32_t j = 0; j < C; ++j) {
        x[j] += alpha * p[j];
        r[j] -= alpha * Ap[j];
      }
      for (std::uint32_t j = 0; j < C; ++j) z[j] = r[j] / A.diag()[j];
      const double rz_new = Dot(r, z);
      const double beta = rz_new / rz;
      rz = rz_new;
      for (std::uint32_t j = 0; j < C; ++j) p[j] = z[j] + beta * p[j];
      ++it;
      rel = std::sqrt(Dot(r, r)) / bnorm;
    }
    if (!std::isfinite(rel)) throw TrainError("conjugate gradients diverged; increase --lambda");
    if (stats) {
      stats->iterations = std::max(stats->iterations, it);
      stats->relative_residual = std::max(stats->relative_residual, rel);
    }
    double bias = ybar;
    for (std::uint32_t j = 0; j < C; ++j) {
      sol.W[std::size_t{j} * K + k] = x[j];
      bias -= x[j] * A.mu()[j];
    }
    sol.bias[k] = bias;
  }
  return sol;
}

}  // namespace rfk::host
