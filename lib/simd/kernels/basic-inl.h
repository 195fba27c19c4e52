// Standardize, StandardizeF16, LinearHead and BinKeys. Part of the single-source kernels: see
// lib/simd/kernels-inl.h.

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

// Widened exactly by the backend's WidenF16, then Standardize's operations: the scalar bits.
void StandardizeF16(const float* x, const std::uint16_t* mean, const std::uint16_t* inv_scale,
                    std::uint32_t d, float* out) noexcept {
  const DF df;
  const std::size_t L = hn::Lanes(df);
  std::size_t c = 0;
  for (; c + L <= d; c += L)
    hn::StoreU(hn::Mul(hn::Sub(hn::LoadU(df, x + c), WidenF16(df, mean + c)), WidenF16(df, inv_scale + c)),
               df, out + c);
  for (; c < d; ++c) out[c] = (x[c] - HalfToFloat(mean[c])) * HalfToFloat(inv_scale[c]);
}

// A pair block's two halves (pair != 0: h[pair + j] against z[D + j]) go into the same lanes,
// reduced once (one call per block instead of two), then each half's tail.
void LinearHead(const float* H, std::uint32_t stride, std::uint32_t pair, const float* bias, const float* z,
                std::uint32_t K, std::uint32_t D, float* out) noexcept {
  const DF df;
  const std::size_t L = hn::Lanes(df), halves = pair != 0 ? 2 : 1;
  for (std::uint32_t k = 0; k < K; ++k) {
    auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    std::size_t j = 0;
    for (std::size_t half = 0; half < halves; ++half) {
      const float* h = H + static_cast<std::size_t>(k) * stride + (half != 0 ? pair : 0);
      const float* zh = z + (half != 0 ? D : 0);
      for (j = 0; j + 4 * L <= D; j += 4 * L) {
        a0 = hn::MulAdd(hn::LoadU(df, h + j), hn::LoadU(df, zh + j), a0);
        a1 = hn::MulAdd(hn::LoadU(df, h + j + L), hn::LoadU(df, zh + j + L), a1);
        a2 = hn::MulAdd(hn::LoadU(df, h + j + 2 * L), hn::LoadU(df, zh + j + 2 * L), a2);
        a3 = hn::MulAdd(hn::LoadU(df, h + j + 3 * L), hn::LoadU(df, zh + j + 3 * L), a3);
      }
      for (; j + L <= D; j += L) a0 = hn::MulAdd(hn::LoadU(df, h + j), hn::LoadU(df, zh + j), a0);
    }
    float sum = hn::GetLane(hn::SumOfLanes(df, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
    for (std::size_t half = 0; half < halves; ++half) {
      const float* h = H + static_cast<std::size_t>(k) * stride + (half != 0 ? pair : 0);
      const float* zh = z + (half != 0 ? D : 0);
      for (std::size_t t = j; t < D; ++t) sum += h[t] * zh[t];
    }
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
  alignas(kVectorBytes) std::int32_t bins[kChunk];
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
