// The SIMD kernels of RFK_KERNEL_LIST (include/rfk/kernels.hpp), written once for every backend
// and instruction set. A backend includes this file inside a namespace of its own per
// instruction set (rfk::N_AVX3 for Highway's AVX3 target, rfk::xsimd_avx512bw, ...), so nothing
// compiled for one instruction set can be linked in for another. No include guard: Highway
// includes it once per target. Before the include, the backend provides:
//
//   hn                 the vector vocabulary, a namespace with these ops of Highway's (same names,
//                      argument order and meaning; Highway's quick_reference.md documents them):
//     tags, types      Vec<D>, RebindToSigned<D>, Lanes(d), MaxLanes(d) (constexpr)
//     memory           Zero, Set, Load / Store (aligned), LoadU / StoreU
//     arithmetic       Add, Sub, Mul, MulAdd (a*b + c), NegMulAdd (c - a*b), Abs, Min, Max, Floor
//     bits             And, Xor, SignBit, BitCast, ShiftLeft<n>, TestBit
//     masks            Eq, Le, AllTrue, IfThenElse, IfThenElseZero, RebindMask
//     lanes            ConvertTo (float -> int32, truncating), SumOfLanes, GetLane
//     permutations     SetTableIndices (int32 lane indices), TableLookupLanes (float lanes)
//                      Highway itself in lib/simd/hwy; for xsimd, lib/simd/xsimd/ops_xsimd.h.
//   DF                 the float tag, at most kPw (16) lanes: one vector never spans two W panels.
//   kNativeFma         true where MulAdd and NegMulAdd are single fused instructions: then the
//                      sin/cos reduction takes 2 steps instead of 4 and the batch kernels use
//                      SinCosPi (both need the fused rounding to be exact).
//   kVectorRegisters   architectural vector registers (16 or 32): sizes the register tiles.
//   RFK_SIMD_SIZELESS  1 where vectors are sizeless (SVE: no arrays or members of vector type;
//                      the tiles are then spelled out with named accumulators), else 0.
//   WidenI8(df, p)     Lanes(df) int8 weights at p as floats (exact), and WidenF16(df, p) the same
//   WidenF16(df, p)    for binary16 bits: the quantized kernels' loads (kernels/quant-inl.h), one
//                      definition per backend beside its vocabulary (Highway: PromoteTo and
//                      ConvertTo; xsimd: ops_xsimd.h).
//
// A new kernel is written here with these ops only; one that needs a new op adds it to the xsimd
// adapter under Highway's name and meaning (Highway has them all), with a line in the list above.
// Every kernel: no allocation, no exceptions, no library calls but the scalar reference for
// lanes it does not handle; pointers need natural float alignment only.

#ifndef RFK_SIMD_KERNELS_MACROS_
#define RFK_SIMD_KERNELS_MACROS_
// Forced inlining for the small helpers (as HWY_INLINE), and an opt-out where inlining hurt.
#define RFK_INLINE inline __attribute__((always_inline))
#define RFK_NOINLINE __attribute__((noinline))
#define RFK_LIKELY(x) __builtin_expect(!!(x), 1)
#define RFK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#endif

constexpr std::uint32_t kPw = format::kPanelWidth;
static_assert(hn::MaxLanes(DF()) <= kPw, "a vector must not span two W panels");
// Alignment of the stack buffers that Load and Store (aligned) use: one vector's bytes at most.
constexpr std::size_t kVectorBytes = hn::MaxLanes(DF()) * sizeof(float);

#include "simd/kernels/sincos-inl.h"
#include "simd/kernels/tiles-inl.h"
#include "simd/kernels/fourier-inl.h"
#include "simd/kernels/basic-inl.h"
#include "simd/kernels/fwht-inl.h"
#include "simd/kernels/quant-inl.h"
