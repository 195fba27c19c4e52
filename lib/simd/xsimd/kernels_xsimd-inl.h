// xsimd backend: every kernel of RFK_KERNEL_LIST for one xsimd architecture. Included by one
// translation unit per architecture (kernels_xsimd_<arch>.cc), each compiled with that
// architecture's -m flags; everything here is in an anonymous namespace so that no inline code
// compiled for one instruction set can be picked by the linker for another.
//
// The algorithms are those of the Highway backend (lib/simd/hwy/kernels_hwy.cc): the same panel
// tiles and the same sin/cos (scalar reference reduction and polynomials, FMA where available,
// out-of-range lanes through SinCosRef), so the two backends agree with the oracle equally.
#include <cstddef>
#include <cstdint>
#include <type_traits>

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
constexpr int kOneV = L == 16 ? 8 : 4, kBatchS = 4, kBatchV = L == 16 ? 4 : 2;

inline B Load(const float* p) { return B::load_unaligned(p); }

// Round to nearest, ties to even, as int32. xsimd 8.1.0 has no nearbyint_as_int for 32-bit NEON
// (ARMv7 has no vcvtn): its generic one calls lroundf per lane (libm, ties away from zero). There,
// round in float (exact) and convert.
inline BI NearestInt(B v) {
  if constexpr (std::is_same<Arch, xsimd::neon>::value) return xsimd::to_int(xsimd::nearbyint(v));
  else return xsimd::nearbyint_as_int(v);
}

template <bool kWantSin>
inline void SinCos(B x, B& sin_out, B& cos_out) {
  const B kf = x * B(0.636619772f);
  const BI k = NearestInt(kf);
  const B fk = xsimd::to_float(k);
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
  const auto swap = xsimd::to_float(k & BI(1)) == B(1.0f);
  const B cos_sign = xsimd::bitwise_cast<B>(((k + BI(1)) & BI(2)) << 30);
  cos_out = xsimd::select(swap, s, c) ^ cos_sign;
  if (kWantSin) {
    const B sin_sign = xsimd::bitwise_cast<B>((k & BI(2)) << 30);
    sin_out = xsimd::select(swap, c, s) ^ sin_sign;
  }
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

struct PhaseEmit {
  const float* b;
  std::uint32_t F;
  float scale;
  float* z;
  void operator()(std::uint32_t j, B acc) const {
    if (j + L <= F) {
      B s, c;
      SinCos<false>(acc + Load(b + j), s, c);
      (B(scale) * c).store_unaligned(z + j);
    } else {
      alignas(64) float a[kPw];
      acc.store_unaligned(a);
      for (std::uint32_t i = 0; j + i < F; ++i) z[j + i] = scale * CosRef(a[i] + b[j + i]);
    }
  }
};

struct PairEmit {
  std::uint32_t F;
  float scale;
  float* z;
  void operator()(std::uint32_t j, B acc) const {
    if (j + L <= F) {
      B s, c;
      SinCos<true>(acc, s, c);
      (B(scale) * c).store_unaligned(z + j);
      (B(scale) * s).store_unaligned(z + F + j);
    } else {
      alignas(64) float a[kPw];
      acc.store_unaligned(a);
      for (std::uint32_t i = 0; j + i < F; ++i) {
        float s, c;
        SinCosRef(a[i], &s, &c);
        z[j + i] = scale * c;
        z[F + j + i] = scale * s;
      }
    }
  }
};

template <int S, int V, class EmitFor>
inline void Tile(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
                 std::uint32_t d, const EmitFor& emit_for) {
  B acc[S][V];
  const float* p[V];
  for (int v = 0; v < V; ++v) p[v] = Block(Wp, j + v * L, d);
  for (int s = 0; s < S; ++s)
    for (int v = 0; v < V; ++v) acc[s][v] = B(0.0f);
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
inline void Columns(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                    std::uint32_t d, const EmitFor& emit_for) {
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

void FourierPhase(const float* Wp, const float* b, const float* x, std::uint32_t F,
                  std::uint32_t d, float scale, float* z) noexcept {
  const PhaseEmit e{b, F, scale, z};
  Columns<1, kOneV>(Wp, x, 1, F, d, [&](std::uint32_t) -> const PhaseEmit& { return e; });
}

void FourierPair(const float* Wp, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                 float* z) noexcept {
  const PairEmit e{F, scale, z};
  Columns<1, kOneV>(Wp, x, 1, F, d, [&](std::uint32_t) -> const PairEmit& { return e; });
}

void FourierPhaseBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                       std::uint32_t F, std::uint32_t d, float scale, float* Z) noexcept {
  Columns<kBatchS, kBatchV>(Wp, X, n, F, d, [&](std::uint32_t i) {
    return PhaseEmit{b, F, scale, Z + static_cast<std::size_t>(i) * F};
  });
}

void FourierPairBatch(const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,
                      std::uint32_t d, float scale, float* Z) noexcept {
  Columns<kBatchS, kBatchV>(Wp, X, n, F, d, [&](std::uint32_t i) {
    return PairEmit{F, scale, Z + static_cast<std::size_t>(i) * 2 * F};
  });
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
