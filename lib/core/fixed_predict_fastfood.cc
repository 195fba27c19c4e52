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
// The sign loop by bytes and GatherMid (below): not on the M-profile cores without Thumb-2
// (Armv6-M, Armv8-M Baseline: no SBFX, no unaligned halfword load), where they were 340 B of flash
// for 0.7 % fewer instructions on the Cortex-M0 (covtype_ff_fixed), nor on RISC-V (RV32IMC: 384 B
// for 3.4 %), nor in a core built for size.
#if (defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && !defined(__thumb2__)) || defined(__riscv)
constexpr bool kUnrolled = false;
#else
constexpr bool kUnrolled = kMidShifts;
#endif
[[gnu::always_inline]] inline std::uint32_t RoundShiftMid(std::int64_t p, std::uint32_t s) {
  const std::uint64_t q = static_cast<std::uint64_t>(p) + (std::uint32_t{1} << (s - 1));
  return (static_cast<std::uint32_t>(q) >> s) | (static_cast<std::uint32_t>(q >> 32) << (32 - s));
}

// GatherScaled where 1 <= w <= 9 and 1 <= gs <= 31: each index read from the two bytes that hold it
// (an index starts in bits 0-7 of its first byte, so it ends by bit 15), one unaligned halfword
// load in place of a bit stream and its count. The second byte of the block's last index may be
// the first byte past the permutations: it is then the first byte of the signs, which follow them
// in the tail (FastfoodTailOf), and its bits are masked off. On Thumb-2 the loop is written out
// (17 instructions an entry; GCC's code for the C++ loop took 21, three of them reloads of values
// it had no register for), where the build optimizes (without, GCC keeps r7 for the frame and the
// loop's 13 registers may not fit; nor where position-independent code may reserve r9).
[[gnu::always_inline]] inline void GatherMid(const std::int16_t* g, const std::int32_t* t, const std::uint8_t* perm,
                                             std::uint32_t pos, std::uint32_t w, std::uint32_t mask,
                                             std::uint32_t gs, std::int32_t* u, std::int32_t* const end) {
#if defined(__thumb2__) && defined(__OPTIMIZE__) && !defined(__PIC__)
  const std::uint32_t half = 1u << (gs - 1), up = 32 - gs;
  std::uint32_t lo, hi;
  asm volatile(
      "1:\n\t"
      "lsr %[lo], %[pos], #3\n\t"
      "ldrh %[lo], [%[perm], %[lo]]\n\t"
      "and %[hi], %[pos], #7\n\t"
      "lsr %[lo], %[lo], %[hi]\n\t"
      "and %[lo], %[lo], %[mask]\n\t"
      "ldr %[lo], [%[t], %[lo], lsl #2]\n\t"
      "ldrsh %[hi], [%[g]], #2\n\t"
      "add %[pos], %[pos], %[w]\n\t"
      "smull %[lo], %[hi], %[lo], %[hi]\n\t"
      "adds %[lo], %[lo], %[half]\n\t"
      "adc %[hi], %[hi], #0\n\t"
      "lsr %[lo], %[lo], %[gs]\n\t"
      "lsl %[hi], %[hi], %[up]\n\t"
      "orr %[lo], %[lo], %[hi]\n\t"
      "str %[lo], [%[u]], #4\n\t"
      "cmp %[u], %[end]\n\t"
      "bne 1b"
      : [lo] "=&r"(lo), [hi] "=&r"(hi), [pos] "+r"(pos), [g] "+r"(g), [u] "+r"(u)
      : [perm] "r"(perm), [mask] "r"(mask), [t] "r"(t), [w] "r"(w), [half] "r"(half), [gs] "r"(gs),
        [up] "r"(up), [end] "r"(end)
      : "cc", "memory");
#else
  do {
    const std::uint32_t index = (std::uint32_t{LoadU16(perm + pos / 8)} >> (pos % 8)) & mask;
    pos += w;
    *u++ = static_cast<std::int32_t>(RoundShiftMid(std::int64_t{*g++} * t[index], gs));
  } while (u != end);
#endif
}

// u = G Pi t for one block, rounded by its shift gs (RoundShiftLow). GatherMid where it applies;
// else the packed indices are read as one LSB-first stream, a byte at a time as the next index
// needs it (never a byte past the block's last). Out of line on Thumb-2 (Armv7-M, Armv8-M
// Mainline), where a frame of its own keeps the loop's values in registers: inlined, the Cortex-M4's loop spilled five of them
// (covtype_ff_fixed, `cost_fixed`: 85,395 instructions inlined, 81,587 not; M3 133,030 and
// 129,470). Inline elsewhere: on the Cortex-M0 its frame took a prediction's RAM past 1 KiB, and
// RV32IMC has the registers.
#if defined(__thumb2__)
[[gnu::noinline]]
#endif
void GatherScaled(const std::int16_t* g, const std::int32_t* t, const std::uint8_t* perm, std::uint32_t start,
                  std::uint32_t w, std::uint32_t gs, std::uint32_t dp, std::int32_t* u) {
  const std::uint32_t mask = (1u << w) - 1u;
  if (kUnrolled && w - 1u < 9u && gs - 1u < 31u) {  // 2 <= d' <= 512, RoundShiftMid's shifts
    GatherMid(g, t, perm, start, w, mask, gs, u, u + dp);
    return;
  }
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

// -1 where bit k of s is set, else 0.
[[gnu::always_inline]] inline std::int32_t Mask(std::uint32_t s, unsigned k) {
  return static_cast<std::int32_t>(s << (31u - k)) >> 31;
}

}  // namespace

void FixedFastfoodTurns(const FixedFastfoodView& a, const std::int16_t* x, std::uint32_t b, std::int32_t* t,
                        std::uint32_t* turns) noexcept {
  const std::uint32_t dp = a.dp, j0 = b * dp;  // j0 < F + dp <= 2^24 + 2^16
  const std::uint32_t n = a.d < dp ? a.d : dp;
  const std::uint8_t* signs = a.signs;  // locals, here and below: the stores may alias a's members
  std::uint32_t i = 0;
  // B [x; 0]: (v ^ m) - m is -v where the sign bit is set (m = -1), else v. Where the block starts
  // on a byte (d' >= 8), eight entries per byte of signs first, each bit's mask by a constant
  // shift (SBFX): 6 instructions an entry on the Cortex-M4 against 15 for the loop below, which
  // takes the rest (and every entry where kUnrolled is off).
  if (kUnrolled && j0 % 8 == 0) {
    const std::uint8_t* byte_at = signs + j0 / 8;
    for (; i + 8 <= n; i += 8) {
      const std::uint32_t s = *byte_at++;
#define RFK_SIGNED_(k) t[i + k] = (std::int32_t{x[i + k]} ^ Mask(s, k)) - Mask(s, k)
      RFK_SIGNED_(0), RFK_SIGNED_(1), RFK_SIGNED_(2), RFK_SIGNED_(3);
      RFK_SIGNED_(4), RFK_SIGNED_(5), RFK_SIGNED_(6), RFK_SIGNED_(7);
#undef RFK_SIGNED_
    }
  }
  for (; i < n; ++i) {
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
  const std::uint32_t m = a.F - j0 < dp ? a.F - j0 : dp;  // >= 1
  const std::int32_t* s_mult = a.s_mult + j0;
  const std::uint8_t* s_shift = a.s_shift + j0;
  const std::uint8_t* phase = a.phase + 4 * j0;
#if defined(__thumb2__) && defined(__OPTIMIZE__) && !defined(__PIC__)
  if constexpr (kMidShifts) {
    // On Thumb-2, the entries whose shift is 1 to 31 (RoundShiftMid's) by SMLAL: the half is the
    // accumulator's initial low word, so the product and its rounding are one instruction. Every
    // array indexed by one count e from -m up to 0 (the bases at their ends), which ends the loop
    // as it steps: 18 instructions an entry against 20 for GCC's code of the loop below. An entry
    // with another shift leaves the loop at it, for RoundShiftLow, and the loop resumes after it.
    const std::int32_t* const sm = s_mult + m;
    const std::uint8_t* const sh = s_shift + m;
    const std::uint8_t* const ph = phase + 4 * m;
    std::uint32_t* const tu = turns + m;
    const std::uint32_t one = 1;
    std::int32_t e = -static_cast<std::int32_t>(m);  // m <= d' <= 2^15
    for (;;) {
      std::uint32_t ss, k, f, v, lo, hi;
      asm volatile(
          "1:\n\t"
          "ldrb %[ss], [%[sh], %[e]]\n\t"
          "sub %[k], %[ss], #1\n\t"
          "cmp %[k], #30\n\t"
          "bhi 2f\n\t"
          "ldr %[f], [%[sm], %[e], lsl #2]\n\t"
          "ldr %[v], [%[tu], %[e], lsl #2]\n\t"
          "lsl %[lo], %[one], %[k]\n\t"
          "mov %[hi], #0\n\t"
          "smlal %[lo], %[hi], %[f], %[v]\n\t"
          "rsb %[k], %[ss], #32\n\t"
          "lsr %[lo], %[lo], %[ss]\n\t"
          "lsl %[hi], %[hi], %[k]\n\t"
          "orr %[lo], %[lo], %[hi]\n\t"
          "ldr %[f], [%[ph], %[e], lsl #2]\n\t"
          "add %[lo], %[lo], %[f]\n\t"
          "str %[lo], [%[tu], %[e], lsl #2]\n\t"
          "adds %[e], %[e], #1\n\t"
          "bne 1b\n\t"
          "2:"
          : [e] "+r"(e), [ss] "=&r"(ss), [k] "=&r"(k), [f] "=&r"(f), [v] "=&r"(v), [lo] "=&r"(lo), [hi] "=&r"(hi)
          : [sh] "r"(sh), [sm] "r"(sm), [tu] "r"(tu), [ph] "r"(ph), [one] "r"(one)
          : "cc", "memory");
      if (e == 0) return;
      const std::int64_t su = std::int64_t{sm[e]} * static_cast<std::int32_t>(tu[e]);
      tu[e] = LoadU32(ph + 4 * e) + RoundShiftLow(su, sh[e]);
      if (++e == 0) return;
    }
  }
#endif
  // Pointers walked, ending on turns' (u's) end: with a count and an index the Cortex-M4 took
  // 21 instructions an entry, 20 without.
  std::uint32_t* const end = turns + m;
  do {
    const std::uint32_t ss = *s_shift++;
    const std::int64_t su = std::int64_t{*s_mult++} * static_cast<std::int32_t>(*turns);
    *turns++ = LoadU32(phase) + (kMidShifts && ss - 1u < 31u ? RoundShiftMid(su, ss) : RoundShiftLow(su, ss));
    phase += 4;
  } while (turns != end);
}

format::fixed_params::FastfoodTail FixedFastfoodTail(std::uint64_t tail_at, std::uint32_t d, std::uint32_t F) noexcept {
  return format::fixed_params::FastfoodTailOf(tail_at, d, F);
}

std::uint64_t FixedFastfoodBytes(std::uint64_t tail_at, std::uint32_t d, std::uint32_t F) noexcept {
  if (format::fastfood::PaddedDim(d) > format::fixed_params::kMaxFastfoodPaddedDim) return 0;
  return FixedFastfoodTail(tail_at, d, F).bytes;
}

}  // namespace rfk::core
