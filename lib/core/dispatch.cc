// Kernel tables compiled into this build, and the one Predict uses. Which SIMD backends exist is
// decided by CMake (RFK_BACKENDS); which of their targets this CPU runs is decided once, by the
// SIMD libraries' CPU detection (CPUID, auxv), never by the environment.
#include <atomic>
#include <cstring>

#include "rfk/kernels.hpp"

namespace rfk {

#if RFK_HAVE_HWY
// lib/simd/hwy: the tables of every compiled Highway target this CPU supports, best first.
std::size_t HwyKernelTables(const KernelTable** out, std::size_t capacity) noexcept;
#endif
#if RFK_HAVE_XSIMD
// lib/simd/xsimd: the tables of every compiled xsimd architecture this CPU supports, best first.
std::size_t XsimdKernelTables(const KernelTable** out, std::size_t capacity) noexcept;
#endif

namespace {

constexpr std::size_t kMaxTables = 24;

struct Registry {
  const KernelTable* tables[kMaxTables] = {};
  std::size_t count = 0;
};

const Registry& GetRegistry() noexcept {
  static const Registry registry = [] {
    Registry r;
#if RFK_HAVE_HWY
    r.count += HwyKernelTables(r.tables + r.count, kMaxTables - 1 - r.count);
#endif
#if RFK_HAVE_XSIMD
    r.count += XsimdKernelTables(r.tables + r.count, kMaxTables - 1 - r.count);
#endif
    r.tables[r.count++] = &ScalarKernels();
    return r;
  }();
  return registry;
}

std::atomic<const KernelTable*> g_active{nullptr};

bool Matches(const KernelTable& t, const char* name) {
  const std::size_t nb = std::strlen(t.backend);
  if (std::strcmp(name, t.backend) == 0 || std::strcmp(name, t.target) == 0) return true;
  return std::strncmp(name, t.backend, nb) == 0 && name[nb] == '-' &&
         std::strcmp(name + nb + 1, t.target) == 0;
}

}  // namespace

std::size_t KernelTableCount() noexcept { return GetRegistry().count; }

const KernelTable* KernelTableAt(std::size_t index) noexcept {
  const Registry& r = GetRegistry();
  return index < r.count ? r.tables[index] : nullptr;
}

const KernelTable& ActiveKernels() noexcept {
  const KernelTable* t = g_active.load(std::memory_order_acquire);
  if (t == nullptr) {
    t = GetRegistry().tables[0];
    const KernelTable* expected = nullptr;
    g_active.compare_exchange_strong(expected, t, std::memory_order_acq_rel);
    t = g_active.load(std::memory_order_acquire);
  }
  return *t;
}

bool SelectKernels(const char* name) noexcept {
  if (name == nullptr) return false;
  const Registry& r = GetRegistry();
  for (std::size_t i = 0; i < r.count; ++i) {
    if (Matches(*r.tables[i], name)) {
      g_active.store(r.tables[i], std::memory_order_release);
      return true;
    }
  }
  return false;
}

}  // namespace rfk
