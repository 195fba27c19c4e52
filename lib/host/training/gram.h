// The ridge statistics of feature blocks through a real BLAS (OpenBLAS): Z'Z by SSYRK / SGEMM on
// fixed tiles, Z'[Y 1] by DGEMM, each block's float sums added into double statistics.
//
// Accuracy. Features are the device's floats. Within a block of at most kGramRows rows (a group's
// rows in one window of kGramWindow rows, or an even part of them: row_source.h, RowBlocks),
// SSYRK/SGEMM form the products and their sums in float; the blocks' sums are then added in
// double, in block order. Z'Y and Z'1 are summed in double throughout (features converted
// exactly). Measured with blocks of kGramRows rows, the most a block holds, against an all-double
// reference (bench/gram_accuracy.py; its table in docs/PERFORMANCE.md, "Accuracy of the Gram
// statistics"): G's largest entry error is about 1e-7 of its largest diagonal entry; the fitted
// heads differ by about 1e-5 relative on Fashion-MNIST (D = 4000, lambda = 1e-6) and 2e-6 on a9a
// (D = 500, lambda = 1e-4), with the same test errors.
//
// Determinism. The work is cut into fixed blocks of rows and fixed tiles of G, whatever the
// thread count; each tile is one BLAS call of a fixed shape, made on one thread with OpenBLAS held
// at one thread (BlasOneThread), and its float result is added into G by that thread alone; blocks
// are added in order. So G, h, s are the same bits for any --threads. (They may differ between
// CPUs: OpenBLAS picks its kernels for the CPU at load time, DYNAMIC_ARCH.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "training/solver.h"

namespace rfk::host {

// The blocks of rows (RowBlocks): each pass cuts the data into windows of kGramWindow rows, and a
// group's rows in a window into the fewest blocks of at most kGramRows rows, as equal as they go.
// A window of one group is three blocks of 1920 rows. Each of three cross-validation folds gets
// about 1920 of a window's rows (a binomial count, standard deviation 36 rows: more than 2048, and
// so two blocks, about once in 6,000 folds' windows), one block, so a fold pass adds about as many
// float tiles into G as a plain one. A block is the unit of float summation (see above) and sizes
// the buffers; windows are the unit of the ranks' shares (RankRange). Fixed: results depend on both.
inline constexpr std::size_t kGramWindow = 3 * 1920;
inline constexpr std::size_t kGramRows = 2048;
// Columns per tile of G: one SSYRK (diagonal) or SGEMM (off-diagonal) call per tile and block.
inline constexpr std::uint32_t kGramTile = 512;

// While any instance is alive, OpenBLAS runs every call on the calling thread
// (openblas_set_num_threads(1)): rfk parallelises over its own fixed tiles instead, which keeps
// results independent of the thread count and avoids oversubscription. Process-wide and
// reference-counted: the last instance to go restores the thread count it found. (Other BLAS
// users in the process run single-threaded meanwhile; with the OpenMP build of OpenBLAS this also
// sets OpenMP's default thread count.)
class BlasOneThread {
 public:
  BlasOneThread();
  ~BlasOneThread();
  BlasOneThread(const BlasOneThread&) = delete;
  BlasOneThread& operator=(const BlasOneThread&) = delete;
};

// OpenBLAS's kernels. Debian builds it DYNAMIC_ARCH: when the library loads it picks kernels from
// the CPUs its version knows, and on a newer one it falls back to its generic SSE3 kernels
// ("Prescott"). Debian 12's 0.3.21 does so on Intel's Emerald Rapids Xeons (CPU model 207), where
// `rfk train` then takes 2.2x as long (docs/PERFORMANCE.md, "Training on a 16-core Xeon").
// OPENBLAS_CORETYPE, read only when the library loads, overrides the choice.
//
// The OPENBLAS_CORETYPE worth setting when OpenBLAS runs `corename` on a CPU with these units:
// SkylakeX with AVX-512 (F, DQ, BW, VL), Haswell with AVX2 and FMA, Sandybridge with AVX; empty
// when `corename` is not one of OpenBLAS's pre-AVX generic cores or the CPU has none of them.
std::string BetterBlasCoreFor(const std::string& corename, bool avx512, bool avx2_fma, bool avx);

// The kernel matrix Z Z' of n rows of features (Z: n x D floats, row-major) in double, n x n with
// both triangles: DGEMM on fixed tiles of rows, one BLAS thread each (BlasOneThread), so the bits
// do not depend on the thread count. Memory: n x D + n x n doubles.
std::vector<double> KernelMatrix(const float* Z, std::size_t n, std::size_t D, unsigned threads);

// Accumulates ridge statistics block by block. Holds its scratch (O(kGramRows * D) floats, and
// per thread one tile and a panel of doubles), so one accumulator serves a whole pass.
class GramAccumulator {
 public:
  GramAccumulator(std::uint32_t D, std::uint32_t K, unsigned threads);
  // Adds R <= kGramRows rows to *st (sized D x K): features Z (R x D floats, row-major), targets
  // Y (R x K doubles) and row weights w (R values >= 0; null: all 1). Row i adds w_i z_i z_i' to
  // G (upper triangle), w_i z_i y_i' to h, w_i z_i to s, w_i y_i to ysum and w_i to n; G uses
  // the float rows fl(sqrt(w_i) z_i).
  void Add(const float* Z, std::size_t R, const double* Y, const double* w, RidgeStats* st);

 private:
  void Tile(std::size_t job, const float* Zs, const float* Z, std::size_t R, const double* V,
            unsigned t, RidgeStats* st);

  std::uint32_t D_, K_;
  unsigned threads_;
  BlasOneThread one_thread_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tiles_;  // (I, J) panels, I <= J
  std::vector<float> Zs_;                   // the weighted rows (only with weights)
  std::vector<double> V_;                   // R x (K + 1): [w y, w]
  std::vector<std::vector<float>> C_;       // per thread: one tile of G
  std::vector<std::vector<double>> Zd_, H_;  // per thread: rows of a panel in double; its Z'V
};

// Outputs of heads on feature rows, in double through DGEMM: out[r][l * K + k] = bias_l[k] +
// sum_i Z[r][i] W_l[i][k] for R rows (Z: R x D floats) and the heads' stacked weights Wcat
// (D x L*K, row-major) and bias (L*K). Rows are cut into fixed chunks, one DGEMM call each on one
// thread: the same bits for any thread count.
void HeadOutputs(const float* Z, std::size_t R, std::uint32_t D, const std::vector<double>& Wcat,
                 const std::vector<double>& bias, unsigned threads, double* out);

}  // namespace rfk::host
