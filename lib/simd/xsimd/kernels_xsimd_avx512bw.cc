// The xsimd kernels for xsimd::avx512bw (see kernels_xsimd-inl.h); built with its -m flags by CMake.
#define RFK_XSIMD_ARCH xsimd::avx512bw
#define RFK_XSIMD_NAME "AVX512BW"
#include "kernels_xsimd-inl.h"

namespace rfk {
const KernelTable* XsimdAvx512bwTable() noexcept { return &kXsimdTable; }
}  // namespace rfk
