// The Helium kernels (kernels_helium.h): the float path's Fourier features and f32 head on MVE-F,
// within the kernel contract's tolerances of the scalar table's (tests/embedded/float_kernels_check.cc).
// Empty where the build does not target MVE-F. Written around GCC 12's MVE support: predicates and
// some scalar-operand forms end in internal compiler errors (noted where avoided).
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "kernels_helium.h"

#if RFK_HAVE_HELIUM
#include <arm_mve.h>

#include "rfk/kernels.hpp"
#include "fwht_mve.h"
#include "sincos_ref.h"
#include "widen.h"

namespace rfk::helium {
namespace {

constexpr std::uint32_t kPw = 16;  // format::kPanelWidth: four vectors of four lanes

// acc[0..16) += W[c][0..16) x[c] for one input c of a panel (w: its 16 weights), lane by lane.
#define RFK_HELIUM_PANEL_STEP(w, xc)              \
  do {                                            \
    a0 = vfmaq_n_f32(a0, vld1q_f32(w), xc);      \
    a1 = vfmaq_n_f32(a1, vld1q_f32(w + 4), xc);  \
    a2 = vfmaq_n_f32(a2, vld1q_f32(w + 8), xc);  \
    a3 = vfmaq_n_f32(a3, vld1q_f32(w + 12), xc); \
  } while (0)

// One panel's 16 dot products: acc[j] = sum_c W[j][c] x[c], c in order from 0.0f, one fused
// multiply-add per lane and step (VFMA: half the instructions of the scalar PanelDot's separate
// multiply and add); four inputs per iteration for a quarter of the loop overhead. Not inlined:
// one copy serves both forms.
__attribute__((noinline)) void PanelDot(const float* panel, const float* x, std::uint32_t d, float* acc) {
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, a2 = a0, a3 = a0;
  const float* w = panel;
  for (const float* end = x + (d & ~3u); x != end; x += 4, w += 4 * kPw) {  // by pointer: fewer instructions
    RFK_HELIUM_PANEL_STEP(w, x[0]);
    RFK_HELIUM_PANEL_STEP(w + kPw, x[1]);
    RFK_HELIUM_PANEL_STEP(w + 2 * kPw, x[2]);
    RFK_HELIUM_PANEL_STEP(w + 3 * kPw, x[3]);
  }
  for (const float* end = x + (d & 3u); x != end; ++x, w += kPw) RFK_HELIUM_PANEL_STEP(w, x[0]);
  vst1q_f32(acc, a0);
  vst1q_f32(acc + 4, a1);
  vst1q_f32(acc + 8, a2);
  vst1q_f32(acc + 12, a3);
}

// sincos_ref.h's Reduce, SinPoly and CosPoly, operation for operation in the same order, with the
// constants as scalar operands (VMUL/VADD/VSUB Qd, Qn, Rm): the generic vector operators made
// GCC load and broadcast each constant on every use, three instructions each. A constant c is
// added as a subtraction of -c, the same operation (GCC 12's vaddq_n_f32 with a constant ends in
// an internal compiler error), and 1 - a is -(a - 1), the same bits (a = r^2/2 < 1/3). The bits are
// sincos_ref.h's (tests/embedded/float_kernels_check.cc holds them to SinCosRef).
float32x4_t Reduce4(float32x4_t x, float32x4_t fk) {
  float32x4_t r = vsubq_f32(x, vmulq_n_f32(fk, sincos::kC1));
  r = vsubq_f32(r, vmulq_n_f32(fk, sincos::kC2));
  r = vsubq_f32(r, vmulq_n_f32(fk, sincos::kC3));
  return vsubq_f32(r, vmulq_n_f32(fk, sincos::kC4));
}
float32x4_t SinPoly4(float32x4_t r) {
  const float32x4_t r2 = vmulq_f32(r, r);
  float32x4_t p = vsubq_n_f32(vmulq_n_f32(r2, -1.9515295891e-4f), -8.3321608736e-3f);
  p = vsubq_n_f32(vmulq_f32(r2, p), 1.6666654611e-1f);
  return vaddq_f32(r, vmulq_f32(vmulq_f32(r, r2), p));
}
float32x4_t CosPoly4(float32x4_t r) {
  const float32x4_t r2 = vmulq_f32(r, r);
  float32x4_t p = vsubq_n_f32(vmulq_n_f32(r2, 2.443315711809948e-5f), 1.388731625493765e-3f);
  p = vsubq_n_f32(vmulq_f32(r2, p), -4.166664568298827e-2f);
  const float32x4_t head = vnegq_f32(vsubq_n_f32(vmulq_n_f32(r2, 0.5f), 1.0f));  // 1 - r2/2, never 0
  return vaddq_f32(head, vmulq_f32(vmulq_f32(r2, r2), p));
}

// z[0..4) = scale cos(x), and with zs (the pair form) zs[0..4) = scale sin(x), for four arguments
// all within kSinCosFastRange: SinCosRef's fast path lane by lane. k = the argument times 2/pi
// rounded half away from zero, by truncating kf + 1/2 with kf's sign (SinCosRef adds -1/2 for
// kf < 0; kf = -0 gets -1/2 here and k = 0 either way); the quadrant's choice and sign flips as
// bit masks, a sign flip being what negation does. No predicates: GCC 12 ends several uses of
// MVE's predicate registers here in an internal compiler error.
void SinCos4(float32x4_t x, float scale, float* z, float* zs) {
  const float32x4_t kf = vmulq_n_f32(x, sincos::kTwoOverPi);
  const uint32x4_t sign = vdupq_n_u32(0x80000000u);
  const float32x4_t half =
      vreinterpretq_f32_u32(vorrq_u32(vandq_u32(vreinterpretq_u32_f32(kf), sign), vdupq_n_u32(0x3F000000u)));
  const int32x4_t k = vcvtq_s32_f32(vaddq_f32(kf, half));
  const float32x4_t r = Reduce4(x, vcvtq_f32_s32(k));
  const uint32x4_t s = vreinterpretq_u32_f32(SinPoly4(r)), c = vreinterpretq_u32_f32(CosPoly4(r));
  const uint32x4_t q = vreinterpretq_u32_s32(k);
  const uint32x4_t odd = vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(vandq_u32(q, vdupq_n_u32(1u)))));
  // Quadrants 1 and 2 negate the cosine, 2 and 3 the sine: bit 1 of q + 1, of q.
  const uint32x4_t cosv = veorq_u32(vorrq_u32(vandq_u32(s, odd), vbicq_u32(c, odd)),
                                    vshlq_n_u32(vandq_u32(vaddq_n_u32(q, 1u), vdupq_n_u32(2u)), 30));
  vst1q_f32(z, vmulq_n_f32(vreinterpretq_f32_u32(cosv), scale));
  if (zs != nullptr) {
    const uint32x4_t sinv = veorq_u32(vorrq_u32(vandq_u32(c, odd), vbicq_u32(s, odd)),
                                      vshlq_n_u32(vandq_u32(q, vdupq_n_u32(2u)), 30));
    vst1q_f32(zs, vmulq_n_f32(vreinterpretq_f32_u32(sinv), scale));
  }
}

// One panel's features from its n <= 16 dot products acc: zc[0..n) = scale cos(acc + b), and in
// the pair form (b null) zs[0..n) = scale sin(acc); four at a time, the tail and any group with
// an argument beyond the fast range through SinCosRef. Not inlined: both storages share it.
__attribute__((noinline)) void PanelFeatures(const float* acc, const float* b, std::uint32_t n, float scale, float* zc,
                                             float* zs) {
  std::uint32_t fast_range_bits;
  __builtin_memcpy(&fast_range_bits, &kSinCosFastRange, sizeof fast_range_bits);
  std::uint32_t j = 0;
  for (; j + 4 <= n; j += 4) {
    float32x4_t a = vld1q_f32(acc + j);
    if (b != nullptr) a = vaddq_f32(a, vld1q_f32(b + j));
    // All four within the fast range, NaN not: on the magnitudes' bits, the largest (VMAXV) no
    // greater than kSinCosFastRange's. (GCC 12 fails to compile a test of an mve_pred16_t or a
    // float VMAXNMAV: internal compiler errors.)
    const uint32x4_t mag = vandq_u32(vreinterpretq_u32_f32(a), vdupq_n_u32(0x7FFFFFFFu));
    if (vmaxvq_u32(0u, mag) > fast_range_bits) break;
    SinCos4(a, scale, zc + j, b == nullptr ? zs + j : nullptr);
  }
  for (; j < n; ++j) {
    float s, c;
    SinCosRef(b != nullptr ? acc[j] + b[j] : acc[j], &s, &c);
    zc[j] = scale * c;
    if (b == nullptr) zs[j] = scale * s;
  }
}

// Both forms (b given: phase; b null: pair), as the scalar Features: per panel its dot products,
// then its features.
__attribute__((noinline)) void Features(const float* Wp, const float* b, const float* x, std::uint32_t F,
                                        std::uint32_t d, float scale, float* z) {
  float acc[kPw];
  for (std::uint32_t j0 = 0; j0 < F; j0 += kPw) {
    PanelDot(Wp + static_cast<std::uint64_t>(j0) * d, x, d, acc);
    PanelFeatures(acc, b != nullptr ? b + j0 : nullptr, F - j0 < kPw ? F - j0 : kPw, scale, z + j0, z + F + j0);
  }
}

// Four weights as floats: f32 as stored, int8 widened (VLDRB.S32, VCVT), f16 bits widened exactly
// (VLDRH.U32 puts each half in the bottom of its 32-bit lane, VCVTB.F32.F16 widens those; W and the
// head are finite in a validated model). VCVTB is written as its encoding on a register pinned to
// q0: binutils 2.40 (Debian 12) assembles the mnemonic's vector form with doubled register
// numbers, another instruction or an undefined one. Not a float multiply: MVE's arithmetic
// flushes subnormal operands (qemu does), the conversion keeps subnormal halves (FPSCR.FZ16 = 0,
// its reset value). tests/embedded/float_kernels_check.cc holds it to HalfToFloat over every half
// that is not a NaN.
float32x4_t Load4(const float* w) { return vld1q_f32(w); }
float32x4_t Load4(const std::int8_t* w) { return vcvtq_f32_s32(vldrbq_s32(w)); }
float32x4_t Load4(const std::uint16_t* w) {
  register uint32x4_t v asm("q0") = vldrhq_u32(w);
  asm(".inst.w 0xfe3f0e01" : "+w"(v));  // VCVTB.F32.F16 q0, q0
  return vreinterpretq_f32_u32(v);
}

// An int8 or f16 panel's 16 dot products (QuantDot's: the sum of w x, then, int8, times the row's
// scale; `scale` null for f16): each weight widened as it is loaded into fused multiply-adds. Not
// inlined: one copy per storage serves both forms.
template <class T>
__attribute__((noinline)) void QuantPanelDot(const T* panel, const float* scale, const float* x, std::uint32_t d,
                                             float* acc) {
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, a2 = a0, a3 = a0;
  const T* w = panel;
  for (const float* end = x + d; x != end; ++x, w += kPw) {
    const float xc = *x;
    a0 = vfmaq_n_f32(a0, Load4(w), xc);
    a1 = vfmaq_n_f32(a1, Load4(w + 4), xc);
    a2 = vfmaq_n_f32(a2, Load4(w + 8), xc);
    a3 = vfmaq_n_f32(a3, Load4(w + 12), xc);
  }
  if (scale != nullptr) {
    a0 = vmulq_f32(a0, vld1q_f32(scale));
    a1 = vmulq_f32(a1, vld1q_f32(scale + 4));
    a2 = vmulq_f32(a2, vld1q_f32(scale + 8));
    a3 = vmulq_f32(a3, vld1q_f32(scale + 12));
  }
  vst1q_f32(acc, a0);
  vst1q_f32(acc + 4, a1);
  vst1q_f32(acc + 8, a2);
  vst1q_f32(acc + 12, a3);
}

// sum_j h[j] z[j] over j < D, and with pair != 0 sum_j h[pair + j] z[D + j] into the same
// accumulators (a pair block's sines: one reduction for both halves): eight products per step in
// two accumulators, by pointer (GCC 12 -Os made an index loop eleven instructions per four
// products), the lanes summed at the end.
template <class T>
float HeadDot(const T* h, const float* z, std::uint32_t D, std::uint32_t pair) {
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0;
  float tail = 0.0f;
  for (std::uint32_t half = 0; half < (pair != 0 ? 2u : 1u); ++half) {
    const T* p = h + (half != 0 ? pair : 0u);
    const float* q = z + (half != 0 ? D : 0u);
    for (const T* end = p + (D & ~7u); p != end; p += 8, q += 8) {
      a0 = vfmaq_f32(a0, Load4(p), vld1q_f32(q));
      a1 = vfmaq_f32(a1, Load4(p + 4), vld1q_f32(q + 4));
    }
    for (std::uint32_t j = D & ~7u; j < D; ++j, ++p, ++q) tail += core::Widen(*p) * *q;
  }
  // (l0 + l1) + (l2 + l3): lanes 0 and 2 of acc + acc with each pair of lanes swapped (VREV64),
  // two lane moves instead of four (Predict calls this once per block of features and output).
  const float32x4_t acc = vaddq_f32(a0, a1), pairs = vaddq_f32(acc, vrev64q_f32(acc));
  return vgetq_lane_f32(pairs, 0) + vgetq_lane_f32(pairs, 2) + tail;
}

}  // namespace

void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                  float* z) noexcept {
  Features(Wp, b, x, F, d, scale, z);
}

void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d, float scale, float* z) noexcept {
  Features(Wp, nullptr, x, F, d, scale, z);
}

void FourierQuant(const WeightsView& W, bool panels, const float* b, const float* x, std::uint32_t F, std::uint32_t d,
                  float scale, float* z) noexcept {
  const bool int8 = W.type == WeightType::kInt8;
  if (!panels || (!int8 && W.type != WeightType::kF16)) {  // row-major W: the scalar kernel's loop
    if (b != nullptr) FourierPhaseQuantRef(W, panels, b, x, F, d, scale, z);
    else FourierPairQuantRef(W, panels, x, F, d, scale, z);
    return;
  }
  // Whole panels are stored (StoredFrequencies(F) rows, int8: a scale each), so a panel's 16 exist.
  float acc[kPw];
  for (std::uint32_t j0 = 0; j0 < F; j0 += kPw) {
    const std::uint64_t at = std::uint64_t{j0} * d;
    if (int8) QuantPanelDot(static_cast<const std::int8_t*>(W.data) + at, W.scale + j0, x, d, acc);
    else QuantPanelDot(static_cast<const std::uint16_t*>(W.data) + at, nullptr, x, d, acc);
    PanelFeatures(acc, b != nullptr ? b + j0 : nullptr, F - j0 < kPw ? F - j0 : kPw, scale, z + j0, z + F + j0);
  }
}

void LinearHeadQuant(const WeightsView& H, std::uint32_t stride, std::uint32_t pair, const float* bias,
                     const float* z, std::uint32_t K, std::uint32_t D, float* out) noexcept {
  // int8 and f16-scaled: the row's scale times the dot product of the stored values (not
  // QuantSum's per-term s w: within the head tolerance); f16: the dot product.
  if (H.type == WeightType::kInt8) {
    const auto* q = static_cast<const std::int8_t*>(H.data);
    for (std::uint32_t k = 0; k < K; ++k)
      out[k] = bias[k] + H.scale[k] * HeadDot(q + std::uint64_t{k} * stride, z, D, pair);
    return;
  }
  const auto* h = static_cast<const std::uint16_t*>(H.data);
  for (std::uint32_t k = 0; k < K; ++k) {
    const float dot = HeadDot(h + std::uint64_t{k} * stride, z, D, pair);
    out[k] = bias[k] + (H.type == WeightType::kF16Scaled ? H.scale[k] * dot : dot);
  }
}

void Fwht(float* x, std::uint32_t n) noexcept {
  if (n < 16) FwhtRef(x, n);
  else core::FwhtMve(x, n);
}

void ApplySigns(const std::uint8_t* signs, std::uint32_t first, const float* x, std::uint32_t n, std::uint32_t dp,
                float* t) noexcept {
  std::uint32_t i = 0;
  if (first % 8 == 0 && dp % 8 == 0) {
    // Lane q of the low vector takes bit q of the byte to bit 31, the high vector's bit q + 4.
    static const std::int32_t kShifts[8] = {31, 30, 29, 28, 27, 26, 25, 24};
    const int32x4_t lo = vld1q_s32(kShifts), hi = vld1q_s32(kShifts + 4);
    const uint32x4_t sign = vdupq_n_u32(0x80000000u);
    for (; i + 8 <= n; i += 8) {  // both vectors loaded before either is stored: x may be t
      const uint32x4_t byte = vdupq_n_u32(signs[(first + i) / 8]);
      const uint32x4_t v0 = vreinterpretq_u32_f32(vld1q_f32(x + i)), v1 = vreinterpretq_u32_f32(vld1q_f32(x + i + 4));
      vst1q_f32(t + i, vreinterpretq_f32_u32(veorq_u32(v0, vandq_u32(vshlq_u32(byte, lo), sign))));
      vst1q_f32(t + i + 4, vreinterpretq_f32_u32(veorq_u32(v1, vandq_u32(vshlq_u32(byte, hi), sign))));
    }
  }
  if (i < dp) ApplySignsRef(signs, first + i, x + i, n - i, dp - i, t + i);  // n >= i: the same bits
}

void ScaleByDiagonal(const WeightsView& D, std::uint32_t row, std::uint32_t first, std::uint32_t n,
                     float* u) noexcept {
  std::uint32_t i = 0;
  if (D.type == WeightType::kF32) {
    const float* w = static_cast<const float*>(D.data) + first;
    for (; i + 4 <= n; i += 4) vst1q_f32(u + i, vmulq_f32(vld1q_f32(w + i), vld1q_f32(u + i)));
  } else if (D.type == WeightType::kInt8) {
    const std::int8_t* q = static_cast<const std::int8_t*>(D.data) + first;
    const float s = D.scale[row];
    for (; i + 4 <= n; i += 4) vst1q_f32(u + i, vmulq_f32(vmulq_n_f32(Load4(q + i), s), vld1q_f32(u + i)));
  } else if (D.type == WeightType::kF16) {
    const std::uint16_t* h = static_cast<const std::uint16_t*>(D.data) + first;
    for (; i + 4 <= n; i += 4) vst1q_f32(u + i, vmulq_f32(Load4(h + i), vld1q_f32(u + i)));
  }
  if (i < n) ScaleByDiagonalRef(D, row, first + i, n - i, u + i);  // the same products
}

void LinearHead(const float* H, std::uint32_t stride, std::uint32_t pair, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept {
  for (std::uint32_t k = 0; k < K; ++k)
    out[k] = bias[k] + HeadDot(H + static_cast<std::uint64_t>(k) * stride, z, D, pair);
}

}  // namespace rfk::helium
#endif
