// Fastfood's Walsh-Hadamard transform on MVE's four 32-bit lanes, for floats (the Helium table's
// Fwht, kernels_helium.cc, MVE-F) and int32 (the integer path's mve::Fwht, fixed_kernels.h):
// arm_mve.h's polymorphic intrinsics (vld1q, vaddq, ...) take either lane type. Every butterfly
// has the scalar loop's operands and operations (low = a + b, high = a - b), so its bits are the
// scalar loop's wherever the lanes' arithmetic is that of the scalar code (MVE flushes denormal
// floats: kernels_helium.h). In place; no allocation; x needs its element's alignment only.
// Internal to lib/core; include only where the compiler targets MVE.
#pragma once

#include <arm_mve.h>

#include <cstdint>

namespace rfk::core {

// x <- H x for n a power of two, n >= 16: stages 1 and 2 together on sixteen values deinterleaved
// by VLD4 (lane m of vector r holds x[4m + r]), then two stages per pass (h and 2h) on four vectors
// h apart, and a last single stage where log2(n) is odd. Always inlined into its one caller per
// lane type (GCC 12 otherwise kept a copy with worse register use: 200 more instructions and
// 16 B more stack per (54, 1024) Fastfood prediction on the Cortex-M55).
template <class T>
[[gnu::always_inline]] inline void FwhtMve(T* x, std::uint32_t n) {
  for (T *p = x, *end = x + n; p != end; p += 16) {  // stages 1 and 2
    auto v = vld4q(p);
    const auto a0 = vaddq(v.val[0], v.val[1]), a1 = vsubq(v.val[0], v.val[1]);
    const auto a2 = vaddq(v.val[2], v.val[3]), a3 = vsubq(v.val[2], v.val[3]);
    v.val[0] = vaddq(a0, a2);
    v.val[1] = vaddq(a1, a3);
    v.val[2] = vsubq(a0, a2);
    v.val[3] = vsubq(a1, a3);
    vst4q(p, v);
  }
  std::uint32_t h = 4;
  for (; 4 * h <= n; h *= 4)  // stages h and 2h: positions j, j + h, j + 2h, j + 3h
    for (std::uint32_t i = 0; i < n; i += 4 * h)
      for (T *p = x + i, *end = x + i + h; p != end; p += 4) {
        const auto v0 = vld1q(p), v1 = vld1q(p + h), v2 = vld1q(p + 2 * h), v3 = vld1q(p + 3 * h);
        const auto a0 = vaddq(v0, v1), a1 = vsubq(v0, v1);
        const auto a2 = vaddq(v2, v3), a3 = vsubq(v2, v3);
        vst1q(p, vaddq(a0, a2));
        vst1q(p + h, vaddq(a1, a3));
        vst1q(p + 2 * h, vsubq(a0, a2));
        vst1q(p + 3 * h, vsubq(a1, a3));
      }
  if (2 * h <= n)  // the last stage, h = n / 2
    for (T *p = x, *end = x + h; p != end; p += 4) {
      const auto a = vld1q(p), b = vld1q(p + h);
      vst1q(p, vaddq(a, b));
      vst1q(p + h, vsubq(a, b));
    }
}

}  // namespace rfk::core
