/// @file
/// Host-only: conversion of a trained model to a fixed-point one (a `fixed` section; docs/FORMAT.md
/// "fixed", docs/EMBEDDED.md "The integer path"), for `rfk convert --fixed --calibrate FILE`.
#pragma once

#include <cstdint>
#include <vector>

#include "rfk/format_fixed.hpp"
#include "rfk/host/data.hpp"
#include "rfk/model.hpp"
#include "rfk/rfk.h"

namespace rfk::host {

/// What a conversion decided and saw.
struct FixedReport {
  std::uint64_t rows = 0;              ///< calibration rows
  std::uint64_t values = 0;            ///< the input values they hold (rows x d)
  std::uint64_t saturated = 0;         ///< values QuantizeInput clamped to +-32767 (calibration rows)
  std::uint32_t coarse_rows = 0;       ///< rows of W whose largest weight is below 2^14 at shift 0:
                                       ///<   stored with fewer than 15 significant bits
  std::uint64_t clamped_weights = 0;   ///< weights of W beyond 32767 * 2^31 / 2^32 = 16,383 periods
                                       ///<   per step of the int16 input (such a feature is noise),
                                       ///<   stored clamped
  std::uint64_t clamped_bins = 0;      ///< (grid, column) pairs whose bins were stored clamped: more
                                       ///<   than 2^15 bins per input unit, or a base beyond 2^30
  float output_scale = 0;              ///< the real value of one output unit
};

/// A copy of the opened model `m` (every section byte for byte, in order) with a `fixed` section
/// appended. Input quantization per column from the calibration rows' range [lo, hi] (NaN replaced
/// by the impute value, or skipped without an impute section): offset = (lo + hi) / 2, scale =
/// 32767 / ((hi - lo) / 2) (1 for a constant column), so every calibration value fits. W is folded
/// with the standardisation and the input scale into turns per input unit, per row the smallest
/// shift <= 31 that fits the row in int16 (rounded to nearest), the phase bias and the offsets into
/// phase[j] turns. A Fastfood map instead shares one input scale in standardised units (offset =
/// the mean, scale = s_in / sd, s_in = 32767 / the largest |standardised value| of the rows) and
/// stores G per block as int16, S with the scales as s_mult / 2^s_shift turns per unit of the integer
/// transform, perm and B's signs (docs/FORMAT.md "fixed"). The head (its weights times feature_scale) is int8 with scale max|w| / 127 per
/// output, rounded to nearest; the output unit u = max_k (|bias_k| + scale_k sum_j |q_kj|) / 2^30,
/// so every output fits in int32 with a factor 2 to spare; mult_k / 2^rshift_k = scale_k / (32767 u)
/// with mult in [2^14, 2^15]. Up to 2,048 features the head is then rounded again for its outputs:
/// RoundInt8Gptq on the covariance of the integer path's features over up to 4,096 evenly strided
/// calibration rows (damped by 1 % of its mean diagonal), the biases corrected for the features'
/// mean (as GptqInt8Head does). Binning grids (alone or beside a dense map) are folded per (grid,
/// column) into the int16 input's units: an exact threshold where the int16 range holds at most
/// one boundary, else an integer slope and offset (format::fixed_params::
/// binning; the bins' weights times bin_scale join the head's, one scale per output). Throws
/// QuantizeError (rfk/host/quantize.hpp) for a map the integer path does not compute (Fastfood
/// beside binning; Fastfood with d' > 2^15), a model that already has the section, or no rows.
/// With fixed_only, the model keeps only what the integer path and the tools need: the projection,
/// phase, standardize, fastfood and bin_grids sections are left out and the (unused) float head is
/// stored int8; the
/// fixed section is the same bytes, so PredictFixed gives the same integers, and the float path
/// refuses the model (kUnsupportedStorage).
std::vector<std::uint8_t> FixedModel(const Model& m, const Dataset& calibration, FixedReport* report = nullptr,
                                     bool fixed_only = false);

/// The input conversion of a fixed-point model as integer constants for rfk_quantize_codes (rfk/rfk.h:
/// integer codes in, the int16 inputs out, no float), from the section's per-column offset o and
/// scale s (QuantizeInput's (x - o) s): center = the int32 nearest o; shift = the largest <= 30 with
/// mult = round(s 2^shift) <= 2^30 (0 when s > 2^30); bias = round((center - o) s 2^shift); mult and
/// bias clamped to +-(2^31 - 1). Then (code - center) mult + bias is (code - o) s 2^shift within
/// |code - center| 2^-(shift + 1) + 1/2 units, below 2^-14 of an int16 step for a code the
/// calibration range holds. Throws std::invalid_argument for a model without a fixed section.
struct InputCodes {
  std::vector<std::int32_t> center;  ///< d: the int32 nearest each column's offset
  std::vector<std::int32_t> mult;    ///< d: round(scale 2^shift)
  std::vector<std::int32_t> bias;    ///< d: round((center - offset) scale 2^shift)
  std::vector<std::uint8_t> shift;   ///< d: at most 30
  /// The C API's view of these arrays (valid while they are).
  rfk_input_codes View() const {
    return {static_cast<std::uint32_t>(center.size()), center.data(), mult.data(), bias.data(), shift.data()};
  }
};
/// The opened fixed-point model m's input conversion as InputCodes (above).
InputCodes MakeInputCodes(const Model& m);

}  // namespace rfk::host
