// Highway backend: the single-source kernels (lib/simd/kernels-inl.h) compiled once per Highway
// target by foreach_target.h, with Highway's own ops as the vocabulary, each target filling its
// own KernelTable. Which targets exist is Highway's list (HWY_TARGETS, minus HWY_RVV: see
// lib/simd/simd.cmake); nothing here names a target. HwyKernelTables() lists the ones this CPU
// supports, best first; the registry (lib/core/dispatch.cc) picks among them.

#include "core/fp_contract.h"  // first: no contraction, whatever the build's flags

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/hwy/kernels_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/targets.h"
#include "rfk/format.hpp"
#include "rfk/kernels.hpp"
#include "core/bin_hash.h"

// Sizeless vectors (SVE, SVE2): checked by #if in the kernels, per target.
#undef RFK_SIMD_SIZELESS
#define RFK_SIMD_SIZELESS HWY_HAVE_SCALABLE

HWY_BEFORE_NAMESPACE();
namespace rfk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, format::kPanelWidth>;
constexpr bool kNativeFma = HWY_NATIVE_FMA;
// 32 vector registers: AVX-512 (the only targets with 512-bit vectors) and every AArch64 target.
constexpr int kVectorRegisters = HWY_CAP_GE512 || HWY_ARCH_ARM_A64 ? 32 : 16;

// The quantized kernels' widening loads (kernels-inl.h): Lanes(df) int8 or binary16 weights at p,
// as floats, exactly.
HWY_INLINE hn::Vec<DF> WidenI8(DF df, const std::int8_t* p) {
  const hn::Rebind<std::int8_t, DF> d8;
  const hn::Rebind<std::int32_t, DF> d32;
  return hn::ConvertTo(df, hn::PromoteTo(d32, hn::LoadU(d8, p)));
}
HWY_INLINE hn::Vec<DF> WidenF16(DF df, const std::uint16_t* p) {
  const hn::Rebind<hwy::float16_t, DF> d16;
  return hn::PromoteTo(df, hn::LoadU(d16, reinterpret_cast<const hwy::float16_t*>(p)));
}

#include "simd/kernels-inl.h"

// This target's table, constant-initialised (no guard variable, no constructor: the core links
// without the C++ runtime). Its name is the target's namespace without "N_" (N_AVX3 -> "AVX3"),
// which is what hwy::TargetName says, known at compile time.
#define RFK_HWY_STRING(x) RFK_HWY_STRING_(x)
#define RFK_HWY_STRING_(x) #x
const KernelTable kTable = {
    "hwy", RFK_HWY_STRING(HWY_NAMESPACE) + 2,
#define RFK_HWY_ENTRY(name, params) &name,
    RFK_KERNEL_LIST(RFK_HWY_ENTRY)
#undef RFK_HWY_ENTRY
};

const KernelTable* HwyTable() noexcept { return &kTable; }

}  // namespace HWY_NAMESPACE
}  // namespace rfk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace rfk {

std::size_t HwyKernelTables(const KernelTable** out, std::size_t capacity) noexcept {
  // Highway's own list of this architecture's targets, the one HWY_EXPORT builds its dispatch
  // table from: entry i is the target at bit kFirst + i, best first, null where not compiled;
  // then the fallback, EMU128 or SCALAR where either was compiled (else the static target, which
  // is in the list already).
  using TableFn = const KernelTable* (*)() noexcept;
  constexpr TableFn kTargets[] = {HWY_CHOOSE_TARGET_LIST(HwyTable)};
  constexpr int kFirst = HWY_HIGHEST_TARGET_BIT + 1 - HWY_MAX_DYNAMIC_TARGETS;
  constexpr std::int64_t kFallback = (HWY_TARGETS & HWY_EMU128) ? HWY_EMU128 : (HWY_TARGETS & HWY_SCALAR);
  const TableFn fallback = HWY_CHOOSE_FALLBACK(HwyTable);
  // The static (baseline) target is what every translation unit was compiled for, so a CPU running
  // this code supports it even where Highway's run-time detection cannot tell (armhf: NEON is the
  // baseline there).
  const std::int64_t supported = (hwy::SupportedTargets() | HWY_STATIC_TARGET) & HWY_TARGETS;
  std::size_t n = 0;
  for (int i = 0; i < HWY_MAX_DYNAMIC_TARGETS && n < capacity; ++i) {
    if (kTargets[i] != nullptr && (supported & (std::int64_t{1} << (kFirst + i))) != 0) out[n++] = kTargets[i]();
  }
  if (kFallback != 0 && (supported & kFallback) != 0 && n < capacity) out[n++] = fallback();
  return n;
}

}  // namespace rfk
#endif  // HWY_ONCE
