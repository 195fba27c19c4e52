// The Helium (M-profile Vector Extension, floating point) kernels of the device core, for
// Armv8.1-M cores with MVE-F (Cortex-M55, M85): compiled in where the compiler targets MVE-F,
// unless the build says RFK_HELIUM=0 or builds the core for size (RFK_CORE_SMALL). There is no
// run-time detection on a microcontroller: the build's -mcpu decides. The "helium-MVE" kernel table
// (kernels_scalar.cc) is the scalar table with these kernels in place of the scalar ones, and is
// the default table where it is built; the scalar table stays selectable
// (rfk_select_kernels("scalar")) and is the oracle.
// Internal to lib/core.
#pragma once

#include <cstdint>

#include "core_config.h"  // RFK_CORE_SMALL
#include "rfk/kernels.hpp"

#ifndef RFK_HELIUM
#define RFK_HELIUM (!RFK_CORE_SMALL)
#endif
#if RFK_HELIUM && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#define RFK_HAVE_HELIUM 1
#else
#define RFK_HAVE_HELIUM 0
#endif

#if RFK_HAVE_HELIUM
namespace rfk::helium {

// As the scalar table's FourierPhase and FourierPair within the kernel contract's feature tolerance
// (rfk/kernels.hpp): each panel's 16 dot products in four vectors of four lanes of fused
// multiply-adds, in the scalar order of the inputs; then SinCosRef's fast path four lanes at a
// time with its operations (sincos_ref.h), so an argument's sine and cosine are SinCosRef's bits;
// a group with an argument beyond kSinCosFastRange through SinCosRef itself.
// No allocation; W, b, x and z need float alignment only.
void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                  float* z) noexcept;
void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d, float scale, float* z) noexcept;

// As the scalar table's LinearHead within the kernel contract's head tolerance (rfk/kernels.hpp), not bit for
// bit: each output's dot product in eight lanes of fused multiply-adds (a pair block's two halves
// into the same lanes), summed at the end.
void LinearHead(const float* H, std::uint32_t stride, std::uint32_t pair, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept;

// As the scalar FourierQuant and LinearHeadQuant within the same tolerances, for int8 and f16
// weights (W in panels: each panel's 16 rows four lanes at a time; the head eight lanes per output,
// f16-scaled too), each weight widened as it is loaded (f16 exactly, VCVTB); a row-major W through
// the scalar kernel's loop.
void FourierQuant(const WeightsView& W, bool panels, const float* b, const float* x, std::uint32_t F, std::uint32_t d,
                  float scale, float* z) noexcept;
void LinearHeadQuant(const WeightsView& H, std::uint32_t stride, std::uint32_t pair, const float* bias,
                     const float* z, std::uint32_t K, std::uint32_t D, float* out) noexcept;

// Bit for bit, below, means for normal float operands (and zeros, infinities): MVE's vector
// floating-point operations flush denormal operands to zero (qemu's mps3-an547 does), where the
// scalar table's VFP operations keep them (FPSCR.FZ = 0). A model's diagonals are not denormal in
// practice (G is Gaussian, S a length correction); an input below 1.2e-38 can be.

// As FwhtRef, bit for bit: every butterfly has FwhtRef's operands and operations (low = a + b,
// high = a - b), four lanes at a time: stages 1 and 2 together on sixteen values deinterleaved by
// VLD4 (lane m of vector r holds x[4m + r]), then two stages per pass (h and 2h) on four vectors h
// apart, and a last single stage where log2(n) is odd (fwht_mve.h). n < 16: FwhtRef. In place;
// no allocation; x needs float alignment only.
void Fwht(float* x, std::uint32_t n) noexcept;

// As ApplySignsRef, bit for bit (an XOR of each float's sign bit): where the block starts a byte
// of `signs` and dp is a multiple of 8, eight entries of x per byte of B on two vectors (the byte
// broadcast, each lane's bit shifted to bit 31 and masked); the byte where x ends, the padding's
// and any other block through ApplySignsRef.
void ApplySigns(const std::uint8_t* signs, std::uint32_t first, const float* x, std::uint32_t n, std::uint32_t dp,
                float* t) noexcept;

// As the scalar ScaleByDiagonal, bit for bit (one multiply per element after the widening): f32,
// f16 and int8 diagonals four lanes at a time (f16 widened exactly; int8: the row's scale times the
// widened weight, then times u); the last n % 4 entries through ScaleByDiagonalRef.
void ScaleByDiagonal(const WeightsView& D, std::uint32_t row, std::uint32_t first, std::uint32_t n,
                     float* u) noexcept;

}  // namespace rfk::helium
#endif
