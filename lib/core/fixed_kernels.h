// The integer path's inner loops (issue 45), as the hosts' kernels are: one list, a scalar
// reference that is the oracle, a version for cores with the Arm DSP extension (Armv7E-M:
// Cortex-M4, M7; Armv8-M Mainline: M33) that computes the same integers with dual 16-bit
// multiply-accumulates, and one for cores with MVE (Armv8.1-M: M55, M85) on eight lanes. There is
// no runtime dispatch on a microcontroller: the version is chosen when the core is compiled
// (RFK_FIXED_DSP, RFK_FIXED_MVE; defaults from the compiler's __ARM_FEATURE_DSP and
// __ARM_FEATURE_MVE). Where the extension is absent the DSP versions still compile, over plain C++
// definitions of the few instructions they use (Smlad, Sxtb16), so every platform's parity test
// runs their loops.
//
// Contract of every kernel: integers only, no allocation, no library call; pointers need only
// their element's natural alignment (words are read with memcpy, which Armv7-M and Armv8-M
// Mainline do as single unaligned loads; the paired LDRD loads are taken only where every pointer
// is word-aligned). Internal to lib/core.
#pragma once

#include <cstdint>

#include "bytes.h"
#include "core_config.h"  // RFK_CORE_SMALL
#include "quarter_cos.h"

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#endif

#ifndef RFK_FIXED_DSP
#if defined(__ARM_FEATURE_DSP) && !RFK_CORE_SMALL
#define RFK_FIXED_DSP 1
#else
#define RFK_FIXED_DSP 0
#endif
#endif
// Armv8.1-M cores with the M-profile Vector Extension (Helium: Cortex-M55, M85; integer MVE is
// enough) run the blocked loops with eight-lane kernels instead (namespace mve): RFK_FIXED_MVE,
// default 1 there when RFK_FIXED_DSP is (these cores always have the DSP extension).
#ifndef RFK_FIXED_MVE
#if defined(__ARM_FEATURE_MVE) && RFK_FIXED_DSP
#define RFK_FIXED_MVE 1
#else
#define RFK_FIXED_MVE 0
#endif
#endif
#if RFK_FIXED_MVE
#include <arm_mve.h>

#include "fwht_mve.h"
#endif

// The list: generates the parity checks (tests/embedded/fixed_kernels_check.cc, every preset),
// so a kernel without its check does not compile.
//   PhaseSum  sum_c w[c] x[c] modulo 2^32, int16 w and x (the phase's own modulus: exact)
//   Phases    the phases of n rows of d: t[i] = phase[i] + (PhaseSum(w + i d, x, d) << shift[i]),
//             modulo 2^32 (phase: n little-endian uint32; the versions read x once per two rows)
//   Features  the features of n phases t: zc[QuadSlot(j, n)] = CosTurns(t[j]) and, pair form,
//             zs[QuadSlot(j, n)] = SinTurns(t[j]) (HeadDot's order)
//   HeadDot   sum_j q[j] z[j] for int8 q and int16 z with z in quad order (QuadSlot), n <= 256:
//             |q z| <= 127 * 32768 < 2^22, so the int32 sum is exact
//   Fwht      Fastfood's Walsh-Hadamard transform of n int32 in place (n a power of two):
//             stages h = 1, 2, .., n/2 of butterflies (a + b, a - b); exact (the same integers in
//             any grouping of stages) where n max|t| <= 2^31 - 1, which the integer Fastfood's
//             validator guarantees (fixed_predict_fastfood.cc)
#define RFK_FIXED_KERNEL_LIST(X) \
  X(PhaseSum)                    \
  X(Phases)                      \
  X(Features)                    \
  X(HeadDot)                     \
  X(Fwht)

namespace rfk::fixed {

// Most terms one HeadDot may sum (the int32 bound above).
inline constexpr std::uint32_t kHeadDotMax = 256;

// Where feature j of a run of features lies in the buffer HeadDot reads: within each whole group of
// four, the order 0, 2, 1, 3 (the order in which the DSP version unpacks four int8 weights from one
// word); entries past the last whole group keep their place.
inline constexpr std::uint32_t QuadSlot(std::uint32_t j, std::uint32_t n) {
  if (j >= n / 4 * 4) return j;
  const std::uint32_t r = j & 3u;
  return (j & ~3u) | (r == 1u ? 2u : r == 2u ? 1u : r);
}

// Entry i (0..257) of CosTurns' quarter-wave table (quarter_cos.h): read, or, in a core built for
// size, computed (the same integers) by one out-of-line function (fixed_cos.cc).
#if RFK_CORE_SMALL
std::uint32_t QuarterCosEntry(std::uint32_t i);
#else
[[gnu::always_inline]] inline std::uint32_t QuarterCosEntry(std::uint32_t i) { return kQuarterCos2[i]; }
#endif
// CosTurns' body, inlined into PredictFixed's loops (the out-of-line CosTurns is this, called).
// The cosine's magnitude at mirrored position p in (0, 2^30] of a quadrant: one rounding for
// interpolation and scale, v = round((a * 2^16 - (a - b) * frac) / 2^17), in unsigned 32-bit
// arithmetic, exact: the table decreases (a >= b), a * 2^16 + 2^16 <= 65535 * 2^16 < 2^32, and the
// numerator is at least b * 2^16 >= 0.
[[gnu::always_inline]] inline std::int32_t QuarterCos(std::uint32_t p) {
  const std::uint32_t i = p >> 22;                // table index, 0..256
  const std::uint32_t frac = (p >> 6) & 0xFFFFu;  // the next 16 bits
  const std::uint32_t a = QuarterCosEntry(i);
  const std::uint32_t drop = a - QuarterCosEntry(i + 1);
  return static_cast<std::int32_t>(((a << 16) - drop * frac + 0x10000u) >> 17);
}
// v, or -v where `mask` is all ones (mask 0 or ~0u): v times mask | 1 (1 or -1), without a branch
// or a conditional instruction. (As (v ^ mask) - mask, GCC narrows the mask to 16 bits first: one
// instruction more.) v is a QuarterCos value, in [0, 32767].
[[gnu::always_inline]] inline std::int16_t Negated(std::int32_t v, std::uint32_t mask) {
  return static_cast<std::int16_t>(v * static_cast<std::int32_t>(mask | 1u));
}
// The masks of the quadrants where the cosine is negative (1 and 2: bit 31 of the phase differs from
// bit 30) and where the sine is (2 and 3: bit 31).
[[gnu::always_inline]] inline std::uint32_t CosNegative(std::uint32_t phase) { return 0u - ((phase ^ (phase << 1)) >> 31); }
[[gnu::always_inline]] inline std::uint32_t SinNegative(std::uint32_t phase) { return 0u - (phase >> 31); }
[[gnu::always_inline]] inline std::int16_t CosTurnsInline(std::uint32_t phase) {
  std::uint32_t p = phase & 0x3FFFFFFFu;        // position in the quadrant, [0, 2^30)
  if (phase & 0x40000000u) p = 0x40000000u - p;  // an odd quadrant: mirrored, (0, 2^30]
  return Negated(QuarterCos(p), CosNegative(phase));
}
// CosTurns(phase) and SinTurns(phase) at once, the same integers: SinTurns is CosTurns a quarter
// turn earlier, whose quadrant is one less and whose position in it is the same, so its mirrored
// position is 2^30 minus the cosine's, and it is negative in quadrants 2 and 3.
[[gnu::always_inline]] inline void CosSinTurnsInline(std::uint32_t phase, std::int16_t& c, std::int16_t& s) {
  std::uint32_t p = phase & 0x3FFFFFFFu;
  if (phase & 0x40000000u) p = 0x40000000u - p;
  c = Negated(QuarterCos(p), CosNegative(phase));
  s = Negated(QuarterCos(0x40000000u - p), SinNegative(phase));
}

namespace scalar {

[[gnu::always_inline]] inline std::uint32_t PhaseSum(const std::int16_t* w, const std::int16_t* x, std::uint32_t n) {
  std::uint32_t sum = 0;
  for (std::uint32_t c = 0; c < n; ++c)
    sum += static_cast<std::uint32_t>(std::int32_t{w[c]} * std::int32_t{x[c]});
  return sum;
}

[[gnu::noinline]] inline void Phases(const std::int16_t* w, std::uint32_t d, const std::int16_t* x, std::uint32_t n,
                                     const std::uint8_t* phase, const std::uint8_t* shift, std::uint32_t* t) {
  for (std::uint32_t i = 0; i < n; ++i, w += d) t[i] = core::LoadU32(phase + 4 * i) + (PhaseSum(w, x, d) << shift[i]);
}

[[gnu::noinline]] inline void Features(const std::uint32_t* t, std::uint32_t n, bool pairs, std::int16_t* zc,
                                       std::int16_t* zs) {
  for (std::uint32_t j = 0; j < n; ++j) {
    if (pairs) CosSinTurnsInline(t[j], zc[QuadSlot(j, n)], zs[QuadSlot(j, n)]);
    else zc[QuadSlot(j, n)] = CosTurnsInline(t[j]);
  }
}

[[gnu::noinline]] inline std::int32_t HeadDot(const std::int8_t* q, const std::int16_t* z, std::uint32_t n) {
  std::int32_t sum = 0;
  for (std::uint32_t k = n / 4; k != 0; --k, q += 4, z += 4) {  // a whole quad: z holds features 0, 2, 1, 3
    sum += std::int32_t{q[0]} * z[0] + std::int32_t{q[2]} * z[1];
    sum += std::int32_t{q[1]} * z[2] + std::int32_t{q[3]} * z[3];
  }
  for (std::uint32_t k = n % 4; k != 0; --k) sum += std::int32_t{*q++} * *z++;
  return sum;
}

// One stage per pass: FwhtRef's loop on integers.
[[gnu::noinline]] inline void Fwht(std::int32_t* t, std::uint32_t n) {
  for (std::uint32_t h = 1; h < n; h *= 2)
    for (std::uint32_t i = 0; i < n; i += 2 * h)
      for (std::uint32_t j = i; j < i + h; ++j) {
        const std::int32_t a = t[j], b = t[j + h];
        t[j] = a + b;
        t[j + h] = a - b;
      }
}

}  // namespace scalar

// Stages h and 2h of the transform in one pass over t (n a multiple of 4h): the four values h
// apart loaded once, both stages' butterflies in registers, stored once -- half the loads and
// stores of a stage per pass.
[[gnu::always_inline]] inline void FwhtTwoStages(std::int32_t* t, std::uint32_t n, std::uint32_t h) {
  for (std::uint32_t i = 0; i < n; i += 4 * h)
    for (std::int32_t *p = t + i, *end = t + i + h; p != end; ++p) {
      const std::int32_t a0 = p[0] + p[h], a1 = p[0] - p[h];
      const std::int32_t a2 = p[2 * h] + p[3 * h], a3 = p[2 * h] - p[3 * h];
      p[0] = a0 + a2, p[h] = a1 + a3, p[2 * h] = a0 - a2, p[3 * h] = a1 - a3;
    }
}

// Phases (the list) two rows at a time through pair(w0, w1, x, d), which returns the two rows'
// PhaseSum with x as one 64-bit value, row w0's in the low word (an out-of-line pair returns it in
// r0 and r1 under the AAPCS, not through memory): a last odd row's sum taken twice, the second
// unused.
template <class Pair>
[[gnu::always_inline]] inline void PairedPhases(Pair pair, const std::int16_t* w, std::uint32_t d,
                                                const std::int16_t* x, std::uint32_t n, const std::uint8_t* phase,
                                                const std::uint8_t* shift, std::uint32_t* t) {
  for (std::uint32_t i = 0; i < n; i += 2, w += 2 * d) {
    const std::uint64_t s = pair(w, i + 1 < n ? w + d : w, x, d);
    t[i] = core::LoadU32(phase + 4 * i) + (static_cast<std::uint32_t>(s) << shift[i]);
    if (i + 1 < n) t[i + 1] = core::LoadU32(phase + 4 * i + 4) + (static_cast<std::uint32_t>(s >> 32) << shift[i + 1]);
  }
}

namespace dsp {

// The instructions, by ACLE's names: the intrinsics where the core has them, else their
// definitions (two's complement, wrapping where the instruction wraps).
#if defined(__ARM_FEATURE_DSP)
[[gnu::always_inline]] inline std::int32_t Smlad(std::int32_t a, std::int32_t b, std::int32_t acc) {
  return __smlad(a, b, acc);
}
[[gnu::always_inline]] inline std::int32_t Sxtb16(std::uint32_t a) {
  return static_cast<std::int32_t>(__sxtb16(a));
}
#else
// Halfword h (0: bits 0-15, 1: bits 16-31) of v, sign-extended.
inline std::int32_t Half(std::int32_t v, int h) {
  return static_cast<std::int16_t>((static_cast<std::uint32_t>(v) >> (16 * h)) & 0xFFFFu);
}
// lo(a) lo(b) + hi(a) hi(b) + acc, modulo 2^32 (SMLAD sets the Q flag on overflow, and wraps).
inline std::int32_t Smlad(std::int32_t a, std::int32_t b, std::int32_t acc) {
  const std::uint32_t lo = static_cast<std::uint32_t>(Half(a, 0) * Half(b, 0));
  const std::uint32_t hi = static_cast<std::uint32_t>(Half(a, 1) * Half(b, 1));
  return static_cast<std::int32_t>(lo + hi + static_cast<std::uint32_t>(acc));
}
// Bytes 0 and 2 of a, each sign-extended to a halfword.
inline std::int32_t Sxtb16(std::uint32_t a) {
  const auto byte = [a](int i) { return static_cast<std::uint16_t>(static_cast<std::int8_t>((a >> (8 * i)) & 0xFFu)); };
  return static_cast<std::int32_t>(std::uint32_t{byte(0)} | (std::uint32_t{byte(2)} << 16));
}
#endif

[[gnu::always_inline]] inline std::int32_t Load32(const void* p) {
  std::int32_t v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline std::uint32_t Ror8(std::uint32_t v) { return (v >> 8) | (v << 24); }

// Two int16 pairs per step: one SMLAD each, the words as they lie (little-endian: lo = even index).
[[gnu::always_inline]] inline std::uint32_t PhaseSum(const std::int16_t* w, const std::int16_t* x, std::uint32_t n) {
  std::int32_t acc = 0;
  for (std::uint32_t k = n / 4; k != 0; --k, w += 4, x += 4) {
    acc = Smlad(Load32(w), Load32(x), acc);
    acc = Smlad(Load32(w + 2), Load32(x + 2), acc);
  }
  if (n & 2u) {
    acc = Smlad(Load32(w), Load32(x), acc);
    w += 2, x += 2;
  }
  std::uint32_t sum = static_cast<std::uint32_t>(acc);
  if (n & 1u) sum += static_cast<std::uint32_t>(std::int32_t{w[0]} * std::int32_t{x[0]});
  return sum;
}

#if defined(__ARM_FEATURE_DSP) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define RFK_FIXED_LDRD 1
// a, b = the two words at p, and p += 4 (one LDRD, post-indexed: GCC does not pair the loads
// itself). p must be 4-aligned: LDRD faults on an unaligned address on M-profile cores. The
// outputs are early-clobbered: LDRD with writeback may not load into its base register.
[[gnu::always_inline]] inline void Load2(const std::int16_t*& p, std::int32_t& a, std::int32_t& b) {
  struct Words {
    std::int32_t v[2];
  };
  asm("ldrd %0, %1, [%2], #8" : "=&r"(a), "=&r"(b), "+r"(p) : "m"(*reinterpret_cast<const Words*>(p)));
}

// Eight columns of both rows: x's four words (two LDRDs where kWordX, else single loads), each
// row's two LDRDs, eight SMLADs; every pointer stepped past them.
template <bool kWordX>
[[gnu::always_inline]] inline void Ldrd8(const std::int16_t*& w0, const std::int16_t*& w1, const std::int16_t*& x,
                                         std::int32_t& a0, std::int32_t& a1) {
  for (int half = 0; half < 2; ++half) {
    std::int32_t xa, xb, wa, wb, va, vb;
    if constexpr (kWordX) {
      Load2(x, xa, xb);
    } else {
      xa = Load32(x), xb = Load32(x + 2);
      x += 4;
    }
    Load2(w0, wa, wb);
    Load2(w1, va, vb);
    a0 = Smlad(wb, xb, Smlad(wa, xa, a0));
    a1 = Smlad(vb, xb, Smlad(va, xa, a1));
  }
}

// PhaseSum2's main loop where w0 and w1 are 4-aligned (a dense model's rows when d is even): k > 0
// steps of eight columns, each row's words two per LDRD; x's the same where it is 4-aligned
// (kWordX), else two single loads, which Armv7-M and Armv8-M Mainline do unaligned: a caller's
// int16 buffer is only 2-aligned by the C language, and with the word-at-a-time loop below such an
// input cost house_fixed 9 % more instructions on the Cortex-M4F (3.5 % with this one).
template <bool kWordX>
[[gnu::always_inline]] inline void PhaseSum2Ldrd(const std::int16_t*& w0, const std::int16_t*& w1,
                                                 const std::int16_t*& x, std::uint32_t k, std::int32_t& a0,
                                                 std::int32_t& a1) {
  do Ldrd8<kWordX>(w0, w1, x, a0, a1);
  while (--k != 0);
}
#else
#define RFK_FIXED_LDRD 0
#endif

// Each word of x read once for both rows: five instructions per four multiply-accumulates; where
// w0 and w1 are 4-aligned, on M-profile cores, two words per load: seven or eight instructions per
// eight, loop aside. The loops are written do-while so that -Os emits one SUBS/BNE per iteration,
// not a test at the top and a branch at the bottom.
[[gnu::noinline]] inline std::uint64_t PhaseSum2(const std::int16_t* w0, const std::int16_t* w1,
                                                 const std::int16_t* x, std::uint32_t n) {
  // The n % 8 columns first, so that n is dead in the main loops (a register more for them). The
  // sums are modulo 2^32, so the order is free. An odd n leaves the rows' alignment unchanged for
  // the test below: with w1 = w0 + n, one of the two rows is 2 mod 4 either way.
  std::int32_t a0 = 0, a1 = 0;
  if (n & 1u) {
    // The empty asm keeps GCC from if-converting this block: eight predicated instructions that
    // every call would execute, where a branch costs two.
    asm volatile("");
    a0 = std::int32_t{w0[0]} * std::int32_t{x[0]};
    a1 = std::int32_t{w1[0]} * std::int32_t{x[0]};
    ++w0, ++w1, ++x;
  }
  if (n & 2u) {
    const std::int32_t xa = Load32(x);
    a0 = Smlad(Load32(w0), xa, a0);
    a1 = Smlad(Load32(w1), xa, a1);
    w0 += 2, w1 += 2, x += 2;
  }
  if (n & 4u) {
    const std::int32_t xa = Load32(x), xb = Load32(x + 2);
    a0 = Smlad(Load32(w0 + 2), xb, Smlad(Load32(w0), xa, a0));
    a1 = Smlad(Load32(w1 + 2), xb, Smlad(Load32(w1), xa, a1));
    w0 += 4, w1 += 4, x += 4;
  }
  std::uint32_t k = n / 8;
#if RFK_FIXED_LDRD
  const auto address = [](const std::int16_t* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (k != 0 && ((address(w0) | address(w1)) & 3u) == 0) {
    if ((address(x) & 3u) == 0) PhaseSum2Ldrd<true>(w0, w1, x, k, a0, a1);
    else PhaseSum2Ldrd<false>(w0, w1, x, k, a0, a1);
    k = 0;
  }
#endif
  // Each pointer stepped right after its load (post-indexed loads), eight columns per iteration.
  if (k != 0) do {
      for (int half = 0; half < 2; ++half) {
        const std::int32_t xa = Load32(x);
        x += 2;
        const std::int32_t xb = Load32(x);
        x += 2;
        a0 = Smlad(Load32(w0), xa, a0);
        w0 += 2;
        a1 = Smlad(Load32(w1), xa, a1);
        w1 += 2;
        a0 = Smlad(Load32(w0), xb, a0);
        w0 += 2;
        a1 = Smlad(Load32(w1), xb, a1);
        w1 += 2;
      }
    } while (--k != 0);
  return std::uint64_t{static_cast<std::uint32_t>(a0)} | std::uint64_t{static_cast<std::uint32_t>(a1)} << 32;
}

// QuarterCos with what every lookup shares held in registers: the table, the table one entry on
// (entry i + 1 read as next[i], not as an increment and an indexed load) and 2^16 (added with the
// shifted entry in one ADD). Hidden from the compiler by an empty asm, which would otherwise fold
// them back into each lookup: two instructions more a cosine on the Cortex-M4. The same integers.
struct QuarterTable {
  const std::uint16_t* at = kQuarterCos2;
  const std::uint16_t* next = kQuarterCos2 + 1;
  std::uint32_t round = 0x10000u;
  std::int32_t one = 1;
  QuarterTable() { asm("" : "+r"(at), "+r"(next), "+r"(round), "+r"(one)); }
  [[gnu::always_inline]] std::int32_t Cos(std::uint32_t p) const {
    const std::uint32_t i = p >> 22, frac = (p >> 6) & 0xFFFFu;
    const std::uint32_t a = at[i];
    return static_cast<std::int32_t>((round + (a << 16) - (a - next[i]) * frac) >> 17);
  }
  // CosTurnsInline's and CosSinTurnsInline's integers: the mirror, then each magnitude negated
  // where its quadrant's is.
  [[gnu::always_inline]] std::int16_t CosTurns(std::uint32_t phase) const {
    std::uint32_t p = phase & 0x3FFFFFFFu;
    if (phase & 0x40000000u) p = 0x40000000u - p;
    return Signed(Cos(p), phase ^ (phase << 1));
  }
  // v times 1 or -1, -1 where bit 31 of m is set: the factor as one ORR of the held 1 with m's
  // arithmetic shift (bit 30 of m is absorbed by the 1), not a mask and then an ORR.
  [[gnu::always_inline]] std::int16_t Signed(std::int32_t v, std::uint32_t m) const {
    return static_cast<std::int16_t>(v * (one | (static_cast<std::int32_t>(m) >> 30)));
  }
  [[gnu::always_inline]] void CosSin(std::uint32_t phase, std::int16_t& c, std::int16_t& s) const {
    std::uint32_t p = phase & 0x3FFFFFFFu;
    if (phase & 0x40000000u) p = 0x40000000u - p;
    c = Signed(Cos(p), phase ^ (phase << 1));
    s = Signed(Cos(0x40000000u - p), phase);
  }
};

// One loop per form, the cosine and sine of a phase sharing its quadrant logic (CosSinTurnsInline);
// the whole quads' phases 0, 1, 2, 3 go to slots 0, 2, 1, 3, two a step through pointers that step
// by 1, then 3 (an index per step cost 5 instructions); then the rest in place.
[[gnu::noinline]] inline void Features(const std::uint32_t* t, std::uint32_t n, bool pairs, std::int16_t* zc,
                                       std::int16_t* zs) {
  const std::uint32_t* const whole_end = t + (n & ~3u);
  const QuarterTable table;
  if (pairs) {
    // (Four phases a step, inlined four times, cost 0.4 KB more flash on the M4F.)
    for (std::uint32_t step = 1; t != whole_end; t += 2, zc += step, zs += step, step = 4 - step) {
      table.CosSin(t[0], zc[0], zs[0]);
      table.CosSin(t[1], zc[2], zs[2]);
    }
    for (std::uint32_t k = 0; k < n % 4; ++k) table.CosSin(t[k], zc[k], zs[k]);
  } else {
    for (std::uint32_t step = 1; t != whole_end; t += 2, zc += step, step = 4 - step) {
      zc[0] = table.CosTurns(t[0]);
      zc[2] = table.CosTurns(t[1]);
    }
    for (std::uint32_t k = 0; k < n % 4; ++k) zc[k] = table.CosTurns(t[k]);
  }
}

#if RFK_FIXED_LDRD
// Phases' pairs of rows where every row is word-aligned and d a positive multiple of 8 (so no
// column is left over): PhaseSum2Ldrd's steps (Ldrd8) inlined per pair, without PhaseSum2's
// per-call tests of d and of the alignment, which the caller made once. For a dense model with
// d % 8 == 0 (rows of 16-byte multiples), e.g. house_fixed's d = 16, where those tests and the call
// were as many instructions as the multiply-accumulates. (Sixteen columns an iteration ran out of
// registers: house_fixed 10,537 -> 14,052 instructions on the Cortex-M4F.)
template <bool kWordX>
[[gnu::always_inline]] inline void AlignedPairs(const std::int16_t* w, std::uint32_t d, const std::int16_t* x,
                                                std::uint32_t pairs, const std::uint8_t* phase,
                                                const std::uint8_t* shift, std::uint32_t* t) {
  // The loops end on pointers, not counts: a count was one register too many, and GCC kept it on
  // the stack (a load and a store an iteration). The inner one on x's end, the same for every pair.
  const std::int16_t* const x_end = x + d;
  for (const std::uint32_t* const t_end = t + 2 * pairs; t != t_end; phase += 8, shift += 2, t += 2) {
    const std::int16_t *w1 = w + d, *xp = x;
    std::int32_t a0 = 0, a1 = 0;
    do Ldrd8<kWordX>(w, w1, xp, a0, a1);
    while (xp != x_end);
    t[0] = core::LoadU32(phase) + (static_cast<std::uint32_t>(a0) << shift[0]);
    t[1] = core::LoadU32(phase + 4) + (static_cast<std::uint32_t>(a1) << shift[1]);
    w = w1;  // past the pair's second row
  }
}
#endif

// Every other case: PhaseSum2 per pair of rows. Its own function, so that the loop above does not
// take its registers (in one function, covtype_fixed's d = 54 rows cost 2 % more instructions).
[[gnu::noinline]] inline void PhasesByPairs(const std::int16_t* w, std::uint32_t d, const std::int16_t* x,
                                            std::uint32_t n, const std::uint8_t* phase, const std::uint8_t* shift,
                                            std::uint32_t* t) {
  PairedPhases([](auto&&... a) { return PhaseSum2(a...); }, w, d, x, n, phase, shift, t);
}

[[gnu::noinline]] inline void Phases(const std::int16_t* w, std::uint32_t d, const std::int16_t* x, std::uint32_t n,
                                     const std::uint8_t* phase, const std::uint8_t* shift, std::uint32_t* t) {
#if RFK_FIXED_LDRD
  if (d != 0 && d % 8 == 0 && (reinterpret_cast<std::uintptr_t>(w) & 3u) == 0 && n >= 2) {
    const std::uint32_t pairs = n / 2;
    if ((reinterpret_cast<std::uintptr_t>(x) & 3u) == 0) AlignedPairs<true>(w, d, x, pairs, phase, shift, t);
    else AlignedPairs<false>(w, d, x, pairs, phase, shift, t);
    if (n % 2 == 0) return;
    w += 2 * pairs * d, phase += 8 * pairs, shift += 2 * pairs, t += 2 * pairs, n = 1;  // the odd row
  }
#endif
  PhasesByPairs(w, d, x, n, phase, shift, t);
}

// Four int8 weights per word: SXTB16 gives (q0, q2) and, rotated by 8, (q1, q3), which meet z's
// quad order (z0, z2), (z1, z3) in two SMLADs.
[[gnu::noinline]] inline std::int32_t HeadDot(const std::int8_t* q, const std::int16_t* z, std::uint32_t n) {
  std::int32_t acc = 0;
  for (std::uint32_t k = n / 4; k != 0; --k, q += 4, z += 4) {
    const auto qq = static_cast<std::uint32_t>(Load32(q));
    acc = Smlad(Sxtb16(qq), Load32(z), acc);
    acc = Smlad(Sxtb16(Ror8(qq)), Load32(z + 2), acc);
  }
  for (std::uint32_t k = n % 4; k != 0; --k) acc += std::int32_t{*q++} * *z++;
  return acc;
}

// (a, b) <- (a + b, a - b) without a temporary: b' = a' - 2b, one SUB with a shifted operand on
// Thumb-2. In uint32 (modulo 2^32): exact, as the true a - b fits (the transform's bound).
[[gnu::always_inline]] inline void Butterfly(std::int32_t& a, std::int32_t& b) {
  const std::uint32_t sum = static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b);
  a = static_cast<std::int32_t>(sum);
  b = static_cast<std::int32_t>(sum - (static_cast<std::uint32_t>(b) << 1));
}
// Stages h, 2h and 4h of the transform on eight values h apart (a0 .. a7), in registers: named
// variables, as -Os neither unrolls loops nor keeps an array in registers.
#define RFK_FWHT8_(a0, a1, a2, a3, a4, a5, a6, a7)                                \
  Butterfly(a0, a1), Butterfly(a2, a3), Butterfly(a4, a5), Butterfly(a6, a7);     \
  Butterfly(a0, a2), Butterfly(a1, a3), Butterfly(a4, a6), Butterfly(a5, a7);     \
  Butterfly(a0, a4), Butterfly(a1, a5), Butterfly(a2, a6), Butterfly(a3, a7)

// Stages H, 2H, 4H over t (n a multiple of 8H), eight values H apart a step: H a constant, so that
// each is an immediate offset from one pointer (a runtime H took eight pointers, spilled).
template <std::uint32_t H>
[[gnu::always_inline]] inline void FwhtThreeStages(std::int32_t* t, std::uint32_t n) {
  for (std::int32_t *block = t, *end = t + n; block != end; block += 8 * H)
    for (std::int32_t *p = block, *stop = block + H; p != stop; ++p) {
      std::int32_t a0 = p[0], a1 = p[H], a2 = p[2 * H], a3 = p[3 * H], a4 = p[4 * H], a5 = p[5 * H], a6 = p[6 * H],
                   a7 = p[7 * H];
      RFK_FWHT8_(a0, a1, a2, a3, a4, a5, a6, a7);
      p[0] = a0, p[H] = a1, p[2 * H] = a2, p[3 * H] = a3, p[4 * H] = a4, p[5 * H] = a5, p[6 * H] = a6, p[7 * H] = a7;
    }
}

#if defined(__thumb2__) && !defined(__PIC__)
// FwhtThreeStages<1> on Thumb-2 (t to end, at least eight values, a multiple of eight): one LDM,
// the twelve butterflies as Butterfly's two instructions each, one STM: 28 instructions a step
// where GCC's code for the loop above took 41 (it pairs the loads as LDRD and most stores as STR).
// r7 is left alone (Thumb's frame pointer); not in position-independent code, whose r9 may be fixed.
[[gnu::always_inline]] inline void FwhtFirstThree(std::int32_t* t, std::int32_t* end) {
#define RFK_BF_(a, b) "add " a ", " a ", " b "\n\tsub " b ", " a ", " b ", lsl #1\n\t"
  asm volatile(
      "1:\n\t"
      "ldm %[p], {r4, r5, r6, r8, r9, r10, r11, r12}\n\t"
      RFK_BF_("r4", "r5") RFK_BF_("r6", "r8") RFK_BF_("r9", "r10") RFK_BF_("r11", "r12")
      RFK_BF_("r4", "r6") RFK_BF_("r5", "r8") RFK_BF_("r9", "r11") RFK_BF_("r10", "r12")
      RFK_BF_("r4", "r9") RFK_BF_("r5", "r10") RFK_BF_("r6", "r11") RFK_BF_("r8", "r12")
      "stmia %[p]!, {r4, r5, r6, r8, r9, r10, r11, r12}\n\t"
      "cmp %[p], %[end]\n\t"
      "bne 1b"
      : [p] "+r"(t)
      : [end] "r"(end)
      : "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "cc", "memory");
}

// FwhtThreeStages<8> on Thumb-2, one block of 64 values at t: eight steps of eight values 8 apart
// (immediate offsets), the same butterflies: 42 instructions a step against GCC's 47 (which
// reloaded a value and the loop's end).
[[gnu::always_inline]] inline void FwhtBlockAt8(std::int32_t* t) {
  std::int32_t* const stop = t + 8;
  asm volatile(
      "1:\n\t"
      "ldr r4, [%[p]]\n\tldr r5, [%[p], #32]\n\tldr r6, [%[p], #64]\n\tldr r8, [%[p], #96]\n\t"
      "ldr r9, [%[p], #128]\n\tldr r10, [%[p], #160]\n\tldr r11, [%[p], #192]\n\tldr r12, [%[p], #224]\n\t"
      RFK_BF_("r4", "r5") RFK_BF_("r6", "r8") RFK_BF_("r9", "r10") RFK_BF_("r11", "r12")
      RFK_BF_("r4", "r6") RFK_BF_("r5", "r8") RFK_BF_("r9", "r11") RFK_BF_("r10", "r12")
      RFK_BF_("r4", "r9") RFK_BF_("r5", "r10") RFK_BF_("r6", "r11") RFK_BF_("r8", "r12")
      "str r5, [%[p], #32]\n\tstr r6, [%[p], #64]\n\tstr r8, [%[p], #96]\n\tstr r9, [%[p], #128]\n\t"
      "str r10, [%[p], #160]\n\tstr r11, [%[p], #192]\n\tstr r12, [%[p], #224]\n\tstr r4, [%[p]], #4\n\t"
      "cmp %[p], %[stop]\n\t"
      "bne 1b"
      : [p] "+r"(t)
      : [stop] "r"(stop)
      : "r4", "r5", "r6", "r8", "r9", "r10", "r11", "r12", "cc", "memory");
#undef RFK_BF_
}
#endif

// Three stages per pass for h = 1 and 8 where n allows, then FwhtTwoStages or a single stage for
// what is left: 12 butterflies per 8 loads and 8 stores, against FwhtTwoStages' 4 per 4
// (covtype_ff_fixed, d' = 64, two three-stage passes: 77,465 -> 69,415 instructions a prediction
// on the Cortex-M4, `cost_fixed`, before FwhtFirstThree). No pass at h = 64: d' >= 512 (d > 256)
// is rare on a microcontroller, and its offsets need 32-bit encodings (192 B of flash on the M4).
[[gnu::noinline]] inline void Fwht(std::int32_t* t, std::uint32_t n) {
  std::uint32_t h = 1;
#if defined(__thumb2__) && !defined(__PIC__)
  if (n >= 8) FwhtFirstThree(t, t + n), h = 8;
  if (n >= 64) {
    for (std::int32_t *block = t, *end = t + n; block != end; block += 64) FwhtBlockAt8(block);
    h = 64;
  }
#else
  if (n >= 8) FwhtThreeStages<1>(t, n), h = 8;
  if (n >= 64) FwhtThreeStages<8>(t, n), h = 64;
#endif
  for (; 4 * h <= n; h *= 4) FwhtTwoStages(t, n, h);
  if (2 * h <= n)
    for (std::int32_t *p = t, *end = t + h; p != end; ++p) {
      const std::int32_t a = p[0], b = p[h];
      p[0] = a + b, p[h] = a - b;
    }
}
#undef RFK_FWHT8_

}  // namespace dsp

#if RFK_FIXED_MVE
// Eight int16 lanes per step: VMLADAVA (the eight products summed into a 32-bit accumulator,
// modulo 2^32 as the scalar sums), the tail of n % 8 columns as one tail-predicated step (VCTP:
// lanes past the tail load 0 and add nothing).
namespace mve {

// acc + sum_c w[c] x[c] over the n % 8 columns at w, x (n: the whole length).
[[gnu::always_inline]] inline std::int32_t Tail(const std::int16_t* w, const std::int16_t* x, std::uint32_t n,
                                                std::int32_t acc) {
  const mve_pred16_t p = vctp16q(n % 8);
  return vmladavaq_p_s16(acc, vldrhq_z_s16(w, p), vldrhq_z_s16(x, p), p);
}

[[gnu::always_inline]] inline std::uint32_t PhaseSum(const std::int16_t* w, const std::int16_t* x, std::uint32_t n) {
  std::int32_t acc = 0;
  for (const std::int16_t* end = x + (n & ~7u); x != end; x += 8, w += 8)
    acc = vmladavaq_s16(acc, vld1q_s16(w), vld1q_s16(x));
  return static_cast<std::uint32_t>(Tail(w, x, n, acc));
}

// x's eight lanes loaded once for both rows: three loads and two VMLADAVA per 16 products.
[[gnu::always_inline]] inline std::uint64_t PhaseSum2(const std::int16_t* w0, const std::int16_t* w1,
                                                      const std::int16_t* x, std::uint32_t n) {
  std::int32_t a0 = 0, a1 = 0;
  for (const std::int16_t* end = x + (n & ~7u); x != end; x += 8, w0 += 8, w1 += 8) {
    const int16x8_t xv = vld1q_s16(x);
    a0 = vmladavaq_s16(a0, vld1q_s16(w0), xv);
    a1 = vmladavaq_s16(a1, vld1q_s16(w1), xv);
  }
  const auto s0 = static_cast<std::uint32_t>(Tail(w0, x, n, a0));
  const auto s1 = static_cast<std::uint32_t>(Tail(w1, x, n, a1));
  return std::uint64_t{s0} | std::uint64_t{s1} << 32;
}

[[gnu::noinline]] inline void Phases(const std::int16_t* w, std::uint32_t d, const std::int16_t* x, std::uint32_t n,
                                     const std::uint8_t* phase, const std::uint8_t* shift, std::uint32_t* t) {
  PairedPhases([](auto&&... a) { return PhaseSum2(a...); }, w, d, x, n, phase, shift, t);
}

// QuarterCos four lanes at a time: the table's two entries gathered (VLDRH.U32 with offsets).
[[gnu::always_inline]] inline uint32x4_t QuarterCos4(uint32x4_t p) {
  const uint32x4_t i = vshrq_n_u32(p, 22);
  const uint32x4_t frac = vandq_u32(vshrq_n_u32(p, 6), vdupq_n_u32(0xFFFFu));
  const uint32x4_t a = vldrhq_gather_shifted_offset_u32(kQuarterCos2, i);
  const uint32x4_t drop = vsubq_u32(a, vldrhq_gather_shifted_offset_u32(kQuarterCos2 + 1, i));
  return vshrq_n_u32(vaddq_u32(vsubq_u32(vshlq_n_u32(a, 16), vmulq_u32(drop, frac)), vdupq_n_u32(0x10000u)), 17);
}
// v negated in the lanes whose mask is all ones (two's complement: (v ^ m) - m).
[[gnu::always_inline]] inline int32x4_t Negate(uint32x4_t v, uint32x4_t mask) {
  return vreinterpretq_s32_u32(vsubq_u32(veorq_u32(v, mask), mask));
}

// Four phases per step, read in quad order (VLDRW gathered at 0, 2, 1, 3) so that the features
// are stored in place (VSTRH.32, the low halves); CosSinTurnsInline's quadrant logic as lane
// masks (no predicates: see kernels_helium.cc); the last n % 4 one at a time, in place.
[[gnu::noinline]] inline void Features(const std::uint32_t* t, std::uint32_t n, bool pairs, std::int16_t* zc,
                                       std::int16_t* zs) {
  static const std::uint32_t kQuadOrder[4] = {0, 2, 1, 3};
  const uint32x4_t order = vld1q_u32(kQuadOrder);
  const uint32x4_t quarter = vdupq_n_u32(0x40000000u), one = vdupq_n_u32(1u);
  const std::uint32_t whole = n & ~3u;
  for (std::uint32_t j = 0; j < whole; j += 4) {
    const uint32x4_t tv = vldrwq_gather_shifted_offset_u32(t + j, order);
    const uint32x4_t quadrant = vshrq_n_u32(tv, 30);
    const uint32x4_t odd = vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(vandq_u32(quadrant, one))));
    const uint32x4_t p = vandq_u32(tv, vdupq_n_u32(0x3FFFFFFFu));
    const uint32x4_t mirrored = vorrq_u32(vbicq_u32(p, odd), vandq_u32(vsubq_u32(quarter, p), odd));
    // Quadrants 1 and 2 negate the cosine (bit 1 of quadrant + 1), 2 and 3 the sine (bit 1).
    const uint32x4_t cneg = vreinterpretq_u32_s32(
        vnegq_s32(vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(vaddq_u32(quadrant, one), 1), one))));
    vstrhq_s32(zc + j, Negate(QuarterCos4(mirrored), cneg));
    if (pairs) {
      const uint32x4_t sneg = vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(vshrq_n_u32(quadrant, 1))));
      vstrhq_s32(zs + j, Negate(QuarterCos4(vsubq_u32(quarter, mirrored)), sneg));
    }
  }
  for (std::uint32_t j = whole; j < n; ++j) {
    if (pairs) CosSinTurnsInline(t[j], zc[j], zs[j]);
    else zc[j] = CosTurnsInline(t[j]);
  }
}

// Eight features per step; z's quad order (0, 2, 1, 3) met by gathering q's bytes in that order
// (VLDRB.S16 with offsets, widened to int16), the last n % 8 by the DSP version (whose quads the
// tail keeps: it starts at a multiple of 8).
[[gnu::noinline]] inline std::int32_t HeadDot(const std::int8_t* q, const std::int16_t* z, std::uint32_t n) {
  static const std::uint16_t kQuadOffsets[8] = {0, 2, 1, 3, 4, 6, 5, 7};
  const uint16x8_t offsets = vld1q_u16(kQuadOffsets);
  std::int32_t acc = 0;
  for (const std::int16_t* end = z + (n & ~7u); z != end; z += 8, q += 8)
    acc = vmladavaq_s16(acc, vldrbq_gather_offset_s16(q, offsets), vld1q_s16(z));
  return acc + dsp::HeadDot(q, z, n % 8);
}

// Four int32 lanes (fwht_mve.h, the Helium table's float transform's code); n < 16 (d' < 16: a
// model of at most 8 inputs): the scalar loop.
[[gnu::noinline]] inline void Fwht(std::int32_t* t, std::uint32_t n) {
  if (n < 16) scalar::Fwht(t, n);
  else core::FwhtMve(t, n);
}

}  // namespace mve
#endif

// The version this core runs.
#if RFK_FIXED_MVE
namespace kernels = mve;
#elif RFK_FIXED_DSP
namespace kernels = dsp;
#else
namespace kernels = scalar;
#endif

}  // namespace rfk::fixed
