// xsimd backend: every kernel of RFK_KERNEL_LIST for one xsimd architecture. Included by one
// translation unit per architecture (kernels_xsimd_<arch>.cc), each compiled with that
// architecture's -m flags; everything here is in an anonymous namespace so that no inline code
// compiled for one instruction set can be picked by the linker for another.
//
// The algorithms are those of the Highway backend (lib/simd/hwy/kernels_hwy.cc): the same panel
// tiles, drivers and sin/cos polynomials, out-of-range lanes through SinCosRef, so the two
// backends agree with the oracle equally. One difference: xsimd::fma is a separate multiply and
// add on some architectures (avx512bw and sse4_2 in xsimd 8.1.0), so the reduction always uses
// the scalar reference's 4-part split, which needs no fused multiply-add to be exact.
#include <cstddef>
#include <cstdint>

#include <xsimd/xsimd.hpp>

#include "rfk/format.hpp"
#include "rfk/kernels.hpp"
#include "core/bin_hash.h"

#ifndef RFK_XSIMD_ARCH
#error "define RFK_XSIMD_ARCH (an xsimd architecture type) and RFK_XSIMD_NAME before including"
#endif

namespace rfk {
namespace {

using Arch = RFK_XSIMD_ARCH;
using B = xsimd::batch<float, Arch>;
using BI = xsimd::batch<std::int32_t, Arch>;
constexpr std::uint32_t kPw = format::kPanelWidth;
constexpr std::uint32_t L = static_cast<std::uint32_t>(B::size);
static_assert(kPw % L == 0, "a vector must not span two W panels");
constexpr int kOneV = L == 16 ? 8 : 4, kBatchS = L == 16 ? 6 : 4, kBatchV = L == 16 ? 4 : 2;

inline B Load(const float* p) { return B::load_unaligned(p); }

// sin and cos lane by lane: x = k pi/2 + r, |r| <= pi/4, with the scalar reference's 4-part
// Cody-Waite split (exact products for |k| < 2^16, so correct whether or not xsimd::fma is fused
// on this architecture) and polynomials. k is rounded by adding 1.5 2^23 + 1: the sum's low
// mantissa bits hold k + 1 (no float-to-int conversion, which 32-bit NEON lacks). Lanes beyond the
// fast range (large, or NaN) take SinCosRef. Accuracy: as the scalar reference, 1.2e-7.
template <bool kWantSin>
inline void SinCos(B x, B& sin_out, B& cos_out) {
  constexpr float kMagic = 12582913.0f;
  const B t = xsimd::fma(x, B(0.636619772f), B(kMagic));
  const B fk = t - B(kMagic);
  const BI k1 = xsimd::bitwise_cast<BI>(t);
  B r = xsimd::fnma(fk, B(0x1.92p0f), x);
  r = xsimd::fnma(fk, B(0x1.fcp-12f), r);
  r = xsimd::fnma(fk, B(-0x1.58p-21f), r);
  r = xsimd::fnma(fk, B(0x1.10b462p-30f), r);
  const B r2 = r * r;
  const B sp = xsimd::fma(xsimd::fma(B(-1.9515295891e-4f), r2, B(8.3321608736e-3f)), r2, B(-1.6666654611e-1f));
  const B s = xsimd::fma(r * r2, sp, r);
  const B cp = xsimd::fma(xsimd::fma(B(2.443315711809948e-5f), r2, B(-1.388731625493765e-3f)), r2,
                          B(4.166664568298827e-2f));
  const B c = xsimd::fma(r2 * r2, cp, xsimd::fnma(B(0.5f), r2, B(1.0f)));
  // Quadrant q = k & 3: sin = {s, c, -s, -c}[q], cos = {c, -s, -c, s}[q].
  const auto k_even = xsimd::to_float(k1 & BI(1)) == B(1.0f);
  cos_out = xsimd::select(k_even, c, s) ^ xsimd::bitwise_cast<B>((k1 & BI(2)) << 30);
  if (kWantSin) sin_out = xsimd::select(k_even, s, c) ^ xsimd::bitwise_cast<B>(((k1 - BI(1)) & BI(2)) << 30);
  const auto slow = !(xsimd::abs(x) <= B(kSinCosFastRange));  // NaN too
  if (xsimd::any(slow)) {
    alignas(64) float xs[kPw], ss[kPw], cs[kPw];
    x.store_unaligned(xs);
    for (std::uint32_t i = 0; i < L; ++i) SinCosRef(xs[i], &ss[i], &cs[i]);
    sin_out = Load(ss);
    cos_out = Load(cs);
  }
}

inline const float* Block(const float* Wp, std::uint32_t j, std::uint32_t d) {
  return Wp + static_cast<std::size_t>(j / kPw) * kPw * d + j % kPw;
}

// Raw projections of one sample: Init starts an accumulator (b[j..] in the phase form), the call
// operator stores frequencies [j, j + L) at z + (j - j0); lanes past F are dropped (a vector
// crossing F starts from zero and adds b per lane).
template <bool kPhase>
struct RawStore {
  const float* b;
  std::uint32_t F, j0;
  float* z;
  B Init(std::uint32_t j) const { return kPhase && j + L <= F ? Load(b + j) : B(0.0f); }
  void operator()(std::uint32_t j, B acc) const {
    float* o = z + (j - j0);
    if (j + L <= F) {
      acc.store_unaligned(o);
    } else if (j < F) {
      alignas(64) float a[kPw] = {};
      acc.store_unaligned(a);
      for (std::uint32_t t = 0; j + t < F; ++t) o[t] = kPhase ? a[t] + b[j + t] : a[t];
    }
  }
};

// Features from raw projections, in place: zc[t] = scale cos(zc[t]) (and zs[t] = scale sin for
// pairs), t < m; a last partial vector takes the scalar reference.
template <bool kPair>
inline void Finish(float* zc, float* zs, std::uint32_t m, float scale) {
  std::uint32_t t = 0;
  for (; t + L <= m; t += L) {
    B s, c;
    SinCos<kPair>(Load(zc + t), s, c);
    (B(scale) * c).store_unaligned(zc + t);
    if (kPair) (B(scale) * s).store_unaligned(zs + t);
  }
  for (; t < m; ++t) {
    float s, c;
    SinCosRef(zc[t], &s, &c);
    zc[t] = scale * c;
    if (kPair) zs[t] = scale * s;
  }
}

template <int S, int V, class EmitFor>
inline void Tile(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
                 std::uint32_t d, const EmitFor& emit_for) {
  B acc[S][V];
  const float* p[V];
  for (int v = 0; v < V; ++v) p[v] = Block(Wp, j + v * L, d);
  for (int v = 0; v < V; ++v) {
    const B init = emit_for(i).Init(j + v * L);
    for (int s = 0; s < S; ++s) acc[s][v] = init;
  }
  const float* x = X + static_cast<std::size_t>(i) * d;
  for (std::uint32_t c = 0; c < d; ++c) {
    const std::size_t o = static_cast<std::size_t>(c) * kPw;
    B w[V];
    for (int v = 0; v < V; ++v) w[v] = Load(p[v] + o);
    for (int s = 0; s < S; ++s) {
      const B xv(x[static_cast<std::size_t>(s) * d + c]);
      for (int v = 0; v < V; ++v) acc[s][v] = xsimd::fma(xv, w[v], acc[s][v]);
    }
  }
  for (int s = 0; s < S; ++s)
    for (int v = 0; v < V; ++v) emit_for(i + s)(j + v * L, acc[s][v]);
}

template <int S, int V, class EmitFor>
inline void Rows(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
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

template <int S, int V, class EmitFor>
inline void ProjectBlock(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
                         std::uint32_t j, std::uint32_t nv, std::uint32_t d, const EmitFor& emit_for) {
  std::uint32_t v = 0;
  for (; v + V <= nv; v += V) Rows<S, V>(Wp, X, i, m, j + v * L, d, emit_for);
  for (; v < nv; ++v) Rows<S, 1>(Wp, X, i, m, j + v * L, d, emit_for);
}

// The Highway backend's drivers (see kernels_hwy.cc): one sample a block of kOneV vectors at a
// time; batches block by block of kBatchV vectors, kBatchS samples at a time, features straight
// into lane-wise head sums.
template <bool kPair>
inline void Features(const float* Wp, const float* b, const float* x, std::uint32_t F,
                     std::uint32_t d, float scale, float* z) {
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F), step = kOneV * L;
  for (std::uint32_t j = 0; j < Fs && j < F; j += step) {
    const std::uint32_t nv = (Fs - j < step ? Fs - j : step) / L;
    const RawStore<!kPair> store{b, F, 0, z};
    ProjectBlock<1, kOneV>(Wp, x, 0, 1, j, nv, d, [&](std::uint32_t) -> const RawStore<!kPair>& { return store; });
    const std::uint32_t end = j + nv * L < F ? j + nv * L : F;
    Finish<kPair>(z + j, z + F + j, end - j, scale);
  }
}

template <bool kPair>
inline void HeadBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                      std::uint32_t F, std::uint32_t d, float scale, const float* H,
                      const float* bias, std::uint32_t K, float* acc, float* out) {
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  constexpr std::uint32_t step = kBatchV * L;
  const std::size_t Df = kPair ? std::size_t{2} * F : F;
  alignas(64) float zc[kBatchS * step];
  alignas(64) float zs[kPair ? kBatchS * step : 1];
  for (std::size_t t = 0; t < std::size_t{n} * K * kPw; ++t) acc[t] = 0.0f;
  for (std::uint32_t j = 0; j < Fs && j < F; j += step) {
    const std::uint32_t nv = (Fs - j < step ? Fs - j : step) / L;
    const std::uint32_t cnt = (j + nv * L < F ? j + nv * L : F) - j, full = cnt / L * L;
    for (std::uint32_t i = 0; i < n; i += kBatchS) {
      const std::uint32_t m = n - i < kBatchS ? n - i : kBatchS;
      ProjectBlock<kBatchS, kBatchV>(Wp, X, i, m, j, nv, d, [&](std::uint32_t r) {
        return RawStore<!kPair>{b, F, j, zc + (r - i) * step};
      });
      if (cnt == step) {
        Finish<kPair>(zc, zs, m * step, scale);
      } else {
        for (std::uint32_t s = 0; s < m; ++s)
          Finish<kPair>(zc + s * step, zs + (kPair ? s * step : 0), cnt, scale);
      }
      for (std::uint32_t s = 0; s < m; ++s) {
        const float* c = zc + s * step;
        const float* sn = zs + (kPair ? s * step : 0);
        for (std::uint32_t k = 0; k < K; ++k) {
          float* a = acc + (std::size_t{i + s} * K + k) * kPw;
          const float* h = H + k * Df + j;
          B va = Load(a);
          for (std::uint32_t t = 0; t < full; t += L) {
            va = xsimd::fma(Load(h + t), Load(c + t), va);
            if (kPair) va = xsimd::fma(Load(h + F + t), Load(sn + t), va);
          }
          va.store_unaligned(a);
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
    out[r] = bias[r % K] + sum;
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

void Standardize(const float* x, const float* mean, const float* inv_scale, std::uint32_t d,
                 float* out) noexcept {
  std::uint32_t c = 0;
  for (; c + L <= d; c += L) ((Load(x + c) - Load(mean + c)) * Load(inv_scale + c)).store_unaligned(out + c);
  for (; c < d; ++c) out[c] = (x[c] - mean[c]) * inv_scale[c];
}

void LinearHead(const float* H, std::uint32_t stride, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept {
  for (std::uint32_t k = 0; k < K; ++k) {
    const float* h = H + static_cast<std::size_t>(k) * stride;
    B a0(0.0f), a1(0.0f), a2(0.0f), a3(0.0f);
    std::uint32_t j = 0;
    for (; j + 4 * L <= D; j += 4 * L) {
      a0 = xsimd::fma(Load(h + j), Load(z + j), a0);
      a1 = xsimd::fma(Load(h + j + L), Load(z + j + L), a1);
      a2 = xsimd::fma(Load(h + j + 2 * L), Load(z + j + 2 * L), a2);
      a3 = xsimd::fma(Load(h + j + 3 * L), Load(z + j + 3 * L), a3);
    }
    for (; j + L <= D; j += L) a0 = xsimd::fma(Load(h + j), Load(z + j), a0);
    float sum = xsimd::hadd((a0 + a1) + (a2 + a3));
    for (; j < D; ++j) sum += h[j] * z[j];
    out[k] = bias[k] + sum;
  }
}

void BinKeys(const float* inv_width, const float* offset, const float* x, std::uint32_t P,
             std::uint32_t d, std::uint64_t seed, std::uint64_t* keys) noexcept {
  constexpr std::uint32_t kChunk = 64;
  alignas(64) std::int32_t bins[kChunk];
  const B lo(-bin_hash::kClamp), hi(bin_hash::kClamp);
  for (std::uint32_t p = 0; p < P; ++p) {
    const float* iw = inv_width + static_cast<std::size_t>(p) * d;
    const float* off = offset + static_cast<std::size_t>(p) * d;
    std::uint64_t h = bin_hash::Seed(seed, p);
    for (std::uint32_t m0 = 0; m0 < d; m0 += kChunk) {
      const std::uint32_t mn = d - m0 < kChunk ? d - m0 : kChunk;
      std::uint32_t m = 0;
      for (; m + L <= mn; m += L) {
        B v = (Load(x + m0 + m) - Load(off + m0 + m)) * Load(iw + m0 + m);
        v = xsimd::min(xsimd::max(xsimd::select(v == v, v, B(0.0f)), lo), hi);  // NaN -> 0, as scalar
        xsimd::to_int(xsimd::floor(v)).store_unaligned(bins + m);
      }
      for (; m < mn; ++m) bins[m] = bin_hash::Index((x[m0 + m] - off[m0 + m]) * iw[m0 + m]);
      for (std::uint32_t i = 0; i < mn; ++i) h = bin_hash::Step(h, bins[i]);
    }
    keys[p] = bin_hash::Final(h);
  }
}

constexpr KernelTable kXsimdTable = {
    "xsimd", RFK_XSIMD_NAME,
#define RFK_XSIMD_ENTRY(name, params) &name,
    RFK_KERNEL_LIST(RFK_XSIMD_ENTRY)
#undef RFK_XSIMD_ENTRY
};

}  // namespace
}  // namespace rfk
