// Int8 head rounding that minimises the change of the outputs (GPTQ / OBQ error feedback, in its
// nearest-plane form): RoundInt8Gptq (rfk/host/quantize.hpp) and GptqInt8Head (quantize_head.h).
#include "model/quantize_head.h"

#include <algorithm>
#include <cmath>

#include "parallel.h"

namespace rfk::host {

namespace {

// A = U'U in place (U upper, row-major n x n), damped by 1e-12, 1e-10, ... of the mean diagonal
// until the factorisation succeeds. Throws QuantizeError if it never does (a non-finite A).
void FactorDamped(std::vector<double>* A, std::uint32_t n, unsigned threads) {
  double mean = 0;
  for (std::uint32_t i = 0; i < n; ++i) mean += (*A)[std::size_t{i} * n + i];
  mean = mean > 0 && std::isfinite(mean) ? mean / n : 1.0;
  const std::vector<double> a0 = *A;
  for (double damp = 0; damp < mean; damp = damp == 0 ? 1e-12 * mean : 100 * damp) {
    if (damp > 0) {
      *A = a0;
      for (std::uint32_t i = 0; i < n; ++i) (*A)[std::size_t{i} * n + i] += damp;
    }
    if (CholeskyUpper(A->data(), n, threads)) return;
  }
  throw QuantizeError("the head's Gram matrix could not be factorised (non-finite features?)");
}

// One row's nearest-plane rounding at scale s: columns from the last to the first, q_i the step
// nearest w_i + (sum_{j > i} U_ij d_j) / U_ii, d_j = w_j - s q_j. Returns ||U d||^2.
double RoundRow(const double* w, const double* U, std::uint32_t n, float s, std::int8_t* q, double* d) {
  double err = 0;
  for (std::uint32_t i = n; i-- > 0;) {
    const double* u = U + std::size_t{i} * n;
    double c = 0;
    for (std::uint32_t j = i + 1; j < n; ++j) c += u[j] * d[j];
    const double t = std::round((w[i] + c / u[i]) / s);
    q[i] = static_cast<std::int8_t>(std::clamp(t, -127.0, 127.0));
    d[i] = w[i] - static_cast<double>(s) * q[i];
    const double r = u[i] * d[i] + c;
    err += r * r;
  }
  return err;
}

}  // namespace

void RoundInt8Gptq(const std::vector<double>& w, std::uint32_t rows, std::uint32_t cols, std::vector<double> A,
                   unsigned threads, std::vector<std::int8_t>* q, std::vector<float>* scale, std::vector<double>* err) {
  const std::size_t n = cols;
  if (w.size() != rows * n || A.size() != n * n) throw std::logic_error("RoundInt8Gptq: sizes");
  threads = std::max(1u, threads);
  FactorDamped(&A, cols, threads);
  q->assign(rows * n, 0);
  scale->assign(rows, 1.0f);
  if (err) err->assign(rows, 0.0);
  // Every (row, scale step) is one job; each row keeps its best step: the same for any thread count.
  const std::size_t jobs = std::size_t{rows} * kGptqScaleSteps;
  std::vector<std::vector<std::int8_t>> qs(jobs);
  std::vector<double> es(jobs);
  std::vector<float> ss(jobs);
  Parallel(threads, [&](unsigned t) {
    std::vector<float> wf(n);
    std::vector<double> d(n);
    for (std::size_t job = t; job < jobs; job += threads) {
      const std::size_t r = job / kGptqScaleSteps, step = job % kGptqScaleSteps;
      const double* wr = w.data() + r * n;
      for (std::size_t c = 0; c < n; ++c) wf[c] = static_cast<float>(wr[c]);
      ss[job] = Int8Scale(wf.data(), n) * (1.0f - 0.05f * static_cast<float>(step));
      qs[job].resize(n);
      es[job] = RoundRow(wr, A.data(), cols, ss[job], qs[job].data(), d.data());
    }
  });
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t best = r * kGptqScaleSteps;
    for (std::size_t job = best + 1; job < (r + 1) * kGptqScaleSteps; ++job)
      if (es[job] < es[best]) best = job;
    std::copy(qs[best].begin(), qs[best].end(), q->begin() + static_cast<std::ptrdiff_t>(r * n));
    (*scale)[r] = ss[best];
    if (err) (*err)[r] = es[best];
  }
}

Int8Head GptqInt8Head(const RidgeStats& st, double lambda, const RidgeSolution& head, unsigned threads) {
  const std::uint32_t D = st.D, K = st.K;
  const double n = st.n > 0 ? st.n : 1.0;
  std::vector<double> mu(D), A(std::size_t{D} * D, 0.0), w(std::size_t{K} * D);
  for (std::uint32_t i = 0; i < D; ++i) mu[i] = st.s[i] / n;
  for (std::uint32_t i = 0; i < D; ++i) {
    for (std::uint32_t j = i; j < D; ++j)
      A[std::size_t{i} * D + j] = st.G[std::size_t{i} * D + j] / n - mu[i] * mu[j];
    A[std::size_t{i} * D + i] += lambda;
  }
  for (std::uint32_t k = 0; k < K; ++k)
    for (std::uint32_t i = 0; i < D; ++i) w[std::size_t{k} * D + i] = head.W[std::size_t{i} * K + k];
  Int8Head out;
  RoundInt8Gptq(w, K, D, std::move(A), threads, &out.q, &out.scale);
  out.bias.resize(K);
  for (std::uint32_t k = 0; k < K; ++k) {
    double shift = 0;  // mu' (w - w_q): b_q = ybar - w_q' mu = b + mu' (w - w_q)
    for (std::uint32_t i = 0; i < D; ++i)
      shift += mu[i] * (w[std::size_t{k} * D + i] - static_cast<double>(out.scale[k]) * out.q[std::size_t{k} * D + i]);
    out.bias[k] = static_cast<float>(head.bias[k] + shift);
  }
  return out;
}

}  // namespace rfk::host
