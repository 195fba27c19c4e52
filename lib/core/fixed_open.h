// The fixed section's validator (docs/FORMAT.md, "fixed"), called by OpenModel after every other
// section is checked, so `m` already holds d, F, the map kind, K and D. Internal to lib/core.
#pragma once

#include <cstdint>

#include "bytes.h"
#include "core_config.h"
#include "rfk/format_fixed.hpp"
#include "rfk/model.hpp"

namespace rfk::core {

// Reads a fixed section at b + at and reports failures with their field and blob offset.
struct FixedReader {
  const std::uint8_t* b;
  std::uint32_t at;  // the section's offset
  ModelError* err;
  [[gnu::noinline]] Status Fail(Status s, Field field, std::uint32_t offset) const {
    if (err) *err = ModelError{s, FieldText(field), offset};
    return s;
  }
  std::uint32_t U32(std::uint32_t rel) const { return LoadU32(b + at + rel); }
};

// Checks the section at blob + offset (`size` bytes, its table entry at `entry`) against m, and on
// success sets m.fixed_offset. On failure returns the status and fills *err (if not null) with the
// field and its byte offset; m is left as it was. No allocation, no float operation.
Status CheckFixedSection(const std::uint8_t* blob, std::uint32_t offset, std::uint32_t size,
                         std::uint32_t entry, Model& m, ModelError* err);

// OpenModel's way to CheckFixedSection where the fixed section is read on use (RFK_FIXED_ON_USE,
// core_config.h): defined beside PredictFixed (fixed_predict.cc), referenced weakly by OpenModel
// (model_open.cc), so that an image links the validator exactly where it links PredictFixed.
using FixedSectionCheck = Status (*)(const std::uint8_t*, std::uint32_t, std::uint32_t, std::uint32_t, Model&,
                                     ModelError*);
extern const FixedSectionCheck kFixedSectionCheck;  // &CheckFixedSection, in fixed_predict.cc's object

// Whether the float path runs m (an open Model): false for a fixed-only model, whose float sections
// lack W and Fastfood's diagonals (a Fourier map) or the bin grids (a binning map).
inline bool FloatPathRuns(const Model& m) noexcept {
  return !((m.fourier_features != 0 && !HasFastfoodArrays(m) && ProjectionView(m).data == nullptr) ||
           (m.num_grids != 0 && m.bin_inv_width == nullptr));
}

// The binning tail (format::fixed_params::binning, fixed_open_binning.cc; built with
// kFixedBinning): P and D_B equal to the model's, then every (grid, column)'s bin_mult, bin_shift,
// bin_frac and bin_base in the ranges fixed::BinIndex's bounds assume. The section's size was
// checked against the tail's end. Same contract as CheckFixedSection.
Status CheckFixedBinning(const FixedReader& r, const Model& m);

}  // namespace rfk::core
