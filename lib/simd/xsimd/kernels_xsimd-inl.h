// xsimd backend: the single-source kernels (lib/simd/kernels-inl.h) for one xsimd architecture,
// with the adapter ops_xsimd.h as the vocabulary. This is the body of the translation unit that
// rfk_xsimd_arch() (lib/simd/simd.cmake) generates per architecture and compiles with that
// architecture's flags, after defining:
//   RFK_XSIMD_ARCH       the xsimd architecture type (xsimd::avx512bw, ...)
//   RFK_XSIMD_NAMESPACE  a namespace of its own (xsimd_avx512bw, ...): nothing compiled for one
//                        instruction set can be linked in for another
//   RFK_XSIMD_LABEL      the table's target name ("AVX512BW", ...)
#include "core/fp_contract.h"  // first: no contraction, whatever the build's flags

#include <cstddef>
#include <cstdint>

#include "rfk/format.hpp"
#include "rfk/kernels.hpp"
#include "core/bin_hash.h"
#include "simd/xsimd/ops_xsimd.h"

#if !defined(RFK_XSIMD_ARCH) || !defined(RFK_XSIMD_NAMESPACE) || !defined(RFK_XSIMD_LABEL)
#error "define RFK_XSIMD_ARCH, RFK_XSIMD_NAMESPACE and RFK_XSIMD_LABEL before including"
#endif

#define RFK_SIMD_SIZELESS 0

namespace rfk {
namespace RFK_XSIMD_NAMESPACE {
namespace hn = xsimd_ops;

using DF = hn::Simd<float, RFK_XSIMD_ARCH>;
constexpr bool kNativeFma = hn::kNativeFma<RFK_XSIMD_ARCH>;
constexpr int kVectorRegisters = hn::kVectorRegisters<RFK_XSIMD_ARCH>;

using hn::WidenF16;  // the quantized kernels' widening loads (ops_xsimd.h)
using hn::WidenI8;

#include "simd/kernels-inl.h"

const KernelTable* XsimdTable() noexcept {
  static constexpr KernelTable kTable = {
      "xsimd", RFK_XSIMD_LABEL,
#define RFK_XSIMD_ENTRY(name, params) &name,
      RFK_KERNEL_LIST(RFK_XSIMD_ENTRY)
#undef RFK_XSIMD_ENTRY
  };
  return &kTable;
}

}  // namespace RFK_XSIMD_NAMESPACE
}  // namespace rfk
