// The scalar kernel table, visible to every translation unit of the core, and core::Kernels, the
// handle through which Predict calls a table. In a build with no run-time dispatch (no SIMD
// backend: every Cortex-M core but those with Helium, and RV32) the scalar table is the only one,
// so Kernels names it at compile time: each `kt->Name(...)` is a direct call to the kernel, and
// neither the table nor ActiveKernels is linked unless something else takes them (ScalarKernels,
// rfk_active_target). With backends, Kernels holds the table ActiveKernels chose, read once per
// prediction. Internal to lib/core.
#pragma once

#include <cstdint>

#include "core_config.h"
#include "kernels_helium.h"  // RFK_HAVE_HELIUM
#include "rfk/kernels.hpp"

#if RFK_HAVE_HWY || RFK_HAVE_XSIMD || RFK_HAVE_HELIUM
#define RFK_HAVE_DISPATCH 1
#else
#define RFK_HAVE_DISPATCH 0
#endif

// The scalar kernels with bodies of their own (kernels_scalar.cc); the others are the references
// themselves (RFK_SCALAR_FN_ below: no wrapper in flash).
namespace rfk::core::scalar {
void StandardizeF16(const float* x, const std::uint16_t* mean, const std::uint16_t* inv_scale, std::uint32_t d,
                    float* out) noexcept;
void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                  float* z) noexcept;
void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d, float scale, float* z) noexcept;
void FourierPhaseHeadBatch(const float* Wp, const float* b, const float* X, std::uint32_t n, std::uint32_t F,
                           std::uint32_t d, float scale, const float* H, const float* bias, std::uint32_t K,
                           float* acc, float* out) noexcept;
void FourierPairHeadBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F, std::uint32_t d,
                          float scale, const float* H, const float* bias, std::uint32_t K, float* acc,
                          float* out) noexcept;
void LinearHead(const float* H, std::uint32_t stride, std::uint32_t pair, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept;
void Fwht(float* x, std::uint32_t n) noexcept;
void FourierQuant(const WeightsView& W, bool panels, const float* b, const float* x, std::uint32_t F,
                  std::uint32_t d, float scale, float* z) noexcept;
}  // namespace rfk::core::scalar

// Each entry of the scalar table. Every kernel of RFK_KERNEL_LIST needs a line here and one in
// RFK_SCALAR_BUILT_ below, or the table does not compile.
#define RFK_SCALAR_FN_Standardize ::rfk::StandardizeRef
#define RFK_SCALAR_FN_StandardizeF16 ::rfk::core::scalar::StandardizeF16
#define RFK_SCALAR_FN_FourierPhase ::rfk::core::scalar::FourierPhase
#define RFK_SCALAR_FN_FourierPair ::rfk::core::scalar::FourierPair
#define RFK_SCALAR_FN_FourierPhaseHeadBatch ::rfk::core::scalar::FourierPhaseHeadBatch
#define RFK_SCALAR_FN_FourierPairHeadBatch ::rfk::core::scalar::FourierPairHeadBatch
#define RFK_SCALAR_FN_LinearHead ::rfk::core::scalar::LinearHead
#define RFK_SCALAR_FN_BinKeys ::rfk::BinKeysRef
#if defined(RFK_CORE_PLAIN_LOOPS)
#define RFK_SCALAR_FN_Fwht ::rfk::FwhtRef
#else
#define RFK_SCALAR_FN_Fwht ::rfk::core::scalar::Fwht
#endif
#define RFK_SCALAR_FN_ApplySigns ::rfk::ApplySignsRef
#define RFK_SCALAR_FN_ScaleByDiagonal ::rfk::ScaleByDiagonalRef
#define RFK_SCALAR_FN_FourierQuant ::rfk::core::scalar::FourierQuant
#define RFK_SCALAR_FN_LinearHeadQuant ::rfk::LinearHeadQuantRef

// Which kernels this build's float path calls (core_config.h): an entry left out is null, so the
// linker drops the kernel (a firmware pays only for its model's map and storage). Fastfood's
// features go through the Fourier kernels with d = 1.
#define RFK_SCALAR_BUILT_Standardize true
#define RFK_SCALAR_BUILT_StandardizeF16 ::rfk::core::kFloatQuant
#define RFK_SCALAR_BUILT_FourierPhase \
  ((::rfk::core::kFloatDense || ::rfk::core::kFloatFastfood) && ::rfk::core::kFormPhase)
#define RFK_SCALAR_BUILT_FourierPair \
  ((::rfk::core::kFloatDense || ::rfk::core::kFloatFastfood) && ::rfk::core::kFormPair)
#define RFK_SCALAR_BUILT_FourierPhaseHeadBatch (::rfk::core::kBatchKernels && ::rfk::core::kFormPhase)
#define RFK_SCALAR_BUILT_FourierPairHeadBatch (::rfk::core::kBatchKernels && ::rfk::core::kFormPair)
#define RFK_SCALAR_BUILT_LinearHead ::rfk::core::kHeadF32
#define RFK_SCALAR_BUILT_BinKeys ::rfk::core::kFloatBinning
#define RFK_SCALAR_BUILT_Fwht ::rfk::core::kFloatFastfood
#define RFK_SCALAR_BUILT_ApplySigns ::rfk::core::kFloatFastfood
#define RFK_SCALAR_BUILT_ScaleByDiagonal ::rfk::core::kFloatFastfood
#define RFK_SCALAR_BUILT_FourierQuant (::rfk::core::kFloatDense && ::rfk::core::kFloatQuant)
#define RFK_SCALAR_BUILT_LinearHeadQuant ::rfk::core::kFloatQuant

namespace rfk::core {

// A core built for size (RFK_CORE_SMALL) that reads int8 or f16 weights sends f32 ones through the
// same kernels, which then link no loops of their own for f32: the features through FourierQuant
// (where the dense map is built: f32 rows summed from 0.0f in column order, then SinCosRef, the bits
// of FourierPair and FourierPhase, row-major or in panels, and of Fastfood's d = 1 calls), the head
// through LinearHeadQuant (a scale of 1: 1 * w is w, HeadRowF32's terms in its order). Not with
// run-time dispatch, whose tables have f32 kernels of their own. predict.cc, kernels_scalar.cc.
inline constexpr bool kF32AsQuant = RFK_CORE_SMALL && !RFK_HAVE_DISPATCH && kFloatQuant;

inline constexpr KernelTable kScalarTable = {
    "scalar", "scalar",
#define RFK_SCALAR_ENTRY(name, params) RFK_SCALAR_BUILT_##name ? &RFK_SCALAR_FN_##name : nullptr,
    RFK_KERNEL_LIST(RFK_SCALAR_ENTRY)
#undef RFK_SCALAR_ENTRY
};

#if RFK_HAVE_DISPATCH
// The table Predict calls: the one ActiveKernels chose when the prediction began.
class Kernels {
 public:
  Kernels() noexcept : t_(&ActiveKernels()) {}
  const KernelTable* operator->() const noexcept { return t_; }

 private:
  const KernelTable* t_;
};
#else
// The scalar table, the only one: a constant, so the compiler calls its entries directly.
struct Kernels {
  constexpr const KernelTable* operator->() const noexcept { return &kScalarTable; }
};
#endif

}  // namespace rfk::core
