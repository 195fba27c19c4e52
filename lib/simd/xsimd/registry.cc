// The xsimd tables this CPU and OS support, best first. On x86, detection uses GCC/Clang's
// __builtin_cpu_supports (CPUID plus the OS's XSAVE state), not xsimd's own detection, which
// misreads AVX on some CPUs and does not check OS support for AVX-512. On ARM nothing is detected
// at run time: see below.
#include "rfk/kernels.hpp"

namespace rfk {

#if defined(__x86_64__) || defined(__i386__)
const KernelTable* XsimdAvx512bwTable() noexcept;
const KernelTable* XsimdAvx2Table() noexcept;
const KernelTable* XsimdSse42Table() noexcept;
#elif defined(__aarch64__)
const KernelTable* XsimdNeon64Table() noexcept;
#elif defined(__ARM_NEON)
const KernelTable* XsimdNeonTable() noexcept;
#endif

std::size_t XsimdKernelTables(const KernelTable** out, std::size_t capacity) noexcept {
  std::size_t n = 0;
  auto add = [&](const KernelTable* t) {
    if (n < capacity) out[n++] = t;
  };
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"))
    add(XsimdAvx512bwTable());
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) add(XsimdAvx2Table());
  if (__builtin_cpu_supports("sse4.2")) add(XsimdSse42Table());
#elif defined(__aarch64__)
  // Every AArch64 CPU has NEON (Advanced SIMD is part of the base architecture, and the AArch64
  // ABI GCC compiles for assumes it): always supported.
  add(XsimdNeon64Table());
#elif defined(__ARM_NEON)
  // 32-bit ARM: CMake builds the NEON table only where NEON is the compile baseline (armhf:
  // -mfpu=neon-vfpv4), so all of this program's code may already use it, and a CPU that runs it
  // has NEON. No run-time check (auxv HWCAP_NEON) would add anything.
  add(XsimdNeonTable());
#else
  (void)add;
#endif
  return n;
}

}  // namespace rfk
