// Random binning features on the host (Rahimi & Recht's second map, Laplacian kernel): grids
// drawn at unit gamma, each row's bin key per grid exactly as the device core computes it, and
// the design's columns (exact mode: the keys the training rows occupy; hashed mode: B buckets
// per grid).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/input_stats.h"
#include "rfk/host/data.hpp"

namespace rfk::host {

// Grids at unit gamma: width delta ~ Gamma(2, 1) = Exp(1) + Exp(1) (p(delta) = delta k''(delta)
// for the Laplacian kernel) and an offset fraction ~ U[0, 1), per grid and input, from stream
// kGridStream + p. A gamma only rescales them (delta / gamma), so one draw serves a gamma grid.
struct GridDraws {
  std::vector<double> delta, frac;  // P x d
};
GridDraws DrawGrids(std::uint32_t P, std::uint32_t d, std::uint64_t seed);

// The grids at `gamma`, as the model stores them (P x d floats each), computed from the float
// gamma the model holds.
struct Grids {
  std::vector<float> inv_width, offset;
};
Grids GridsAt(const GridDraws& g, double gamma);

// Every row's key in every grid, grid-major (P x n), computed exactly as the device core does
// (standardisation, then BinKeysRef).
std::vector<std::uint64_t> ComputeKeys(const Dataset& data, const InputScaling& scaling,
                                       const Grids& grids, std::uint32_t P, std::uint64_t seed,
                                       unsigned threads);

// The binning block of the design for a set of training rows: exact mode keeps the keys those
// rows occupy (sorted per grid); every row of the data then gets its column (or kNoBinColumn).
struct BinColumns {
  std::vector<std::uint32_t> grid_start;  // exact: P + 1
  std::vector<std::uint64_t> table;       // exact: sorted keys per grid
  std::vector<std::uint32_t> cols;        // P x n, grid-major
  std::vector<std::uint32_t> occupied;    // per grid: bins (exact) or buckets (hashed) hit
  std::uint32_t count = 0;                // columns: D_B
};
// `buckets` > 0: hashed mode. Throws TrainError if exact mode's columns exceed the format's 2^24.
BinColumns BuildColumns(const std::vector<std::uint64_t>& keys, std::size_t n, std::uint32_t P,
                        const std::vector<std::uint32_t>& train_rows, std::uint32_t buckets,
                        unsigned threads);

}  // namespace rfk::host
