// sin/cos of every lane, two ways: SinCos (the scalar reference's algorithm, 1.2e-7) for the
// feature kernels and SinCosPi (fewer operations, 1.6e-7) for the batch kernels, whose values only
// feed the head's sums. Part of the single-source kernels: see lib/simd/kernels-inl.h.

// If any lane of x is beyond the fast range (or NaN: a NaN lane compares false both ways, so the
// test is "not all within", not "any beyond"), every lane takes the scalar reference: correct up to
// kSinCosMaxArg and NaN beyond, never garbage.
template <class D, class V>
RFK_INLINE void SlowLanes(D d, V x, V& sin_out, V& cos_out) {
  if (RFK_LIKELY(hn::AllTrue(d, hn::Le(hn::Abs(x), hn::Set(d, kSinCosFastRange))))) return;
  alignas(kVectorBytes) float xs[kPw], ss[kPw], cs[kPw];
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
// as the scalar reference (tests/device/test_parity.cc checks every table); with FMA 9.3e-8 was measured
// over 2e7 arguments up to 1e5. Lanes beyond the fast range (large, or NaN) take the scalar
// reference, correct up to kSinCosMaxArg and NaN beyond, so no argument ever yields garbage.
// kWantSin = false skips what only sin needs.
template <bool kWantSin, class D, class V = hn::Vec<D>>
RFK_INLINE void SinCos(D d, V x, V& sin_out, V& cos_out) {
  const hn::RebindToSigned<D> di;
  // t = x 2/pi + (1.5 2^23 + 1) rounds x 2/pi to an integer k in one operation: t's low mantissa
  // bits then hold k + 1 (1.5 2^23 is a multiple of 4, so the quadrant bits survive), exact for
  // |k| < 2^22. Without FMA the product is rounded first: still an integer k, as good a reduction.
  // No float-to-int conversion, which 32-bit NEON lacks.
  constexpr float kMagic = 12582913.0f;
  const V t = hn::MulAdd(x, hn::Set(d, 0.636619772f), hn::Set(d, kMagic));
  const V fk = hn::Sub(t, hn::Set(d, kMagic));
  const auto k1 = hn::BitCast(di, t);
  // Exact either way: fk * P1 (FMA) or fk * C1 (8 significant bits) has no rounding error.
  V r = hn::NegMulAdd(fk, hn::Set(d, kNativeFma ? 0x1.921fb6p0f : 0x1.92p0f), x);
  if constexpr (kNativeFma) {
    r = hn::NegMulAdd(fk, hn::Set(d, -0x1.777a5cp-25f), r);
  } else {
    r = hn::NegMulAdd(fk, hn::Set(d, 0x1.fcp-12f), r);
    r = hn::NegMulAdd(fk, hn::Set(d, -0x1.58p-21f), r);
    r = hn::NegMulAdd(fk, hn::Set(d, 0x1.10b462p-30f), r);
  }
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

// sin and cos for the batch kernels, in fewer operations than SinCos: x = m pi + r with
// |r| <= pi/2, then cos x = (-1)^m cos r and sin x = (-1)^m sin r by one even and one odd
// polynomial (minimax on [-pi/2, pi/2], degrees 10 and 9, fitted for rfk), with no quadrant
// selection. r = (x - m P1) - m P2, P1 + P2 = pi in two floats (x - m P1 is exact in one FMA):
// called only where kNativeFma (without a fused multiply-add the batch kernels take SinCos).
// Accuracy: within 1.6e-7 of double sin/cos for |x| <= kSinCosFastRange (1.56e-7 the worst seen
// over 2e7 arguments), against SinCos's 1.2e-7: these values only feed the head's sums. Lanes
// beyond the fast range take the scalar reference, as in SinCos; kCheck = false leaves that to
// the caller (FeaturesIntoHead checks a row of vectors at once).
template <bool kWantSin, bool kCheck = true, class D, class V = hn::Vec<D>>
RFK_INLINE void SinCosPi(D d, V x, V& sin_out, V& cos_out) {
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
