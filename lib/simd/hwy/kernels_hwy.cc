// Highway backend: every kernel of RFK_KERNEL_LIST, compiled once per Highway target by
// foreach_target.h (x86: AVX3_DL, AVX3, AVX2, SSE4, SSSE3; aarch64: SVE2, SVE, NEON; plus the
// baseline), each target filling its own KernelTable. HwyKernelTables() lists the ones this CPU
// supports, best first; the registry (lib/core/dispatch.cc) picks among them.
//
// Contract, per kernel: see include/rfk/kernels.hpp. Vectors are capped at 16 float lanes so one
// vector never spans two W panels. The dot products use MulAdd (fused where the target has FMA);
// sin/cos is the scalar reference's algorithm lane by lane (same reduction, same polynomials, with
// FMA where available), and lanes outside its fast range take the scalar path, so no argument
// returns garbage.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/hwy/kernels_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "rfk/format.hpp"
#include "rfk/kernels.hpp"
#include "core/bin_hash.h"

HWY_BEFORE_NAMESPACE();
namespace rfk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, format::kPanelWidth>;
constexpr std::uint32_t kPw = format::kPanelWidth;

// ---------------------------------------------------------------- sin/cos

// If any lane of x is beyond the fast range (or NaN: a NaN lane compares false both ways, so the
// test is "not all within", not "any beyond"), every lane takes the scalar reference: correct up to
// kSinCosMaxArg and NaN beyond, never garbage.
template <class D, class V>
HWY_INLINE void SlowLanes(D d, V x, V& sin_out, V& cos_out) {
  if (HWY_LIKELY(hn::AllTrue(d, hn::Le(hn::Abs(x), hn::Set(d, kSinCosFastRange))))) return;
  HWY_ALIGN float xs[kPw], ss[kPw], cs[kPw];
  hn::Store(x, d, xs);
  for (std::size_t i = 0; i < hn::Lanes(d); ++i) SinCosRef(xs[i], &ss[i], &cs[i]);
  sin_out = hn::Load(d, ss);
  cos_out = hn::Load(d, cs);
}

// sin and cos of every lane: x = k pi/2 + r with |r| <= pi/4, then the scalar reference's
// polynomials. With fused multiply-adds r = (x - k P1) - k P2, P1 + P2 = pi/2 in two floats:
// x - k P1 is exact in one FMA (both are multiples of ulp(P1) and the difference is below 1), so r
// carries one rounding. Without FMA, the scalar reference's 4-part Cody-Waite split (exact
// products for |k| < 2^16). Accuracy for |x| <= kSinCosMaxArg: within 1.2e-7 of double sin/cos,
// as the scalar reference (tests/test_parity.cc checks every table); with FMA 9.3e-8 was measured
// over 2e7 arguments up to 1e5. Lanes beyond the fast range (large, or NaN) take the scalar
// reference, correct up to kSinCosMaxArg and NaN beyond, so no argument ever yields garbage.
// kWantSin = false skips what only sin needs.
template <bool kWantSin, class D, class V = hn::Vec<D>>
HWY_INLINE void SinCos(D d, V x, V& sin_out, V& cos_out) {
  const hn::RebindToSigned<D> di;
  // t = x 2/pi + (1.5 2^23 + 1) rounds x 2/pi to an integer k in one operation: t's low mantissa
  // bits then hold k + 1 (1.5 2^23 is a multiple of 4, so the quadrant bits survive), exact for
  // |k| < 2^22. Without FMA the product is rounded first: still an integer k, as good a reduction.
  constexpr float kMagic = 12582913.0f;
  const V t = hn::MulAdd(x, hn::Set(d, 0.636619772f), hn::Set(d, kMagic));
  const V fk = hn::Sub(t, hn::Set(d, kMagic));
  const auto k1 = hn::BitCast(di, t);
#if HWY_NATIVE_FMA
  V r = hn::NegMulAdd(fk, hn::Set(d, 0x1.921fb6p0f), x);  // exact, see above
  r = hn::NegMulAdd(fk, hn::Set(d, -0x1.777a5cp-25f), r);
#else
  V r = hn::NegMulAdd(fk, hn::Set(d, 0x1.92p0f), x);  // exact: fk * C1 has no rounding error
  r = hn::NegMulAdd(fk, hn::Set(d, 0x1.fcp-12f), r);
  r = hn::NegMulAdd(fk, hn::Set(d, -0x1.58p-21f), r);
  r = hn::NegMulAdd(fk, hn::Set(d, 0x1.10b462p-30f), r);
#endif
  const V r2 = hn::Mul(r, r);
  const V sp = hn::MulAdd(hn::MulAdd(hn::Set(d, -1.9515295891e-4f), r2, hn::Set(d, 8.3321608736e-3f)),
                          r2, hn::Set(d, -1.6666654611e-1f));
  const V s = hn::MulAdd(hn::Mul(r, r2), sp, r);
  const V cp = hn::MulAdd(hn::MulAdd(hn::Set(d, 2.443315711809948e-5f), r2, hn::Set(d, -1.388731625493765e-3f)),
                          r2, hn::Set(d, 4.166664568298827e-2f));
  const V c = hn::MulAdd(hn::Mul(r2, r2), cp, hn::NegMulAdd(hn::Set(d, 0.5f), r2, hn::Set(d, 1.0f)));
  // Quadrant q = k & 3: sin = {s, c, -s, -c}[q], cos = {c, -s, -c, s}[q]. s and c swap when k is
  // odd (bit 0 of k + 1 clear); cos is negative when bit 1 of k + 1 is set, sin when bit 1 of k is.
  const auto k_even = hn::RebindMask(d, hn::TestBit(k1, hn::Set(di, 1)));
  const V sign = hn::SignBit(d);
  cos_out = hn::Xor(hn::IfThenElse(k_even, c, s), hn::And(hn::BitCast(d, hn::ShiftLeft<30>(k1)), sign));
  if (kWantSin) {
    const auto k = hn::Sub(k1, hn::Set(di, 1));
    sin_out = hn::Xor(hn::IfThenElse(k_even, s, c), hn::And(hn::BitCast(d, hn::ShiftLeft<30>(k)), sign));
  }
  SlowLanes(d, x, sin_out, cos_out);
}

#if HWY_NATIVE_FMA
// sin and cos for the batch kernels, in fewer operations than SinCos: x = m pi + r with
// |r| <= pi/2, then cos x = (-1)^m cos r and sin x = (-1)^m sin r by one even and one odd
// polynomial (minimax on [-pi/2, pi/2], degrees 10 and 9, fitted for rfk), with no quadrant
// selection. r = (x - m P1) - m P2, P1 + P2 = pi in two floats (x - m P1 is exact in one FMA).
// Accuracy: within 1.6e-7 of double sin/cos for |x| <= kSinCosFastRange (1.56e-7 the worst seen
// over 2e7 arguments), against SinCos's 1.2e-7: these values only feed the head's sums. Lanes
// beyond the fast range take the scalar reference, as in SinCos; kCheck = false leaves that to
// the caller (FeaturesIntoHead checks a row of vectors at once).
template <bool kWantSin, bool kCheck = true, class D, class V = hn::Vec<D>>
HWY_INLINE void SinCosPi(D d, V x, V& sin_out, V& cos_out) {
  const hn::RebindToSigned<D> di;
  constexpr float kMagic = 12582912.0f;  // 1.5 2^23: t's low mantissa bits hold m
  const V t = hn::MulAdd(x, hn::Set(d, 0.318309886f), hn::Set(d, kMagic));
  const V fm = hn::Sub(t, hn::Set(d, kMagic));
  V r = hn::NegMulAdd(fm, hn::Set(d, 0x1.921fb6p+1f), x);
  r = hn::NegMulAdd(fm, hn::Set(d, -0x1.777a5cp-24f), r);
  const V r2 = hn::Mul(r, r);
  V c = hn::MulAdd(hn::Set(d, -0x1.17b9cep-22f), r2, hn::Set(d, 0x1.9f6816p-16f));
  c = hn::MulAdd(c, r2, hn::Set(d, -0x1.6c1338p-10f));
  c = hn::MulAdd(c, r2, hn::Set(d, 0x1.555546p-5f));
  c = hn::MulAdd(c, r2, hn::Set(d, -0.5f));
  c = hn::MulAdd(c, r2, hn::Set(d, 1.0f));
  const V sign = hn::BitCast(d, hn::ShiftLeft<31>(hn::BitCast(di, t)));  // (-1)^m
  cos_out = hn::Xor(c, sign);
  if (kWantSin) {
    V q = hn::MulAdd(hn::Set(d, 0x1.5bb082p-19f), r2, hn::Set(d, -0x1.9f4142p-13f));
    q = hn::MulAdd(q, r2, hn::Set(d, 0x1.110d6ep-7f));
    q = hn::MulAdd(q, r2, hn::Set(d, -0x1.55553cp-3f));
    sin_out = hn::Xor(hn::MulAdd(hn::Mul(r, r2), q, r), sign);
  }
  if (kCheck) SlowLanes(d, x, sin_out, cos_out);
}
#endif

// ---------------------------------------------------------------- projection

// Start of the L-lane block holding frequencies [j, j + L) of input c (L divides kPw).
HWY_INLINE const float* Block(const float* Wp, std::uint32_t j, std::uint32_t d) {
  return Wp + static_cast<std::size_t>(j / kPw) * kPw * d + j % kPw;
}

// Projection and features are two passes over each block of frequencies: the register tiles
// start from the phase b and store the raw sums, and Finish then turns them into features in a
// plain vector loop, whose independent iterations the CPU overlaps (sin/cos is a long dependency
// chain: done straight after a tile, it stalls the multiply-adds).

// One sample's raw projections. Init is an accumulator's start (b[j..] in the phase form); the
// call operator stores the sums for frequencies [j, j + L) at z + (j - j0). Lanes at or past F
// (the panel padding) are dropped; a vector crossing F starts from zero and adds b per lane.
template <bool kPhase>
struct RawStore {
  const float* b;
  std::uint32_t F, j0;
  float* z;
  HWY_INLINE hn::Vec<DF> Init(DF d, std::uint32_t j) const {
    if (kPhase && j + hn::Lanes(d) <= F) return hn::LoadU(d, b + j);
    return hn::Zero(d);
  }
  template <class V>
  HWY_INLINE void operator()(DF d, std::uint32_t j, V acc) const {
    const std::size_t L = hn::Lanes(d);
    float* o = z + (j - j0);
    if (j + L <= F) {
      hn::StoreU(acc, d, o);
    } else if (j < F) {
      HWY_ALIGN float a[kPw] = {};
      hn::Store(acc, d, a);
      for (std::uint32_t t = 0; j + t < F; ++t) o[t] = kPhase ? a[t] + b[j + t] : a[t];
    }
  }
};

// Features from raw projections, in place: zc[t] = scale cos(zc[t]) and, for pairs,
// zs[t] = scale sin(zc[t]), t < m. kScaled = false is the batch kernels' form: it leaves out the
// factor scale (the head applies it once to each sum) and, with FMA, evaluates SinCosPi. A last
// partial vector takes the scalar reference.
template <bool kPair, bool kScaled = true>
HWY_INLINE void Finish(float* zc, float* zs, std::uint32_t m, float scale) {
  const DF d;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(d));
  const auto vscale = hn::Set(d, scale);
  std::uint32_t t = 0;
  for (; t + L <= m; t += L) {
    hn::Vec<DF> s, c;
#if HWY_NATIVE_FMA
    if (!kScaled) SinCosPi<kPair>(d, hn::LoadU(d, zc + t), s, c);  // the batch kernels
    else
#endif
      SinCos<kPair>(d, hn::LoadU(d, zc + t), s, c);
    hn::StoreU(kScaled ? hn::Mul(vscale, c) : c, d, zc + t);
    if (kPair) hn::StoreU(kScaled ? hn::Mul(vscale, s) : s, d, zs + t);
  }
  for (; t < m; ++t) {
    float s, c;
    SinCosRef(zc[t], &s, &c);
    zc[t] = kScaled ? scale * c : c;
    if (kPair) zs[t] = kScaled ? scale * s : s;
  }
}

// Register tiles: S samples x V vectors of L frequencies, S*V independent accumulators, each
// loaded W vector reused for S samples. Enough accumulators hide the FMA latency (2 FMAs per
// cycle x 4 cycles = 8 in flight); targets with 32 vector registers afford 24 (6 x 4: each
// iteration loads 4 W vectors and 6 inputs for 24 FMAs). kOneV: vectors per block for one
// sample; batches go kBatchS samples at a time through blocks of kBatchV vectors.
#if HWY_HAVE_SCALABLE
constexpr int kOneV = 4, kBatchS = 2, kBatchV = 2;
#elif HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
constexpr int kOneV = 8, kBatchS = 6, kBatchV = 4;
#elif HWY_TARGET == HWY_NEON
constexpr int kOneV = 8, kBatchS = 4, kBatchV = 4;
#else
constexpr int kOneV = 4, kBatchS = 4, kBatchV = 2;
#endif

#if !HWY_HAVE_SCALABLE
// acc[s][v] = Init + sum_c x_s[c] W[j + vL .. j + vL + L)[c] for samples i.., then emitted.
template <int S, int V, class EmitFor>
HWY_INLINE void Tile(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
                     std::uint32_t d, const EmitFor& emit_for) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  hn::Vec<DF> acc[S][V];
  const float* p[V];
  for (int v = 0; v < V; ++v) p[v] = Block(Wp, j + v * L, d);
  for (int v = 0; v < V; ++v) {
    const auto init = emit_for(i).Init(df, j + v * L);
    for (int s = 0; s < S; ++s) acc[s][v] = init;
  }
  const float* x = X + static_cast<std::size_t>(i) * d;
#pragma GCC unroll 2  // halves the loop overhead: 2-3% for AVX3 batches (side by side, d = 54)
  for (std::uint32_t c = 0; c < d; ++c) {
    const std::size_t o = static_cast<std::size_t>(c) * kPw;
    hn::Vec<DF> w[V];
    for (int v = 0; v < V; ++v) w[v] = hn::LoadU(df, p[v] + o);
    for (int s = 0; s < S; ++s) {
      const auto xv = hn::Set(df, x[static_cast<std::size_t>(s) * d + c]);
      for (int v = 0; v < V; ++v) acc[s][v] = hn::MulAdd(xv, w[v], acc[s][v]);
    }
  }
  // Unrolled: the accumulators go from registers to their rows, not through a stack array.
#pragma GCC unroll 8
  for (int s = 0; s < S; ++s)
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) emit_for(i + s)(df, j + v * L, acc[s][v]);
}

// Samples [i, i + m): S at a time, then 4, 2, 1.
template <int S, int V, class EmitFor>
HWY_INLINE void Rows(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
                     std::uint32_t j, std::uint32_t d, const EmitFor& emit_for) {
  std::uint32_t s = 0;
  for (; s + S <= m; s += S) Tile<S, V>(Wp, X, i + s, j, d, emit_for);
  if constexpr (S > 4) {
    if (s + 4 <= m) {
      Tile<4, V>(Wp, X, i + s, j, d, emit_for);
      s += 4;
    }
  }
  if constexpr (S > 2) {
    if (s + 2 <= m) {
      Tile<2, V>(Wp, X, i + s, j, d, emit_for);
      s += 2;
    }
  }
  for (; s < m; ++s) Tile<1, V>(Wp, X, i + s, j, d, emit_for);
}

// Raw projections of samples [i, i + m) for the nv vectors of frequencies from j.
template <int S, int V, class EmitFor>
HWY_INLINE void ProjectBlock(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
                             std::uint32_t j, std::uint32_t nv, std::uint32_t d,
                             const EmitFor& emit_for) {
  const auto L = static_cast<std::uint32_t>(hn::Lanes(DF()));
  std::uint32_t v = 0;
  for (; v + V <= nv; v += V) Rows<S, V>(Wp, X, i, m, j + v * L, d, emit_for);
  for (; v < nv; ++v) Rows<S, 1>(Wp, X, i, m, j + v * L, d, emit_for);
}
#else   // HWY_HAVE_SCALABLE (SVE, SVE2): sizeless vectors cannot form arrays, so the tiles
        // are spelled out with named accumulators: 1 sample x 4 vectors for one input, 2 x 2
        // for batches (L = the vector's lanes, capped at the panel width: 4..16).

// acc = Init + sum_c x[c] W[j .. j + L)[c] for vectors at frequencies j, j + L, ...
template <class Emit>
HWY_INLINE void OneByFour(const float* Wp, const float* x, std::uint32_t j, std::uint32_t d,
                          std::uint32_t L, const Emit& emit) {
  const DF df;
  const float *p0 = Block(Wp, j, d), *p1 = Block(Wp, j + L, d), *p2 = Block(Wp, j + 2 * L, d),
              *p3 = Block(Wp, j + 3 * L, d);
  auto a0 = emit.Init(df, j), a1 = emit.Init(df, j + L), a2 = emit.Init(df, j + 2 * L),
       a3 = emit.Init(df, j + 3 * L);
  for (std::uint32_t c = 0; c < d; ++c) {
    const std::size_t o = static_cast<std::size_t>(c) * kPw;
    const auto xv = hn::Set(df, x[c]);
    a0 = hn::MulAdd(xv, hn::LoadU(df, p0 + o), a0);
    a1 = hn::MulAdd(xv, hn::LoadU(df, p1 + o), a1);
    a2 = hn::MulAdd(xv, hn::LoadU(df, p2 + o), a2);
    a3 = hn::MulAdd(xv, hn::LoadU(df, p3 + o), a3);
  }
  emit(df, j, a0);
  emit(df, j + L, a1);
  emit(df, j + 2 * L, a2);
  emit(df, j + 3 * L, a3);
}

template <class Emit>
HWY_INLINE void OneByOne(const float* Wp, const float* x, std::uint32_t j, std::uint32_t d,
                         const Emit& emit) {
  const DF df;
  const float* p0 = Block(Wp, j, d);
  auto a0 = emit.Init(df, j);
  for (std::uint32_t c = 0; c < d; ++c)
    a0 = hn::MulAdd(hn::Set(df, x[c]), hn::LoadU(df, p0 + static_cast<std::size_t>(c) * kPw), a0);
  emit(df, j, a0);
}

// Samples i, i + 1 against vectors j, j + L: each W vector loaded once for two samples.
template <class EmitFor>
HWY_INLINE void TwoByTwo(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
                         std::uint32_t d, std::uint32_t L, const EmitFor& emit_for) {
  const DF df;
  const float *p0 = Block(Wp, j, d), *p1 = Block(Wp, j + L, d);
  const float *x0 = X + static_cast<std::size_t>(i) * d, *x1 = x0 + d;
  auto a00 = emit_for(i).Init(df, j), a01 = emit_for(i).Init(df, j + L), a10 = a00, a11 = a01;
  for (std::uint32_t c = 0; c < d; ++c) {
    const std::size_t o = static_cast<std::size_t>(c) * kPw;
    const auto w0 = hn::LoadU(df, p0 + o), w1 = hn::LoadU(df, p1 + o);
    const auto v0 = hn::Set(df, x0[c]), v1 = hn::Set(df, x1[c]);
    a00 = hn::MulAdd(v0, w0, a00);
    a01 = hn::MulAdd(v0, w1, a01);
    a10 = hn::MulAdd(v1, w0, a10);
    a11 = hn::MulAdd(v1, w1, a11);
  }
  emit_for(i)(df, j, a00);
  emit_for(i)(df, j + L, a01);
  emit_for(i + 1)(df, j, a10);
  emit_for(i + 1)(df, j + L, a11);
}

// Raw projections of samples [i, i + m) for the nv vectors of frequencies from j.
template <int S, int V, class EmitFor>
HWY_INLINE void ProjectBlock(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
                             std::uint32_t j, std::uint32_t nv, std::uint32_t d,
                             const EmitFor& emit_for) {
  const auto L = static_cast<std::uint32_t>(hn::Lanes(DF()));
  std::uint32_t v = 0;
  if (m == 1)
    for (; v + 4 <= nv; v += 4) OneByFour(Wp, X + static_cast<std::size_t>(i) * d, j + v * L, d, L, emit_for(i));
  for (; v + 2 <= nv; v += 2) {
    std::uint32_t s = 0;
    for (; s + 2 <= m; s += 2) TwoByTwo(Wp, X, i + s, j + v * L, d, L, emit_for);
    for (; s < m; ++s) {
      const float* x = X + static_cast<std::size_t>(i + s) * d;
      OneByOne(Wp, x, j + v * L, d, emit_for(i + s));
      OneByOne(Wp, x, j + (v + 1) * L, d, emit_for(i + s));
    }
  }
  for (; v < nv; ++v)
    for (std::uint32_t s = 0; s < m; ++s)
      OneByOne(Wp, X + static_cast<std::size_t>(i + s) * d, j + v * L, d, emit_for(i + s));
}
#endif

// One sample's features, kOneV vectors of frequencies at a time.
template <bool kPair>
HWY_INLINE void Features(const float* Wp, const float* b, const float* x, std::uint32_t F,
                         std::uint32_t d, float scale, float* z) {
  const auto L = static_cast<std::uint32_t>(hn::Lanes(DF()));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  const std::uint32_t step = kOneV * L;
  for (std::uint32_t j = 0; j < Fs && j < F; j += step) {
    const std::uint32_t nv = (Fs - j < step ? Fs - j : step) / L;
    const RawStore<!kPair> store{b, F, 0, z};
    ProjectBlock<1, kOneV>(Wp, x, 0, 1, j, nv, d,
                           [&](std::uint32_t) -> const RawStore<!kPair>& { return store; });
    const std::uint32_t end = j + nv * L < F ? j + nv * L : F;
    Finish<kPair>(z + j, z + F + j, end - j, scale);
  }
}

#if !HWY_HAVE_SCALABLE
// A group's full block of raw projections into its head sums: m rows of kBatchV vectors at z
// (row stride kBatchV * L), row r into the K vectors at a + r * K * kPw; the features stay in
// registers, each used by every output. Out of line: inlined into HeadBatch, the sin/cos
// constants were spilled across the register tile and the rows went through the stack.
// The fast-range check costs one multiply-add per vector: if the lane-wise sum of squares of a
// row's raw projections is within kSinCosFastRange^2, every lane is (to rounding at the edge,
// harmless: SinCosPi's reduction stays exact far beyond it); a large lane, an inf or a NaN
// fails it, and then each vector of the row takes SlowLanes as in SinCos. Measured side by side
// against the inlined per-sample form with a check per vector (AVX3, n = 48, d = 54, 4
// alternating runs each): pair 0.51-0.54 -> 0.57-0.62 of a 224 GFLOP/s peak, phase 0.62 -> 0.64.
template <bool kPair>
HWY_NOINLINE void FeaturesIntoHead(const float* z, std::uint32_t m, const float* h, std::size_t Df,
                                   std::uint32_t F, std::uint32_t K, float* a) {
  const DF d;
  const std::size_t L = hn::Lanes(d);
  for (std::uint32_t r = 0; r < m; ++r, z += kBatchV * L, a += std::size_t{K} * kPw) {
    hn::Vec<DF> c[kBatchV], s[kBatchV];
#if HWY_NATIVE_FMA
    auto q = hn::Zero(d);
#pragma GCC unroll 8
    for (int v = 0; v < kBatchV; ++v) {
      const auto x = hn::LoadU(d, z + v * L);
      q = hn::MulAdd(x, x, q);
      SinCosPi<kPair, false>(d, x, s[v], c[v]);
    }
    if (HWY_UNLIKELY(!hn::AllTrue(d, hn::Le(q, hn::Set(d, kSinCosFastRange * kSinCosFastRange)))))
      for (int v = 0; v < kBatchV; ++v) SlowLanes(d, hn::LoadU(d, z + v * L), s[v], c[v]);
#else
#pragma GCC unroll 8
    for (int v = 0; v < kBatchV; ++v) SinCos<kPair>(d, hn::LoadU(d, z + v * L), s[v], c[v]);
#endif
    for (std::uint32_t k = 0; k < K; ++k) {
      const float* hk = h + k * Df;
      auto va = hn::LoadU(d, a + k * kPw);
#pragma GCC unroll 8
      for (int v = 0; v < kBatchV; ++v) {
        va = hn::MulAdd(hn::LoadU(d, hk + v * L), c[v], va);
        if (kPair) va = hn::MulAdd(hn::LoadU(d, hk + F + v * L), s[v], va);
      }
      hn::StoreU(va, d, a + k * kPw);
    }
  }
}
#endif

// Batch prediction, block by block of kBatchV vectors of frequencies: every group of kBatchS
// samples passes over the block's W while it stays in L1 (~14 KB at d = 54; read from L2 once per
// call). A group's features land in a small buffer on the stack and go straight into the head:
// acc holds one vector of lane-wise sums of H cos (and H sin) per sample and output, reduced and
// multiplied by the feature scale once at the end. Nothing of size n x F is stored, so the
// working set stays a few tens of KB, whatever F. Full blocks (all but a last partial one) go
// through FeaturesIntoHead; a partial block, and scalable vectors, through Finish and a head loop.
template <bool kPair>
HWY_INLINE void HeadBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                          std::uint32_t F, std::uint32_t d, float scale, const float* H,
                          const float* bias, std::uint32_t K, float* acc, float* out) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  const std::uint32_t step = kBatchV * L;
  const std::size_t Df = kPair ? std::size_t{2} * F : F;
  // Row r of the group at zc + r * step (rows contiguous: a full block finishes in one loop).
  HWY_ALIGN float zc[kBatchS * kBatchV * kPw];
  HWY_ALIGN float zs[kPair ? kBatchS * kBatchV * kPw : 1];
  for (std::size_t t = 0; t < std::size_t{n} * K * kPw; ++t) acc[t] = 0.0f;
  for (std::uint32_t j = 0; j < Fs && j < F; j += step) {
    const std::uint32_t nv = (Fs - j < step ? Fs - j : step) / L;
    const std::uint32_t cnt = (j + nv * L < F ? j + nv * L : F) - j, full = cnt / L * L;
    for (std::uint32_t i = 0; i < n; i += kBatchS) {
      const std::uint32_t m = n - i < kBatchS ? n - i : kBatchS;
      ProjectBlock<kBatchS, kBatchV>(Wp, X, i, m, j, nv, d, [&](std::uint32_t r) {
        return RawStore<!kPair>{b, F, j, zc + (r - i) * step};
      });
#if !HWY_HAVE_SCALABLE
      if (cnt == step) {  // every block but a last partial one
        FeaturesIntoHead<kPair>(zc, m, H + j, Df, F, K, acc + std::size_t{i} * K * kPw);
        continue;
      }
#endif
      for (std::uint32_t s = 0; s < m; ++s)
        Finish<kPair, false>(zc + s * step, zs + (kPair ? s * step : 0), cnt, scale);
      for (std::uint32_t s = 0; s < m; ++s) {
        const float* c = zc + s * step;
        const float* sn = zs + (kPair ? s * step : 0);
        for (std::uint32_t k = 0; k < K; ++k) {
          float* a = acc + (std::size_t{i + s} * K + k) * kPw;
          const float* h = H + k * Df + j;
          auto va = hn::LoadU(df, a);
          for (std::uint32_t t = 0; t < full; t += L) {
            va = hn::MulAdd(hn::LoadU(df, h + t), hn::LoadU(df, c + t), va);
            if (kPair) va = hn::MulAdd(hn::LoadU(df, h + F + t), hn::LoadU(df, sn + t), va);
          }
          hn::StoreU(va, df, a);
          for (std::uint32_t t = full; t < cnt; ++t) {
            a[0] += h[t] * c[t];
            if (kPair) a[0] += h[F + t] * sn[t];
          }
        }
      }
    }
  }
  for (std::size_t r = 0; r < std::size_t{n} * K; ++r) {
    float sum = 0.0f;
    for (std::uint32_t t = 0; t < kPw; ++t) sum += acc[r * kPw + t];
    out[r] = bias[r % K] + scale * sum;
  }
}

void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F,
                  std::uint32_t d, float scale, float* z) noexcept {
  Features<false>(Wp, b, x, F, d, scale, z);
}

void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                 float* z) noexcept {
  Features<true>(Wp, nullptr, x, F, d, scale, z);
}

void FourierPhaseHeadBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                           std::uint32_t F, std::uint32_t d, float scale, const float* H,
                           const float* bias, std::uint32_t K, float* acc, float* out) noexcept {
  HeadBatch<false>(Wp, b, X, n, F, d, scale, H, bias, K, acc, out);
}

void FourierPairHeadBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                          std::uint32_t d, float scale, const float* H, const float* bias,
                          std::uint32_t K, float* acc, float* out) noexcept {
  HeadBatch<true>(Wp, nullptr, X, n, F, d, scale, H, bias, K, acc, out);
}

// ---------------------------------------------------------------- the rest

void Standardize(const float* x, const float* mean, const float* inv_scale, std::uint32_t d,
                 float* out) noexcept {
  const DF df;
  const std::size_t L = hn::Lanes(df);
  std::size_t c = 0;
  for (; c + L <= d; c += L)
    hn::StoreU(hn::Mul(hn::Sub(hn::LoadU(df, x + c), hn::LoadU(df, mean + c)),
                       hn::LoadU(df, inv_scale + c)),
               df, out + c);
  for (; c < d; ++c) out[c] = (x[c] - mean[c]) * inv_scale[c];  // same operations as the lanes
}

void LinearHead(const float* H, std::uint32_t stride, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept {
  const DF df;
  const std::size_t L = hn::Lanes(df);
  for (std::uint32_t k = 0; k < K; ++k) {
    const float* h = H + static_cast<std::size_t>(k) * stride;
    auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    std::size_t j = 0;
    for (; j + 4 * L <= D; j += 4 * L) {
      a0 = hn::MulAdd(hn::LoadU(df, h + j), hn::LoadU(df, z + j), a0);
      a1 = hn::MulAdd(hn::LoadU(df, h + j + L), hn::LoadU(df, z + j + L), a1);
      a2 = hn::MulAdd(hn::LoadU(df, h + j + 2 * L), hn::LoadU(df, z + j + 2 * L), a2);
      a3 = hn::MulAdd(hn::LoadU(df, h + j + 3 * L), hn::LoadU(df, z + j + 3 * L), a3);
    }
    for (; j + L <= D; j += L) a0 = hn::MulAdd(hn::LoadU(df, h + j), hn::LoadU(df, z + j), a0);
    float sum = hn::GetLane(hn::SumOfLanes(df, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
    for (; j < D; ++j) sum += h[j] * z[j];
    out[k] = bias[k] + sum;
  }
}

// Bin indices are computed a chunk of dimensions at a time in vectors (subtract, scale, clamp,
// floor: the scalar reference's operations), then hashed in order exactly as BinKeysRef does.
void BinKeys(const float* inv_width, const float* offset, const float* x, std::uint32_t P,
             std::uint32_t d, std::uint64_t seed, std::uint64_t* keys) noexcept {
  const DF df;
  const hn::RebindToSigned<DF> di;
  const std::size_t L = hn::Lanes(df);
  constexpr std::uint32_t kChunk = 64;
  HWY_ALIGN std::int32_t bins[kChunk];
  const auto lo = hn::Set(df, -bin_hash::kClamp), hi = hn::Set(df, bin_hash::kClamp);
  for (std::uint32_t p = 0; p < P; ++p) {
    const float* iw = inv_width + static_cast<std::size_t>(p) * d;
    const float* off = offset + static_cast<std::size_t>(p) * d;
    std::uint64_t h = bin_hash::Seed(seed, p);
    for (std::uint32_t m0 = 0; m0 < d; m0 += kChunk) {
      const std::uint32_t mn = d - m0 < kChunk ? d - m0 : kChunk;
      std::uint32_t m = 0;
      for (; m + L <= mn; m += L) {
        auto v = hn::Mul(hn::Sub(hn::LoadU(df, x + m0 + m), hn::LoadU(df, off + m0 + m)),
                         hn::LoadU(df, iw + m0 + m));
        v = hn::Min(hn::Max(hn::IfThenElseZero(hn::Eq(v, v), v), lo), hi);  // NaN -> 0, as scalar
        hn::StoreU(hn::ConvertTo(di, hn::Floor(v)), di, bins + m);
      }
      for (; m < mn; ++m) bins[m] = bin_hash::Index((x[m0 + m] - off[m0 + m]) * iw[m0 + m]);
      for (std::uint32_t i = 0; i < mn; ++i) h = bin_hash::Step(h, bins[i]);
    }
    keys[p] = bin_hash::Final(h);
  }
}

#if HWY_TARGET == HWY_AVX3_DL
#define RFK_HWY_TARGET_NAME "AVX3_DL"
#elif HWY_TARGET == HWY_AVX3
#define RFK_HWY_TARGET_NAME "AVX3"
#elif HWY_TARGET == HWY_AVX2
#define RFK_HWY_TARGET_NAME "AVX2"
#elif HWY_TARGET == HWY_SSE4
#define RFK_HWY_TARGET_NAME "SSE4"
#elif HWY_TARGET == HWY_SSSE3
#define RFK_HWY_TARGET_NAME "SSSE3"
#elif HWY_TARGET == HWY_SVE2_128
#define RFK_HWY_TARGET_NAME "SVE2_128"
#elif HWY_TARGET == HWY_SVE_256
#define RFK_HWY_TARGET_NAME "SVE_256"
#elif HWY_TARGET == HWY_SVE2
#define RFK_HWY_TARGET_NAME "SVE2"
#elif HWY_TARGET == HWY_SVE
#define RFK_HWY_TARGET_NAME "SVE"
#elif HWY_TARGET == HWY_NEON
#define RFK_HWY_TARGET_NAME "NEON"
#elif HWY_TARGET == HWY_EMU128
#define RFK_HWY_TARGET_NAME "EMU128"
#elif HWY_TARGET == HWY_SCALAR
#define RFK_HWY_TARGET_NAME "SCALAR"
#else
#define RFK_HWY_TARGET_NAME "other"
#endif

extern const KernelTable kHwyTable;
const KernelTable kHwyTable = {
    "hwy", RFK_HWY_TARGET_NAME,
#define RFK_HWY_ENTRY(name, params) &name,
    RFK_KERNEL_LIST(RFK_HWY_ENTRY)
#undef RFK_HWY_ENTRY
};
#undef RFK_HWY_TARGET_NAME

}  // namespace HWY_NAMESPACE
}  // namespace rfk
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace rfk {
namespace {

const KernelTable* TableFor(std::int64_t target) {
  switch (target) {
#define RFK_HWY_CASE(T) \
  case HWY_##T:         \
    return &N_##T::kHwyTable;
#if HWY_TARGETS & HWY_AVX3_DL
    RFK_HWY_CASE(AVX3_DL)
#endif
#if HWY_TARGETS & HWY_AVX3
    RFK_HWY_CASE(AVX3)
#endif
#if HWY_TARGETS & HWY_AVX2
    RFK_HWY_CASE(AVX2)
#endif
#if HWY_TARGETS & HWY_SSE4
    RFK_HWY_CASE(SSE4)
#endif
#if HWY_TARGETS & HWY_SSSE3
    RFK_HWY_CASE(SSSE3)
#endif
#if HWY_TARGETS & HWY_SVE2_128
    RFK_HWY_CASE(SVE2_128)
#endif
#if HWY_TARGETS & HWY_SVE_256
    RFK_HWY_CASE(SVE_256)
#endif
#if HWY_TARGETS & HWY_SVE2
    RFK_HWY_CASE(SVE2)
#endif
#if HWY_TARGETS & HWY_SVE
    RFK_HWY_CASE(SVE)
#endif
#if HWY_TARGETS & HWY_NEON
    RFK_HWY_CASE(NEON)
#endif
#if HWY_TARGETS & HWY_EMU128
    RFK_HWY_CASE(EMU128)
#endif
#if HWY_TARGETS & HWY_SCALAR
    RFK_HWY_CASE(SCALAR)
#endif
#undef RFK_HWY_CASE
    default:
      return nullptr;
  }
}

}  // namespace

std::size_t HwyKernelTables(const KernelTable** out, std::size_t capacity) noexcept {
  std::size_t n = 0;
  // Lower target bits are better targets in Highway's numbering. The static (baseline) target is
  // what every translation unit was compiled for, so a CPU running this code supports it even
  // where Highway's run-time detection cannot tell (armhf: NEON is the baseline there).
  for (std::int64_t bits = (hwy::SupportedTargets() | HWY_STATIC_TARGET) & HWY_TARGETS;
       bits != 0 && n < capacity;
       bits &= bits - 1) {
    if (const KernelTable* t = TableFor(bits & -bits)) out[n++] = t;
  }
  return n;
}

}  // namespace rfk
#endif  // HWY_ONCE
