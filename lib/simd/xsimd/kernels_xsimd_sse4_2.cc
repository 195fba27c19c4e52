// The xsimd kernels for xsimd::sse4_2 (see kernels_xsimd-inl.h); built with its -m flags by CMake.
#define RFK_XSIMD_ARCH xsimd::sse4_2
#define RFK_XSIMD_NAME "SSE4_2"
#include "kernels_xsimd-inl.h"

namespace rfk {
const KernelTable* XsimdSse42Table() noexcept { return &kXsimdTable; }
}  // namespace rfk
