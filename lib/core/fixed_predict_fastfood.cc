// Fastfood on the integer path: one block of V x = S H G Pi H B x in integers (contract:
// fixed_fastfood.h; layout: format::fixed_params::FastfoodTail). Integer operations only.
//
// Overflow bounds, for any int16 input (|x_c| <= 32768) and any tail CheckFixedFastfood accepts
// (d <= d' <= 2^15, |g| <= 32767, g_shift <= 62, |s_mult| <= 2^31 - 1, s_shift <= 62):
// - t = H B [x; 0]: each t_i is a +-sum of the d nonzero inputs, |t_i| <= 32768 d <= 2^30 (int32;
//   FwhtI32's intermediates are sums of fewer of them).
// - g t: |g t| <= 32767 * 2^30 < 2^45, plus the rounding term 2^(g_shift - 1) <= 2^61: int64.
//   v = (g t + h) >> g_shift lies in [-B_v, B_v], B_v = (32768 d max|g| + h) >> g_shift (a floor
//   of (p + h) / 2^s over p in [-P, P] is at most (P + h) >> s and at least -ceil((P - h) / 2^s)
//   >= -((P + h) >> s)), and the validator checks d' B_v <= 2^31 - 1.
// - u = H v: |u_i| <= sum_i |v_i| <= d' B_v <= 2^31 - 1 (int32, FwhtI32's condition).
// - the phase: |s_mult u| <= (2^31 - 1)^2 < 2^62, plus 2^(s_shift - 1) <= 2^61: below 2^63, int64;
//   the shifted value converted to uint32 is its residue modulo 2^32, the phase's own modulus, so
//   the truncation loses nothing (an arithmetic right shift of a negative int64 is a floor, as
//   GCC and Clang define it).
// tests/core/test_fixed_fastfood.cc compares each step with an exact 128-bit reference at these extremes.
#include "fp_contract.h"  // first, as in every core source
#include "bytes.h"
#include "fixed_fastfood.h"
#include "fixed_kernels.h"

namespace rfk::core {

void FwhtI32(std::int32_t* t, std::uint32_t n) noexcept { fixed::kernels::Fwht(t, n); }

void FixedFastfoodTurns(const FixedFastfoodView& a, const std::int16_t* x, std::uint32_t b, std::int32_t* t,
                        std::uint32_t* turns) noexcept {
  const std::uint32_t dp = a.dp, j0 = b * dp;  // j0 < F + dp <= 2^24 + 2^16
  const std::uint32_t n = a.d < dp ? a.d : dp;
  for (std::uint32_t i = 0; i < dp; ++i) {  // B [x; 0]
    const std::uint32_t k = j0 + i;
    const std::int32_t v = i < n ? x[i] : 0;
    t[i] = ((a.signs[k >> 3] >> (k & 7u)) & 1u) != 0 ? -v : v;
  }
  FwhtI32(t, dp);
  // G Pi, rounded to int32 by the block's shift. The packed indices are read as one LSB-first
  // stream, a byte at a time as the next index needs it (never a byte past the block's last).
  auto* u = reinterpret_cast<std::int32_t*>(turns);  // the signed variant of turns' type: may alias
  const std::uint32_t gs = a.g_shift[b];
  const std::int64_t gh = gs == 0 ? 0 : std::int64_t{1} << (gs - 1);
  const std::uint32_t w = a.index_bits, mask = (1u << w) - 1u, start = j0 * w;  // < 2^31
  const std::uint8_t* p = a.perm + start / 8;
  std::uint32_t bits = 0, have = 0;
  if (w != 0) {
    bits = std::uint32_t{*p++} >> (start % 8);
    have = 8 - start % 8;
  }
  for (std::uint32_t i = 0; i < dp; ++i) {
    while (have < w) {
      bits |= std::uint32_t{*p++} << have;
      have += 8;
    }
    const std::int64_t gt = std::int64_t{a.g[j0 + i]} * t[bits & mask];
    u[i] = static_cast<std::int32_t>((gt + gh) >> gs);
    bits >>= w;
    have -= w;
  }
  FwhtI32(u, dp);
  const std::uint32_t m = a.F - j0 < dp ? a.F - j0 : dp;
  for (std::uint32_t i = 0; i < m; ++i) {
    const std::uint32_t j = j0 + i, ss = a.s_shift[j];
    const std::int64_t sh = ss == 0 ? 0 : std::int64_t{1} << (ss - 1);
    const std::int64_t su = std::int64_t{a.s_mult[j]} * u[i];
    turns[i] = LoadU32(a.phase + 4 * j) + static_cast<std::uint32_t>((su + sh) >> ss);
  }
}

format::fixed_params::FastfoodTail FixedFastfoodTail(std::uint64_t tail_at, std::uint32_t d, std::uint32_t F) noexcept {
  return format::fixed_params::FastfoodTailOf(tail_at, d, F);
}

std::uint64_t FixedFastfoodBytes(std::uint64_t tail_at, std::uint32_t d, std::uint32_t F) noexcept {
  if (format::fastfood::PaddedDim(d) > format::fixed_params::kMaxFastfoodPaddedDim) return 0;
  return FixedFastfoodTail(tail_at, d, F).bytes;
}

}  // namespace rfk::core
