/// @file
/// Integer arithmetic of the fixed-point prediction path (issue 17): phases in turns and a q15
/// cosine, with no floating-point operation, so every platform (Cortex-M0, RV32IMC, x86, ...)
/// computes the same integers. Allocation-free, exception-free, reentrant; part of rfk_core.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rfk/format_fixed.hpp"
#include "rfk/model.hpp"

namespace rfk::fixed {

/// A phase in turns: 2^32 is one period, so an angle's integer representation wraps for free and
/// exactly (unsigned arithmetic is modulo 2^32). kQuarterTurn is pi/2.
inline constexpr std::uint32_t kQuarterTurn = 0x40000000u;

/// Full scale of the q15 cosine: CosTurns returns about 32767 * cos(2 pi phase / 2^32), in
/// [-32767, 32767] (never -32768, so negating a result cannot overflow).
inline constexpr std::int32_t kCosScale = 32767;

/// cos and sin of a phase, from a 257-entry quarter-wave table at twice the output's scale
/// (round(65534 cos(pi/2 * i/256)), 516 bytes of flash) with linear interpolation on the next 16
/// bits of the phase and one rounding to nearest. Error against the exact value
/// 32767 * cos(2 pi phase / 2^32), as an analytic bound: table rounding 0.25 LSB + interpolation
/// 32767 (pi/512)^2 / 8 = 0.154 + final rounding 0.5 + the 6 unused phase bits 0.003 = 0.91 LSB,
/// under 1: the result is always one of the two integers next to the exact value (faithful).
/// tests/device/test_fixed.cc measures every distinct input. Symmetric: CosTurns(-p) == CosTurns(p),
/// CosTurns(p + 2^31) == -CosTurns(p); SinTurns(p) == CosTurns(p - kQuarterTurn).
std::int16_t CosTurns(std::uint32_t phase);
/// 32767 * sin(2 pi phase / 2^32): CosTurns a quarter turn earlier, with its accuracy.
inline std::int16_t SinTurns(std::uint32_t phase) { return CosTurns(phase - kQuarterTurn); }

/// The phase bias + (sum_j w[j] * x[j]) * 2^shift, modulo 2^32, for int16 weights and inputs. Every
/// product fits in 32 bits and the sum is taken modulo 2^32, which is exactly the phase's own
/// modulus, so no intermediate overflow can change the result (shift < 32). A weight w stands for
/// w * 2^shift turns per input unit: the converter picks shift per feature so that the row's
/// largest weight uses the int16 range.
std::uint32_t PhaseTurns(const std::int16_t* w, const std::int16_t* x, std::uint32_t d,
                         std::uint32_t shift, std::uint32_t bias);

/// The bin of int16 input x in one (grid, column) of a binning tail (format::fixed_params::binning):
/// base + floor((mult x + frac) / 2^shift), the floor an arithmetic right shift (towards -inf, not
/// truncation). With mult <= 2^15, shift <= 30, frac < 2^shift and |base| <= 2^30 (what OpenModel
/// checks) no step overflows: |mult x| <= 2^30, so mult x + frac lies in [-2^30, 2^31 - 2^15);
/// shifted, in [-2^30, 2^30 - 2^15] (shift 0 has frac 0) or [-2^29, 2^30) (shift >= 1); plus base,
/// in [-2^31, 2^31). The converter makes mult / 2^shift the float grid's 1/width in bins per input
/// unit and base + frac / 2^shift its bin at x = 0, or, where the int16 range holds at most one of
/// the grid's boundaries, an exact threshold (mult 1, shift 16).
inline std::int32_t BinIndex(std::int16_t x, std::uint32_t mult, std::uint32_t shift, std::uint32_t frac,
                             std::int32_t base) {
  const std::int32_t t = static_cast<std::int32_t>(mult) * x + static_cast<std::int32_t>(frac);
  return base + (t >> shift);
}

/// Where a model's binning tail lies in its fixed section: after bias[K] (and any other map's tail).
inline format::fixed_params::binning::Layout BinningLayout(const Model& m) {
  namespace fp = format::fixed_params;
  return fp::binning::LayoutOf(fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features).bytes,
                               m.num_grids, m.input_dim);
}

}  // namespace rfk::fixed

namespace rfk {

// ---- Prediction of a fixed-point model (one with a `fixed` section: FixedSection(model) != null;
// docs/FORMAT.md "fixed", docs/EMBEDDED.md "The integer path"). Dense Fourier and orthogonal maps
// (cores built with RFK_FIXED_DENSE, the default) and Fastfood (RFK_FIXED_FASTFOOD, the default),
// pair and phase forms, and random binning (RFK_FIXED_BINNING, the default; alone or beside a
// dense map, not beside Fastfood). From int16 inputs to int32 outputs every operation is an integer one: no
// float instruction and no soft-float call, and the same integers on every target and build (the
// float path's kernel tables are not used; cores with the Arm DSP extension -- Cortex-M4, M7, M33
// -- run the inner loops with dual 16-bit multiply-accumulates, which give the scalar loops'
// integers: lib/core/fixed_kernels.h).

/// The model's fixed section (format::fixed_params), or null for a model without one.
inline const std::uint8_t* FixedSection(const Model& model) noexcept {
  return model.fixed_offset != 0 ? model.bytes + model.fixed_offset : nullptr;
}

/// Scratch PredictFixed needs: K int64 accumulators, rounded up to kScratchAlignment; for a
/// Fastfood map then 2 d' int32 (one block's transform and its phases), rounded up the same way.
/// (A block's features live on PredictFixed's stack.) 0 for a Model that is not open.
std::size_t FixedScratchBytes(const Model& model) noexcept;

/// The K outputs of the int16 input x (x_len == d, as QuantizeInput makes it) in units of the
/// model's output scale (FixedOutputScale): output k's real value is out[k] * scale. Per
/// frequency j: the phase t_j = phase[j] + (sum_c W[j][c] x[c]) 2^shift[j] mod 2^32 (PhaseTurns;
/// Fastfood: phase[j] + round(s_mult[j] (H G Pi H B x)_j / 2^s_shift[j]) in integers, per block of
/// d' frequencies, docs/FORMAT.md "fixed"),
/// c_j = CosTurns(t_j) (and, pair form, s_j = SinTurns(t_j) for feature F + j); per grid p (models
/// with grids), z = 32767 at column D_F + FixedBinColumn(x, p), 0 at the grid's other columns; then
/// out[k] = bias[k] + round(mult[k] * sum_j q[k][j] z_j / 2^rshift[k]), rounding half up, with the
/// sum in int64. Every intermediate is bounded (the proof is at the definition; OpenModel checks the
/// ranges it assumes), so no overflow for any input. Statuses: kUnsupportedStorage for a model
/// without a fixed section; kNullArgument, kInputDimMismatch, kOutputTooSmall, kMisalignedScratch,
/// kScratchTooSmall as Predict. Allocation-free, reentrant.
[[nodiscard]] Status PredictFixed(const Model& model, const std::int16_t* x, std::size_t x_len, void* scratch,
                                  std::size_t scratch_bytes, std::int32_t* out, std::size_t out_len) noexcept;

/// Grid p's column within the binning block (< D_B; the head's column D_F + it) for the int16 input
/// x of a fixed model with grids, or kNoColumn (exact mode: a bin not seen in training; also for a
/// model without a fixed section or p >= P). The bins are fixed::BinIndex's per column, hashed as
/// the float map hashes its bins (the same keys for the same bins). For hosts and tests; PredictFixed
/// computes the same. Built with the binning map (lib/core/core_config.h, RFK_FIXED_BINNING).
std::uint32_t FixedBinColumn(const Model& model, const std::int16_t* x, std::uint32_t p) noexcept;

/// The uncalibrated class PredictFixed's outputs decide, on the integers (no float): binary
/// out[0] > 0; multi-class the first maximum; 0 for regression (and for a model without a fixed
/// section). A model's calibrated decision, as `rfk predict` prints it (the most probable class),
/// is DecideClass on the real outputs out[k] * FixedOutputScale.
std::uint32_t DecideClassFixed(const Model& model, const std::int32_t* out) noexcept;

/// The real value of one output unit (the section's output_scale, a positive finite float), or 0
/// for a model without a fixed section. Reading it is no float operation.
float FixedOutputScale(const Model& model) noexcept;

/// Host helper (floats; not needed on the device when the inputs arrive as integers): x_q[c] =
/// round((x[c] - offset[c]) * scale[c]) in f32, half away from zero, clamped to [-32767, 32767]
/// (*saturated, if not null, gets the number of clamped values). A NaN is replaced by the impute
/// section's value when there is one, else kNonFiniteInput; +-inf is kNonFiniteInput. Statuses as
/// PredictFixed (xq_len must be >= d: kOutputTooSmall).
[[nodiscard]] Status QuantizeInput(const Model& model, const float* x, std::size_t x_len, std::int16_t* xq,
                                   std::size_t xq_len, std::uint32_t* saturated = nullptr) noexcept;

}  // namespace rfk
