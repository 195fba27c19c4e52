// Validation of the fixed section's binning tail (format::fixed_params::binning; docs/FORMAT.md,
// "fixed"): the ranges fixed::BinIndex's overflow bounds assume. Its own translation unit behind
// kFixedBinning (core_config.h), so a core built without it links none of this.
#include "fp_contract.h"  // first, as in every core source
#include "fixed_open.h"

#include "rfk/fixed.hpp"

namespace rfk::core {

namespace fb = format::fixed_params::binning;

// The tail's header, then per (grid, column) in index order: mult <= 2^15, shift <= 30,
// frac < 2^shift, |base| <= 2^30. OpenModel has checked the section's size against the tail's end.
Status CheckFixedBinning(const FixedReader& r, const Model& m) {
  const fb::Layout t = fixed::BinningLayout(m);
  if (r.U32(t.at + fb::kNumGrids) != m.num_grids)
    return r.Fail(Status::kBadValue, "fixed.num_grids", r.at + t.at + fb::kNumGrids);
  if (r.U32(t.at + fb::kBinFeatures) != BinFeatures(m))
    return r.Fail(Status::kBadValue, "fixed.bin_features", r.at + t.at + fb::kBinFeatures);
  const std::uint32_t n = m.num_grids * m.input_dim;  // < 2^32: the section's size bounds 11 n
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t mult = r.b[r.at + t.mult + 2 * i] | std::uint32_t{r.b[r.at + t.mult + 2 * i + 1]} << 8;
    if (mult > fb::kMaxMult) return r.Fail(Status::kBadValue, "fixed.bin_mult", r.at + t.mult + 2 * i);
    const std::uint32_t shift = r.b[r.at + t.shift + i];
    if (shift > fb::kMaxShift) return r.Fail(Status::kBadValue, "fixed.bin_shift", r.at + t.shift + i);
    if (r.U32(t.frac + 4 * i) >> shift != 0) return r.Fail(Status::kBadValue, "fixed.bin_frac", r.at + t.frac + 4 * i);
    const auto base = static_cast<std::int32_t>(r.U32(t.base + 4 * i));
    if (base > fb::kMaxBase || base < -fb::kMaxBase)
      return r.Fail(Status::kBadValue, "fixed.bin_base", r.at + t.base + 4 * i);
  }
  return Status::kOk;
}

}  // namespace rfk::core
