/// @file
/// The `fixed` section's layout (type 23, the integer prediction path: rfk/fixed.hpp), beside the
/// rest of the format in rfk/format.hpp; docs/FORMAT.md "fixed" describes the same bytes.
#pragma once

#include <cstdint>

#include "rfk/format.hpp"

namespace rfk::format {

/// kFixed section layout (the integer prediction path, rfk/fixed.hpp; docs/FORMAT.md "fixed"): a
/// 32-byte header, then per input column offset[d] f32 and scale[d] f32 (the host's float -> int16
/// conversion: x_q = clamp(round((x - offset) * scale), -32767, 32767)), W q[F x d] int16 row-major
/// (standardisation and input scale folded in; row j's weight is q * 2^shift[j] turns per input
/// unit, 2^32 turns = one period), zero padding to 4 bytes, shift[F] u8 (<= 31), padding to 4,
/// phase[F] u32 turns (the phase bias b and the offsets folded in, both forms), the head q[K x D]
/// int8 (row-major, -128 invalid), padding to 4, then per output mult[K] u32 (<= 2^15),
/// rshift[K] u32 (<= 62) and bias[K] i32: output k = bias + round(mult * sum_j q[k][j] c_j /
/// 2^rshift) in units of output_scale, c_j the q15 features (bins: 32767 at their head columns).
/// Maps with grids append the binning tail (binning namespace below). Type 23 is taken from the
/// structured-map range: the section is required (a fixed model's integers are its reference).
/// A Fastfood map (map_params.map fastfood or fastfood-phase) has no W and no shift (both 0 bytes:
/// LayoutOf(..., dense = false)); its integers follow bias[K] (FastfoodTailOf): with d' =
/// fastfood::PaddedDim(d), blocks = ceil(F / d'), N = blocks d', g[N] int16 (G's block b entry i,
/// which multiplies the gathered t[perm[b d' + i]]), padding to 4, s_mult[F] i32 (-2^31 invalid),
/// s_shift[F] u8 (<= 62), padding to 4, g_shift[blocks] u8, padding to 4, perm packed as the
/// fastfood section packs it (PermBytes(d', N) bytes, IndexBits(d') bits each, each block a
/// permutation of [0, d')), then B's signs ceil(N / 8) bytes (bit k at byte k / 8, bit k % 8; set:
/// -1), padding to 4. Per block the device computes, in integers (lib/core/fixed_predict_fastfood.cc):
/// t = H B [x; 0] (int32), v_i = round(g_i t[perm_i] / 2^g_shift[b]) (int32), u = H v (int32), and
/// the phase of frequency j = b d' + i is phase[j] + round(s_mult[j] u_i / 2^s_shift[j]) mod 2^32.
/// The validator accepts d' <= kMaxFastfoodPaddedDim only, and g_shift[b] only if d' ((max_i |g|
/// 32768 d + 2^(g_shift - 1)) >> g_shift) <= 2^31 - 1, which bounds every value of the block in
/// int32 for any int16 input (the proof: lib/core/fixed_predict_fastfood.cc).
namespace fixed_params {
inline constexpr std::uint32_t kHeaderBytes = 32;  ///< the section header before the arrays
inline constexpr std::uint32_t kInputDim = 0;        ///< u32 d, = map_params.input_dim
inline constexpr std::uint32_t kNumFrequencies = 4;  ///< u32 F, = map_params.num_frequencies
inline constexpr std::uint32_t kNumOutputs = 8;      ///< u32 K, = head.num_outputs
inline constexpr std::uint32_t kNumFeatures = 12;    ///< u32 D, = head.num_features (D_F + D_B)
inline constexpr std::uint32_t kOutputScale = 16;    ///< f32 u: an output's real value is o * u
inline constexpr std::uint32_t kInputBits = 20;      ///< u32 16: int16 inputs (the only value)
inline constexpr std::uint32_t kReserved = 24;       ///< u32[2] 0
inline constexpr std::uint32_t kMaxMult = 1u << 15;  ///< an output's mult at most
inline constexpr std::uint32_t kMaxRshift = 62;      ///< an output's rshift at most
inline constexpr std::int32_t kMaxBias = 1 << 30;    ///< |bias| at most
inline constexpr std::uint32_t kMaxSShift = 62;  ///< Fastfood's s_shift and g_shift
inline constexpr std::uint32_t kMaxFastfoodPaddedDim = 1u << 15;  ///< Fastfood's d' (|H B x| <= 2^30)
/// Byte offsets of the arrays from the section's start, and its size. The size is computed in 64
/// bits (counts up to 2^24 cannot overflow it); the offsets are meaningful once size == bytes,
/// which a u32 section size bounds below 2^32 (u32 keeps the device's stack small). `dense`: the map
/// has W (dense Fourier, orthogonal); false for Fastfood, whose W and shift take no bytes and whose
/// integers follow at `bytes` (FastfoodTailOf).
struct Layout {
  std::uint32_t offset;  ///< f32 offset[d]
  std::uint32_t scale;   ///< f32 scale[d]
  std::uint32_t w;       ///< i16 W[F x d] (dense maps)
  std::uint32_t shift;   ///< u8 shift[F] (dense maps)
  std::uint32_t phase;   ///< u32 phase[F]
  std::uint32_t head;    ///< i8 head[K x D]
  std::uint32_t mult;    ///< i32 mult[K]
  std::uint32_t rshift;  ///< u32 rshift[K]
  std::uint32_t bias;    ///< i32 bias[K]
  std::uint64_t bytes;   ///< where the dense part ends (the section's size without a tail)
};
/// The Layout of a fixed section for d inputs, F frequencies, K outputs and D features, computed in
/// U as FastfoodTailOf is: 64 bits (the default) for a section not yet checked; 32 bits only for
/// one the validator accepted (a prediction's), whose every offset is below 2^32.
template <class U = std::uint64_t>
constexpr Layout LayoutOf(std::uint64_t d64, std::uint64_t F64, std::uint64_t K64, std::uint64_t D64,
                          bool dense = true) {
  const auto round4 = [](U n) { return (n + 3) / 4 * 4; };
  const U d = static_cast<U>(d64), F = static_cast<U>(F64), K = static_cast<U>(K64), D = static_cast<U>(D64);
  const U rows = dense ? F : 0;
  const U w = kHeaderBytes + 8 * d, shift = w + round4(2 * rows * d), phase = shift + round4(rows),
          head = phase + 4 * F, mult = head + round4(K * D);
  return Layout{kHeaderBytes, static_cast<std::uint32_t>(kHeaderBytes + 4 * d), static_cast<std::uint32_t>(w),
                static_cast<std::uint32_t>(shift), static_cast<std::uint32_t>(phase), static_cast<std::uint32_t>(head),
                static_cast<std::uint32_t>(mult), static_cast<std::uint32_t>(mult + 4 * K),
                static_cast<std::uint32_t>(mult + 8 * K), mult + 12 * K};
}
/// A Fastfood model's tail (above), starting at `at` (= LayoutOf(..., false).bytes), for input
/// width d and F frequencies: its arrays' offsets from the section's start, and the section's size
/// (64 bits; d' <= kMaxFastfoodPaddedDim and F <= 2^24, which the validator checks first, keep
/// every array below 2^27 bytes).
struct FastfoodTail {
  std::uint32_t dp;       ///< d'
  std::uint32_t blocks;   ///< ceil(F / d')
  std::uint32_t g;        ///< i16 g[N]
  std::uint32_t s_mult;   ///< i32 s_mult[F]
  std::uint32_t s_shift;  ///< u8 s_shift[F]
  std::uint32_t g_shift;  ///< u8 g_shift[blocks]
  std::uint32_t perm;     ///< the packed permutations
  std::uint32_t signs;    ///< B's sign bits
  std::uint64_t bytes;    ///< where the tail ends
};
/// The FastfoodTail starting at `at` for d inputs and F frequencies (above), computed in U: 64 bits
/// for a section not yet checked (the validator, the host); 32 bits (cheaper on 32-bit cores) only
/// for a section the validator accepted, whose every offset is below 2^32.
template <class U = std::uint64_t>
constexpr FastfoodTail FastfoodTailOf(U at, std::uint32_t d, std::uint32_t F) {
  const auto round4 = [](U n) { return (n + 3) / 4 * 4; };
  const std::uint32_t dp = fastfood::PaddedDim(d), blocks = F == 0 ? 0 : (F - 1) / dp + 1;
  const U N = U{dp} * blocks;
  const U s_mult = at + round4(2 * N), s_shift = s_mult + 4 * U{F}, g_shift = s_shift + round4(F),
          perm = g_shift + round4(blocks), signs = perm + (N * fastfood::IndexBits(dp) + 7) / 8,
          end = round4(signs + (N + 7) / 8);
  return FastfoodTail{dp, blocks, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(s_mult),
                      static_cast<std::uint32_t>(s_shift), static_cast<std::uint32_t>(g_shift),
                      static_cast<std::uint32_t>(perm), static_cast<std::uint32_t>(signs), end};
}

/// The binning tail (maps with grids, P = binning_params.num_grids > 0): after every other part of
/// the section (bias[K], then any other map's tail), at `start` (a multiple of 4). An 8-byte header
/// (u32 num_grids = P, u32 bin_features = D_B), then per grid g and input column c, grid-major
/// (index g * d + c): bin_mult[P x d] u16 (<= 2^15), zero padding to 4, bin_shift[P x d] u8 (<= 30),
/// zero padding to 4, bin_frac[P x d] u32 (< 2^bin_shift), bin_base[P x d] i32 (|.| <= 2^30). The
/// bin of the int16 input x_q in (g, c) is base + ((mult * x_q + frac) >> shift), an arithmetic
/// shift (a floor): fixed::BinIndex. The bins' feature value (1/sqrt(P) in the float map) is folded
/// into the head: a bin adds its head weight times 32767, the full scale of a Fourier feature.
namespace binning {
inline constexpr std::uint32_t kHeaderBytes = 8;  ///< the binning tail's header
inline constexpr std::uint32_t kNumGrids = 0;    ///< u32 P, = binning_params.num_grids
inline constexpr std::uint32_t kBinFeatures = 4;  ///< u32 D_B, = binning_params.bin_features
inline constexpr std::uint32_t kMaxMult = 1u << 15;  ///< bin_mult at most
inline constexpr std::uint32_t kMaxShift = 30;       ///< bin_shift at most
inline constexpr std::int32_t kMaxBase = 1 << 30;    ///< |bin_base| at most
/// The binning tail's arrays: offsets from the section's start, meaningful once its size is `bytes`.
struct Layout {
  std::uint32_t at;     ///< the tail's header
  std::uint32_t mult;   ///< u16 bin_mult[P x d]
  std::uint32_t shift;  ///< u8 bin_shift[P x d]
  std::uint32_t frac;   ///< u32 bin_frac[P x d]
  std::uint32_t base;   ///< i32 bin_base[P x d]
  std::uint64_t bytes;  ///< the section's end
};
/// The binning tail's Layout at `start` for P grids and d inputs.
constexpr Layout LayoutOf(std::uint64_t start, std::uint64_t P, std::uint64_t d) {
  const std::uint64_t n = P * d, mult = start + kHeaderBytes, shift = mult + Round4(2 * n), frac = shift + Round4(n);
  return Layout{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(mult), static_cast<std::uint32_t>(shift),
                static_cast<std::uint32_t>(frac), static_cast<std::uint32_t>(frac + 4 * n), frac + 8 * n};
}
}  // namespace binning
}  // namespace fixed_params

}  // namespace rfk::format
