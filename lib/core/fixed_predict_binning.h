// The integer path's binning map (format::fixed_params::binning; contract: rfk/fixed.hpp,
// PredictFixed and FixedBinColumn), inline: PredictFixed calls AccumulateFixedBins only when the
// build has kFixedBinning (core_config.h) and the model has grids, so a core without it emits none
// of this, and a pinned core reads the model's values as constants (pinned_model.h). Integer
// operations only: the bins from fixed::BinIndex, the keys from bin_hash's 64-bit integer steps (as
// the float map's BinKeys), the columns as the float path finds them (bin_column.h). Internal to
// lib/core.
#pragma once

#include <cstdint>

#include "bin_column.h"
#include "bin_hash.h"
#include "core_config.h"
#include "rfk/fixed.hpp"
#include "rfk/model.hpp"

namespace rfk::core {

// In a pinned core, GridColumn and AccumulateFixedBins are always inlined into PredictFixed: a call
// would take the Model's address, which a pinned core must not (pinned_model.h); GridKey takes no
// Model and stays a call in every core. In the others both stay out of line: the binning loop's
// frame is then not on the dense path's stack.
#ifdef RFK_PIN_MODEL
#define RFK_FIXED_BINS_INLINE_ [[gnu::always_inline]] inline
#else
#define RFK_FIXED_BINS_INLINE_ [[gnu::noinline]] inline
#endif

// The bin key of one grid: h (the grid's seed) stepped over the columns from x to end (at least
// one: d >= 1), each bin from its column's mult, shift, frac and base. The loop alone, out of line:
// its five pointers, the hash and the step's constant then stay in registers (inlined with the
// model's values beside them, the Cortex-M4's loop spilled and reloaded some of them every column).
[[gnu::noinline]] inline std::uint64_t GridKey(std::uint64_t h, const std::int16_t* x, const std::int16_t* end,
                                               const std::uint16_t* mult, const std::uint8_t* shift,
                                               const std::uint32_t* frac, const std::int32_t* base) {
  do h = bin_hash::Step(h, fixed::BinIndex(*x++, *mult++, *shift++, *frac++, *base++));
  while (x != end);
  return h;
}

// Grid p's column (within the binning block) for x, or kNoColumn; t is the model's tail.
RFK_FIXED_BINS_INLINE_ std::uint32_t GridColumn(const Model& m, const std::uint8_t* sec,
                                                const format::fixed_params::binning::Layout& t,
                                                const std::int16_t* x, std::uint32_t p) {
  const std::uint32_t d = m.input_dim, first = p * d;
  // The arrays start 4-aligned in the blob (sections are 16-aligned, the offsets multiples of 4):
  // read in place (LoadU32 is a memcpy call per value on the Cortex-M0), from grid p's first column.
  const std::uint64_t h = GridKey(bin_hash::Seed(m.bin_seed, p), x, x + d,
                                  reinterpret_cast<const std::uint16_t*>(sec + t.mult) + first, sec + t.shift + first,
                                  reinterpret_cast<const std::uint32_t*>(sec + t.frac) + first,
                                  reinterpret_cast<const std::int32_t*>(sec + t.base) + first);
  return BinColumn(m, p, bin_hash::Final(h));
}

// acc[k] = 32767 * (sum over grids p of head[k][D_F + column_p]) for the int16 input x, the
// column of grid p's bin key as the float path finds it (none: nothing added); acc holds K zeros
// on entry and |acc[k]| < 2^38 on return. sec is the model's fixed section, which OpenModel
// checked. No allocation; O(P d + P log keys + P K). Bounds: each grid adds one int8 weight per
// output (|.| <= 127), so |acc[k]| <= 127 P < 2^24 before the scaling and 127 P 32767 < 2^38 after
// it; the grids' columns are disjoint ranges of the head (hashed: p B + [0, B); exact:
// [grid_start[p], grid_start[p+1])), so each head weight is added at most once and the validator's
// output bound (sum over every column) covers them.
RFK_FIXED_BINS_INLINE_ void AccumulateFixedBins(const Model& m, const std::uint8_t* sec, const std::int16_t* x,
                                                std::int64_t* acc) {
  const format::fixed_params::binning::Layout t = fixed::BinningLayout(m);
  const std::uint32_t K = m.num_outputs, D = m.num_features, Df = m.fourier_features;
  const format::fixed_params::Layout l = format::fixed_params::LayoutOf(m.input_dim, m.num_frequencies, K, D);
  const auto* q = reinterpret_cast<const std::int8_t*>(sec + l.head);
  for (std::uint32_t p = 0; p < m.num_grids; ++p) {
    const std::uint32_t col = GridColumn(m, sec, t, x, p);
    if (col == kNoColumn) continue;
    for (std::uint32_t k = 0; k < K; ++k) acc[k] += q[std::size_t{k} * D + Df + col];
  }
  for (std::uint32_t k = 0; k < K; ++k) acc[k] *= fixed::kCosScale;  // a bin's feature: full scale
}

}  // namespace rfk::core

#undef RFK_FIXED_BINS_INLINE_
