// The vector vocabulary of the single-source kernels (lib/simd/kernels-inl.h) over xsimd: the
// Highway ops those kernels use, with Highway's names, argument order and meaning, so the one
// kernel source compiles against hwy::HWY_NAMESPACE and against this namespace alike. Each op is
// a line over xsimd 8.1.0 or, where xsimd falls short, over the native register.
//
// Types. Simd<T, A> tags a whole vector of T for xsimd architecture A (Highway's Simd<T, N, 0>
// with all lanes). A vector, Vec<D>, is a plain struct around the native register, as Highway's
// are, and each op converts to xsimd::batch and back (free once inlined): GCC keeps arrays of such
// structs (the 6 x 4 register tiles) in registers, where arrays of xsimd::batch, whose register
// sits four base classes deep on AVX-512, went through the stack after every tile (measured: the
// AVX-512 batch kernels 5-14% slower than Highway's with the same instructions otherwise).
// Masks are xsimd::batch_bool.
//
// Fused multiply-add. xsimd 8.1.0's fma is a separate multiply and add on avx512bw and sse4_2, and
// its fnma is one on every architecture but fma3<...> and fma4; MulAdd and NegMulAdd here are one
// fused instruction wherever the instruction set has one, through the intrinsic on the register:
//   xsimd architecture     register      fused  instructions
//   avx512bw               __m512        yes    vfmadd231ps / vfnmadd231ps (AVX-512F)
//   fma3<avx2>             __m256        yes    vfmadd231ps / vfnmadd231ps (FMA3)
//   fma3<sse4_2>           __m128        yes    vfmadd231ps / vfnmadd231ps (FMA3)
//   sse4_2, avx2, avx      __m128/__m256 no     mulps + addps / subps
//   neon64                 float32x4_t   yes    fmla / fmls
//   neon (-mfpu=neon-vfpv4) float32x4_t  yes    vfma / vfms (__ARM_FEATURE_FMA)
//   neon (older -mfpu)     float32x4_t   no     vmul + vadd / vsub
// The table follows from the translation unit's flags (each architecture's unit is compiled with
// its own, lib/simd/simd.cmake); kNativeFma<A> reports it, and the kernels choose their sin/cos
// reduction by it (an exact 2-step reduction needs the fused rounding).
//
// Linkage: everything here is a template on the architecture or has internal linkage, so no code
// compiled for one instruction set can be picked by the linker for another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "rfk/kernels.hpp"  // HalfToFloat

namespace rfk {
namespace xsimd_ops {

template <class T, class A>
struct Simd {
  using Lane = T;
  using Arch = A;
};
template <class T, class A>
struct Vector {
  typename xsimd::batch<T, A>::register_type raw;
};
template <class D> using Vec = Vector<typename D::Lane, typename D::Arch>;
template <class D> using Mask = xsimd::batch_bool<typename D::Lane, typename D::Arch>;
namespace detail {
template <class T> struct Signed { using type = std::make_signed_t<T>; };
template <> struct Signed<float> { using type = std::int32_t; };
// A vector as xsimd's batch, and back.
template <class T, class A> xsimd::batch<T, A> B(Vector<T, A> v) { return xsimd::batch<T, A>(v.raw); }
template <class T, class A> Vector<T, A> V(xsimd::batch<T, A> b) { return {b}; }
}  // namespace detail
template <class D> using RebindToSigned = Simd<typename detail::Signed<typename D::Lane>::type, typename D::Arch>;

template <class D> constexpr std::size_t Lanes(D) { return xsimd::batch<typename D::Lane, typename D::Arch>::size; }
template <class D> constexpr std::size_t MaxLanes(D d) { return Lanes(d); }

using detail::B;
using detail::V;

// ---------------------------------------------------------------- memory
template <class D> Vec<D> Set(D, typename D::Lane x) { return V(xsimd::batch<typename D::Lane, typename D::Arch>(x)); }
template <class D> Vec<D> Zero(D d) { return Set(d, typename D::Lane(0)); }
template <class D> Vec<D> Load(D, const typename D::Lane* p) {
  return V(xsimd::batch<typename D::Lane, typename D::Arch>::load_aligned(p));
}
template <class D> Vec<D> LoadU(D, const typename D::Lane* p) {
  return V(xsimd::batch<typename D::Lane, typename D::Arch>::load_unaligned(p));
}
template <class T, class A, class D> void Store(Vector<T, A> v, D, T* p) { B(v).store_aligned(p); }
template <class T, class A, class D> void StoreU(Vector<T, A> v, D, T* p) { B(v).store_unaligned(p); }

// ---------------------------------------------------------------- arithmetic
template <class T, class A> Vector<T, A> Add(Vector<T, A> a, Vector<T, A> b) { return V(B(a) + B(b)); }
template <class T, class A> Vector<T, A> Sub(Vector<T, A> a, Vector<T, A> b) { return V(B(a) - B(b)); }
template <class T, class A> Vector<T, A> Mul(Vector<T, A> a, Vector<T, A> b) { return V(B(a) * B(b)); }
template <class T, class A> Vector<T, A> Abs(Vector<T, A> v) { return V(xsimd::abs(B(v))); }
template <class T, class A> Vector<T, A> Min(Vector<T, A> a, Vector<T, A> b) { return V(xsimd::min(B(a), B(b))); }
template <class T, class A> Vector<T, A> Max(Vector<T, A> a, Vector<T, A> b) { return V(xsimd::max(B(a), B(b))); }
template <class A> Vector<float, A> Floor(Vector<float, A> v) { return V(xsimd::floor(B(v))); }

namespace detail {
// Fused a*b + c and c - a*b on a native register, declared only where the instruction set has
// them (see the table above).
#if defined(__AVX512F__)
static inline __m512 FusedMulAdd(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
static inline __m512 FusedNegMulAdd(__m512 a, __m512 b, __m512 c) { return _mm512_fnmadd_ps(a, b, c); }
#endif
#if defined(__FMA__)
static inline __m256 FusedMulAdd(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
static inline __m256 FusedNegMulAdd(__m256 a, __m256 b, __m256 c) { return _mm256_fnmadd_ps(a, b, c); }
static inline __m128 FusedMulAdd(__m128 a, __m128 b, __m128 c) { return _mm_fmadd_ps(a, b, c); }
static inline __m128 FusedNegMulAdd(__m128 a, __m128 b, __m128 c) { return _mm_fnmadd_ps(a, b, c); }
#endif
#if defined(__ARM_NEON) && defined(__ARM_FEATURE_FMA)
static inline float32x4_t FusedMulAdd(float32x4_t a, float32x4_t b, float32x4_t c) { return vfmaq_f32(c, a, b); }
static inline float32x4_t FusedNegMulAdd(float32x4_t a, float32x4_t b, float32x4_t c) { return vfmsq_f32(c, a, b); }
#endif
template <class R> R FusedMulAdd(R, R, R) = delete;  // no fused instruction for R
template <class R> R FusedNegMulAdd(R, R, R) = delete;
template <class R, class = void>
struct HasFused : std::false_type {};
template <class R>
struct HasFused<R, decltype(void(FusedMulAdd(R(), R(), R())))> : std::true_type {};

// The bits of one register as another of the same size (a mask of int lanes as one of floats).
template <class To, class From>
static inline To Reinterpret(From from) {
  static_assert(sizeof(To) == sizeof(From), "registers of different sizes");
  To to;
  std::memcpy(&to, &from, sizeof to);  // a register move, or nothing, once optimised
  return to;
}
}  // namespace detail

// True where MulAdd and NegMulAdd on architecture A are single fused instructions.
template <class A>
constexpr bool kNativeFma = detail::HasFused<typename xsimd::batch<float, A>::register_type>::value;

// a * b + c and c - a * b: fused where kNativeFma<A>, else a rounded product and a rounded sum.
template <class A>
Vector<float, A> MulAdd(Vector<float, A> a, Vector<float, A> b, Vector<float, A> c) {
  if constexpr (kNativeFma<A>) return {detail::FusedMulAdd(a.raw, b.raw, c.raw)};
  else return V(B(a) * B(b) + B(c));
}
template <class A>
Vector<float, A> NegMulAdd(Vector<float, A> a, Vector<float, A> b, Vector<float, A> c) {
  if constexpr (kNativeFma<A>) return {detail::FusedNegMulAdd(a.raw, b.raw, c.raw)};
  else return V(B(c) - B(a) * B(b));
}

// Architectural vector registers (the register tiles' budget): 32 with AVX-512 and on AArch64.
template <class A>
constexpr int kVectorRegisters =
#if defined(__aarch64__)
    32;
#else
    sizeof(typename xsimd::batch<float, A>::register_type) == 64 ? 32 : 16;
#endif

// ---------------------------------------------------------------- bits
template <class T, class A> Vector<T, A> And(Vector<T, A> a, Vector<T, A> b) { return V(B(a) & B(b)); }
template <class T, class A> Vector<T, A> Xor(Vector<T, A> a, Vector<T, A> b) { return V(B(a) ^ B(b)); }
template <class D> Vec<D> SignBit(D d) { return Set(d, -0.0f); }  // float lanes: the sign bit alone
template <class D, class T, class A> Vec<D> BitCast(D, Vector<T, A> v) {
  return V(xsimd::bitwise_cast<xsimd::batch<typename D::Lane, A>>(B(v)));
}
template <int kBits, class T, class A> Vector<T, A> ShiftLeft(Vector<T, A> v) { return V(B(v) << kBits); }
template <class T, class A>
xsimd::batch_bool<T, A> TestBit(Vector<T, A> v, Vector<T, A> bit) {
  return (B(v) & B(bit)) != xsimd::batch<T, A>(T(0));
}

// ---------------------------------------------------------------- masks
template <class T, class A> xsimd::batch_bool<T, A> Eq(Vector<T, A> a, Vector<T, A> b) { return B(a) == B(b); }
template <class T, class A> xsimd::batch_bool<T, A> Le(Vector<T, A> a, Vector<T, A> b) { return B(a) <= B(b); }
template <class D, class T, class A> bool AllTrue(D, xsimd::batch_bool<T, A> m) { return xsimd::all(m); }
template <class T, class A>
Vector<T, A> IfThenElse(xsimd::batch_bool<T, A> m, Vector<T, A> yes, Vector<T, A> no) {
  return V(xsimd::select(m, B(yes), B(no)));
}
template <class T, class A>
Vector<T, A> IfThenElseZero(xsimd::batch_bool<T, A> m, Vector<T, A> yes) {
  return V(xsimd::select(m, B(yes), xsimd::batch<T, A>(T(0))));
}
// A mask of lanes of one type as a mask of lanes of another of the same size: the same register
// bits (AVX-512 and NEON use one mask type for both, SSE/AVX a float and an integer register).
template <class D, class T, class A>
Mask<D> RebindMask(D, xsimd::batch_bool<T, A> m) {
  using To = typename Mask<D>::register_type;
  using From = typename xsimd::batch_bool<T, A>::register_type;
  return Mask<D>(detail::Reinterpret<To>(static_cast<From>(m)));
}

// ---------------------------------------------------------------- lanes
// float -> int32, truncating toward zero (in-range lanes, as Highway's).
template <class D, class A> Vec<D> ConvertTo(D, Vector<float, A> v) { return V(xsimd::to_int(B(v))); }
template <class D, class T, class A> Vec<D> SumOfLanes(D d, Vector<T, A> v) { return Set(d, xsimd::hadd(B(v))); }
template <class T, class A> T GetLane(Vector<T, A> v) {  // lane 0: the register's first bytes
  T t;
  std::memcpy(&t, &v.raw, sizeof t);  // a register move (xsimd's get() goes through memory)
  return t;
}

// ---------------------------------------------------------------- permutations
// Indices<A>: what the architecture's float lane permute takes. Lane indices for AVX2's and
// AVX-512's vpermps; byte indices (4 i, 4 i + 1, 4 i + 2, 4 i + 3 for lane i) for the 128-bit
// registers' byte shuffles (SSSE3 pshufb, AArch64 tbl, ARMv7 vtbl).
template <class A>
struct Indices {
  typename xsimd::batch<std::int32_t, A>::register_type raw;
};
// Lane i of TableLookupLanes's result is v's lane idx[i]; 0 <= idx[i] < Lanes(d), float lanes.
template <class D>
Indices<typename D::Arch> SetTableIndices(D, const std::int32_t* idx) {
  static_assert(std::is_same<typename D::Lane, float>::value, "float lanes only");
  Indices<typename D::Arch> r;
  if constexpr (sizeof(r.raw) == 16) {
    std::uint8_t bytes[16];
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<std::uint8_t>(4 * idx[i] + b);
    std::memcpy(&r.raw, bytes, sizeof bytes);
  } else {
    static_assert(sizeof(r.raw) == Lanes(D()) * sizeof(std::int32_t), "one index per lane");
    std::memcpy(&r.raw, idx, sizeof r.raw);
  }
  return r;
}
namespace detail {
// The lane permutes, declared only where the instruction set has them (AVX without AVX2, which
// no table here builds, has no lane-crossing variable permute).
#if defined(__AVX512F__)
static inline __m512 Permute(__m512 v, __m512i idx) { return _mm512_permutexvar_ps(idx, v); }
#endif
#if defined(__AVX2__)
static inline __m256 Permute(__m256 v, __m256i idx) { return _mm256_permutevar8x32_ps(v, idx); }
#endif
#if defined(__SSSE3__)
static inline __m128 Permute(__m128 v, __m128i bytes) {
  return _mm_castsi128_ps(_mm_shuffle_epi8(_mm_castps_si128(v), bytes));
}
#endif
#if defined(__aarch64__)
static inline float32x4_t Permute(float32x4_t v, int32x4_t bytes) {
  return vreinterpretq_f32_u8(vqtbl1q_u8(vreinterpretq_u8_f32(v), vreinterpretq_u8_s32(bytes)));
}
#elif defined(__ARM_NEON)
static inline float32x4_t Permute(float32x4_t v, int32x4_t bytes) {
  const uint8x16_t u = vreinterpretq_u8_f32(v), b = vreinterpretq_u8_s32(bytes);
  const uint8x8x2_t table = {{vget_low_u8(u), vget_high_u8(u)}};
  return vreinterpretq_f32_u8(vcombine_u8(vtbl2_u8(table, vget_low_u8(b)), vtbl2_u8(table, vget_high_u8(b))));
}
#endif
}  // namespace detail
template <class A>
Vector<float, A> TableLookupLanes(Vector<float, A> v, Indices<A> idx) { return {detail::Permute(v.raw, idx.raw)}; }

// ---------------------------------------------------------------- widening loads (rfk's names)
// Lanes(d) weights stored as int8 or as binary16 at p, as floats (exactly): what Highway spells
// ConvertTo(PromoteTo(LoadU(Rebind<int8_t>))) and PromoteTo(LoadU(Rebind<float16_t>)). One
// instruction sequence per register type: int8 through the sign-extending conversions (AVX-512F,
// AVX2, SSE4.1, NEON), binary16 through F16C (AVX-512F implies it) or AArch64's fcvtl; where the
// instruction set has no binary16 conversion (SSE4.2 or AVX2 without F16C, ARMv7 NEON) the lanes
// are widened one by one into a vector's worth of stack (HalfToFloat: exact).
namespace detail {
// n binary16 lanes at p as floats at out.
static inline void HalfLanes(float* out, const std::uint16_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = HalfToFloat(p[i]);
}
#if defined(__AVX512F__)
static inline __m512 WidenI8(__m512*, const std::int8_t* p) {
  return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
static inline __m512 WidenF16(__m512*, const std::uint16_t* p) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
#endif
#if defined(__AVX2__)
static inline __m256 WidenI8(__m256*, const std::int8_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
#endif
#if defined(__AVX__) && defined(__F16C__)
static inline __m256 WidenF16(__m256*, const std::uint16_t* p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
#elif defined(__AVX__)
static inline __m256 WidenF16(__m256*, const std::uint16_t* p) {
  alignas(32) float lanes[8];
  HalfLanes(lanes, p, 8);
  return _mm256_load_ps(lanes);
}
#endif
#if defined(__SSE4_1__)
static inline __m128 WidenI8(__m128*, const std::int8_t* p) {
  std::int32_t four;
  std::memcpy(&four, p, sizeof four);
  return _mm_cvtepi32_ps(_mm_cvtepi8_epi32(_mm_cvtsi32_si128(four)));
}
#endif
#if defined(__F16C__)
static inline __m128 WidenF16(__m128*, const std::uint16_t* p) {
  return _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
#elif defined(__SSE2__)
static inline __m128 WidenF16(__m128*, const std::uint16_t* p) {
  alignas(16) float lanes[4];
  HalfLanes(lanes, p, 4);
  return _mm_load_ps(lanes);
}
#endif
#if defined(__ARM_NEON)
static inline float32x4_t WidenI8(float32x4_t*, const std::int8_t* p) {
  std::int32_t four;
  std::memcpy(&four, p, sizeof four);
  const int8x8_t b = vreinterpret_s8_s32(vdup_n_s32(four));
  return vcvtq_f32_s32(vmovl_s16(vget_low_s16(vmovl_s8(b))));
}
#if defined(__aarch64__)
static inline float32x4_t WidenF16(float32x4_t*, const std::uint16_t* p) {
  return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
}
#else
static inline float32x4_t WidenF16(float32x4_t*, const std::uint16_t* p) {
  float lanes[4];
  HalfLanes(lanes, p, 4);
  return vld1q_f32(lanes);
}
#endif
#endif
}  // namespace detail

template <class A>
Vector<float, A> WidenI8(Simd<float, A>, const std::int8_t* p) {
  using R = typename xsimd::batch<float, A>::register_type;
  return {detail::WidenI8(static_cast<R*>(nullptr), p)};
}
template <class A>
Vector<float, A> WidenF16(Simd<float, A>, const std::uint16_t* p) {
  using R = typename xsimd::batch<float, A>::register_type;
  return {detail::WidenF16(static_cast<R*>(nullptr), p)};
}

}  // namespace xsimd_ops
}  // namespace rfk
