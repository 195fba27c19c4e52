// The xsimd tables this CPU and OS support, best first. Detection uses GCC/Clang's
// __builtin_cpu_supports (CPUID plus the OS's XSAVE state), not xsimd's own detection, which
// misreads AVX on some CPUs and does not check OS support for AVX-512.
#include "rfk/kernels.hpp"

namespace rfk {

#if defined(__x86_64__) || defined(__i386__)
const KernelTable* XsimdAvx512bwTable() noexcept;
const KernelTable* XsimdAvx2Table() noexcept;
const KernelTable* XsimdSse42Table() noexcept;
#endif

std::size_t XsimdKernelTables(const KernelTable** out, std::size_t capacity) noexcept {
  std::size_t n = 0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  auto add = [&](const KernelTable* t) {
    if (n < capacity) out[n++] = t;
  };
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"))
    add(XsimdAvx512bwTable());
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) add(XsimdAvx2Table());
  if (__builtin_cpu_supports("sse4.2")) add(XsimdSse42Table());
#else
  (void)out;
  (void)capacity;
#endif
  return n;
}

}  // namespace rfk
