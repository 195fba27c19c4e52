// Ridge regression on a design with a dense block and a sparse one-hot block (random binning:
// one column per grid per row), solved matrix-free with preconditioned conjugate gradients.
// Memory and time per iteration are O(rows * (dense + grids)), never O(rows * columns).
#pragma once

#include <cstdint>
#include <vector>

#include "training/solver.h"

namespace rfk::host {

inline constexpr std::uint32_t kNoBinColumn = 0xFFFFFFFFu;

// Row i's features: Zf[i][0 .. Df) followed by `scale` at column Df + cols[p * n + i] for each
// grid p (kNoBinColumn: none). Columns of different grids never coincide.
struct SparseDesign {
  std::size_t n = 0;            // rows in the whole dataset
  std::uint32_t Df = 0;         // dense columns
  const float* Zf = nullptr;    // n x Df, row-major (may be null when Df == 0)
  std::uint32_t P = 0;          // grids
  const std::uint32_t* cols = nullptr;  // P x n, grid-major
  std::uint32_t Cb = 0;         // sparse columns
  double scale = 0.0;           // value of an occupied bin
  std::uint32_t Columns() const { return Df + Cb; }
};

struct CgOptions {
  double tolerance = 1e-6;     // stop when ||r|| <= tolerance * ||b||, preconditioned norms
  int max_iterations = 3000;
  unsigned threads = 1;
};

struct CgStats {
  int iterations = 0;          // the most any output needed
  double relative_residual = 0.0;  // the worst final ||r|| / ||b|| over outputs
};

// Minimises sum_i w_i ||z_i W + b' - y_i||^2 / sum_i w_i + lambda ||W||^2 over the rows i listed
// in `rows` (Y: n x K, row-major; w: n weights >= 0, or null for all 1), with an unpenalised
// intercept, by Jacobi-preconditioned CG per output.
// `start` (may be null): an earlier solution on the same design and rows (e.g. at a nearby
// lambda) whose W starts the iteration instead of 0 -- a warm start along a lambda path.
// Deterministic for any thread count: every sum runs in a fixed order.
RidgeSolution SolveRidgeCg(const SparseDesign& Z, const std::vector<std::uint32_t>& rows,
                           const double* Y, const double* w, std::uint32_t K, double lambda,
                           const CgOptions& opt, CgStats* stats, const RidgeSolution* start = nullptr);

}  // namespace rfk::host
