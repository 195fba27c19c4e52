// The xsimd tables this CPU and OS support, best first: one per rfk_xsimd_arch() line in
// lib/simd/simd.cmake, in that order, which generates simd/xsimd/tables.inc with one
//   RFK_XSIMD_TABLE(namespace, supported)
// entry each. On x86, `supported` tests the architecture's features with GCC/Clang's
// __builtin_cpu_supports (CPUID plus the OS's XSAVE state), not xsimd's own detection, which
// misreads AVX on some CPUs and does not check OS support for AVX-512. An architecture with no
// features to test is the build's baseline (NEON on AArch64, and on armhf where -mfpu makes it
// one): every CPU that runs this program has it, so `supported` is true.
#include "core/fp_contract.h"  // first: no contraction, whatever the build's flags
#include "rfk/kernels.hpp"

namespace rfk {

#define RFK_XSIMD_TABLE(ns, supported) \
  namespace ns {                       \
  const KernelTable* XsimdTable() noexcept; \
  }
#include "simd/xsimd/tables.inc"
#undef RFK_XSIMD_TABLE

std::size_t XsimdKernelTables(const KernelTable** out, std::size_t capacity) noexcept {
  std::size_t n = 0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
#endif
#define RFK_XSIMD_TABLE(ns, supported) \
  if ((supported) && n < capacity) out[n++] = ns::XsimdTable();
#include "simd/xsimd/tables.inc"
#undef RFK_XSIMD_TABLE
  return n;
}

}  // namespace rfk
