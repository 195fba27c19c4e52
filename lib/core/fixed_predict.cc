// Prediction of fixed-point models (contract: include/rfk/fixed.hpp; layout: format::fixed_params).
// Integer operations only, the same outputs everywhere: the loops below are the oracle; cores with
// the Arm DSP extension run fixed_blocks.h's instead (dual 16-bit multiply-accumulates,
// fixed_kernels.h), which give the same integers. (Right shifts of negative int64 values are
// arithmetic, as GCC and Clang define them.)
// Fastfood maps' phases come from lib/core/fixed_predict_fastfood.cc (its own bounds there).
//
// Overflow bounds, for any int16 input and any section OpenModel accepts:
// - phase: each product W[j][c] x[c] has |.| <= 2^15 * 2^15 = 2^30 (int32); the sum and the shift
//   are taken modulo 2^32 in uint32, which is the phase's own modulus: wrapping is exact.
// - features: |c_j|, |s_j| <= 32767 (CosTurns), |q| <= 127, so |q z| <= 4,161,409 < 2^22, and a
//   sum of D <= 2^24 of them is below 2^46: int64 acc is exact (fixed_blocks.h sums blocks of at
//   most 64 of them in int32 first: below 2^28). A bin adds 32767 q once per grid
//   to a column of its own (fixed_predict_binning.cc), so the same bound covers D = D_F + D_B.
// - scaling: |acc * mult| < 2^46 * 2^15 = 2^61; adding 2^(rshift - 1) <= 2^61 stays below 2^62.
// - output: the validator checks |bias| + (32767 mult sum_j |q_kj| + 2^(rshift-1)) >> rshift
//   <= 2^31 - 1 per output, and |round(acc mult / 2^rshift)| is at most that shifted term, so the
//   int32 output is exact (tests/core/test_fixed_predict.cc drives every term to its extreme).
#include "fp_contract.h"  // first, as in every core source
#include "bytes.h"
#include "core_config.h"
#include "fixed_fastfood.h"
#include "fixed_predict_binning.h"
#include "fixed_blocks.h"
#include "fixed_open.h"
#include "rfk/fixed.hpp"

namespace rfk {
namespace {

namespace fp = format::fixed_params;

// round(v / 2^n), halves rounded up (towards +inf); |v| < 2^62 and n <= 62.
std::int64_t RoundShift(std::int64_t v, std::uint32_t n) {
  if (n == 0) return v;
  return (v + (std::int64_t{1} << (n - 1))) >> n;
}

// K int64 accumulators, then (Fastfood) t and turns, d' int32 each.
std::size_t ScratchOf(const Model& m) {
  const std::size_t acc = core::RoundUp(std::size_t{8} * (m.num_outputs > 0 ? m.num_outputs : 1), kScratchAlignment);
  if (!core::kFixedFastfood || !format::IsFastfood(m.map)) return acc;
  return acc + core::RoundUp(std::size_t{8} * format::fastfood::PaddedDim(m.input_dim), kScratchAlignment);
}

Status CheckFixedArgs(const Model& m, const void* x, std::size_t x_len, const void* scratch,
                      std::size_t scratch_bytes, const void* out, std::size_t out_len) {
  if (FixedSection(m) == nullptr) return Status::kUnsupportedStorage;
  if (x == nullptr || out == nullptr || scratch == nullptr) return Status::kNullArgument;
  if (x_len != m.input_dim) return Status::kInputDimMismatch;
  if (out_len < m.num_outputs) return Status::kOutputTooSmall;
  if (reinterpret_cast<std::uintptr_t>(scratch) % kScratchAlignment != 0) return Status::kMisalignedScratch;
  if (scratch_bytes < ScratchOf(m)) return Status::kScratchTooSmall;
  return Status::kOk;
}

// acc[k] += q[k][column] * z for every output k.
inline void Accumulate(std::int64_t* acc, const std::int8_t* q, std::uint32_t K, std::uint32_t D,
                       std::uint32_t column, std::int32_t z) {
  for (std::uint32_t k = 0; k < K; ++k) acc[k] += static_cast<std::int32_t>(q[k * D + column]) * z;
}

// Frequency j's features at phase t: cos t as column j and, pair form, sin t as column F + j (the
// Fastfood loop's; the dense loop keeps its own copy, so a core without Fastfood is as before).
inline void AddFrequency(std::int64_t* acc, const std::int8_t* q, std::uint32_t K, std::uint32_t D,
                         std::uint32_t F, std::uint32_t j, std::uint32_t t, bool pairs) {
  Accumulate(acc, q, K, D, j, fixed::CosTurns(t));
  if (pairs) Accumulate(acc, q, K, D, F + j, fixed::SinTurns(t));
}

// A Fastfood map's features, block by block (t and turns: d' int32 each of scratch): its view once
// per prediction (FixedFastfoodViewAt), then the blocks, all in this one frame, so that the view's
// computation (shallower than a block's FixedFastfoodTurns) and the blocks run in turn under it.
// Out of line, so that neither the view nor those frames are on the dense path's stack. The
// section's offsets it reads (the tail's, the phases', the head's) come by value: the caller's
// Layout, whose address is then not taken, need not sit in its frame under these (on the
// Cortex-M0 that frame was 192 bytes with it). maybe_unused: a core without kFixedFastfood
// discards its one call (if constexpr), and Clang would warn that it is not needed.
[[gnu::noinline, maybe_unused]] void FastfoodFixed(const std::uint8_t* sec, std::uint32_t tail_at, std::uint32_t phase_at,
                                     std::uint32_t head_at, const std::int16_t* x, std::uint32_t d, std::uint32_t F,
                                     std::uint32_t K, std::uint32_t D, bool pairs, std::int64_t* acc, std::int32_t* t) {
  const core::FixedFastfoodView view = core::FixedFastfoodViewAt(sec, tail_at, phase_at, d, F);
  const auto* q = reinterpret_cast<const std::int8_t*>(sec + head_at);
  // F as the view holds it (= F): with the parameter, GCC -Os spent 0.8 % more instructions on the M0.
  const std::uint32_t Fv = view.F, dp = view.dp;
  auto* turns = reinterpret_cast<std::uint32_t*>(t + dp);
  for (std::uint32_t b = 0, j0 = 0; j0 < Fv; ++b, j0 += dp) {  // block b: frequencies [j0, j0 + d')
    core::FixedFastfoodTurns(view, x, b, t, turns);
    if constexpr (RFK_FIXED_DSP) {
      core::blocks::AccumulateTurns(turns, Fv - j0 < dp ? Fv - j0 : dp, q, K, D, Fv, j0, pairs, acc,
                                    reinterpret_cast<std::int16_t*>(t));
    } else {
      for (std::uint32_t j = j0; j < Fv && j - j0 < dp; ++j) AddFrequency(acc, q, K, D, Fv, j, turns[j - j0], pairs);
    }
  }
}

Status PredictOf(const Model& m, const std::int16_t* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                 std::int32_t* out, std::size_t out_len) {
  const Status s = CheckFixedArgs(m, x, x_len, scratch, scratch_bytes, out, out_len);
  if (s != Status::kOk) return s;
  const std::uint32_t d = m.input_dim, F = m.num_frequencies, K = m.num_outputs, D = m.num_features;
  // In 32 bits: OpenModel accepted the section, which lies in the blob (< 2^32 bytes). On the
  // Cortex-M0 the 64-bit form's products are library calls, and its registers took this frame to 144 B.
  const fp::Layout l = fp::LayoutOf<std::uint32_t>(d, F, K, D, !(core::kFixedFastfood && format::IsFastfood(m.map)));
  const std::uint8_t* sec = FixedSection(m);
  const auto* q = reinterpret_cast<const std::int8_t*>(sec + l.head);
  const bool pairs = !format::IsPhaseForm(m.map);
  auto* acc = static_cast<std::int64_t*>(scratch);
  for (std::uint32_t k = 0; k < K; ++k) acc[k] = 0;
  if (core::kFixedBinning && m.num_grids != 0) core::AccumulateFixedBins(m, sec, x, acc);  // |acc| < 2^38
  bool done = false;
  if constexpr (core::kFixedFastfood) {  // compiled out, OpenModel refuses Fastfood fixed models
    if (format::IsFastfood(m.map)) {
      done = true;
      FastfoodFixed(sec, static_cast<std::uint32_t>(l.bytes), l.phase, l.head, x, d, F, K, D, pairs, acc,
                    reinterpret_cast<std::int32_t*>(static_cast<std::uint8_t*>(scratch) +
                                                    core::RoundUp(std::size_t{8} * (K > 0 ? K : 1), kScratchAlignment)));
    }
  }
  // The dense map; compiled out without kFixedDense (OpenModel refuses dense fixed models).
  if (core::kFixedDense && !done) {
    if (RFK_FIXED_DSP) {
      core::blocks::AccumulateDense(sec, l.head, l.w, l.shift, l.phase, x, d, F, K, D, pairs, acc);
    } else {
      const auto* W = reinterpret_cast<const std::int16_t*>(sec + l.w);  // 4-aligned in the blob
      const std::uint8_t* shift = sec + l.shift;
      for (std::uint32_t j = 0; j < F; ++j) {
        const std::uint32_t t =
            fixed::PhaseTurns(W + std::size_t{j} * d, x, d, shift[j], core::LoadU32(sec + l.phase + 4 * j));
        Accumulate(acc, q, K, D, j, fixed::CosTurns(t));
        if (pairs) Accumulate(acc, q, K, D, F + j, fixed::SinTurns(t));
      }
    }
  }
  for (std::uint32_t k = 0; k < K; ++k) {
    const auto mult = static_cast<std::int64_t>(core::LoadU32(sec + l.mult + 4 * k));
    const std::int64_t term = RoundShift(acc[k] * mult, core::LoadU32(sec + l.rshift + 4 * k));
    out[k] = static_cast<std::int32_t>(static_cast<std::int32_t>(core::LoadU32(sec + l.bias + 4 * k)) + term);
  }
  return Status::kOk;
}

std::uint32_t DecideOf(const Model& m, const std::int32_t* out) {
  if (FixedSection(m) == nullptr || out == nullptr || m.task == format::Task::kRegression) return 0;
  if (m.task == format::Task::kBinary) return out[0] > 0 ? 1u : 0u;
  std::uint32_t best = 0;
  for (std::uint32_t k = 1; k < m.num_outputs; ++k)
    if (out[k] > out[best]) best = k;
  return best;
}

float OutputScaleOf(const Model& m) {
  return FixedSection(m) != nullptr ? core::LoadF32(FixedSection(m) + fp::kOutputScale) : 0.0f;
}

}  // namespace

#ifndef RFK_PIN_MODEL
// OpenModel's way to the fixed section's validator, in the object of the integer path's entry
// points: an image that calls one of them opens fixed models (fixed_open.h, RFK_FIXED_ON_USE).
const core::FixedSectionCheck core::kFixedSectionCheck = &core::CheckFixedSection;
#endif

// The entry points: a Model that is not open gives what an empty Model gives the bodies above
// (a pinned core checks it here, then reads kPinnedModel: pinned_model.h, ModelOf).
std::size_t FixedScratchBytes(const Model& model) noexcept {
  if (model.bytes == nullptr) return 0;  // not open
  return ScratchOf(core::ModelOf(model));
}
Status PredictFixed(const Model& model, const std::int16_t* x, std::size_t x_len, void* scratch,
                    std::size_t scratch_bytes, std::int32_t* out, std::size_t out_len) noexcept {
#ifdef RFK_PIN_MODEL
  if (model.bytes == nullptr) return Status::kUnsupportedStorage;  // as CheckFixedArgs
  return core::pinned::PredictFixed(x, x_len, scratch, scratch_bytes, out, out_len);  // PredictOf's one copy
#else
  return PredictOf(model, x, x_len, scratch, scratch_bytes, out, out_len);
#endif
}
std::uint32_t DecideClassFixed(const Model& model, const std::int32_t* out) noexcept {
  if (core::kPinned && model.bytes == nullptr) return 0;
  return DecideOf(core::ModelOf(model), out);
}
float FixedOutputScale(const Model& model) noexcept {
  if (core::kPinned && model.bytes == nullptr) return 0.0f;
  return OutputScaleOf(core::ModelOf(model));
}

#ifdef RFK_PIN_MODEL
// The C API's calls in a pinned core: the model is open (the handle said so), and is kPinnedModel.
namespace core::pinned {
std::size_t FixedScratchBytes() noexcept { return ScratchOf(kPinnedModel); }
// Flattened, as pinned::Predict (predict.cc): kPinnedModel's values fold through PredictOf.
[[gnu::flatten]] Status PredictFixed(const std::int16_t* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                    std::int32_t* out, std::size_t out_len) noexcept {
  return PredictOf(kPinnedModel, x, x_len, scratch, scratch_bytes, out, out_len);
}
[[gnu::flatten]] std::uint32_t DecideClassFixed(const std::int32_t* out) noexcept { return DecideOf(kPinnedModel, out); }
float FixedOutputScale() noexcept { return OutputScaleOf(kPinnedModel); }
}  // namespace core::pinned
#endif

}  // namespace rfk
