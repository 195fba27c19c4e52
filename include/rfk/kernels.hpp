// Scalar reference kernels of the device core. They define the exact result every optimised
// (SIMD) path is checked against, and they are what the core runs where no SIMD backend exists.
//
// Contract for all kernels: no allocation, no exceptions, no library calls except where noted;
// pointers need only natural float alignment; dot products accumulate in float in index order
// (c = 0 .. d-1), then add the phase. Build with -ffp-contract=off so that no compiler fuses
// a*b+c: the host trainer relies on computing bit-identical features.
#pragma once

#include <cstdint>

namespace rfk {

// |x| up to kSinCosFastRange is reduced in float with a 4-part Cody-Waite split of pi/2 (every
// partial product exact for |k| < 2^16); up to kSinCosMaxArg the reduction runs in double (rare:
// large gamma on unscaled data). Beyond kSinCosMaxArg, and for NaN/inf, both results are NaN:
// Predict reports that as kArgumentOutOfRange instead of returning a meaningless value.
// Accuracy, measured against double-precision sin/cos (tests/test_kernels.cc):
//   max abs error <= 1.2e-7 for every |x| <= kSinCosMaxArg.
inline constexpr float kSinCosFastRange = 102000.0f;
inline constexpr float kSinCosMaxArg = 1.0e9f;

void SinCosRef(float x, float* sin_out, float* cos_out) noexcept;
float CosRef(float x) noexcept;

// out[c] = (x[c] - mean[c]) * inv_scale[c]
void StandardizeRef(const float* x, const float* mean, const float* inv_scale, std::uint32_t d,
                    float* out) noexcept;

// Phase form: z[j] = scale * cos(W[j,:] . x + b[j]),  j < F.
void FourierPhaseRef(const float* W, const float* b, const float* x, std::uint32_t F,
                     std::uint32_t d, float scale, float* z) noexcept;

// Pair form: z[j] = scale * cos(W[j,:] . x),  z[F + j] = scale * sin(W[j,:] . x),  j < F.
void FourierPairRef(const float* W, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                    float* z) noexcept;

// out[k] = bias[k] + sum_j H[k,j] z[j]  (H is K x D row-major; float accumulation in j order).
void LinearHeadRef(const float* H, const float* bias, const float* z, std::uint32_t K,
                   std::uint32_t D, float* out) noexcept;

}  // namespace rfk
