// Scalar reference kernels (see include/rfk/kernels.hpp for the contract).
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "rfk/kernels.hpp"

#include "core_config.h"
#include "kernels_helium.h"
#include "scalar_table.h"
#include "sincos_ref.h"
#include "widen.h"

#include <cstdint>

namespace rfk {
namespace {

using sincos::kTwoOverPi;

// Large arguments (kSinCosFastRange < |x| <= kSinCosMaxArg) are reduced exactly in integers, so
// cores without a double-precision FPU (Cortex-M4F, M3) need no soft-float double routines.
// |x| = m * 2^e with a 24-bit integer m and -7 <= e <= 6; 2/pi to 96 bits, in three 32-bit limbs
// (0x0.A2F9836E 4E441529 FC2757D1...). The 120-bit product P = m * (2/pi) * 2^96 is formed exactly
// from its top (bits 60 up, a 64-bit word); |x| * 2/pi = P * 2^(e - 96), so the 32 bits of
// P >> (66 - e) are that product's two quadrant bits and 30 fraction bits (2/pi's truncation at
// 2^-96 moves the product by under 2^-66). Rounded to the nearest quadrant, the remainder f in
// [-1/2, 1/2] (units of 2^-30) times pi/2 (pi/4 * 2^32 = 0xC90FDAA2) gives r to about 2^-29
// (1.9e-9), far inside SinCosRef's 1.2e-7.
constexpr std::uint32_t kTwoOverPiBits[3] = {0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u};
constexpr std::uint32_t kPiOver4Q32 = 0xC90FDAA2u;

// v with its sign bit flipped where `sign` has bit 31 set (sign is 0 or 1u << 31): -v, or v.
inline float FlipSign(float v, std::uint32_t sign) {
  std::uint32_t bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  bits ^= sign;
  __builtin_memcpy(&v, &bits, sizeof v);
  return v;
}

// r and k mod 4 for finite x with kSinCosFastRange < |x| <= kSinCosMaxArg. x's sign is applied in
// integers (sin(-x) = -sin(x): k -> -k, r -> -r), without a branch.
inline float ReduceLarge(float x, std::uint32_t* quadrant) {
  std::uint32_t bits;
  __builtin_memcpy(&bits, &x, sizeof bits);
  const std::uint32_t m = (bits & 0x7FFFFFu) | 0x800000u;
  // P = m T0 2^64 + m T1 2^32 + m T2: each partial sum below keeps the carries exactly.
  const std::uint64_t low = (std::uint64_t{m} * kTwoOverPiBits[2]) >> 32;
  const std::uint64_t mid = std::uint64_t{m} * kTwoOverPiBits[1] + low;  // low word: P's bits 32..63
  const std::uint64_t top = std::uint64_t{m} * kTwoOverPiBits[0] + (mid >> 32);  // P >> 64
  const std::uint64_t p60 = (top << 4) | (static_cast<std::uint32_t>(mid) >> 28);  // P >> 60
  // P >> (66 - e) = p60 >> (6 - e), the shift 0..13 here (the biased exponent is 143..156); its
  // low 32 bits.
  const auto v = static_cast<std::uint32_t>(p60 >> (156u - ((bits >> 23) & 0xFFu)));
  const std::uint32_t rounded = v + (1u << 29);
  const std::uint32_t negate = 0u - (bits >> 31);  // all ones for a negative x
  *quadrant = (((rounded >> 30) ^ negate) - negate) & 3u;
  const std::uint32_t f = v - (rounded & 0xC0000000u);  // two's complement, |f| <= 2^29
  const std::uint32_t f_sign = 0u - (f >> 31);
  const std::uint32_t abs_f = (f ^ f_sign) - f_sign;
  // |r| = |f| 2^-30 pi/2 = |f| kPiOver4Q32 2^-61: at most pi/4, as r32 2^-32.
  const auto r32 = static_cast<std::uint32_t>((std::uint64_t{abs_f} * kPiOver4Q32) >> 29);
  return FlipSign(static_cast<float>(r32) * 0x1p-32f, (f ^ bits) & 0x80000000u);
}

#if defined(RFK_CORE_PLAIN_LOOPS)
constexpr bool kPlainLoops = true;
#else
constexpr bool kPlainLoops = false;
#endif

}  // namespace

void SinCosRef(float x, float* sin_out, float* cos_out) noexcept {
  float r;
  std::uint32_t quadrant;
  const float ax = x < 0.0f ? -x : x;
  if (ax <= kSinCosFastRange) {
    const float kf = x * kTwoOverPi;
    const auto k = static_cast<std::int32_t>(kf + (kf >= 0.0f ? 0.5f : -0.5f));
    const auto fk = static_cast<float>(k);
    r = sincos::Reduce(x, fk);
    quadrant = static_cast<std::uint32_t>(k) & 3u;
  } else if (ax <= kSinCosMaxArg) {
    r = ReduceLarge(x, &quadrant);
  } else {  // NaN, infinity, or too large to mean anything in float
    const float nan = __builtin_nanf("");
    *sin_out = nan;
    *cos_out = nan;
    return;
  }
  const float s = sincos::SinPoly(r);
  const float c = sincos::CosPoly(r);
  // Quadrant q: sine (s, c, -s, -c)[q], cosine (c, -s, -c, s)[q]. With the plainest loops (a core
  // built for size; the soft-float cores) an odd q swaps them and the signs flip as integers (sine
  // negative in quadrants 2 and 3, cosine in 1 and 2): the same bits, 16 B less on the Cortex-M4F,
  // but there 5 % more instructions a house_pair prediction (each value crosses to the integer
  // registers and back), so not where the FPU does the negations.
  if (kPlainLoops) {
    const bool odd = (quadrant & 1u) != 0;
    *sin_out = FlipSign(odd ? c : s, (quadrant & 2u) << 30);
    *cos_out = FlipSign(odd ? s : c, ((quadrant + 1u) & 2u) << 30);
    return;
  }
  switch (quadrant) {
    case 0: *sin_out = s; *cos_out = c; break;
    case 1: *sin_out = c; *cos_out = -s; break;
    case 2: *sin_out = -s; *cos_out = -c; break;
    default: *sin_out = -c; *cos_out = s; break;
  }
}

float CosRef(float x) noexcept {
  float s, c;
  SinCosRef(x, &s, &c);
  return c;
}

void StandardizeRef(const float* x, const float* mean, const float* inv_scale, std::uint32_t d,
                    float* out) noexcept {
  for (std::uint32_t c = 0; c < d; ++c) out[c] = (x[c] - mean[c]) * inv_scale[c];
}

namespace {
inline float DotRef(const float* w, const float* x, std::uint32_t d) {
  float acc = 0.0f;
  std::uint32_t c = 0;
#if !defined(RFK_CORE_PLAIN_LOOPS)
  // Four terms per iteration, added in the same order: the same bits with a quarter of the loop
  // overhead (Cortex-M4F: 6 -> 3.5 instructions per multiply-add).
  for (; c + 4 <= d; c += 4) {
    acc += w[c] * x[c];
    acc += w[c + 1] * x[c + 1];
    acc += w[c + 2] * x[c + 2];
    acc += w[c + 3] * x[c + 3];
  }
#endif
  for (; c < d; ++c) acc += w[c] * x[c];
  return acc;
}
}  // namespace

void FourierPhaseRef(const float* W, const float* b, const float* x, std::uint32_t F,
                     std::uint32_t d, float scale, float* z) noexcept {
  for (std::uint32_t j = 0; j < F; ++j) {
    const float arg = DotRef(W + static_cast<std::uint64_t>(j) * d, x, d) + b[j];
    z[j] = scale * CosRef(arg);
  }
}

void FourierPairRef(const float* W, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                    float* z) noexcept {
  for (std::uint32_t j = 0; j < F; ++j) {
    const float arg = DotRef(W + static_cast<std::uint64_t>(j) * d, x, d);
    float s, c;
    SinCosRef(arg, &s, &c);
    z[j] = scale * c;
    z[F + j] = scale * s;
  }
}

namespace {
// acc + sum_j w(j) z[j] in j order, one accumulator; with pair != 0 each j's second-half term,
// w(pair + j) z[D + j], right after its first-half one (kernels.hpp: LinearHeadQuantRef). w(c): the
// weight at element c of the row. Four terms per iteration where loops are unrolled, added in the
// same order (the head's share of a prediction on the Cortex-M4F: 3.5 instructions per
// multiply-add instead of 6).
template <bool kPairsOnly = false, class Weight>
[[gnu::always_inline]] inline float HeadSum(float acc, Weight w, const float* z, std::uint32_t D, std::uint32_t pair) {
  std::uint32_t j = 0;
  if (!kPairsOnly && pair == 0) {
#if !defined(RFK_CORE_PLAIN_LOOPS)
    for (; j + 4 <= D; j += 4) {
      acc += w(j) * z[j];
      acc += w(j + 1) * z[j + 1];
      acc += w(j + 2) * z[j + 2];
      acc += w(j + 3) * z[j + 3];
    }
#endif
    for (; j < D; ++j) acc += w(j) * z[j];
    return acc;
  }
  const float* zs = z + D;
#if !defined(RFK_CORE_PLAIN_LOOPS)
  for (; j + 2 <= D; j += 2) {
    acc += w(j) * z[j];
    acc += w(pair + j) * zs[j];
    acc += w(j + 1) * z[j + 1];
    acc += w(pair + j + 1) * zs[j + 1];
  }
#endif
  for (; j < D; ++j) {
    acc += w(j) * z[j];
    acc += w(pair + j) * zs[j];
  }
  return acc;
}

// Row k of an f32 head from its bias: HeadSum on the stored weights. Not inlined: one copy serves
// LinearHeadRef and the scalar table's LinearHead (flash on Cortex-M). kPairsOnly: pair != 0 (the
// table's head in a core without the phase form, which refuses phase models at open), the
// single-half loop not compiled.
template <bool kPairsOnly = false>
__attribute__((noinline)) float HeadRowF32(const float* h, float bias, const float* z, std::uint32_t D,
                                           std::uint32_t pair) {
  return HeadSum<kPairsOnly>(bias, [h](std::uint32_t c) { return h[c]; }, z, D, pair);
}
}  // namespace

void LinearHeadRef(const float* H, const float* bias, const float* z, std::uint32_t K,
                   std::uint32_t D, float* out) noexcept {
  for (std::uint32_t k = 0; k < K; ++k) out[k] = HeadRowF32(H + static_cast<std::uint64_t>(k) * D, bias[k], z, D, 0);
}

namespace {
// Row j of W in sums: where element c of row j lies (panels: 16 frequencies interleaved per panel).
inline std::uint64_t WIndex(bool panels, std::uint64_t j, std::uint64_t c, std::uint64_t d) {
  return panels ? (j / 16) * 16 * d + c * 16 + j % 16 : j * d + c;
}
// The sum of w[c * step] x[c] over c in [0, d), in c order from 0.0f: an f32 row of W (step 1, or
// the panel width). Not inlined: QuantDot's f32 case, and where f32 W goes through QuantFeaturesRef
// (a core built for size: scalar_table.h, kF32AsQuant), called directly, without QuantDot's storage
// tests per row.
__attribute__((noinline)) float StridedDot(const float* w, const float* x, std::uint32_t d, std::uint32_t step) {
  float acc = 0.0f;
  for (const float* end = x + d; x != end; ++x, w += step) acc += *w * *x;
  return acc;
}

// The dot product of row j of W with x[0 .. d), as kernels.hpp specifies per storage. `row_start`
// and `step` (1, or the panel width) give element c's index: row_start + c * step. The loops walk
// pointers (an index c * step in 64 bits cost a multiply-add pair per weight on 32-bit cores).
__attribute__((noinline)) float QuantDot(const WeightsView& W, std::uint64_t row, std::uint64_t row_start,
                      std::uint32_t step, const float* x, std::uint32_t d) {
  float acc = 0.0f;
  const float* const end = x + d;
  if (core::kFloatInt8 && W.type == WeightType::kInt8) {
    for (const auto* q = static_cast<const std::int8_t*>(W.data) + row_start; x != end; ++x, q += step)
      acc += static_cast<float>(*q) * *x;
    return W.scale[row] * acc;
  }
  if (core::kFloatF16 && W.type != WeightType::kF32) {  // f16, f16-scaled
    // The scale read before the loop (1 for f16: s * acc is then acc exactly), so the type need
    // not stay live through it (a register: the Cortex-M4F's f16 loop took one more instruction
    // per weight, a9a_f16 320,830 -> 337,212 instructions).
    const float s = W.type == WeightType::kF16Scaled ? W.scale[row] : 1.0f;
    for (const auto* h = static_cast<const std::uint16_t*>(W.data) + row_start; x != end; ++x, h += step)
      acc += core::WidenHalf(*h) * *x;
    return s * acc;
  }
  return StridedDot(static_cast<const float*>(W.data) + row_start, x, d, step);
}
inline float WRowDot(const WeightsView& W, bool panels, std::uint32_t j, const float* x, std::uint32_t d) {
  return QuantDot(W, j, WIndex(panels, j, 0, d), panels ? 16u : 1u, x, d);
}
}  // namespace

namespace {
#if !defined(RFK_CORE_PLAIN_LOOPS)
using core::Widen;  // a stored weight widened as QuantDot widens it (widen.h)

// Eight rows of a panel of an int8 or f16 W (element c of row j at rows[c * 16 + j], j < 8):
// acc[j] = sum_c widen(w_jc) x[c], c in order from 0.0f: QuantDot's operations in its order for
// each row (bit-identical), before the row's scale. Named accumulators, as PanelDot's, so that a
// core with 32 float registers keeps them there: about 4.6 instructions per weight (load, move,
// convert -- VCVT for int8, VCVTB for f16 --, multiply-accumulate; x and the loop shared by eight;
// the Cortex-M FPUs take the specialisations below) against QuantDot's 9 (int8) and 16 (f16) on a
// row 16 elements apart;
// eight rows, not the panel's 16, for half the flash (256 B less on the Cortex-M4F, 3 % more
// instructions). Not inlined: one copy per storage serves both halves and forms. Cores whose
// float operations are library calls keep QuantDot's loop.
template <class T>
__attribute__((noinline)) void RowsDot8(const T* rows, const float* x, std::uint32_t d, float* acc) {
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
  const T* q = rows;
  for (const float* end = x + d; x != end; ++x, q += 16) {
    const float xc = *x;
    a0 += Widen(q[0]) * xc; a1 += Widen(q[1]) * xc; a2 += Widen(q[2]) * xc; a3 += Widen(q[3]) * xc;
    a4 += Widen(q[4]) * xc; a5 += Widen(q[5]) * xc; a6 += Widen(q[6]) * xc; a7 += Widen(q[7]) * xc;
  }
  acc[0] = a0; acc[1] = a1; acc[2] = a2; acc[3] = a3; acc[4] = a4; acc[5] = a5; acc[6] = a6; acc[7] = a7;
}

#if RFK_WIDEN_VCVTB
// f16 where the FPU converts half precision (widen.h): a column's eight weights in four 32-bit
// loads straight into float registers (VLDR), each pair widened by VCVTB (the low half) and VCVTT
// (the high one), exact as WidenHalf; then the same multiply-adds in the same order, so the same
// bits. About 3 instructions a weight on the Cortex-M4F against the generic loop's 4.6 (no LDRH
// and no core-to-FPU move per weight). Requires `rows` 4-byte aligned (a VFP load faults
// otherwise): QuantFeaturesRef sends only a W whose base is (RowsAligned), and the panel offsets
// it passes are multiples of 8 halves.
template <>
__attribute__((noinline)) void RowsDot8(const std::uint16_t* rows, const float* x, std::uint32_t d, float* acc) {
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
  const std::uint16_t* q = rows;
  for (const float* end = x + d; x != end; ++x, q += 16) {
    const float xc = *x;
    float w0, w1, w2, w3, w4, w5, w6, w7;
    asm("vldr %1, [%8]\n\tvldr %3, [%8, #4]\n\tvldr %5, [%8, #8]\n\tvldr %7, [%8, #12]\n\t"
        "vcvtb.f32.f16 %0, %1\n\tvcvtt.f32.f16 %1, %1\n\tvcvtb.f32.f16 %2, %3\n\tvcvtt.f32.f16 %3, %3\n\t"
        "vcvtb.f32.f16 %4, %5\n\tvcvtt.f32.f16 %5, %5\n\tvcvtb.f32.f16 %6, %7\n\tvcvtt.f32.f16 %7, %7"
        : "=t"(w0), "=t"(w1), "=t"(w2), "=t"(w3), "=t"(w4), "=t"(w5), "=t"(w6), "=t"(w7)
        : "r"(q), "m"(*reinterpret_cast<const std::uint16_t(*)[8]>(q)));
    a0 += w0 * xc; a1 += w1 * xc; a2 += w2 * xc; a3 += w3 * xc;
    a4 += w4 * xc; a5 += w5 * xc; a6 += w6 * xc; a7 += w7 * xc;
  }
  acc[0] = a0; acc[1] = a1; acc[2] = a2; acc[3] = a3; acc[4] = a4; acc[5] = a5; acc[6] = a6; acc[7] = a7;
}
// int8 where the FPU is a VFP of S registers (the same cores): each weight still loaded
// sign-extended (LDRSB) and converted (VCVT), but moved to the FPU two at a time (one VMOV of two
// core registers into a pair of S registers, which asm needs fixed: s0-s7 here) instead of one
// VMOV each: 33 instructions per 8 weights on the Cortex-M4F against the generic loop's 37. Then
// the same multiply-adds in the same order, so the same bits. No alignment needed (byte loads).
template <>
__attribute__((noinline)) void RowsDot8(const std::int8_t* rows, const float* x, std::uint32_t d, float* acc) {
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
  const std::int8_t* q = rows;
  for (const float* end = x + d; x != end; ++x, q += 16) {
    const float xc = *x;
    const std::int32_t t0 = q[0], t1 = q[1], t2 = q[2], t3 = q[3], t4 = q[4], t5 = q[5], t6 = q[6], t7 = q[7];
    register float w0 asm("s0"), w1 asm("s1"), w2 asm("s2"), w3 asm("s3");
    register float w4 asm("s4"), w5 asm("s5"), w6 asm("s6"), w7 asm("s7");
    asm("vmov %0, %1, %8, %9\n\tvmov %2, %3, %10, %11\n\tvmov %4, %5, %12, %13\n\tvmov %6, %7, %14, %15\n\t"
        "vcvt.f32.s32 %0, %0\n\tvcvt.f32.s32 %1, %1\n\tvcvt.f32.s32 %2, %2\n\tvcvt.f32.s32 %3, %3\n\t"
        "vcvt.f32.s32 %4, %4\n\tvcvt.f32.s32 %5, %5\n\tvcvt.f32.s32 %6, %6\n\tvcvt.f32.s32 %7, %7"
        : "=t"(w0), "=t"(w1), "=t"(w2), "=t"(w3), "=t"(w4), "=t"(w5), "=t"(w6), "=t"(w7)
        : "r"(t0), "r"(t1), "r"(t2), "r"(t3), "r"(t4), "r"(t5), "r"(t6), "r"(t7));
    a0 += w0 * xc; a1 += w1 * xc; a2 += w2 * xc; a3 += w3 * xc;
    a4 += w4 * xc; a5 += w5 * xc; a6 += w6 * xc; a7 += w7 * xc;
  }
  acc[0] = a0; acc[1] = a1; acc[2] = a2; acc[3] = a3; acc[4] = a4; acc[5] = a5; acc[6] = a6; acc[7] = a7;
}
// Whether an f16 W can go through RowsDot8 (its 32-bit loads need a 4-byte aligned base; the
// contract asks only the halves' natural alignment, which a model's sections exceed).
inline bool RowsAligned(const void* w) { return (reinterpret_cast<std::uintptr_t>(w) & 3u) == 0; }
#else
inline bool RowsAligned(const void*) { return true; }
#endif
#endif

// Both forms in one function (b given: phase; b null: pairs), the scalar table's FourierQuant: one
// copy of the loop in a Cortex-M image. A W in panels goes eight rows at a time (RowsDot8) where
// loops are restructured; a row-major W, and every W on the soft-float cores, row by row.
void QuantFeaturesRef(const WeightsView& W, bool panels, const float* b, const float* x, std::uint32_t F,
                      std::uint32_t d, float scale, float* z) {
#if !defined(RFK_CORE_PLAIN_LOOPS)
  float acc[8];
#endif
  for (std::uint32_t j = 0; j < F; ++j) {
    float arg;
#if !defined(RFK_CORE_PLAIN_LOOPS)
    if (panels && ((core::kFloatInt8 && W.type == WeightType::kInt8) ||
                   (core::kFloatF16 && W.type == WeightType::kF16 && RowsAligned(W.data)))) {  // 16 rows exist
      if (j % 8 == 0) {  // rows j .. j + 7 of panel j / 16
        const std::size_t at = std::size_t{j / 16 * 16} * d + j % 16;
        if (core::IsInt8(W.type)) RowsDot8(static_cast<const std::int8_t*>(W.data) + at, x, d, acc);
        else RowsDot8(static_cast<const std::uint16_t*>(W.data) + at, x, d, acc);
      }
      arg = core::IsInt8(W.type) ? W.scale[j] * acc[j % 8] : acc[j % 8];  // f16: QuantDot's 1 * acc
    } else
#endif
    if (core::kF32AsQuant && W.type == WeightType::kF32) {
      const std::size_t at = panels ? std::size_t{j / 16 * 16} * d + j % 16 : std::size_t{j} * d;  // WIndex's
      arg = StridedDot(static_cast<const float*>(W.data) + at, x, d, panels ? 16u : 1u);
    } else {
      arg = WRowDot(W, panels, j, x, d);
    }
    float s, c;
    SinCosRef(b != nullptr ? arg + b[j] : arg, &s, &c);
    z[j] = scale * c;
    if (b == nullptr) z[F + j] = scale * s;
  }
}
}  // namespace

void FourierPhaseQuantRef(const WeightsView& W, bool panels, const float* b, const float* x,
                          std::uint32_t F, std::uint32_t d, float scale, float* z) noexcept {
  QuantFeaturesRef(W, panels, b, x, F, d, scale, z);
}
void FourierPairQuantRef(const WeightsView& W, bool panels, const float* x, std::uint32_t F,
                         std::uint32_t d, float scale, float* z) noexcept {
  QuantFeaturesRef(W, panels, nullptr, x, F, d, scale, z);
}
namespace {
// acc + sum_j s w(j) z[j] in HeadSum's order, plain loops: the quantized heads' (s: the row's scale,
// 1 for f16, so that s * w is then w exactly).
template <class Widen>
[[gnu::always_inline]] inline float QuantSum(float acc, float s, Widen w, const float* z, std::uint32_t D,
                                             std::uint32_t pair) {
  if (pair == 0) {
    for (std::uint32_t j = 0; j < D; ++j) acc += s * w(j) * z[j];
    return acc;
  }
  const float* zs = z + D;
  for (std::uint32_t j = 0; j < D; ++j) {
    acc += s * w(j) * z[j];
    acc += s * w(pair + j) * zs[j];
  }
  return acc;
}

// Row k of a quantized head (int8, f16, f16-scaled; f32 through HeadRowF32, or here with a scale of 1
// in a core built for size: scalar_table.h, kF32AsQuant) from acc: HeadSum's
// order with each weight widened as WeightAt does. Not inlined: one copy for every caller.
__attribute__((noinline)) float HeadRowQuant(const WeightsView& H, std::uint32_t k, std::uint64_t row, float acc,
                                             const float* z, std::uint32_t D, std::uint32_t pair) {
  if (core::kF32AsQuant && core::kHeadF32 && H.type == WeightType::kF32) {  // 1 * w is w: HeadRowF32's bits
    const auto* h = static_cast<const float*>(H.data) + row;
    return QuantSum(acc, 1.0f, [h](std::uint32_t c) { return h[c]; }, z, D, pair);
  }
  const float s = H.type == WeightType::kF16 ? 1.0f : H.scale[k];
  if (core::IsInt8(H.type)) {
    const auto* q = static_cast<const std::int8_t*>(H.data) + row;
    return QuantSum(acc, s, [q](std::uint32_t c) { return static_cast<float>(q[c]); }, z, D, pair);
  }
  const auto* h = static_cast<const std::uint16_t*>(H.data) + row;
  return QuantSum(acc, s, [h](std::uint32_t c) { return core::WidenHalf(h[c]); }, z, D, pair);
}
}  // namespace

void LinearHeadQuantRef(const WeightsView& H, std::uint32_t stride, std::uint32_t pair, const float* bias,
                        const float* z, std::uint32_t K, std::uint32_t D, float* out) noexcept {
  for (std::uint32_t k = 0; k < K; ++k) {
    const std::uint64_t row = std::uint64_t{k} * stride;
    // A core built without the f32 head (RFK_HEAD_F32 0) refused every f32 head at open: its
    // quantized head's loop alone is linked.
    out[k] = core::kHeadF32 && !core::kF32AsQuant && H.type == WeightType::kF32
                 ? HeadRowF32(static_cast<const float*>(H.data) + row, bias[k], z, D, pair)
                 : HeadRowQuant(H, k, row, bias[k], z, D, pair);
  }
}

// ---------------------------------------------------------------- the scalar table

// The kernels of the scalar table (scalar_table.h lists its entries), with their helpers.
namespace core::scalar {

namespace {
constexpr std::uint32_t kPw = 16;  // format::kPanelWidth

// One panel: acc[j] = sum_c W[j][c] x[c] for the panel's 16 frequencies, c in order from 0.0f:
// the same operations, in the same order, as DotRef on the row-major W (bit-identical). The 16
// accumulators are named variables so that a core with 32 float registers (Cortex-M4F/M7) keeps
// them in registers: with an array, GCC loads and stores one per multiply-add.
// Not inlined: one copy of the unrolled loop serves both forms (flash matters on Cortex-M).
__attribute__((noinline)) void PanelDot(const float* panel, const float* x, std::uint32_t d, float* acc) {
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, a4 = 0.0f, a5 = 0.0f, a6 = 0.0f, a7 = 0.0f;
  float a8 = 0.0f, a9 = 0.0f, a10 = 0.0f, a11 = 0.0f, a12 = 0.0f, a13 = 0.0f, a14 = 0.0f, a15 = 0.0f;
  for (std::uint32_t c = 0; c < d; ++c) {
    const float xc = x[c];
    const float* w = panel + static_cast<std::uint64_t>(c) * kPw;
    a0 += w[0] * xc; a1 += w[1] * xc; a2 += w[2] * xc; a3 += w[3] * xc;
    a4 += w[4] * xc; a5 += w[5] * xc; a6 += w[6] * xc; a7 += w[7] * xc;
    a8 += w[8] * xc; a9 += w[9] * xc; a10 += w[10] * xc; a11 += w[11] * xc;
    a12 += w[12] * xc; a13 += w[13] * xc; a14 += w[14] * xc; a15 += w[15] * xc;
  }
  acc[0] = a0; acc[1] = a1; acc[2] = a2; acc[3] = a3; acc[4] = a4; acc[5] = a5; acc[6] = a6;
  acc[7] = a7; acc[8] = a8; acc[9] = a9; acc[10] = a10; acc[11] = a11; acc[12] = a12;
  acc[13] = a13; acc[14] = a14; acc[15] = a15;
}
}  // namespace

void StandardizeF16(const float* x, const std::uint16_t* mean, const std::uint16_t* inv_scale,
                    std::uint32_t d, float* out) noexcept {
  for (std::uint32_t c = 0; c < d; ++c) out[c] = (x[c] - core::WidenHalf(mean[c])) * core::WidenHalf(inv_scale[c]);
}

namespace {
#if defined(RFK_CORE_PLAIN_LOOPS)
// One row's sum over a W in panels (its elements kPw apart), from 0.0f in c order: PanelDot's
// operations for that row. Not inlined: by pointer, in few registers (inlined into Features' loop,
// its values spilled around every soft-float call: +10 % instructions on the Cortex-M3).
__attribute__((noinline)) float PanelRowDot(const float* w, const float* x, std::uint32_t d) {
  float acc = 0.0f;
  for (const float* end = x + d; x != end; ++x, w += kPw) acc += *w * *x;
  return acc;
}
#endif

// Both Fourier forms in one function (b given: phase; b null: pair), for flash on Cortex-M. The
// soft-float cores (RFK_CORE_PLAIN_LOOPS) take each row's sum by itself (PanelRowDot: the same
// bits), without PanelDot's 16 sums on the stack: 64 B less under every cosine's soft-float calls,
// the deepest chain of a Cortex-M0 prediction.
//
// A core with Fastfood and without the dense map (core_config.h) calls this only for Fastfood's
// features (FastfoodFeatures, FourierBlocks): d = 1, W its transform's outputs, x = {1}. W's
// panels are then W in order and each row's sum is 0 + w_j x_0, the sum PanelDot and PanelRowDot
// form, which such a core computes directly (no dot product linked).
__attribute__((noinline)) void Features(const float* Wp, const float* b, const float* x,
                                        std::uint32_t F, std::uint32_t d, float scale, float* z) {
  if (core::kFloatFastfood && !core::kFloatDense) {
    for (std::uint32_t j = 0; j < F; ++j) {
      const float acc = 0.0f + Wp[j] * x[0];
      float s, c;
      SinCosRef(b != nullptr ? acc + b[j] : acc, &s, &c);
      z[j] = scale * c;
      if (b == nullptr) z[F + j] = scale * s;
    }
    return;
  }
#if defined(RFK_CORE_PLAIN_LOOPS)
  for (std::uint32_t j = 0; j < F; ++j) {
    const float acc = PanelRowDot(Wp + static_cast<std::uint64_t>(j / kPw) * kPw * d + j % kPw, x, d);
    float s, c;
    SinCosRef(b != nullptr ? acc + b[j] : acc, &s, &c);
    z[j] = scale * c;
    if (b == nullptr) z[F + j] = scale * s;
  }
#else
  float acc[kPw];
  for (std::uint32_t j0 = 0; j0 < F; j0 += kPw) {
    PanelDot(Wp + static_cast<std::uint64_t>(j0) * d, x, d, acc);
    const std::uint32_t n = F - j0 < kPw ? F - j0 : kPw;
    for (std::uint32_t j = 0; j < n; ++j) {
      float s, c;
      SinCosRef(b != nullptr ? acc[j] + b[j0 + j] : acc[j], &s, &c);
      z[j0 + j] = scale * c;
      if (b == nullptr) z[F + j0 + j] = scale * s;
    }
  }
#endif
}
}  // namespace

// The table's entries call their helper only where the build has them (scalar_table.h,
// RFK_SCALAR_BUILT_): an entry left out is an empty function the linker drops, so that Features
// (HeadBatch) is compiled for the one form the build calls.
void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F,
                  std::uint32_t d, float scale, float* z) noexcept {
  if (RFK_SCALAR_BUILT_FourierPhase) Features(Wp, b, x, F, d, scale, z);
}

void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d,
                 float scale, float* z) noexcept {
  if (RFK_SCALAR_BUILT_FourierPair) Features(Wp, nullptr, x, F, d, scale, z);
}

namespace {
// Batch prediction, one sample at a time: each panel's features go straight into the head sums
// (out[k] starts at the bias, as in LinearHeadRef), so no feature row is stored.
// Both forms give Predict's bits through the scalar table: the same features, and the head summed
// from the bias in frequency order, each sine's term right after its cosine's (LinearHeadQuantRef's
// order, which no block size changes). One function for both forms: flash
// matters on Cortex-M.
__attribute__((noinline)) void HeadBatch(const float* Wp, const float* b, const float* X,
                                         std::uint32_t n, std::uint32_t F, std::uint32_t d,
                                         float scale, const float* H, const float* bias,
                                         std::uint32_t K, float* out) {
  float acc[kPw];
  const std::uint64_t Df = b != nullptr ? F : std::uint64_t{2} * F;
  for (std::uint32_t i = 0; i < n; ++i, out += K) {
    for (std::uint32_t k = 0; k < K; ++k) out[k] = bias[k];
    for (std::uint32_t j0 = 0; j0 < F; j0 += kPw) {
      PanelDot(Wp + static_cast<std::uint64_t>(j0) * d, X + static_cast<std::uint64_t>(i) * d, d, acc);
      const std::uint32_t m = F - j0 < kPw ? F - j0 : kPw;
      for (std::uint32_t j = 0; j < m; ++j) {
        float s, c;
        SinCosRef(b != nullptr ? acc[j] + b[j0 + j] : acc[j], &s, &c);
        const float zc = scale * c, zs = scale * s;
        for (std::uint32_t k = 0; k < K; ++k) {
          const float* h = H + k * Df + j0 + j;
          out[k] += h[0] * zc;
          if (b == nullptr) out[k] += h[F] * zs;
        }
      }
    }
  }
}
}  // namespace

void FourierPhaseHeadBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                           std::uint32_t F, std::uint32_t d, float scale, const float* H,
                           const float* bias, std::uint32_t K, float*, float* out) noexcept {
  if (RFK_SCALAR_BUILT_FourierPhaseHeadBatch) HeadBatch(Wp, b, X, n, F, d, scale, H, bias, K, out);
}

void FourierPairHeadBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                          std::uint32_t d, float scale, const float* H, const float* bias,
                          std::uint32_t K, float*, float* out) noexcept {
  if (RFK_SCALAR_BUILT_FourierPairHeadBatch) HeadBatch(Wp, nullptr, X, n, F, d, scale, H, bias, K, out);
}

void LinearHead(const float* H, std::uint32_t stride, std::uint32_t pair, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept {
  for (std::uint32_t k = 0; k < K; ++k)
    out[k] = HeadRowF32<!core::kFormPhase>(H + static_cast<std::uint64_t>(k) * stride, bias[k], z, D, pair);
}

// Three of FwhtRef's stages (h, 2h, 4h) per pass over the data: each group of eight values h apart
// is read once, goes through the three stages in registers and is written once. Every butterfly
// has FwhtRef's operands in FwhtRef's order (low = a + b, high = a - b), so the bits are
// FwhtRef's; the stages left when log2(n) is not a multiple of 3 run as FwhtRef's. On the
// Cortex-M4F (16 transforms of 64 points per (54, 1024) Fastfood prediction) this takes the
// transforms from 38.6 k instructions to 15.7 k for 272 B of flash (soft-float builds, where each
// addition is a library call, keep FwhtRef's loop).
#if !defined(RFK_CORE_PLAIN_LOOPS)
namespace {
// Stages h, 2h, 4h of the eight values p[0], p[h], ..., p[7h]. Not inlined: one copy (flash).
__attribute__((noinline)) void Radix8(float* p, std::uint32_t h) {
  const float v0 = p[0], v1 = p[h], v2 = p[2 * h], v3 = p[3 * h];
  const float v4 = p[4 * h], v5 = p[5 * h], v6 = p[6 * h], v7 = p[7 * h];
  const float a0 = v0 + v1, a1 = v0 - v1, a2 = v2 + v3, a3 = v2 - v3;  // stage h
  const float a4 = v4 + v5, a5 = v4 - v5, a6 = v6 + v7, a7 = v6 - v7;
  const float b0 = a0 + a2, b2 = a0 - a2, b1 = a1 + a3, b3 = a1 - a3;  // stage 2h
  const float b4 = a4 + a6, b6 = a4 - a6, b5 = a5 + a7, b7 = a5 - a7;
  p[0] = b0 + b4;  // stage 4h
  p[h] = b1 + b5;
  p[2 * h] = b2 + b6;
  p[3 * h] = b3 + b7;
  p[4 * h] = b0 - b4;
  p[5 * h] = b1 - b5;
  p[6 * h] = b2 - b6;
  p[7 * h] = b3 - b7;
}
}  // namespace
#endif

#if !defined(RFK_CORE_PLAIN_LOOPS)  // else the table's Fwht is FwhtRef itself
void Fwht(float* x, std::uint32_t n) noexcept {
  std::uint32_t h = 1;
  for (; 8 * h <= n; h *= 8)
    for (std::uint32_t i = 0; i < n; i += 8 * h)
      for (std::uint32_t j = i; j < i + h; ++j) Radix8(x + j, h);
  for (; 2 * h <= n; h *= 2)
    for (std::uint32_t i = 0; i < n; i += 2 * h)
      for (std::uint32_t j = i; j < i + h; ++j) {
        const float a = x[j], b = x[j + h];
        x[j] = a + b;
        x[j + h] = a - b;
      }
}
#endif

void FourierQuant(const WeightsView& W, bool panels, const float* b, const float* x,
                  std::uint32_t F, std::uint32_t d, float scale, float* z) noexcept {
  QuantFeaturesRef(W, panels, b, x, F, d, scale, z);
}

}  // namespace core::scalar

namespace {

#if RFK_HAVE_HELIUM
// The Helium table (kernels_helium.h): the scalar kernels, but the Fourier features', the heads'
// (f32, and int8 weights), the Walsh-Hadamard transform's and Fastfood's diagonals' own. Every
// kernel of RFK_KERNEL_LIST needs a line here too; an entry the build leaves out is null as above.
#define RFK_HELIUM_Standardize RFK_SCALAR_FN_Standardize
#define RFK_HELIUM_StandardizeF16 RFK_SCALAR_FN_StandardizeF16
#define RFK_HELIUM_FourierPhase helium::FourierPhase
#define RFK_HELIUM_FourierPair helium::FourierPair
#define RFK_HELIUM_FourierPhaseHeadBatch RFK_SCALAR_FN_FourierPhaseHeadBatch
#define RFK_HELIUM_FourierPairHeadBatch RFK_SCALAR_FN_FourierPairHeadBatch
#define RFK_HELIUM_LinearHead helium::LinearHead
#define RFK_HELIUM_BinKeys RFK_SCALAR_FN_BinKeys
#define RFK_HELIUM_Fwht helium::Fwht
#define RFK_HELIUM_ApplySigns helium::ApplySigns
#define RFK_HELIUM_ScaleByDiagonal helium::ScaleByDiagonal
#define RFK_HELIUM_FourierQuant helium::FourierQuant
#define RFK_HELIUM_LinearHeadQuant helium::LinearHeadQuant
constexpr KernelTable kHeliumTable = {
    "helium", "MVE",
#define RFK_HELIUM_ENTRY(name, params) RFK_SCALAR_BUILT_##name ? &RFK_HELIUM_##name : nullptr,
    RFK_KERNEL_LIST(RFK_HELIUM_ENTRY)
#undef RFK_HELIUM_ENTRY
};
#endif

}  // namespace

const KernelTable& ScalarKernels() noexcept { return core::kScalarTable; }
#if RFK_HAVE_HELIUM
const KernelTable& HeliumKernels() noexcept { return kHeliumTable; }
#endif

}  // namespace rfk