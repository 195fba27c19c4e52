// The projection W x: register tiles over W's panels (format::Layout::kPanels). Part of the
// single-source kernels: see lib/simd/kernels-inl.h.

// Start of the L-lane block holding frequencies [j, j + L) of input c (L divides kPw).
RFK_INLINE const float* Block(const float* Wp, std::uint32_t j, std::uint32_t d) {
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
  RFK_INLINE hn::Vec<DF> Init(DF d, std::uint32_t j) const {
    if (kPhase && j + hn::Lanes(d) <= F) return hn::LoadU(d, b + j);
    return hn::Zero(d);
  }
  template <class V>
  RFK_INLINE void operator()(DF d, std::uint32_t j, V acc) const {
    const std::size_t L = hn::Lanes(d);
    float* o = z + (j - j0);
    if (j + L <= F) {
      hn::StoreU(acc, d, o);
    } else if (j < F) {
      alignas(kVectorBytes) float a[kPw] = {};
      hn::Store(acc, d, a);
      for (std::uint32_t t = 0; j + t < F; ++t) o[t] = kPhase ? a[t] + b[j + t] : a[t];
    }
  }
};

// Register tiles: S samples x V vectors of L frequencies, S*V independent accumulators, each
// loaded W vector reused for S samples. Enough accumulators hide the FMA latency (2 FMAs per
// cycle x 4 cycles = 8 in flight); 32 vector registers afford 24 with 16 lanes (6 x 4: each
// iteration loads 4 W vectors and 6 inputs for 24 FMAs) and 16 with 4 (4 x 4); 16 registers, 8
// (4 x 2). kOneV: vectors per block for one sample; batches go kBatchS samples at a time through
// blocks of kBatchV vectors.
#if RFK_SIMD_SIZELESS
constexpr int kOneV = 4, kBatchS = 2, kBatchV = 2;
#else
constexpr bool kManyRegisters = kVectorRegisters >= 32;
constexpr int kOneV = kManyRegisters ? 8 : 4;
constexpr int kBatchS = kManyRegisters && hn::MaxLanes(DF()) >= 16 ? 6 : 4;
constexpr int kBatchV = kManyRegisters ? 4 : 2;
#endif

#if !RFK_SIMD_SIZELESS
// acc[s][v] = Init + sum_c x_s[c] W[j + vL .. j + vL + L)[c] for samples i.., then emitted.
template <int S, int V, class EmitFor>
RFK_INLINE void Tile(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
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
RFK_INLINE void Rows(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
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
RFK_INLINE void ProjectBlock(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
                             std::uint32_t j, std::uint32_t nv, std::uint32_t d,
                             const EmitFor& emit_for) {
  const auto L = static_cast<std::uint32_t>(hn::Lanes(DF()));
  std::uint32_t v = 0;
  for (; v + V <= nv; v += V) Rows<S, V>(Wp, X, i, m, j + v * L, d, emit_for);
  // Four vectors at a time before one: Predict's pair blocks (64 frequencies, 4 vectors of 16
  // lanes) would otherwise take one broadcast of x per multiply-add (AVX-512, d = 54: 1.9 us per
  // (54, 1024) pair prediction instead of 1.44 with whole-map calls). The same bits per lane.
  if constexpr (V > 4)
    for (; v + 4 <= nv; v += 4) Rows<S, 4>(Wp, X, i, m, j + v * L, d, emit_for);
  for (; v < nv; ++v) Rows<S, 1>(Wp, X, i, m, j + v * L, d, emit_for);
}

#else   // RFK_SIMD_SIZELESS (SVE, SVE2): sizeless vectors cannot form arrays, so the tiles are
        // spelled out with named accumulators: 1 sample x 4 vectors for one input, 2 x 2 for
        // batches (L = the vector's lanes, capped at the panel width: 4..16).

// acc = Init + sum_c x[c] W[j .. j + L)[c] for vectors at frequencies j, j + L, ...
template <class Emit>
RFK_INLINE void OneByFour(const float* Wp, const float* x, std::uint32_t j, std::uint32_t d,
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
RFK_INLINE void OneByOne(const float* Wp, const float* x, std::uint32_t j, std::uint32_t d,
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
RFK_INLINE void TwoByTwo(const float* Wp, const float* X, std::uint32_t i, std::uint32_t j,
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
RFK_INLINE void ProjectBlock(const float* Wp, const float* X, std::uint32_t i, std::uint32_t m,
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
#endif  // RFK_SIMD_SIZELESS
