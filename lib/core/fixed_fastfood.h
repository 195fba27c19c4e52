// Fastfood on the integer path (format::fixed_params::FastfoodTail; docs/FORMAT.md "fixed"):
// the device's per-block transform, its view of a fixed section's Fastfood arrays, and the
// validator of those arrays. Internal to lib/core (tests/core/test_fixed_fastfood.cc drives it
// directly). OpenModel and PredictFixed reach it only with RFK_FIXED_FASTFOOD (core_config.h); a
// core built without it links none of it.
#pragma once

#include <cstdint>

#include "rfk/format_fixed.hpp"
#include "rfk/model.hpp"

namespace rfk::core {

// The arrays of one fixed section's Fastfood tail (pointers into the section, whose offset in the
// blob is a multiple of 4 and whose arrays start at multiples of 4: g and s_mult are read as int16
// and int32 in place). d: the model's input width; F its frequencies; dp = PaddedDim(d) <= 2^15.
struct FixedFastfoodView {
  const std::int16_t* g;        // N = blocks dp entries, each in [-32767, 32767]
  const std::int32_t* s_mult;   // F entries, none -2^31
  const std::uint8_t* s_shift;  // F entries, each <= 62
  const std::uint8_t* g_shift;  // blocks entries, each <= 62 and within the block's bound (below)
  const std::uint8_t* perm;     // packed, IndexBits(dp) bits each; each block a permutation of [0, dp)
  const std::uint8_t* signs;    // N bits, set: -1
  const std::uint8_t* phase;    // F u32 turns
  std::uint32_t d, F, dp, index_bits;
};

// Inline, as FixedFastfoodViewAt below: a core pinned to a model folds the view into constants.
inline FixedFastfoodView FixedFastfoodOf(const std::uint8_t* sec, std::uint32_t phase_at,
                                         const format::fixed_params::FastfoodTail& ff, std::uint32_t d,
                                         std::uint32_t F) {
  return FixedFastfoodView{reinterpret_cast<const std::int16_t*>(sec + ff.g),
                           reinterpret_cast<const std::int32_t*>(sec + ff.s_mult),
                           sec + ff.s_shift,
                           sec + ff.g_shift,
                           sec + ff.perm,
                           sec + ff.signs,
                           sec + phase_at,
                           d,
                           F,
                           ff.dp,
                           format::fastfood::IndexBits(ff.dp)};
}

// t <- H t in place (the unnormalised Walsh-Hadamard transform of FwhtRef), n a power of two:
// the core's version of the kernel list's Fwht (fixed_kernels.h: scalar, DSP or MVE; the same
// integers). Exact, with no int32 overflow, when n max_i |t_i| <= 2^31 - 1: every intermediate
// value of any of them is a +-sum of at most n inputs, so it is bounded by the final bound.
void FwhtI32(std::int32_t* t, std::uint32_t n) noexcept;

// Block b's phases, turns[i] for the frequencies j = b dp + i < F (i < dp): t = H B [x; 0];
// v_i = round(g[b dp + i] t[perm[b dp + i]] / 2^g_shift[b]), halves up; u = H v; turns[i] =
// phase[j] + round(s_mult[j] u_i / 2^s_shift[j]) modulo 2^32. t and turns: dp entries each of
// scratch (turns holds u first). Overflow-free for every int16 x and every tail
// CheckFixedFastfood accepts (the proof is in the definition's comment). No allocation, no float.
void FixedFastfoodTurns(const FixedFastfoodView& a, const std::int16_t* x, std::uint32_t b, std::int32_t* t,
                        std::uint32_t* turns) noexcept;

// The view of a fixed section `sec` whose Fastfood tail is at `tail_at` = LayoutOf(..., false).bytes
// and its phases at `phase_at`, for FixedFastfoodTurns: PredictFixed's, once per prediction. For a
// section the validator accepted only: the tail's layout is computed in 32 bits (FastfoodTailOf<
// uint32_t>), no 64-bit library calls on 32-bit cores. Inline: in a pinned core (core_config.h)
// every argument is a constant, and so is the view.
inline FixedFastfoodView FixedFastfoodViewAt(const std::uint8_t* sec, std::uint32_t tail_at, std::uint32_t phase_at,
                                             std::uint32_t d, std::uint32_t F) noexcept {
  return FixedFastfoodOf(sec, phase_at, format::fixed_params::FastfoodTailOf<std::uint32_t>(tail_at, d, F), d, F);
}

// format::fixed_params::FastfoodTailOf in 64 bits, out of line (its arithmetic is library calls on
// 32-bit cores: one copy for the validator and FixedFastfoodBytes).
format::fixed_params::FastfoodTail FixedFastfoodTail(std::uint64_t tail_at, std::uint32_t d, std::uint32_t F) noexcept;

// The size of a fixed section whose Fastfood tail starts at `tail_at`, or 0 when d' = PaddedDim(d)
// exceeds kMaxFastfoodPaddedDim (the validator's fixed.input_dim).
std::uint64_t FixedFastfoodBytes(std::uint64_t tail_at, std::uint32_t d, std::uint32_t F) noexcept;

// Checks the Fastfood tail of the section at blob + at (its size already checked against
// FixedFastfoodBytes): g != -32768, g_shift within its block's bound (<= 62 and d' ((32768 d
// max|g| + h) >> g_shift) <= 2^31 - 1), s_mult != -2^31, s_shift <= 62, every block of perm a
// permutation. On failure fills *err (if not null) with the field and its offset in the blob.
Status CheckFixedFastfood(const std::uint8_t* blob, std::uint32_t at, std::uint32_t tail_at, std::uint32_t d,
                          std::uint32_t F, ModelError* err);

}  // namespace rfk::core
