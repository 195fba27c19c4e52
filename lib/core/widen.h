// WidenHalf: binary16 bits -> float for the values a validated model holds (f16 weights,
// diagonals and standardisation vectors are finite: model_open_arrays.cc refuses exponent 31).
// The same float as HalfToFloat (rfk/kernels.hpp) for every finite value and +-inf, subnormals
// included, so the kernels that widen with it keep their bits on every core. Where the core's
// FPU converts half precision (every Cortex-M FPU: FPv4-SP, FPv5; VCVTB), it is that instruction
// and a move, 2 instructions against HalfToFloat's 8 or more with branches; a NaN then comes out
// quiet (HalfToFloat keeps a signalling one), which no validated model has. Elsewhere it is
// HalfToFloat. Internal to lib/core.
#pragma once

#include <cstdint>

#include "rfk/kernels.hpp"

namespace rfk::core {

#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__ARM_FP) && (__ARM_FP & 4) && \
    !defined(__SOFTFP__)
#define RFK_WIDEN_VCVTB 1
[[gnu::always_inline]] inline float WidenHalf(std::uint16_t h) noexcept {
  float f;
  asm("vmov %0, %1\n\tvcvtb.f32.f16 %0, %0" : "=t"(f) : "r"(std::uint32_t{h}));
  return f;
}
#else
#define RFK_WIDEN_VCVTB 0
// HalfToFloat itself (a reference, not a wrapper: its callers inline it as before, one level).
inline constexpr float (&WidenHalf)(std::uint16_t) noexcept = HalfToFloat;
#endif

// A stored weight as the float its storage gives (WeightAt's widening, before any row scale): f32
// as stored, int8 its integer value, f16 exactly (WidenHalf). For kernels templated on the storage.
[[gnu::always_inline]] inline float Widen(float w) noexcept { return w; }
[[gnu::always_inline]] inline float Widen(std::int8_t q) noexcept { return static_cast<float>(q); }
[[gnu::always_inline]] inline float Widen(std::uint16_t h) noexcept { return WidenHalf(h); }

}  // namespace rfk::core
