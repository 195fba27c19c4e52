// The xsimd kernels for xsimd::neon64 (see kernels_xsimd-inl.h): AArch64, where NEON (Advanced
// SIMD) is part of the base architecture, so CMake adds no flags.
#define RFK_XSIMD_ARCH xsimd::neon64
#define RFK_XSIMD_NAME "NEON64"
#include "kernels_xsimd-inl.h"

namespace rfk {
const KernelTable* XsimdNeon64Table() noexcept { return &kXsimdTable; }
}  // namespace rfk
