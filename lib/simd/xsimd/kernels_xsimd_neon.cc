// The xsimd kernels for xsimd::neon (see kernels_xsimd-inl.h): 32-bit ARM. CMake builds this only
// where the toolchain's flags already make NEON the baseline (armhf: -mfpu=neon-vfpv4, which also
// gives the fused vfma that xsimd::fma uses).
#define RFK_XSIMD_ARCH xsimd::neon
#define RFK_XSIMD_NAME "NEON"
#include "kernels_xsimd-inl.h"

namespace rfk {
const KernelTable* XsimdNeonTable() noexcept { return &kXsimdTable; }
}  // namespace rfk
