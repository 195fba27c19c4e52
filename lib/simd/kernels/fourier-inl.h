// Fourier features and batch prediction: FourierPhase, FourierPair and the fused
// Fourier*HeadBatch kernels. Part of the single-source kernels: see lib/simd/kernels-inl.h.

// Features from raw projections, in place: zc[t] = scale cos(zc[t]) and, for pairs,
// zs[t] = scale sin(zc[t]), t < m. kScaled = false is the batch kernels' form: it leaves out the
// factor scale (the head applies it once to each sum) and, with FMA, evaluates SinCosPi. A last
// partial vector takes the scalar reference.
template <bool kPair, bool kScaled = true>
RFK_INLINE void Finish(float* zc, float* zs, std::uint32_t m, float scale) {
  const DF d;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(d));
  const auto vscale = hn::Set(d, scale);
  std::uint32_t t = 0;
  for (; t + L <= m; t += L) {
    hn::Vec<DF> s, c;
    if constexpr (!kScaled && kNativeFma) SinCosPi<kPair>(d, hn::LoadU(d, zc + t), s, c);
    else SinCos<kPair>(d, hn::LoadU(d, zc + t), s, c);
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

// One sample's features, kOneV vectors of frequencies at a time.
template <bool kPair>
RFK_INLINE void Features(const float* Wp, const float* b, const float* x, std::uint32_t F,
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

#if !RFK_SIMD_SIZELESS
// A group's full block of raw projections into its head sums: m rows of kBatchV vectors at z
// (row stride kBatchV * L), row r into the K vectors at a + r * K * kPw; the features stay in
// registers, each used by every output. Out of line: inlined into HeadBatch, the sin/cos
// constants were spilled across the register tile and the rows went through the stack.
// With FMA the fast-range check costs one multiply-add per vector: if the lane-wise sum of
// squares of a row's raw projections is within kSinCosFastRange^2, every lane is (to rounding at
// the edge, harmless: SinCosPi's reduction stays exact far beyond it); a large lane, an inf or a
// NaN fails it, and then each vector of the row takes SlowLanes as in SinCos. Measured side by
// side against the inlined per-sample form with a check per vector (AVX3, n = 48, d = 54, 4
// alternating runs each): pair 0.51-0.54 -> 0.57-0.62 of a 224 GFLOP/s peak, phase 0.62 -> 0.64.
template <bool kPair>
RFK_NOINLINE void FeaturesIntoHead(const float* z, std::uint32_t m, const float* h, std::size_t Df,
                                   std::uint32_t F, std::uint32_t K, float* a) {
  const DF d;
  const std::size_t L = hn::Lanes(d);
  for (std::uint32_t r = 0; r < m; ++r, z += kBatchV * L, a += std::size_t{K} * kPw) {
    hn::Vec<DF> c[kBatchV], s[kBatchV];
    if constexpr (kNativeFma) {
      auto q = hn::Zero(d);
#pragma GCC unroll 8
      for (int v = 0; v < kBatchV; ++v) {
        const auto x = hn::LoadU(d, z + v * L);
        q = hn::MulAdd(x, x, q);
        SinCosPi<kPair, false>(d, x, s[v], c[v]);
      }
      if (RFK_UNLIKELY(!hn::AllTrue(d, hn::Le(q, hn::Set(d, kSinCosFastRange * kSinCosFastRange)))))
        for (int v = 0; v < kBatchV; ++v) SlowLanes(d, hn::LoadU(d, z + v * L), s[v], c[v]);
    } else {
#pragma GCC unroll 8
      for (int v = 0; v < kBatchV; ++v) SinCos<kPair>(d, hn::LoadU(d, z + v * L), s[v], c[v]);
    }
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
// through FeaturesIntoHead; a partial block, and sizeless vectors, through Finish and a head loop.
template <bool kPair>
RFK_INLINE void HeadBatch(const float* Wp, const float* b, const float* X, std::uint32_t n,
                          std::uint32_t F, std::uint32_t d, float scale, const float* H,
                          const float* bias, std::uint32_t K, float* acc, float* out) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t Fs = format::StoredFrequencies(format::Layout::kPanels, F);
  const std::uint32_t step = kBatchV * L;
  const std::size_t Df = kPair ? std::size_t{2} * F : F;
  // Row r of the group at zc + r * step (rows contiguous: a full block finishes in one loop).
  alignas(kVectorBytes) float zc[kBatchS * kBatchV * kPw];
  alignas(kVectorBytes) float zs[kPair ? kBatchS * kBatchV * kPw : 1];
  for (std::size_t t = 0; t < std::size_t{n} * K * kPw; ++t) acc[t] = 0.0f;
  for (std::uint32_t j = 0; j < Fs && j < F; j += step) {
    const std::uint32_t nv = (Fs - j < step ? Fs - j : step) / L;
    const std::uint32_t cnt = (j + nv * L < F ? j + nv * L : F) - j, full = cnt / L * L;
    for (std::uint32_t i = 0; i < n; i += kBatchS) {
      const std::uint32_t m = n - i < kBatchS ? n - i : kBatchS;
      ProjectBlock<kBatchS, kBatchV>(Wp, X, i, m, j, nv, d, [&](std::uint32_t r) {
        return RawStore<!kPair>{b, F, j, zc + (r - i) * step};
      });
#if !RFK_SIMD_SIZELESS
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
