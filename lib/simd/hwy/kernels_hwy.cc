// Highway backend: every kernel of RFK_KERNEL_LIST, compiled once per Highway target by
// foreach_target.h (x86: AVX3_DL, AVX3, AVX2, SSE4, SSSE3; aarch64: SVE2, SVE, NEON; plus the
// baseline), each target filling its own KernelTable. HwyKernelTables() lists the ones this CPU
// supports, best first; the registry (lib/core/dispatch.cc) picks among them.
//
// Contract, per kernel: see include/rfk/kernels.hpp. Vectors are capped at 16 float lanes so one
// vector never spans two W panels. The dot products use MulAdd (fused where the target has FMA);
// sin/cos is the scalar reference's algorithm lane by lane (same reduction, same polynomials, no
// fusing), and lanes outside its fast range take the scalar path, so no argument returns garbage.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/hwy/kernels_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "rfk/format.hpp"
#include "rfk/kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace rfk {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::CappedTag<float, format::kPanelWidth>;
constexpr std::uint32_t kPw = format::kPanelWidth;

// ---------------------------------------------------------------- sin/cos

// Lane-wise SinCosRef for |x| <= kSinCosFastRange; other lanes (large, NaN) go to the scalar
// reference, which is correct up to kSinCosMaxArg and NaN beyond.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void SinCos(D d, V x, V& sin_out, V& cos_out) {
  const hn::RebindToSigned<D> di;
  const V kf = hn::Mul(x, hn::Set(d, 0.636619772f));
  const auto k = hn::ConvertTo(di, hn::Add(kf, hn::CopySign(hn::Set(d, 0.5f), kf)));  // truncates
  const V fk = hn::ConvertTo(d, k);
  const V r = hn::Sub(hn::Sub(hn::Sub(hn::Sub(x, hn::Mul(fk, hn::Set(d, 0x1.92p0f))),
                                      hn::Mul(fk, hn::Set(d, 0x1.fcp-12f))),
                              hn::Mul(fk, hn::Set(d, -0x1.58p-21f))),
                      hn::Mul(fk, hn::Set(d, 0x1.10b462p-30f)));
  const V r2 = hn::Mul(r, r);
  // r + r * r2 * (S1 + r2 * (S2 + r2 * S3)), evaluated as the scalar code does.
  const V sp = hn::Add(hn::Set(d, -1.6666654611e-1f),
                       hn::Mul(r2, hn::Add(hn::Set(d, 8.3321608736e-3f),
                                           hn::Mul(r2, hn::Set(d, -1.9515295891e-4f)))));
  const V s = hn::Add(r, hn::Mul(hn::Mul(r, r2), sp));
  // 1 - 0.5 r2 + r2 * r2 * (C1 + r2 * (C2 + r2 * C3))
  const V cp = hn::Add(hn::Set(d, 4.166664568298827e-2f),
                       hn::Mul(r2, hn::Add(hn::Set(d, -1.388731625493765e-3f),
                                           hn::Mul(r2, hn::Set(d, 2.443315711809948e-5f)))));
  const V c = hn::Add(hn::Sub(hn::Set(d, 1.0f), hn::Mul(hn::Set(d, 0.5f), r2)),
                      hn::Mul(hn::Mul(r2, r2), cp));
  // Quadrant q = k & 3: sin = {s, c, -s, -c}[q], cos = {c, -s, -c, s}[q].
  const auto one = hn::Set(di, 1), two = hn::Set(di, 2);
  const auto swap = hn::RebindMask(d, hn::Eq(hn::And(k, one), one));
  const auto neg_sin = hn::RebindMask(d, hn::Eq(hn::And(k, two), two));
  const auto neg_cos = hn::RebindMask(d, hn::Eq(hn::And(hn::Add(k, one), two), two));
  const V sv = hn::IfThenElse(swap, c, s), cv = hn::IfThenElse(swap, s, c);
  sin_out = hn::IfThenElse(neg_sin, hn::Neg(sv), sv);
  cos_out = hn::IfThenElse(neg_cos, hn::Neg(cv), cv);
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
      SinCos(d, hn::Add(acc, hn::LoadU(d, b + j)), s, c);
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
      SinCos(d, acc, s, c);
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

// One sample: 4 independent accumulators (4L frequencies) per pass over x, W streamed once.
template <class Emit>
HWY_INLINE void ProjectOne(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d,
                           const Emit& emit) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  std::uint32_t j = 0;
  for (; j + 4 * L <= Fs; j += 4 * L) {
    const float *p0 = Block(Wp, j, d), *p1 = Block(Wp, j + L, d), *p2 = Block(Wp, j + 2 * L, d),
                *p3 = Block(Wp, j + 3 * L, d);
    auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    for (std::uint32_t c = 0; c < d; ++c) {
      const auto xv = hn::Set(df, x[c]);
      const std::size_t o = static_cast<std::size_t>(c) * kPw;
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
  for (; j < Fs; j += L) {
    const float* p0 = Block(Wp, j, d);
    auto a0 = hn::Zero(df);
    for (std::uint32_t c = 0; c < d; ++c)
      a0 = hn::MulAdd(hn::Set(df, x[c]), hn::LoadU(df, p0 + static_cast<std::size_t>(c) * kPw), a0);
    emit(df, j, a0);
  }
}

// Four samples at a time: each loaded W vector feeds four samples (8 accumulators: 4 samples x
// 2 blocks), so a block of samples reads W once.
template <class EmitFor>
HWY_INLINE void ProjectBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                             std::uint32_t d, const EmitFor& emit_for) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  std::uint32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float *x0 = X + static_cast<std::size_t>(i) * d, *x1 = x0 + d, *x2 = x1 + d, *x3 = x2 + d;
    std::uint32_t j = 0;
    for (; j + 2 * L <= Fs; j += 2 * L) {
      const float *p0 = Block(Wp, j, d), *p1 = Block(Wp, j + L, d);
      auto a00 = hn::Zero(df), a01 = hn::Zero(df), a10 = hn::Zero(df), a11 = hn::Zero(df);
      auto a20 = hn::Zero(df), a21 = hn::Zero(df), a30 = hn::Zero(df), a31 = hn::Zero(df);
      for (std::uint32_t c = 0; c < d; ++c) {
        const std::size_t o = static_cast<std::size_t>(c) * kPw;
        const auto w0 = hn::LoadU(df, p0 + o), w1 = hn::LoadU(df, p1 + o);
        const auto v0 = hn::Set(df, x0[c]), v1 = hn::Set(df, x1[c]), v2 = hn::Set(df, x2[c]),
                   v3 = hn::Set(df, x3[c]);
        a00 = hn::MulAdd(v0, w0, a00);
        a01 = hn::MulAdd(v0, w1, a01);
        a10 = hn::MulAdd(v1, w0, a10);
        a11 = hn::MulAdd(v1, w1, a11);
        a20 = hn::MulAdd(v2, w0, a20);
        a21 = hn::MulAdd(v2, w1, a21);
        a30 = hn::MulAdd(v3, w0, a30);
        a31 = hn::MulAdd(v3, w1, a31);
      }
      emit_for(i)(df, j, a00);
      emit_for(i)(df, j + L, a01);
      emit_for(i + 1)(df, j, a10);
      emit_for(i + 1)(df, j + L, a11);
      emit_for(i + 2)(df, j, a20);
      emit_for(i + 2)(df, j + L, a21);
      emit_for(i + 3)(df, j, a30);
      emit_for(i + 3)(df, j + L, a31);
    }
    for (; j < Fs; j += L) {
      const float* p0 = Block(Wp, j, d);
      auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
      for (std::uint32_t c = 0; c < d; ++c) {
        const auto w0 = hn::LoadU(df, p0 + static_cast<std::size_t>(c) * kPw);
        a0 = hn::MulAdd(hn::Set(df, x0[c]), w0, a0);
        a1 = hn::MulAdd(hn::Set(df, x1[c]), w0, a1);
        a2 = hn::MulAdd(hn::Set(df, x2[c]), w0, a2);
        a3 = hn::MulAdd(hn::Set(df, x3[c]), w0, a3);
      }
      emit_for(i)(df, j, a0);
      emit_for(i + 1)(df, j, a1);
      emit_for(i + 2)(df, j, a2);
      emit_for(i + 3)(df, j, a3);
    }
  }
  for (; i < n; ++i) ProjectOne(Wp, X + static_cast<std::size_t>(i) * d, F, d, emit_for(i));
}

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
  const auto lo = hn::Set(df, -1073741824.0f), hi = hn::Set(df, 1073741824.0f);
  auto mix = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (std::uint32_t p = 0; p < P; ++p) {
    const float* iw = inv_width + static_cast<std::size_t>(p) * d;
    const float* off = offset + static_cast<std::size_t>(p) * d;
    std::uint64_t h = mix(seed ^ (0x9E3779B97F4A7C15ull * (p + 1ull)));
    for (std::uint32_t m0 = 0; m0 < d; m0 += kChunk) {
      const std::uint32_t mn = d - m0 < kChunk ? d - m0 : kChunk;
      std::uint32_t m = 0;
      for (; m + L <= mn; m += L) {
        auto v = hn::Mul(hn::Sub(hn::LoadU(df, x + m0 + m), hn::LoadU(df, off + m0 + m)),
                         hn::LoadU(df, iw + m0 + m));
        v = hn::Min(hn::Max(v, lo), hi);
        hn::StoreU(hn::ConvertTo(di, hn::Floor(v)), di, bins + m);
      }
      for (; m < mn; ++m) {
        float v = (x[m0 + m] - off[m0 + m]) * iw[m0 + m];
        v = v < -1073741824.0f ? -1073741824.0f : (v > 1073741824.0f ? 1073741824.0f : v);
        auto b = static_cast<std::int32_t>(v);
        if (static_cast<float>(b) > v) --b;
        bins[m] = b;
      }
      for (std::uint32_t i = 0; i < mn; ++i) {
        h = (h ^ static_cast<std::uint32_t>(bins[i])) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
      }
    }
    keys[p] = mix(h);
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
  // Lower target bits are better targets in Highway's numbering.
  for (std::int64_t bits = hwy::SupportedTargets() & HWY_TARGETS; bits != 0 && n < capacity;
       bits &= bits - 1) {
    if (const KernelTable* t = TableFor(bits & -bits)) out[n++] = t;
  }
  return n;
}

}  // namespace rfk
#endif  // HWY_ONCE
