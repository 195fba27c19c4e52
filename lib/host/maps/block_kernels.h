// Host training kernels over blocks of rows. They reorder loops for speed but keep, for every
// output element, one fixed sequence of IEEE operations, so no result depends on the thread count,
// the block size or the vector width. The projection computes the device core's in-order dot
// products (include/rfk/kernels.hpp), with one fused multiply-add per term where the CPU has FMA
// (HostFused): twice the multiply-adds per cycle on Intel's cores. Its sums are then not the
// device's bits but, barring underflow and overflow, both are within d u sum_c |x_c w_c| of the
// exact dot product (u = 2^-24, the bound of in-order float summation), so within twice that of
// each other; elsewhere they are the device's bits. (The Gram statistics go through BLAS: gram.h.) Requires -ffp-contract=off (set
// project-wide): what fuses, fuses explicitly.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rfk::host {

// The kernels' paths, in order: a CPU that runs one runs every path before it.
//   kSeparate: one rounding per multiply and per addition, as the device core (every CPU);
//   kAvx2, kAvx512: one fma per multiply-add (x86-64 with AVX2 and FMA; AVX-512 widens the tiles
//   and gives the same bits as kAvx2).
// Every element sees the same operations in the same order for any thread count or vector width;
// fusing or not only makes results differ in the last bits between CPUs with and without FMA (as
// the BLAS kernels of gram.h already do).
enum class KernelPath { kSeparate, kAvx2, kAvx512, kBest };

// Whether the kernels below fuse each multiply-add into one fma (a single rounding): the best path
// this CPU runs, decided once per process, unless SelectHostPath chose another.
bool HostFused();

// For tests and benchmarks: runs every kernel below on `path` from now on (kBest: this CPU's
// best, the default). False, nothing changed, where the CPU or the build lacks the path. Not to be
// called while another thread trains.
bool SelectHostPath(KernelPath path);
KernelPath HostPath();  // the path in use
// "unfused", "fused-avx2" or "fused-avx512" (kBest: the name of this CPU's best path); training's
// report names the path it ran (TrainReport::host_kernels).
const char* HostPathName(KernelPath path);

// args[r][j] = sum_c X[r][c] * Wt[c][j], summed over c = 0..d-1 in order, starting from +0.0f,
// each term one fma where HostFused(), else a rounded product and a rounded sum (the core's bits).
// X: R x d row-major, Wt: d x F row-major (W transposed), args: R x F. No allocation; about 19 KiB
// of stack on the fused paths (a packed block of Wt).
void ProjectDense(const float* X, std::size_t R, std::uint32_t d, const float* Wt, std::uint32_t F,
                  float* args);

// The same for one sparse row (column indices strictly increasing): skipping zeros leaves the
// sum unchanged (==) because x + (w * 0) == x and fma(0, w, x) == x for finite x and w; in its
// bits too, but for the sign of a zero: where a fused partial sum underflows to -0, a dense row's
// next zero term makes it +0 and the sparse row keeps -0.
void ProjectSparse(const std::uint32_t* cols, const float* vals, std::size_t nnz, const float* Wt,
                   std::uint32_t F, float* args);

// Cholesky trailing update for one tile: A[i][j] -= sum_r Pt[i - i0][r] * P[r][j] for the `in`
// (<= kCholRows) rows i from i0 and the `jn` (<= kCholCols) columns j from j0, r = 0..R-1 summed in
// order, one update per r (fused or not: HostFused). Pt: in x R (row stride ldt), P: R rows
// with stride ldp, indexed by absolute column j; A: row stride lda, indexed by absolute (i, j).
inline constexpr std::uint32_t kCholRows = 4;
inline constexpr std::uint32_t kCholCols = 32;
void CholUpdateTile(const double* Pt, std::size_t ldt, const double* P, std::size_t ldp,
                    std::size_t R, std::size_t i0, std::size_t in, std::size_t j0, std::size_t jn,
                    double* A, std::size_t lda);

// Fourier features of projections a (F values): [cos, sin] pairs z[j] = scale * cos(a[j]),
// z[F + j] = scale * sin(a[j]) when b is null, else the phase form z[j] = scale * cos(a[j] + b[j]).
// The bits of the core's SinCosRef (rfk/kernels.hpp) for every argument, NaN included: 16 lanes at
// a time while every lane is within kSinCosFastRange, SinCosRef itself from the first group that
// is not.
void FourierFeatures(const float* a, const float* b, std::uint32_t F, float scale, float* z);

// y[j] -= a * x[j] for j < n (element-wise, fused or not as HostFused says; the result does not
// depend on the vector width).
void AxpyNeg(double a, const double* x, std::size_t n, double* y);

}  // namespace rfk::host
