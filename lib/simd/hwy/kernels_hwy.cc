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

// sin and cos of every lane with the scalar reference's reduction (4-part Cody-Waite split of
// pi/2, exact products for |k| < 2^16) and polynomials, evaluated with fused multiply-adds where
// the target has them. Accuracy: within 1.2e-7 of double sin/cos for |x| <= kSinCosMaxArg, as
// the scalar reference (tests/test_parity.cc checks both on every table). Lanes beyond the fast range
// (large, or NaN) take the scalar reference, correct up to kSinCosMaxArg and NaN beyond, so no
// argument ever yields garbage. kWantSin = false skips what only sin needs.
template <bool kWantSin, class D, class V = hn::Vec<D>>
HWY_INLINE void SinCos(D d, V x, V& sin_out, V& cos_out) {
  const hn::RebindToSigned<D> di;
  const V kf = hn::Mul(x, hn::Set(d, 0.636619772f));
  const auto k = hn::NearestInt(kf);  // ties to even (the scalar code rounds them away: same accuracy)
  const V fk = hn::ConvertTo(d, k);
  V r = hn::NegMulAdd(fk, hn::Set(d, 0x1.92p0f), x);  // exact: kf * C1 has no rounding error
  r = hn::NegMulAdd(fk, hn::Set(d, 0x1.fcp-12f), r);
  r = hn::NegMulAdd(fk, hn::Set(d, -0x1.58p-21f), r);
  r = hn::NegMulAdd(fk, hn::Set(d, 0x1.10b462p-30f), r);
  const V r2 = hn::Mul(r, r);
  const V sp = hn::MulAdd(hn::MulAdd(hn::Set(d, -1.9515295891e-4f), r2, hn::Set(d, 8.3321608736e-3f)),
                          r2, hn::Set(d, -1.6666654611e-1f));
  const V s = hn::MulAdd(hn::Mul(r, r2), sp, r);
  const V cp = hn::MulAdd(hn::MulAdd(hn::Set(d, 2.443315711809948e-5f), r2, hn::Set(d, -1.388731625493765e-3f)),
                          r2, hn::Set(d, 4.166664568298827e-2f));
  const V c = hn::MulAdd(hn::Mul(r2, r2), cp, hn::NegMulAdd(hn::Set(d, 0.5f), r2, hn::Set(d, 1.0f)));
  // Quadrant q = k & 3: sin = {s, c, -s, -c}[q], cos = {c, -s, -c, s}[q]. Signs are applied by
  // XOR-ing bit 1 of q (sin) or of q + 1 (cos) into the float sign bit.
  const auto one = hn::Set(di, 1);
  const auto swap = hn::RebindMask(d, hn::Eq(hn::And(k, one), one));
  const auto cos_sign = hn::BitCast(d, hn::ShiftLeft<30>(hn::And(hn::Add(k, one), hn::Set(di, 2))));
  cos_out = hn::Xor(hn::IfThenElse(swap, s, c), cos_sign);
  if (kWantSin) {
    const auto sin_sign = hn::BitCast(d, hn::ShiftLeft<30>(hn::And(k, hn::Set(di, 2))));
    sin_out = hn::Xor(hn::IfThenElse(swap, c, s), sin_sign);
  }
  const auto slow = hn::Not(hn::Le(hn::Abs(x), hn::Set(d, kSinCosFastRange)));  // NaN too
  if (HWY_UNLIKELY(!hn::AllFalse(d, slow))) {
    HWY_ALIGN float xs[kPw], ss[kPw], cs[kPw];
    hn::Store(x, d, xs);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) SinCosRef(xs[i], &ss[i], &cs[i]);
    sin_out = hn::Load(d, ss);
    cos_out = hn::Load(d, cs);
  }
}

// ---------------------------------------------------------------- projection

// Start of the L-lane block holding frequencies [j, j + L) of input c (L divides kPw).
HWY_INLINE const float* Block(const float* Wp, std::uint32_t j, std::uint32_t d) {
  return Wp + static_cast<std::size_t>(j / kPw) * kPw * d + j % kPw;
}

// Writes one block of L frequencies starting at j from its dot products `acc`.
struct PhaseEmit {
  const float* b;
  std::uint32_t F;
  float scale;
  float* z;
  template <class V>
  HWY_INLINE void operator()(DF d, std::uint32_t j, V acc) const {
    const std::size_t L = hn::Lanes(d);
    if (j + L <= F) {
      V s, c;
      SinCos<false>(d, hn::Add(acc, hn::LoadU(d, b + j)), s, c);
      hn::StoreU(hn::Mul(hn::Set(d, scale), c), d, z + j);
    } else {  // the padded tail of the last panel
      HWY_ALIGN float a[kPw];
      hn::Store(acc, d, a);
      for (std::uint32_t i = 0; j + i < F; ++i) z[j + i] = scale * CosRef(a[i] + b[j + i]);
    }
  }
};

struct PairEmit {
  std::uint32_t F;
  float scale;
  float* z;
  template <class V>
  HWY_INLINE void operator()(DF d, std::uint32_t j, V acc) const {
    const std::size_t L = hn::Lanes(d);
    if (j + L <= F) {
      V s, c;
      SinCos<true>(d, acc, s, c);
      hn::StoreU(hn::Mul(hn::Set(d, scale), c), d, z + j);
      hn::StoreU(hn::Mul(hn::Set(d, scale), s), d, z + F + j);
    } else {
      HWY_ALIGN float a[kPw];
      hn::Store(acc, d, a);
      for (std::uint32_t i = 0; j + i < F; ++i) {
        float s, c;
        SinCosRef(a[i], &s, &c);
        z[j + i] = scale * c;
        z[F + j + i] = scale * s;
      }
    }
  }
};

// Register tiles: S samples x V vectors of L frequencies, S*V independent accumulators, each
// loaded W vector reused for S samples. Enough accumulators hide the FMA latency (2 FMAs per
// cycle x 4 cycles = 8 in flight); targets with 32 vector registers afford 16.
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_NEON
constexpr int kOneV = 8, kBatchS = 4, kBatchV = 4;
#else
constexpr int kOneV = 4, kBatchS = 4, kBatchV = 2;
#endif

#if !HWY_HAVE_SCALABLE
// acc[s][v] = sum_c x_s[c] W[j + vL .. j + vL + L)[c] for the tile at frequency j, then emitted.
template <int S, int V, class EmitFor>
HWY_INLINE void Tile(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
                     std::uint32_t d, const EmitFor& emit_for) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  hn::Vec<DF> acc[S][V];
  const float* p[V];
  for (int v = 0; v < V; ++v) p[v] = Block(Wp, j + v * L, d);
  for (int s = 0; s < S; ++s)
    for (int v = 0; v < V; ++v) acc[s][v] = hn::Zero(df);
  const float* x = X + static_cast<std::size_t>(i) * d;
  for (std::uint32_t c = 0; c < d; ++c) {
    const std::size_t o = static_cast<std::size_t>(c) * kPw;
    hn::Vec<DF> w[V];
    for (int v = 0; v < V; ++v) w[v] = hn::LoadU(df, p[v] + o);
    for (int s = 0; s < S; ++s) {
      const auto xv = hn::Set(df, x[static_cast<std::size_t>(s) * d + c]);
      for (int v = 0; v < V; ++v) acc[s][v] = hn::MulAdd(xv, w[v], acc[s][v]);
    }
  }
  for (int s = 0; s < S; ++s)
    for (int v = 0; v < V; ++v) emit_for(i + s)(df, j + v * L, acc[s][v]);
}

// Frequencies tile by tile; within a tile, every group of S samples, so that the tile's W
// (V vectors x d rows, ~14 KB at d = 54) stays in L1 while all samples pass over it.
template <int S, int V, class EmitFor>
HWY_INLINE void Columns(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                        std::uint32_t d, const EmitFor& emit_for) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  std::uint32_t j = 0;
  for (; j + V * L <= Fs; j += V * L) {
    std::uint32_t i = 0;
    for (; i + S <= n; i += S) Tile<S, V>(Wp, X, i, j, d, emit_for);
    for (; i < n; ++i) Tile<1, V>(Wp, X, i, j, d, emit_for);
  }
  for (; j < Fs; j += L)
    for (std::uint32_t i = 0; i < n; ++i) Tile<1, 1>(Wp, X, i, j, d, emit_for);
}

template <class EmitFor>
HWY_INLINE void ProjectBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                             std::uint32_t d, const EmitFor& emit_for) {
  Columns<kBatchS, kBatchV>(Wp, X, n, F, d, emit_for);
}

template <class Emit>
HWY_INLINE void ProjectOne(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d,
                           const Emit& emit) {
  Columns<1, kOneV>(Wp, x, 1, F, d, [&](std::uint32_t) -> const Emit& { return emit; });
}
#else   // HWY_HAVE_SCALABLE (SVE, SVE2): sizeless vectors cannot form arrays, so the tiles
        // are spelled out with named accumulators: 1 sample x 4 vectors for one input, 2 x 2
        // for batches (L = the vector's lanes, capped at the panel width: 4..16).

// acc = sum_c x[c] W[j .. j + L)[c] for vectors at frequencies j0, j0 + L, ...
template <class Emit>
HWY_INLINE void OneByFour(const float* Wp, const float* x, std::uint32_t j, std::uint32_t d,
                          std::uint32_t L, const Emit& emit) {
  const DF df;
  const float *p0 = Block(Wp, j, d), *p1 = Block(Wp, j + L, d), *p2 = Block(Wp, j + 2 * L, d),
              *p3 = Block(Wp, j + 3 * L, d);
  auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
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
  auto a0 = hn::Zero(df);
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
  auto a00 = hn::Zero(df), a01 = hn::Zero(df), a10 = hn::Zero(df), a11 = hn::Zero(df);
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

template <class EmitFor>
HWY_INLINE void ProjectBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                             std::uint32_t d, const EmitFor& emit_for) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  std::uint32_t j = 0;
  for (; j + 2 * L <= Fs; j += 2 * L) {
    std::uint32_t i = 0;
    for (; i + 2 <= n; i += 2) TwoByTwo(Wp, X, i, j, d, L, emit_for);
    for (; i < n; ++i) {
      const float* x = X + static_cast<std::size_t>(i) * d;
      OneByOne(Wp, x, j, d, emit_for(i));
      OneByOne(Wp, x, j + L, d, emit_for(i));
    }
  }
  for (; j < Fs; j += L)
    for (std::uint32_t i = 0; i < n; ++i) OneByOne(Wp, X + static_cast<std::size_t>(i) * d, j, d, emit_for(i));
}

template <class Emit>
HWY_INLINE void ProjectOne(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d,
                           const Emit& emit) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  std::uint32_t j = 0;
  for (; j + 4 * L <= Fs; j += 4 * L) OneByFour(Wp, x, j, d, L, emit);
  for (; j < Fs; j += L) OneByOne(Wp, x, j, d, emit);
}
#endif

void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F,
                  std::uint32_t d, float scale, float* z) noexcept {
  ProjectOne(Wp, x, F, d, PhaseEmit{b, F, scale, z});
}

void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                 float* z) noexcept {
  ProjectOne(Wp, x, F, d, PairEmit{F, scale, z});
}

void FourierPhaseBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                       std::uint32_t F, std::uint32_t d, float scale, float* Z) noexcept {
  ProjectBatch(Wp, X, n, F, d, [&](std::uint32_t i) {
    return PhaseEmit{b, F, scale, Z + static_cast<std::size_t>(i) * F};
  });
}

void FourierPairBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                      std::uint32_t d, float scale, float* Z) noexcept {
  ProjectBatch(Wp, X, n, F, d, [&](std::uint32_t i) {
    return PairEmit{F, scale, Z + static_cast<std::size_t>(i) * 2 * F};
  });
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
