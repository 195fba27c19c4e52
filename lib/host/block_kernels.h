// Host training kernels over blocks of rows. They reorder loops for speed but keep, for every
// output element, the same sequence of IEEE operations as the device core's reference kernels
// (include/rfk/kernels.hpp), so training sees bit-identical features to what the device computes;
// the Cholesky kernels keep a fixed order per element, so results do not depend on the thread
// count. (The Gram statistics go through BLAS: gram.h.)
// Requires -ffp-contract=off (set project-wide).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rfk::host {

// args[r][j] = sum_c X[r][c] * Wt[c][j], summed over c = 0..d-1 in order, starting from 0.0f.
// X: R x d row-major, Wt: d x F row-major (W transposed), args: R x F.
void ProjectDense(const float* X, std::size_t R, std::uint32_t d, const float* Wt, std::uint32_t F,
                  float* args);

// The same for one sparse row (column indices strictly increasing): skipping zeros leaves the
// sum unchanged because x + (w * 0) == x for every finite x.
void ProjectSparse(const std::uint32_t* cols, const float* vals, std::size_t nnz, const float* Wt,
                   std::uint32_t F, float* args);

}  // namespace rfk::host

namespace rfk::host {

// Whether the Cholesky kernels below fuse each y -= a * x into one fma(-a, x, y) (a single
// rounding): on x86-64 CPUs with AVX2 and FMA, decided once per process. Otherwise they round the
// multiply and the subtraction separately. Either way every element sees the same operations in
// the same order for any thread count or vector width; the choice only makes factors differ in
// the last bits between CPUs with and without FMA (as the BLAS kernels of gram.h already do).
bool CholeskyFused();

// Cholesky trailing update for one tile: A[i][j] -= sum_r Pt[i - i0][r] * P[r][j] for the `in`
// (<= kCholRows) rows i from i0 and the `jn` (<= kCholCols) columns j from j0, r = 0..R-1 summed in
// order, one update per r (fused or not: CholeskyFused). Pt: in x R (row stride ldt), P: R rows
// with stride ldp, indexed by absolute column j; A: row stride lda, indexed by absolute (i, j).
inline constexpr std::uint32_t kCholRows = 4;
inline constexpr std::uint32_t kCholCols = 32;
void CholUpdateTile(const double* Pt, std::size_t ldt, const double* P, std::size_t ldp,
                    std::size_t R, std::size_t i0, std::size_t in, std::size_t j0, std::size_t jn,
                    double* A, std::size_t lda);

// For tests: CholUpdateTile on one given kernel (the unfused one, or a fused one where this CPU
// runs it). False, A untouched, where the CPU or the build lacks it.
enum class CholPath { kSeparate, kAvx2, kAvx512 };
bool CholUpdateTileOn(CholPath path, const double* Pt, std::size_t ldt, const double* P,
                      std::size_t ldp, std::size_t R, std::size_t i0, std::size_t in,
                      std::size_t j0, std::size_t jn, double* A, std::size_t lda);

// Fourier features of projections a (F values): [cos, sin] pairs z[j] = scale * cos(a[j]),
// z[F + j] = scale * sin(a[j]) when b is null, else the phase form z[j] = scale * cos(a[j] + b[j]).
// The bits of the core's SinCosRef (rfk/kernels.hpp) for every argument, NaN included: 16 lanes at
// a time while every lane is within kSinCosFastRange, SinCosRef itself from the first group that
// is not.
void FourierFeatures(const float* a, const float* b, std::uint32_t F, float scale, float* z);

// y[j] -= a * x[j] for j < n (element-wise, fused or not as CholeskyFused says; the result does not
// depend on the vector width).
void AxpyNeg(double a, const double* x, std::size_t n, double* y);

}  // namespace rfk::host
