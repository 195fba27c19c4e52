// A grid's column for a bin key, shared by the float path (predict.cc) and the integer path
// (fixed_predict_binning.cc) so that both index the head alike. Internal to lib/core.
#pragma once

#include <cstdint>

#include "bytes.h"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

namespace rfk::core {

// Grid p's column for `key` (within the binning block, < D_B) or kNoColumn: binary search among
// the grid's sorted keys (exact mode; OpenModel checked grid_start and the order), or the bucket
// (hashed mode). No allocation; O(log keys of the grid).
inline std::uint32_t BinColumn(const Model& m, std::uint32_t p, std::uint64_t key) {
  if (m.bin_mode == format::BinMode::kHashed) return HashedColumn(key, p, m.bin_buckets);
  const std::uint64_t* keys = BinKeys(m);
  std::uint32_t lo = LoadU32(m.bin_grid_start + 4 * p), hi = LoadU32(m.bin_grid_start + 4 * p + 4);
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < LoadU32(m.bin_grid_start + 4 * p + 4) && keys[lo] == key ? lo : kNoColumn;
}

}  // namespace rfk::core
