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

namespace {

// round(p / 2^s), halves up, modulo 2^32: the low 32 bits of (p + h) >> s in int64, h = 2^(s - 1)
// (0 for s = 0), for s <= 62 and |p| < 2^62 (so p + h does not overflow). Bits s to s + 31 of
// p + h from its two 32-bit words, h added to the word that holds it: no 64-bit shift by a variable
// count, which is a sequence of seven instructions on Armv7-M and a library call on Armv6-M.
[[gnu::always_inline]] inline std::uint32_t RoundShiftLow(std::int64_t p, std::uint32_t s) {
  std::uint64_t q = static_cast<std::uint64_t>(p);
  if (s == 0) return static_cast<std::uint32_t>(q);
  if (s <= 32) {
    q += std::uint32_t{1} << (s - 1);
    const std::uint32_t lo = static_cast<std::uint32_t>(q), hi = static_cast<std::uint32_t>(q >> 32);
    return s == 32 ? hi : (lo >> s) | (hi << (32 - s));
  }
  // h in the high word (no carry from the low one); the shift of a negative value is arithmetic.
  const std::uint32_t hi = static_cast<std::uint32_t>(q >> 32) + (std::uint32_t{1} << (s - 33));
  return static_cast<std::uint32_t>(static_cast<std::int32_t>(hi) >> (s - 32));
}

// RoundShiftLow for 1 <= s <= 31, the shifts the fixtures' g and s_mult take: the half and the
// result's bits without RoundShiftLow's other cases. Not in a core built for size (RFK_CORE_SMALL),
// where it is 36-64 B of flash for 1-2 % fewer instructions (covtype_ff_fixed: cost_fixed_small).
constexpr bool kMidShifts = !RFK_CORE_SMALL;
[[gnu::always_inline]] inline std::uint32_t RoundShiftMid(std::int64_t p, std::uint32_t s) {
  const std::uint64_t q = static_cast<std::uint64_t>(p) + (std::uint32_t{1} << (s - 1));
  return (static_cast<std::uint32_t>(q) >> s) | (static_cast<std::uint32_t>(q >> 32) << (32 - s));
}

// u = G Pi t for one block, rounded by its shift gs (RoundShiftLow). The packed indices are read
// as one LSB-first stream, a byte at a time as the next index needs it (never a byte past the
// block's last). Out of line on Thumb-2 (Armv7-M, Armv8-M Mainline), where a frame of its own
// keeps the loop's values in registers: inlined, the Cortex-M4's loop spilled five of them
// (covtype_ff_fixed, `cost_fixed`: 85,395 instructions inlined, 81,587 not; M3 133,030 and
// 129,470). Inline elsewhere: on the Cortex-M0 its frame took a prediction's RAM past 1 KiB, and
// RV32IMC has the registers.
#if defined(__thumb2__)
[[gnu::noinline]]
#endif
void GatherScaled(const std::int16_t* g, const std::int32_t* t, const std::uint8_t* perm, std::uint32_t start,
                  std::uint32_t w, std::uint32_t gs, std::uint32_t dp, std::int32_t* u) {
  const std::uint32_t mask = (1u << w) - 1u;
  const std::uint8_t* p = perm + start / 8;
  std::uint32_t bits = 0, have = 0;
  if (w != 0) {
    bits = std::uint32_t{*p++} >> (start % 8);
    have = 8 - start % 8;
  }
  const bool mid = kMidShifts && gs - 1u < 31u;  // the block's one shift: its case chosen once, not per entry
  for (std::uint32_t i = 0; i < dp; ++i) {
    while (have < w) {
      bits |= std::uint32_t{*p++} << have;
      have += 8;
    }
    // v fits int32 (the validator's bound), so its low 32 bits are v.
    const std::int64_t prod = std::int64_t{g[i]} * t[bits & mask];
    u[i] = static_cast<std::int32_t>(mid ? RoundShiftMid(prod, gs) : RoundShiftLow(prod, gs));
    bits >>= w;
    have -= w;
  }
}

}  // namespace

void FixedFastfoodTurns(const FixedFastfoodView& a, const std::int16_t* x, std::uint32_t b, std::int32_t* t,
                        std::uint32_t* turns) noexcept {
  const std::uint32_t dp = a.dp, j0 = b * dp;  // j0 < F + dp <= 2^24 + 2^16
  const std::uint32_t n = a.d < dp ? a.d : dp;
  const std::uint8_t* signs = a.signs;  // locals, here and below: the stores may alias a's members
  std::uint32_t i = 0;
  for (; i < n; ++i) {  // B [x; 0]: (v ^ m) - m is -v where the sign bit is set (m = -1), else v
    const std::uint32_t k = j0 + i;
    const std::int32_t m = -static_cast<std::int32_t>((signs[k >> 3] >> (k & 7u)) & 1u);
    t[i] = (std::int32_t{x[i]} ^ m) - m;
  }
  for (; i < dp; ++i) t[i] = 0;  // the padding: its sign changes nothing
  FwhtI32(t, dp);
  // G Pi, rounded to int32 by the block's shift.
  auto* u = reinterpret_cast<std::int32_t*>(turns);  // the signed variant of turns' type: may alias
  const std::uint32_t gs = a.g_shift[b], w = a.index_bits, start = j0 * w;  // start < 2^31
  GatherScaled(a.g + j0, t, a.perm, start, w, gs, dp, u);
  FwhtI32(u, dp);
  const std::uint32_t m = a.F - j0 < dp ? a.F - j0 : dp;
  const std::int32_t* s_mult = a.s_mult + j0;
  const std::uint8_t* s_shift = a.s_shift + j0;
  const std::uint8_t* phase = a.phase + 4 * j0;
  for (i = 0; i < m; ++i) {
    const std::uint32_t ss = s_shift[i];
    const std::int64_t su = std::int64_t{s_mult[i]} * u[i];
    turns[i] = LoadU32(phase + 4 * i) + (kMidShifts && ss - 1u < 31u ? RoundShiftMid(su, ss) : RoundShiftLow(su, ss));
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
