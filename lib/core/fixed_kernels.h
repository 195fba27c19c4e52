// The integer path's inner loops (issue 45), as the hosts' kernels are: one list, a scalar
// reference that is the oracle, and a version for cores with the Arm DSP extension (Armv7E-M:
// Cortex-M4, M7; Armv8-M Mainline: M33) that computes the same integers with dual 16-bit
// multiply-accumulates. There is no runtime dispatch on a microcontroller: the version is chosen
// when the core is compiled (RFK_FIXED_DSP, default: the compiler's __ARM_FEATURE_DSP). Where the
// extension is absent the DSP versions still compile, over plain C++ definitions of the few
// instructions they use (Smlad, Sxtb16), so every platform's parity test runs their loops.
//
// Contract of every kernel: integers only, no allocation, no library call; pointers need only
// their element's natural alignment (words are read with memcpy, which Armv7-M and Armv8-M
// Mainline do as single unaligned loads). Internal to lib/core.
#pragma once

#include <cstdint>

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#endif

#ifndef RFK_FIXED_DSP
#if defined(__ARM_FEATURE_DSP)
#define RFK_FIXED_DSP 1
#else
#define RFK_FIXED_DSP 0
#endif
#endif

// The list: generates the parity checks (tests/embedded/fixed_kernels_check.cc, every preset),
// so a kernel without its check does not compile.
//   PhaseSum  sum_c w[c] x[c] modulo 2^32, int16 w and x (the phase's own modulus: exact)
//   PhaseSum2 the same for two rows w0, w1 against one x (x read once for both)
//   HeadDot   sum_j q[j] z[j] for int8 q and int16 z with z in quad order (QuadSlot), n <= 256:
//             |q z| <= 127 * 32768 < 2^22, so the int32 sum is exact
#define RFK_FIXED_KERNEL_LIST(X) \
  X(PhaseSum)                    \
  X(PhaseSum2)                   \
  X(HeadDot)

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

// The quarter-wave table of CosTurns (fixed_cos.cc) and its body, inlined into PredictFixed's loops
// (the out-of-line CosTurns is this, called).
extern const std::uint16_t kQuarterCos2[258];
// The cosine's magnitude at mirrored position p in (0, 2^30] of a quadrant: one rounding for
// interpolation and scale, v = round((a * 2^16 - (a - b) * frac) / 2^17), in unsigned 32-bit
// arithmetic, exact: the table decreases (a >= b), a * 2^16 + 2^16 <= 65535 * 2^16 < 2^32, and the
// numerator is at least b * 2^16 >= 0.
[[gnu::always_inline]] inline std::int32_t QuarterCos(std::uint32_t p) {
  const std::uint32_t i = p >> 22;                // table index, 0..256
  const std::uint32_t frac = (p >> 6) & 0xFFFFu;  // the next 16 bits
  const std::uint32_t a = kQuarterCos2[i];
  const std::uint32_t drop = a - kQuarterCos2[i + 1];
  return static_cast<std::int32_t>(((a << 16) - drop * frac + 0x10000u) >> 17);
}
[[gnu::always_inline]] inline std::int16_t CosTurnsInline(std::uint32_t phase) {
  const std::uint32_t quadrant = phase >> 30;
  std::uint32_t p = phase & 0x3FFFFFFFu;  // position in the quadrant, [0, 2^30)
  if (quadrant & 1u) p = 0x40000000u - p;  // mirrored: (0, 2^30]
  const std::int32_t v = QuarterCos(p);
  return static_cast<std::int16_t>((quadrant == 1u || quadrant == 2u) ? -v : v);
}
// CosTurns(phase) and SinTurns(phase) at once, the same integers: SinTurns is CosTurns a quarter
// turn earlier, whose quadrant is one less and whose position in it is the same, so its mirrored
// position is 2^30 minus the cosine's, and it is negative in quadrants 2 and 3.
[[gnu::always_inline]] inline void CosSinTurnsInline(std::uint32_t phase, std::int16_t& c, std::int16_t& s) {
  const std::uint32_t quadrant = phase >> 30;
  std::uint32_t p = phase & 0x3FFFFFFFu;
  if (quadrant & 1u) p = 0x40000000u - p;
  const std::int32_t vc = QuarterCos(p), vs = QuarterCos(0x40000000u - p);
  c = static_cast<std::int16_t>((quadrant == 1u || quadrant == 2u) ? -vc : vc);
  s = static_cast<std::int16_t>(quadrant >= 2u ? -vs : vs);
}

namespace scalar {

[[gnu::always_inline]] inline std::uint32_t PhaseSum(const std::int16_t* w, const std::int16_t* x, std::uint32_t n) {
  std::uint32_t sum = 0;
  for (std::uint32_t c = 0; c < n; ++c)
    sum += static_cast<std::uint32_t>(std::int32_t{w[c]} * std::int32_t{x[c]});
  return sum;
}

[[gnu::noinline]] inline void PhaseSum2(const std::int16_t* w0, const std::int16_t* w1, const std::int16_t* x,
                                        std::uint32_t n, std::uint32_t& s0, std::uint32_t& s1) {
  s0 = PhaseSum(w0, x, n);
  s1 = PhaseSum(w1, x, n);
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

}  // namespace scalar

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

// Each word of x read once for both rows: five instructions per four multiply-accumulates.
[[gnu::noinline]] inline void PhaseSum2(const std::int16_t* w0, const std::int16_t* w1, const std::int16_t* x,
                                        std::uint32_t n, std::uint32_t& s0, std::uint32_t& s1) {
  std::int32_t a0 = 0, a1 = 0;
  // Each pointer stepped right after its load (post-indexed loads), eight columns per iteration.
  for (std::uint32_t k = n / 8; k != 0; --k) {
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
  }
  if (n & 4u) {
    const std::int32_t xa = Load32(x), xb = Load32(x + 2);
    a0 = Smlad(Load32(w0 + 2), xb, Smlad(Load32(w0), xa, a0));
    a1 = Smlad(Load32(w1 + 2), xb, Smlad(Load32(w1), xa, a1));
    w0 += 4, w1 += 4, x += 4;
  }
  if (n & 2u) {
    const std::int32_t xa = Load32(x);
    a0 = Smlad(Load32(w0), xa, a0);
    a1 = Smlad(Load32(w1), xa, a1);
    w0 += 2, w1 += 2, x += 2;
  }
  s0 = static_cast<std::uint32_t>(a0);
  s1 = static_cast<std::uint32_t>(a1);
  if (n & 1u) {
    s0 += static_cast<std::uint32_t>(std::int32_t{w0[0]} * std::int32_t{x[0]});
    s1 += static_cast<std::uint32_t>(std::int32_t{w1[0]} * std::int32_t{x[0]});
  }
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

}  // namespace dsp

// The version this core runs.
#if RFK_FIXED_DSP
namespace kernels = dsp;
#else
namespace kernels = scalar;
#endif

}  // namespace rfk::fixed
