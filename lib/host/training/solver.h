// Ridge solve with an unpenalised intercept from accumulated sufficient statistics.
#pragma once

#include <cstdint>
#include <vector>

namespace rfk::host {

// Weighted sums over a set of rows (weights w_i; all 1 unweighted): G = Z'WZ (upper triangle
// valid), h = Z'WY, s = Z'w, ysum = Y'w, n = sum w, W = diag(w).
struct RidgeStats {
  std::uint32_t D = 0, K = 0;
  double n = 0;
  std::vector<double> G;     // D x D row-major
  std::vector<double> h;     // D x K
  std::vector<double> s;     // D
  std::vector<double> ysum;  // K

  RidgeStats() = default;
  RidgeStats(std::uint32_t d, std::uint32_t k)
      : D(d), K(k), G(std::size_t{d} * d), h(std::size_t{d} * k), s(d), ysum(k) {}
  void Add(const RidgeStats& o, double sign);  // this += sign * o, element by element
};

struct RidgeSolution {
  std::vector<double> W;     // D x K
  std::vector<double> bias;  // K
};

// Minimises (1/n) sum_i w_i ||z_i W + b' - y_i||^2 + lambda ||W||^2 over W and b:
// (G/n - mu mu' + lambda I) W = h/n - mu ybar',  b = ybar - W' mu,  mu = s/n, ybar = ysum/n.
// Cholesky (CholeskyUpper) first, Eigen's LDLT if the system is not numerically positive definite.
// Deterministic: the same bits for any thread count and any SIMD unit.
// With `without` (a subset's statistics, e.g. one fold's of the rows `stats` sums), the solve is
// of stats minus without: the same bits as solving a copy of stats after Add(*without, -1),
// without that copy's D x D doubles.
RidgeSolution SolveRidge(const RidgeStats& stats, double lambda, unsigned threads = 1,
                         const RidgeStats* without = nullptr);

// The statistics of the features idx (ascending, each < st.D) alone: rows and columns of G, rows
// of h and s, in idx's order.
RidgeStats SubStats(const RidgeStats& st, const std::vector<std::uint32_t>& idx);

// The same for every lambda in `lambdas` (one solution each, in order, each SolveRidge's bits);
// the centred matrix is built once, and one D x D buffer serves every factorisation.
std::vector<RidgeSolution> SolveRidgePath(const RidgeStats& stats, const std::vector<double>& lambdas,
                                          unsigned threads, const RidgeStats* without = nullptr);

// SolveRidge's heads in the dual, for selection on data with fewer rows than features: the same
// minimiser, W = sum_t alpha_t (z_t - mu), from the rows' n x n kernel matrix Kz = Z Z'
// (KernelMatrix, gram.h) instead of D x D statistics -- per fold and lambda an n_T x n_T Cholesky
// solve (n_T: the other folds' rows) instead of D x D. Y: the rows' targets (n x K); w: their
// weights (empty: all 1); fold[i]: row i's fold, 0 .. folds - 1. Returns per lambda the n x K
// held-out outputs: row i's from the head fitted at that lambda on the rows of the other folds.
// They match the primal solve's to rounding, not bit for bit: each solve is LAPACK's Cholesky
// (OpenBLAS's dpotrf/dpotrs on one BLAS thread), so the bits follow OpenBLAS's kernels, as Kz's
// do. Deterministic for any thread count. Memory: besides Kz, one n_T x n_T system per fold and
// one factor per thread.
std::vector<std::vector<double>> DualHeldOutOutputs(const std::vector<double>& Kz, std::size_t n,
                                                    const std::vector<double>& Y, std::size_t K,
                                                    const std::vector<double>& w, const std::vector<int>& fold,
                                                    std::size_t folds, const std::vector<double>& lambdas,
                                                    unsigned threads);

// In-place Cholesky factorisation A = U'U of a symmetric n x n matrix (row-major, row stride n;
// only the upper triangle is read). On success the upper triangle holds U; the strict lower
// triangle is left undefined. Returns false, with `a` undefined, if a pivot is not > 0 (the
// matrix is not numerically positive definite).
// Every element gets exactly the operations of the textbook right-looking algorithm
// (a[i][j] -= u[q][i] * u[q][j] for q = 0, 1, ..., i - 1, then sqrt or / u[i][i]; each update one
// fused multiply-add where HostFused() in block_kernels.h says so), so the result is
// bit-identical for any thread count, block size and SIMD unit; the trailing updates run blocked,
// vectorised and on `threads` threads.
bool CholeskyUpper(double* a, std::size_t n, unsigned threads);

// Solves U'U x = b in place for one right-hand side (b: n values), U from CholeskyUpper.
void CholeskySolve(const double* u, std::size_t n, double* b);
// The same for K right-hand sides at once (B: n x K, row-major), reading U once per triangle
// instead of once per column: each column gets exactly CholeskySolve's operations, so the bits
// are the same.
void CholeskySolveMany(const double* u, std::size_t n, double* B, std::size_t K);

}  // namespace rfk::host
