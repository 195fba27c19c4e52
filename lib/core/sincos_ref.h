// The fast path of the scalar reference's sin/cos (SinCosRef, kernels_scalar.cc), written once
// for float and for the host's GCC vector types (lib/host/maps/block_kernels.cc, the training
// features), so that both round the same operations in the same order and give the same bits.
// Valid for |x| <= kSinCosFastRange (rfk/kernels.hpp); beyond it SinCosRef reduces in integers.
// Requires -ffp-contract=off (fp_contract.h): a fused multiply-add would change the bits.
#pragma once

namespace rfk::sincos {

// Always inlined: the host calls these from functions compiled for several instruction sets
// (target_clones), where a real call with a vector argument would cross ABIs.
#if defined(__GNUC__)
#define RFK_SINCOS_INLINE inline __attribute__((always_inline))
#else
#define RFK_SINCOS_INLINE inline
#endif

// pi/2 = kC1 + kC2 + kC3 + kC4 (+ 5e-17). kC1..kC3 have 8 significant bits, so k * kCi is exact
// in float for |k| < 2^16, which bounds the fast path to |x| < 2^16 * pi/2 ~= 102943.
inline constexpr float kC1 = 0x1.92p0f;
inline constexpr float kC2 = 0x1.fcp-12f;
inline constexpr float kC3 = -0x1.58p-21f;
inline constexpr float kC4 = 0x1.10b462p-30f;
inline constexpr float kTwoOverPi = 0.636619772f;

// r = x - k pi/2 for k = round(x 2/pi) as a float fk: four exact products, four roundings.
template <class V>
RFK_SINCOS_INLINE V Reduce(V x, V fk) {
  return (((x - fk * kC1) - fk * kC2) - fk * kC3) - fk * kC4;
}

// Minimax polynomials on [-pi/4, pi/4] (the classic Cephes single-precision coefficients).
template <class V>
RFK_SINCOS_INLINE V SinPoly(V r) {
  const V r2 = r * r;
  return r + r * r2 * (-1.6666654611e-1f + r2 * (8.3321608736e-3f + r2 * -1.9515295891e-4f));
}
template <class V>
RFK_SINCOS_INLINE V CosPoly(V r) {
  const V r2 = r * r;
  return 1.0f - 0.5f * r2 +
         r2 * r2 * (4.166664568298827e-2f + r2 * (-1.388731625493765e-3f + r2 * 2.443315711809948e-5f));
}

}  // namespace rfk::sincos
