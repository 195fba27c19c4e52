// The xsimd kernels for xsimd::fma3<xsimd::avx2> (see kernels_xsimd-inl.h); built with its -m flags by CMake.
#define RFK_XSIMD_ARCH xsimd::fma3<xsimd::avx2>
#define RFK_XSIMD_NAME "AVX2_FMA"
#include "kernels_xsimd-inl.h"

namespace rfk {
const KernelTable* XsimdAvx2Table() noexcept { return &kXsimdTable; }
}  // namespace rfk
