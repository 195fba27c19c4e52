// FourierQuant and LinearHeadQuant (and ScaleByDiagonal, Fastfood's stored diagonals, at the end):
// W and the head stored as f16 or int8 (the head also as
// f16-scaled: f16 elements, one scale per output applied after the sum), each weight widened in
// a register as it is loaded (f16 -> f32 exactly; int8 -> int32 -> f32 exactly), never copied out
// as floats. Part of the single-source kernels: see lib/simd/kernels-inl.h.
//
// The arithmetic is the reference's (kernels.hpp) up to summation order and fused multiply-adds:
// row j's products w_jc x_c summed over c (four frequency vectors at a time, one accumulator
// each, c in order), int8 then times the row's scale, phase then + b_j; the head sums four
// vectors of terms and then their lanes (int8 and f16-scaled then times the output's scale).
// Within the FourierPair/LinearHead tolerances.
//
// The widening loads are the backend's WidenI8 and WidenF16 (kernels-inl.h). A row-major W (format
// 1.0 writers) and a vector length that does not divide a panel take the scalar reference.

// Lanes(df) weights of type kType from element i of `data`, as floats.
template <WeightType kType>
RFK_INLINE hn::Vec<DF> LoadWidened(DF df, const void* data, std::size_t i) {
  if constexpr (kType == WeightType::kInt8) return WidenI8(df, static_cast<const std::int8_t*>(data) + i);
  else return WidenF16(df, static_cast<const std::uint16_t*>(data) + i);
}

// Element offset of W's vector v (frequencies v L .. v L + L - 1) at input c = 0, in panels of kPw
// frequencies interleaved per input (format::Layout::kPanels).
RFK_INLINE std::size_t PanelOffset(std::uint32_t v, std::uint32_t L, std::uint32_t d) {
  const std::uint32_t f = v * L;
  return std::size_t{f / kPw} * kPw * d + f % kPw;
}

template <WeightType kType, bool kPair>
RFK_NOINLINE void QuantFeatures(const WeightsView& W, const float* b, const float* x, std::uint32_t F,
                                std::uint32_t d, float scale, float* z) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  const std::uint32_t nvec = (F + L - 1) / L;  // within the stored (panel-padded) rows: L divides kPw
  // One vector's raw projections (scaled, phase added) into z[f .. f + L), only the lanes below F:
  // the last vector's padding rows are not features.
  const auto store = [&](hn::Vec<DF> acc, std::uint32_t v) {
    const std::uint32_t f = v * L;
    if constexpr (kType == WeightType::kInt8) acc = hn::Mul(acc, hn::LoadU(df, W.scale + f));  // F_s scales
    if (f + L <= F) {
      if constexpr (!kPair) acc = hn::Add(acc, hn::LoadU(df, b + f));
      hn::StoreU(acc, df, z + f);
      return;
    }
    alignas(kVectorBytes) float lanes[kPw];
    hn::Store(acc, df, lanes);
    for (std::uint32_t t = 0; f + t < F; ++t) z[f + t] = kPair ? lanes[t] : lanes[t] + b[f + t];
  };
  for (std::uint32_t v0 = 0; v0 < nvec; v0 += 4) {
    // Four independent chains; past the last vector they repeat it (computed, not stored).
    const std::uint32_t last = nvec - 1;
    const std::size_t o0 = PanelOffset(v0, L, d);
    const std::size_t o1 = PanelOffset(v0 + 1 < last ? v0 + 1 : last, L, d);
    const std::size_t o2 = PanelOffset(v0 + 2 < last ? v0 + 2 : last, L, d);
    const std::size_t o3 = PanelOffset(v0 + 3 < last ? v0 + 3 : last, L, d);
    auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    for (std::uint32_t c = 0; c < d; ++c) {
      const auto xc = hn::Set(df, x[c]);
      const std::size_t cc = std::size_t{c} * kPw;
      a0 = hn::MulAdd(LoadWidened<kType>(df, W.data, o0 + cc), xc, a0);
      a1 = hn::MulAdd(LoadWidened<kType>(df, W.data, o1 + cc), xc, a1);
      a2 = hn::MulAdd(LoadWidened<kType>(df, W.data, o2 + cc), xc, a2);
      a3 = hn::MulAdd(LoadWidened<kType>(df, W.data, o3 + cc), xc, a3);
    }
    store(a0, v0);
    if (v0 + 1 < nvec) store(a1, v0 + 1);
    if (v0 + 2 < nvec) store(a2, v0 + 2);
    if (v0 + 3 < nvec) store(a3, v0 + 3);
  }
  Finish<kPair>(z, z + F, F, scale);
}

// A pair block's two halves (pair != 0: row elements pair + j against z[D + j]) go into the same
// lanes, reduced once; then each half's tail.
template <WeightType kType>
RFK_NOINLINE void QuantHead(const WeightsView& H, std::uint32_t stride, std::uint32_t pair, const float* bias,
                            const float* z, std::uint32_t K, std::uint32_t D, float* out) {
  const DF df;
  const std::size_t L = hn::Lanes(df), halves = pair != 0 ? 2 : 1;
  for (std::uint32_t k = 0; k < K; ++k) {
    auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df);
    std::size_t j = 0;
    for (std::size_t half = 0; half < halves; ++half) {
      const std::size_t row = std::size_t{k} * stride + (half != 0 ? pair : 0);
      const float* zh = z + (half != 0 ? D : 0);
      for (j = 0; j + 4 * L <= D; j += 4 * L) {
        a0 = hn::MulAdd(LoadWidened<kType>(df, H.data, row + j), hn::LoadU(df, zh + j), a0);
        a1 = hn::MulAdd(LoadWidened<kType>(df, H.data, row + j + L), hn::LoadU(df, zh + j + L), a1);
        a2 = hn::MulAdd(LoadWidened<kType>(df, H.data, row + j + 2 * L), hn::LoadU(df, zh + j + 2 * L), a2);
        a3 = hn::MulAdd(LoadWidened<kType>(df, H.data, row + j + 3 * L), hn::LoadU(df, zh + j + 3 * L), a3);
      }
      for (; j + L <= D; j += L) a0 = hn::MulAdd(LoadWidened<kType>(df, H.data, row + j), hn::LoadU(df, zh + j), a0);
    }
    float sum = hn::GetLane(hn::SumOfLanes(df, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
    for (std::size_t half = 0; half < halves; ++half) {
      const std::size_t row = std::size_t{k} * stride + (half != 0 ? pair : 0);
      const float* zh = z + (half != 0 ? D : 0);
      if constexpr (kType == WeightType::kInt8) {
        const auto* q = static_cast<const std::int8_t*>(H.data) + row;
        for (std::size_t t = j; t < D; ++t) sum += static_cast<float>(q[t]) * zh[t];
      } else {
        const auto* h = static_cast<const std::uint16_t*>(H.data) + row;
        for (std::size_t t = j; t < D; ++t) sum += HalfToFloat(h[t]) * zh[t];
      }
    }
    out[k] = bias[k] + (kType == WeightType::kF16 ? sum : H.scale[k] * sum);
  }
}

void FourierQuant(const WeightsView& W, bool panels, const float* b, const float* x, std::uint32_t F,
                  std::uint32_t d, float scale, float* z) noexcept {
  if (panels && kPw % hn::Lanes(DF()) == 0) {
    if (W.type == WeightType::kInt8) {
      if (b != nullptr) QuantFeatures<WeightType::kInt8, false>(W, b, x, F, d, scale, z);
      else QuantFeatures<WeightType::kInt8, true>(W, b, x, F, d, scale, z);
      return;
    }
    if (W.type == WeightType::kF16) {
      if (b != nullptr) QuantFeatures<WeightType::kF16, false>(W, b, x, F, d, scale, z);
      else QuantFeatures<WeightType::kF16, true>(W, b, x, F, d, scale, z);
      return;
    }
  }
  if (b != nullptr) FourierPhaseQuantRef(W, panels, b, x, F, d, scale, z);
  else FourierPairQuantRef(W, panels, x, F, d, scale, z);
}

void LinearHeadQuant(const WeightsView& H, std::uint32_t stride, std::uint32_t pair, const float* bias,
                     const float* z, std::uint32_t K, std::uint32_t D, float* out) noexcept {
  if (H.type == WeightType::kInt8) return QuantHead<WeightType::kInt8>(H, stride, pair, bias, z, K, D, out);
  if (H.type == WeightType::kF16) return QuantHead<WeightType::kF16>(H, stride, pair, bias, z, K, D, out);
  if (H.type == WeightType::kF16Scaled)
    return QuantHead<WeightType::kF16Scaled>(H, stride, pair, bias, z, K, D, out);
  LinearHeadQuantRef(H, stride, pair, bias, z, K, D, out);
}

// ScaleByDiagonal: Fastfood's G and S, u[i] = w_i * u[i] with w_i widened as WeightAt widens it
// (int8 and f16-scaled: the row's scale times the weight first), whole vectors, then the scalar
// kernel (ScaleByDiagonalRef) for the rest. Products only, no sums: the scalar kernel's bits.
template <WeightType kType>
RFK_NOINLINE void ScaleDiagonal(const WeightsView& D, std::uint32_t row, std::uint32_t first, std::uint32_t n,
                                float* u) {
  const DF df;
  const auto L = static_cast<std::uint32_t>(hn::Lanes(df));
  std::uint32_t i = 0;
  if constexpr (kType == WeightType::kF32) {
    const float* w = static_cast<const float*>(D.data) + first;
    for (; i + L <= n; i += L) hn::StoreU(hn::Mul(hn::LoadU(df, w + i), hn::LoadU(df, u + i)), df, u + i);
  } else if constexpr (kType == WeightType::kF16) {
    for (; i + L <= n; i += L)
      hn::StoreU(hn::Mul(LoadWidened<kType>(df, D.data, std::size_t{first} + i), hn::LoadU(df, u + i)), df, u + i);
  } else {
    const auto s = hn::Set(df, D.scale[row]);
    for (; i + L <= n; i += L) {
      const auto w = hn::Mul(s, LoadWidened<kType>(df, D.data, std::size_t{first} + i));
      hn::StoreU(hn::Mul(w, hn::LoadU(df, u + i)), df, u + i);
    }
  }
  if (i < n) ScaleByDiagonalRef(D, row, first + i, n - i, u + i);  // the same products
}

void ScaleByDiagonal(const WeightsView& D, std::uint32_t row, std::uint32_t first, std::uint32_t n,
                     float* u) noexcept {
  if (D.type == WeightType::kInt8) return ScaleDiagonal<WeightType::kInt8>(D, row, first, n, u);
  if (D.type == WeightType::kF16) return ScaleDiagonal<WeightType::kF16>(D, row, first, n, u);
  if (D.type == WeightType::kF16Scaled) return ScaleDiagonal<WeightType::kF16Scaled>(D, row, first, n, u);
  ScaleDiagonal<WeightType::kF32>(D, row, first, n, u);
}
