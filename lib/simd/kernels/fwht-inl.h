// Fwht: the unnormalised Walsh-Hadamard transform in place. Part of the single-source kernels:
// see lib/simd/kernels-inl.h.
//
// The stages run in FwhtRef's order (h = 1, 2, ..., n/2) with its additions and subtractions, so
// the result is FwhtRef's bit for bit. Where the vector length L is a power of two and n >= L,
// the first log2(L) stages (h < L: butterflies within a vector) run per vector in registers:
// load x[j .. j+L) once, pair lane i with lane i ^ h by a lane permutation, store once. Stages
// with h >= L run two at a time (h and 2h): the four vectors at x[j], x[j+h], x[j+2h], x[j+3h] are
// loaded once, go through both stages in registers (stage h on the pairs (j, j+h) and
// (j+2h, j+3h), then stage 2h on (j, j+2h) and (j+h, j+3h): FwhtRef's butterflies) and are stored
// once, which halves those stages' loads and stores; a last single stage when their number is
// odd. For
// n < L, and on vector lengths that are not a power of two (SVE at 384 bits, say), the stages
// h < L run as FwhtRef's scalar loop, and so do the lanes past the last whole vector of a
// butterfly group.

// One in-vector stage of vector v: `partner` maps lane i to lane i ^ h, `high` is set where
// (i & h) != 0. A low lane j becomes v[j] + v[j+h] (FwhtRef's a + b), a high lane j+h becomes
// v[j] - v[j+h] (a - b): FwhtRef's operands in FwhtRef's order, so its bits.
template <class V, class I, class M>
RFK_INLINE V FwhtLaneStage(V v, I partner, M high) {
  const V p = hn::TableLookupLanes(v, partner);
  return hn::IfThenElse(high, hn::Sub(p, v), hn::Add(v, p));
}

// The partner indices of in-vector stage h (lane i ^ h); lanes past a stage the vector does
// not have (h >= Lanes) map to themselves.
RFK_INLINE auto FwhtPartners(DF df, std::uint32_t h) {
  const std::uint32_t L = static_cast<std::uint32_t>(hn::Lanes(df));
  std::int32_t idx[kPw];
  for (std::uint32_t i = 0; i < kPw; ++i) idx[i] = static_cast<std::int32_t>(h < L ? i ^ h : i);
  return hn::SetTableIndices(df, idx);
}

// The high lanes of in-vector stage h: those with (i & h) != 0.
RFK_INLINE auto FwhtHighLanes(DF df, std::uint32_t h) {
  const hn::RebindToSigned<DF> di;
  std::int32_t lane[kPw];
  for (std::uint32_t i = 0; i < kPw; ++i) lane[i] = static_cast<std::int32_t>(i);
  return hn::RebindMask(df, hn::TestBit(hn::LoadU(di, lane), hn::Set(di, static_cast<std::int32_t>(h))));
}

// Stages h = 1 .. L/2 of every vector of x. Requires L a power of two, 2 <= L <= 16 (kPw) and
// n a multiple of L.
RFK_INLINE void FwhtInVectorStages(float* x, std::uint32_t n) {
  const DF df;
  const std::size_t L = hn::Lanes(df);
  // Named, not arrays: SVE's vectors and masks are sizeless. Unused stages fold away where L is
  // a constant.
  const auto p1 = FwhtPartners(df, 1), p2 = FwhtPartners(df, 2);
  const auto p4 = FwhtPartners(df, 4), p8 = FwhtPartners(df, 8);
  const auto m1 = FwhtHighLanes(df, 1), m2 = FwhtHighLanes(df, 2);
  const auto m4 = FwhtHighLanes(df, 4), m8 = FwhtHighLanes(df, 8);
  for (std::uint32_t j = 0; j < n; j += static_cast<std::uint32_t>(L)) {
    auto v = hn::LoadU(df, x + j);
    v = FwhtLaneStage(v, p1, m1);
    if (L > 2) v = FwhtLaneStage(v, p2, m2);
    if (L > 4) v = FwhtLaneStage(v, p4, m4);
    if (L > 8) v = FwhtLaneStage(v, p8, m8);
    hn::StoreU(v, df, x + j);
  }
}

void Fwht(float* x, std::uint32_t n) noexcept {
  const DF df;
  const std::size_t L = hn::Lanes(df);
  std::uint32_t h = 1;
  if (L >= 2 && (L & (L - 1)) == 0 && n >= L) {
    FwhtInVectorStages(x, n);
    h = static_cast<std::uint32_t>(L);
  }
  for (; h < n && h < L; h *= 2)
    for (std::uint32_t i = 0; i < n; i += 2 * h)
      for (std::uint32_t j = i; j < i + h; ++j) {
        const float a = x[j], b = x[j + h];
        x[j] = a + b;
        x[j + h] = a - b;
      }
  for (; 4 * h <= n; h *= 4)
    for (std::uint32_t i = 0; i < n; i += 4 * h) {
      std::uint32_t j = i;
      for (; j + L <= i + h; j += L) {
        const auto a = hn::LoadU(df, x + j), b = hn::LoadU(df, x + j + h);
        const auto c = hn::LoadU(df, x + j + 2 * h), e = hn::LoadU(df, x + j + 3 * h);
        const auto s = hn::Add(a, b), t = hn::Sub(a, b), u = hn::Add(c, e), v = hn::Sub(c, e);
        hn::StoreU(hn::Add(s, u), df, x + j);
        hn::StoreU(hn::Add(t, v), df, x + j + h);
        hn::StoreU(hn::Sub(s, u), df, x + j + 2 * h);
        hn::StoreU(hn::Sub(t, v), df, x + j + 3 * h);
      }
      for (; j < i + h; ++j) {
        const float a = x[j], b = x[j + h], c = x[j + 2 * h], e = x[j + 3 * h];
        const float s = a + b, t = a - b, u = c + e, v = c - e;
        x[j] = s + u;
        x[j + h] = t + v;
        x[j + 2 * h] = s - u;
        x[j + 3 * h] = t - v;
      }
    }
  for (; h < n; h *= 2)
    for (std::uint32_t i = 0; i < n; i += 2 * h) {
      std::uint32_t j = i;
      for (; j + L <= i + h; j += L) {
        const auto a = hn::LoadU(df, x + j), b = hn::LoadU(df, x + j + h);
        hn::StoreU(hn::Add(a, b), df, x + j);
        hn::StoreU(hn::Sub(a, b), df, x + j + h);
      }
      for (; j < i + h; ++j) {
        const float a = x[j], b = x[j + h];
        x[j] = a + b;
        x[j + h] = a - b;
      }
    }
}

// ApplySigns: Fastfood's B, the scalar kernel itself (ApplySignsRef: a byte of B per eight
// entries, shifts by constants, an XOR of each sign bit), so its bits on every target. A block
// is d' entries, one pass over them beside the two transforms' log2(d'), so it is not vectorised.
void ApplySigns(const std::uint8_t* signs, std::uint32_t first, const float* x, std::uint32_t n, std::uint32_t dp,
                float* t) noexcept {
  ApplySignsRef(signs, first, x, n, dp, t);
}
