// Kernel tables compiled into this build, and the one Predict uses. Which SIMD backends exist is
// decided by CMake (RFK_BACKENDS); which of their targets this CPU runs is decided by the SIMD
// libraries' CPU detection (CPUID, auxv), never by the environment.
//
// Runtime contract for firmware: a build with no SIMD backend (bare metal: only the scalar table)
// holds no dispatch state at all -- no atomics (Armv6-M has none), no function-local statics (no
// __cxa_guard_*), nothing to initialise. With backends (on a Cortex-M55: the Helium table, chosen
// at compile time), the one piece of state is the selected table, an atomic pointer; the list of
// tables is recomputed on each query (the SIMD libraries cache their detection), so no C++
// runtime support is needed either.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include <cstring>

#include "rfk/kernels.hpp"
#include "scalar_table.h"  // RFK_HAVE_DISPATCH

#if RFK_HAVE_DISPATCH
#include <atomic>
#endif

namespace rfk {

#if RFK_HAVE_HWY
// lib/simd/hwy: the tables of every compiled Highway target this CPU supports, best first.
std::size_t HwyKernelTables(const KernelTable** out, std::size_t capacity) noexcept;
#endif
#if RFK_HAVE_XSIMD
// lib/simd/xsimd: the tables of every compiled xsimd architecture this CPU supports, best first.
std::size_t XsimdKernelTables(const KernelTable** out, std::size_t capacity) noexcept;
#endif
#if RFK_HAVE_HELIUM
// lib/core/kernels_scalar.cc: the Helium table (kernels_helium.h), where the build targets MVE-F.
const KernelTable& HeliumKernels() noexcept;
#endif

namespace {

bool Matches(const KernelTable& t, const char* name) {
  const std::size_t nb = std::strlen(t.backend);
  if (std::strcmp(name, t.backend) == 0 || std::strcmp(name, t.target) == 0) return true;
  return std::strncmp(name, t.backend, nb) == 0 && name[nb] == '-' &&
         std::strcmp(name + nb + 1, t.target) == 0;
}

#if RFK_HAVE_DISPATCH
constexpr std::size_t kMaxTables = 24;

// Every supported table, best first, the scalar one last; returns the count.
std::size_t Tables(const KernelTable** out) noexcept {
  std::size_t n = 0;
#if RFK_HAVE_HWY
  n += HwyKernelTables(out + n, kMaxTables - 1 - n);
#endif
#if RFK_HAVE_XSIMD
  n += XsimdKernelTables(out + n, kMaxTables - 1 - n);
#endif
#if RFK_HAVE_HELIUM
  out[n++] = &HeliumKernels();
#endif
  out[n++] = &ScalarKernels();
  return n;
}

std::atomic<const KernelTable*> g_active{nullptr};
#endif

}  // namespace

#if RFK_HAVE_DISPATCH

std::size_t KernelTableCount() noexcept {
  const KernelTable* t[kMaxTables];
  return Tables(t);
}

const KernelTable* KernelTableAt(std::size_t index) noexcept {
  const KernelTable* t[kMaxTables];
  return index < Tables(t) ? t[index] : nullptr;
}

const KernelTable& ActiveKernels() noexcept {
  const KernelTable* t = g_active.load(std::memory_order_acquire);
  if (t == nullptr) {
    const KernelTable* all[kMaxTables];
    Tables(all);
    const KernelTable* expected = nullptr;
    g_active.compare_exchange_strong(expected, all[0], std::memory_order_acq_rel);
    t = g_active.load(std::memory_order_acquire);
  }
  return *t;
}

bool SelectKernels(const char* name) noexcept {
  if (name == nullptr) return false;
  const KernelTable* all[kMaxTables];
  const std::size_t n = Tables(all);
  for (std::size_t i = 0; i < n; ++i) {
    if (Matches(*all[i], name)) {
      g_active.store(all[i], std::memory_order_release);
      return true;
    }
  }
  return false;
}

#else  // only the scalar table: nothing to choose, nothing to store

std::size_t KernelTableCount() noexcept { return 1; }

const KernelTable* KernelTableAt(std::size_t index) noexcept {
  return index == 0 ? &ScalarKernels() : nullptr;
}

const KernelTable& ActiveKernels() noexcept { return ScalarKernels(); }

bool SelectKernels(const char* name) noexcept {
  return name != nullptr && Matches(ScalarKernels(), name);
}

#endif

}  // namespace rfk
