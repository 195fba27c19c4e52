// Scalar reference kernels of the maps' steps other than the Fourier features (contracts:
// include/rfk/kernels.hpp): the binning map's keys, Fastfood's Walsh-Hadamard transform, signs B
// and diagonals. The scalar table (kernels_scalar.cc) calls them; every SIMD table's bits for these
// are theirs.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "rfk/kernels.hpp"

#include "bin_hash.h"
#include "core_config.h"
#include "widen.h"

#include <cstdint>
#include <cstring>

namespace rfk {

namespace {

// One grid's hash: h (its seed) stepped over the columns from x to end. The loop alone, out of
// line, so that its pointers, the hash and the step's constant stay in registers (with the grid
// loop around it, the Cortex-M4F's loop rebuilt the constant every column).
[[gnu::noinline]] std::uint64_t GridHash(std::uint64_t h, const float* x, const float* end, const float* off,
                                         const float* iw) {
  for (; x != end; ++x, ++off, ++iw) h = bin_hash::Step(h, bin_hash::Index((*x - *off) * *iw));
  return h;
}

}  // namespace

void BinKeysRef(const float* inv_width, const float* offset, const float* x, std::uint32_t P,
                std::uint32_t d, std::uint64_t seed, std::uint64_t* keys) noexcept {
  for (std::uint32_t p = 0; p < P; ++p) {
    const std::uint64_t first = static_cast<std::uint64_t>(p) * d;
    keys[p] = bin_hash::Final(GridHash(bin_hash::Seed(seed, p), x, x + d, offset + first, inv_width + first));
  }
}

void FwhtRef(float* x, std::uint32_t n) noexcept {
  for (std::uint32_t h = 1; h < n; h *= 2)
    for (std::uint32_t i = 0; i < n; i += 2 * h)
      for (std::uint32_t j = i; j < i + h; ++j) {
        const float a = x[j], b = x[j + h];
        x[j] = a + b;
        x[j + h] = a - b;
      }
}

// Fastfood's B (ApplySigns' contract, rfk/kernels.hpp): the sign goes in as an XOR of the float's
// sign bit, not as a branch on B's random bits (half of them mispredicted). The soft-float
// firmware presets and cores built for size take one loop over the entries (RFK_CORE_PLAIN_LOOPS,
// core_config.h); others copy x and flip
// a byte of B per 8 entries, which compilers unroll into shifts by constants (x86: 61 k -> 37 k
// instructions per Fashion-MNIST sample; Cortex-M4F: 86.2 k -> 83.3 k per binary (54, 1024)
// prediction for 64 B of flash).
void ApplySignsRef(const std::uint8_t* signs, std::uint32_t first, const float* x, std::uint32_t n,
                   std::uint32_t dp, float* t) noexcept {
#if defined(RFK_CORE_PLAIN_LOOPS)
  for (std::uint32_t i = 0; i < dp; ++i) {
    const std::uint32_t k = first + i;  // < blocks * dp: 32 bits suffice
    const float v = i < n ? x[i] : 0.0f;
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits ^= static_cast<std::uint32_t>((signs[k >> 3] >> (k & 7u)) & 1u) << 31;
    std::memcpy(t + i, &bits, sizeof bits);
  }
#else
  for (std::uint32_t i = 0; i < n; ++i) t[i] = x[i];
  for (std::uint32_t i = n; i < dp; ++i) t[i] = 0.0f;
  for (std::uint32_t i0 = 0; i0 < dp; i0 += 8) {  // a block that starts inside a byte: dp < 8
    const std::uint32_t k = first + i0;  // < blocks * dp: 32 bits suffice
    const std::uint32_t byte = static_cast<std::uint32_t>(signs[k >> 3]) >> (k & 7u);
    const std::uint32_t m = dp - i0 < 8 ? dp - i0 : 8;
    for (std::uint32_t q = 0; q < m; ++q) {
      std::uint32_t bits;
      std::memcpy(&bits, t + i0 + q, sizeof bits);
      bits ^= ((byte >> q) & 1u) << 31;
      std::memcpy(t + i0 + q, &bits, sizeof bits);
    }
  }
#endif
}

// Fastfood's diagonals (ScaleByDiagonal's contract, rfk/kernels.hpp). The size-first builds take
// WeightAt for every storage (one loop in flash); the others one loop per storage with the
// widening inlined (Cortex-M4F: an out-of-line WeightAt per entry made the all-int8 (54, 1024)
// binary model 44 % dearer than f32; compilers vectorise the f32 loop).
void ScaleByDiagonalRef(const WeightsView& D, std::uint32_t row, std::uint32_t first, std::uint32_t n,
                        float* u) noexcept {
  if (!core::kFloatQuant) {  // f32 diagonals only (core_config.h): no widening code
    const float* w = static_cast<const float*>(D.data) + first;
    for (std::uint32_t i = 0; i < n; ++i) u[i] = w[i] * u[i];
    return;
  }
#if !defined(RFK_CORE_PLAIN_LOOPS)
  if (D.type == WeightType::kF32) {
    const float* w = static_cast<const float*>(D.data) + first;
    for (std::uint32_t i = 0; i < n; ++i) u[i] = w[i] * u[i];
    return;
  }
  if (core::kFloatF16 && D.type == WeightType::kF16) {
    const std::uint16_t* h = static_cast<const std::uint16_t*>(D.data) + first;
    for (std::uint32_t i = 0; i < n; ++i) u[i] = core::WidenHalf(h[i]) * u[i];
    return;
  }
  if (core::kFloatInt8 && D.type == WeightType::kInt8) {
    const std::int8_t* q = static_cast<const std::int8_t*>(D.data) + first;
    const float scale = D.scale[row];
    for (std::uint32_t i = 0; i < n; ++i) u[i] = (scale * static_cast<float>(q[i])) * u[i];
    return;
  }
#endif
  for (std::uint32_t i = 0; i < n; ++i) u[i] = core::BuiltWeightAt(D, std::uint64_t{first} + i, row) * u[i];
}

}  // namespace rfk
