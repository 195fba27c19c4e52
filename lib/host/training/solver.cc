// Eigen is confined to this translation unit, which is built with EIGEN_DONT_VECTORIZE and
// -ffp-contract=off (see lib/CMakeLists.txt): the same statistics then give the same bits on
// every x86 or ARM host, whatever SIMD unit Eigen would otherwise have picked.
#include "training/solver.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "maps/block_kernels.h"
#include "cblas.h"  // OpenBLAS's (its include directory: lib/CMakeLists.txt)
#include "training/gram.h"
#include "parallel.h"

#include "rfk/host/train.hpp"

namespace rfk::host {

void RidgeStats::Add(const RidgeStats& o, double sign) {
  n += sign * o.n;
  for (std::size_t i = 0; i < G.size(); ++i) G[i] += sign * o.G[i];
  for (std::size_t i = 0; i < h.size(); ++i) h[i] += sign * o.h[i];
  for (std::size_t i = 0; i < s.size(); ++i) s[i] += sign * o.s[i];
  for (std::size_t i = 0; i < ysum.size(); ++i) ysum[i] += sign * o.ysum[i];
}

bool CholeskyUpper(double* a, std::size_t n, unsigned threads) {
  constexpr std::size_t kPanel = 96;  // rows per panel; any value gives the same bits
  constexpr std::size_t kRowBlock = 64;  // rows of the trailing matrix per task (a multiple of kCholRows)
  threads = std::max(1u, threads);
  std::vector<double> Pt;
  for (std::size_t k0 = 0; k0 < n; k0 += kPanel) {
    const std::size_t k1 = std::min(n, k0 + kPanel), R = k1 - k0;
    // Panel rows: the updates from earlier rows of this panel, then the pivot and the scaling.
    for (std::size_t i = k0; i < k1; ++i) {
      double* ai = a + i * n;
      for (std::size_t q = k0; q < i; ++q) AxpyNeg(a[q * n + i], a + q * n + i, n - i, ai + i);
      const double d = ai[i];
      if (!(d > 0) || !std::isfinite(d)) return false;
      const double u = std::sqrt(d);
      ai[i] = u;
      for (std::size_t j = i + 1; j < n; ++j) ai[j] /= u;
    }
    if (k1 == n) break;
    // Trailing rows [k1, n): a[i][j] -= sum over the panel's rows r of u[r][i] * u[r][j], in order.
    const std::size_t m = n - k1;
    Pt.resize(m * R);
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t i = 0; i < m; ++i) Pt[i * R + r] = a[(k0 + r) * n + k1 + i];
    const std::size_t blocks = (m + kRowBlock - 1) / kRowBlock;
    const double* panel = a + k0 * n;
    Parallel(threads, [&](unsigned t) {
      for (std::size_t b = t; b < blocks; b += threads) {
        const std::size_t ib = k1 + b * kRowBlock, ie = std::min(n, ib + kRowBlock);
        for (std::size_t j0 = ib; j0 < n; j0 += kCholCols) {
          const std::size_t jn = std::min<std::size_t>(kCholCols, n - j0);
          for (std::size_t i0 = ib; i0 < ie && i0 < j0 + jn; i0 += kCholRows) {
            const std::size_t in = std::min<std::size_t>(kCholRows, ie - i0);
            CholUpdateTile(Pt.data() + (i0 - k1) * R, R, panel, n, R, i0, in, j0, jn, a, n);
          }
        }
      }
    });
  }
  return true;
}

void CholeskySolveMany(const double* u, std::size_t n, double* B, std::size_t K) {
  // U'Y = B, row q of U once for every column: B[q][k] /= u[q][q], then B[j][k] -= u[q][j] B[q][k].
  for (std::size_t q = 0; q < n; ++q) {
    const double* uq = u + q * n;
    double* bq = B + q * K;
    for (std::size_t k = 0; k < K; ++k) bq[k] /= uq[q];
    for (std::size_t j = q + 1; j < n; ++j)
      for (std::size_t k = 0; k < K; ++k) B[j * K + k] -= uq[j] * bq[k];
  }
  // U X = Y: X[i][k] = (Y[i][k] - sum_{j > i} u[i][j] X[j][k]) / u[i][i], the sums in ascending j.
  std::vector<double> sum(K);
  for (std::size_t i = n; i-- > 0;) {
    const double* ui = u + i * n;
    std::fill(sum.begin(), sum.end(), 0.0);
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = 0; k < K; ++k) sum[k] += ui[j] * B[j * K + k];
    for (std::size_t k = 0; k < K; ++k) B[i * K + k] = (B[i * K + k] - sum[k]) / ui[i];
  }
}

void CholeskySolve(const double* u, std::size_t n, double* b) {
  // U'y = b: y[q] = b[q] / u[q][q], then b[j] -= u[q][j] * y[q] for j > q.
  for (std::size_t q = 0; q < n; ++q) {
    b[q] /= u[q * n + q];
    const double y = b[q];
    for (std::size_t j = q + 1; j < n; ++j) b[j] -= u[q * n + j] * y;
  }
  // U x = y: x[i] = (y[i] - sum_{j > i} u[i][j] x[j]) / u[i][i], the sum in ascending j.
  for (std::size_t i = n; i-- > 0;) {
    double s = 0;
    for (std::size_t j = i + 1; j < n; ++j) s += u[i * n + j] * b[j];
    b[i] = (b[i] - s) / u[i * n + i];
  }
}

namespace {

// The centred normal equations A = G/n - mu mu' (upper triangle), rhs = h/n - mu ybar'.
struct Centred {
  std::size_t D = 0, K = 0;
  std::vector<double> A, rhs, mu, ybar;
};

// st's statistics, or st's minus without's (each value x - y: the bits of RidgeStats::Add(*without, -1)).
Centred Centre(const RidgeStats& st, const RidgeStats* without) {
  const auto at = [&st, without](const std::vector<double> RidgeStats::*v, std::size_t i) {
    return without ? (st.*v)[i] - (without->*v)[i] : (st.*v)[i];
  };
  const double n = without ? st.n - without->n : st.n;
  if (n <= 0) throw TrainError("cannot fit a model to zero rows");
  Centred c;
  c.D = st.D;
  c.K = st.K;
  const double inv_n = 1.0 / n;
  c.mu.resize(c.D);
  for (std::size_t i = 0; i < c.D; ++i) c.mu[i] = at(&RidgeStats::s, i) * inv_n;
  c.ybar.resize(c.K);
  for (std::size_t k = 0; k < c.K; ++k) c.ybar[k] = at(&RidgeStats::ysum, k) * inv_n;
  c.A.assign(c.D * c.D, 0.0);
  for (std::size_t i = 0; i < c.D; ++i)
    for (std::size_t j = i; j < c.D; ++j)
      c.A[i * c.D + j] = at(&RidgeStats::G, i * c.D + j) * inv_n - c.mu[i] * c.mu[j];
  c.rhs.resize(c.D * c.K);
  for (std::size_t i = 0; i < c.D; ++i)
    for (std::size_t k = 0; k < c.K; ++k)
      c.rhs[i * c.K + k] = at(&RidgeStats::h, i * c.K + k) * inv_n - c.mu[i] * c.ybar[k];
  return c;
}

// Adds lambda to U's diagonal (U: A, upper triangle, on entry), factors it in place and solves
// for every output into *W (D x K). False, U undefined, if it is not numerically positive definite.
bool FactorAndSolve(std::vector<double>& U, const Centred& c, double lambda, unsigned threads,
                    std::vector<double>* W) {
  const std::size_t D = c.D, K = c.K;
  for (std::size_t i = 0; i < D; ++i) U[i * D + i] += lambda;
  if (!CholeskyUpper(U.data(), D, threads)) return false;
  *W = c.rhs;
  CholeskySolveMany(U.data(), D, W->data(), K);
  return true;
}

// (M + shift I) X = B by Eigen's LDLT, M symmetric (n x n, row-major, upper triangle read), B
// n x K: the fallback for systems Cholesky refuses. False, X untouched, if LDLT fails.
bool LdltShifted(const std::vector<double>& M, std::size_t n, double shift, const std::vector<double>& B,
                 std::size_t K, std::vector<double>* X) {
  const auto ni = static_cast<Eigen::Index>(n), ki = static_cast<Eigen::Index>(K);
  Eigen::MatrixXd A(ni, ni), rhs(ni, ki);
  for (Eigen::Index i = 0; i < ni; ++i)
    for (Eigen::Index j = i; j < ni; ++j) {
      A(i, j) = M[i * ni + j] + (i == j ? shift : 0.0);
      A(j, i) = A(i, j);
    }
  for (Eigen::Index i = 0; i < ni; ++i)
    for (Eigen::Index k = 0; k < ki; ++k) rhs(i, k) = B[i * ki + k];
  Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
  if (ldlt.info() != Eigen::Success) return false;
  const Eigen::MatrixXd x = ldlt.solve(rhs);
  X->resize(n * K);
  for (Eigen::Index i = 0; i < ni; ++i)
    for (Eigen::Index k = 0; k < ki; ++k) (*X)[i * ki + k] = x(i, k);
  return true;
}

// The primal's fallback: LDLT of A + lambda I.
std::vector<double> SolveLdlt(const Centred& c, double lambda) {
  std::vector<double> W;
  if (!LdltShifted(c.A, c.D, lambda, c.rhs, c.K, &W))
    throw TrainError("the ridge system is singular and could not be factorised; use --lambda > 0");
  return W;
}

// The solution with W and its intercept b = ybar - W' mu; throws if W is not finite.
RidgeSolution WithBias(const Centred& c, std::vector<double> W) {
  for (double w : W)
    if (!std::isfinite(w)) throw TrainError("ridge solve produced non-finite weights; increase --lambda");
  RidgeSolution out;
  out.bias.resize(c.K);
  for (std::size_t k = 0; k < c.K; ++k) {
    double b = c.ybar[k];
    for (std::size_t i = 0; i < c.D; ++i) b -= W[i * c.K + k] * c.mu[i];
    out.bias[k] = b;
  }
  out.W = std::move(W);
  return out;
}

// Solves at one lambda, factoring a copy of A in *work (reused across calls: no fresh pages).
RidgeSolution SolveCentred(const Centred& c, double lambda, unsigned threads, std::vector<double>* work) {
  *work = c.A;
  std::vector<double> W;
  const bool llt = FactorAndSolve(*work, c, lambda, threads, &W);
  return WithBias(c, llt ? std::move(W) : SolveLdlt(c, lambda));
}

}  // namespace

// One lambda: A is factored in place (no copy of the D x D matrix); only the rare LDLT fallback
// centres the statistics again.
RidgeSolution SolveRidge(const RidgeStats& st, double lambda, unsigned threads, const RidgeStats* without) {
  Centred c = Centre(st, without);
  std::vector<double> U = std::move(c.A), W;
  if (!FactorAndSolve(U, c, lambda, threads, &W)) {
    U = std::vector<double>();
    c = Centre(st, without);
    W = SolveLdlt(c, lambda);
  }
  return WithBias(c, std::move(W));
}

RidgeStats SubStats(const RidgeStats& st, const std::vector<std::uint32_t>& idx) {
  const auto D = static_cast<std::uint32_t>(idx.size());
  RidgeStats out(D, st.K);
  out.n = st.n;
  out.ysum = st.ysum;
  for (std::size_t i = 0; i < D; ++i) {
    for (std::size_t j = 0; j < D; ++j) out.G[i * D + j] = st.G[std::size_t{idx[i]} * st.D + idx[j]];
    for (std::size_t k = 0; k < st.K; ++k) out.h[i * st.K + k] = st.h[std::size_t{idx[i]} * st.K + k];
    out.s[i] = st.s[idx[i]];
  }
  return out;
}

std::vector<RidgeSolution> SolveRidgePath(const RidgeStats& st, const std::vector<double>& lambdas,
                                          unsigned threads, const RidgeStats* without) {
  // Every lambda is factorised and solved directly, as SolveRidge does: the same bits. A shifted,
  // preconditioned CG for neighbouring lambdas (until 2026-11-30) was slower than the threaded
  // factorisation at every size measured (D = 1000 with 26 outputs: 14x; D = 4000 with one
  // output: 1.4x; CHANGELOG), since it ran per output on one thread.
  const Centred c = Centre(st, without);
  std::vector<RidgeSolution> out;
  out.reserve(lambdas.size());
  std::vector<double> work;
  for (double lambda : lambdas) out.push_back(SolveCentred(c, lambda, threads, &work));
  return out;
}

// LAPACK's Cholesky factorisation and solve (OpenBLAS carries them; column-major, Fortran calling
// convention, hidden string lengths of 1).
extern "C" void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t);
extern "C" void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda, double* b,
                        const int* ldb, int* info, std::size_t);

namespace {

// (M + shift I) X = B for symmetric M (n x n, upper triangle read), B n x K: LAPACK's Cholesky
// (dpotrf, dpotrs) on the caller's thread with OpenBLAS at one thread, else LDLT (M is only
// positive semi-definite; a tiny shift can leave rounding below zero), else NaN. Selection only
// (held-out errors): LAPACK's blocking, not CholeskyUpper's bit-exact order -- about twice its
// speed at n = 667 -- so the bits depend on OpenBLAS's kernels, as KernelMatrix's do, and not on
// the thread count. M's row-major upper triangle is the column-major lower one LAPACK reads.
// U: the caller's n x n scratch (reused across calls: no fresh pages per solve).
std::vector<double> SolveShifted(const std::vector<double>& M, std::size_t n, double shift,
                                 const std::vector<double>& B, std::size_t K, std::vector<double>& U) {
  U.assign(M.begin(), M.end());
  for (std::size_t i = 0; i < n; ++i) U[i * n + i] += shift;
  const int ni = static_cast<int>(n), ki = static_cast<int>(K);
  int info = 0;
  dpotrf_("L", &ni, U.data(), &ni, &info, 1);
  std::vector<double> X(n * K);
  if (info == 0) {
    std::vector<double> Xc(n * K);  // column-major n x K
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < K; ++k) Xc[k * n + i] = B[i * K + k];
    dpotrs_("L", &ni, &ki, U.data(), &ni, Xc.data(), &ni, &info, 1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < K; ++k) X[i * K + k] = Xc[k * n + i];
  }
  if (info != 0 && !LdltShifted(M, n, shift, B, K, &X)) std::fill(X.begin(), X.end(), NAN);
  return X;
}

// One fold of DualHeldOutOutputs: its rows, the weighted means' terms and its system, built once
// and solved for every lambda.
struct DualSystem {
  std::vector<std::size_t> T, V;  // training and held-out rows, ascending
  double nw = 0, mm = 0;          // the training rows' total weight; mu' mu
  std::vector<double> m, ybar;    // mu' z_i for every row; the targets' weighted mean
  std::vector<double> M, B, s;    // S Kc S (upper triangle), S (Y - ybar), S = diag(sqrt(w))
  std::vector<double> KVT;        // the held-out rows' kernel values against T
};

DualSystem BuildDual(const std::vector<double>& Kz, std::size_t n, const std::vector<double>& Y, std::size_t K,
                     const std::vector<double>& w, const std::vector<int>& fold, std::size_t f) {
  const auto weight = [&w](std::size_t i) { return w.empty() ? 1.0 : w[i]; };
  DualSystem d;
  for (std::size_t i = 0; i < n; ++i) (fold[i] == static_cast<int>(f) ? d.V : d.T).push_back(i);
  for (std::size_t t : d.T) d.nw += weight(t);
  if (!(d.nw > 0)) throw TrainError("cannot fit a model to zero rows");
  d.m.assign(n, 0.0);
  d.ybar.assign(K, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t : d.T) d.m[i] += weight(t) / d.nw * Kz[i * n + t];
  for (std::size_t t : d.T) {
    d.mm += weight(t) / d.nw * d.m[t];
    for (std::size_t k = 0; k < K; ++k) d.ybar[k] += weight(t) / d.nw * Y[t * K + k];
  }
  const std::size_t nt = d.T.size();
  d.M.resize(nt * nt);
  d.B.resize(nt * K);
  d.s.resize(nt);
  for (std::size_t a = 0; a < nt; ++a) d.s[a] = std::sqrt(weight(d.T[a]));
  for (std::size_t a = 0; a < nt; ++a) {
    const std::size_t ta = d.T[a];
    for (std::size_t b = a; b < nt; ++b)
      d.M[a * nt + b] = d.s[a] * d.s[b] * (Kz[ta * n + d.T[b]] - d.m[ta] - d.m[d.T[b]] + d.mm);
    for (std::size_t k = 0; k < K; ++k) d.B[a * K + k] = d.s[a] * (Y[ta * K + k] - d.ybar[k]);
  }
  d.KVT.resize(d.V.size() * nt);
  for (std::size_t r = 0; r < d.V.size(); ++r)
    for (std::size_t a = 0; a < nt; ++a) d.KVT[r * nt + a] = Kz[d.V[r] * n + d.T[a]];
  return d;
}

// The held-out rows' outputs at one lambda into out (n x K): f(z_v) = sum_t alpha_t (z_v - mu)'
// (z_t - mu) + ybar, alpha = S beta, (S Kc S + nw lambda I) beta = S (Y - ybar).
// U: the caller's scratch for the factor. The held-out rows' kernel sums are one DGEMM.
void SolveDual(const DualSystem& d, std::size_t K, double lambda, double* out, std::vector<double>& U) {
  const std::size_t nt = d.T.size(), nv = d.V.size();
  std::vector<double> alpha = SolveShifted(d.M, nt, d.nw * lambda, d.B, K, U);
  std::vector<double> asum(K, 0.0), am(K, 0.0), o(nv * K);
  for (std::size_t a = 0; a < nt; ++a)
    for (std::size_t k = 0; k < K; ++k) {
      alpha[a * K + k] *= d.s[a];
      asum[k] += alpha[a * K + k];
      am[k] += alpha[a * K + k] * d.m[d.T[a]];
    }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(nv), static_cast<int>(K),
              static_cast<int>(nt), 1.0, d.KVT.data(), static_cast<int>(nt), alpha.data(), static_cast<int>(K), 0.0,
              o.data(), static_cast<int>(K));
  for (std::size_t r = 0; r < nv; ++r) {
    const std::size_t v = d.V[r];
    for (std::size_t k = 0; k < K; ++k)
      out[v * K + k] = o[r * K + k] - d.m[v] * asum[k] - am[k] + d.mm * asum[k] + d.ybar[k];
  }
}

}  // namespace

std::vector<std::vector<double>> DualHeldOutOutputs(const std::vector<double>& Kz, std::size_t n,
                                                    const std::vector<double>& Y, std::size_t K,
                                                    const std::vector<double>& w, const std::vector<int>& fold,
                                                    std::size_t folds, const std::vector<double>& lambdas,
                                                    unsigned threads) {
  std::vector<DualSystem> sys;
  for (std::size_t f = 0; f < folds; ++f) sys.push_back(BuildDual(Kz, n, Y, K, w, fold, f));
  // Every (fold, lambda) solve is a task of its own, the tasks dealt out to the threads in turn:
  // each writes its own fold's rows of its own lambda's outputs.
  std::vector<std::vector<double>> out(lambdas.size(), std::vector<double>(n * K, 0.0));
  const std::size_t tasks = folds * lambdas.size();
  const unsigned workers = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(tasks)));
  const BlasOneThread one;
  Parallel(workers, [&](unsigned th) {
    std::vector<double> U;
    for (std::size_t t = th; t < tasks; t += workers) {
      const std::size_t f = t / lambdas.size(), l = t % lambdas.size();
      if (!sys[f].V.empty()) SolveDual(sys[f], K, lambdas[l], out[l].data(), U);
    }
  });
  return out;
}

}  // namespace rfk::host
