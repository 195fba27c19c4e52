// Fwht: the unnormalised Walsh-Hadamard transform in place. Part of the single-source kernels:
// see lib/simd/kernels-inl.h.
//
// The stages run in FwhtRef's order (h = 1, 2, ..., n/2) with its additions and subtractions, so
// the result is FwhtRef's bit for bit. Stages whose butterflies span at least a vector (h >= L)
// load x[j .. j+L) and x[j+h .. j+h+L) and store their sum and difference; the first log2(L)
// stages pair lanes within a vector and run as the scalar loop (on a vector length that is not a
// power of two, so do the lanes past the last whole vector of a butterfly group).
void Fwht(float* x, std::uint32_t n) noexcept {
  const DF df;
  const std::size_t L = hn::Lanes(df);
  std::uint32_t h = 1;
  for (; h < n && h < L; h *= 2)
    for (std::uint32_t i = 0; i < n; i += 2 * h)
      for (std::uint32_t j = i; j < i + h; ++j) {
        const float a = x[j], b = x[j + h];
        x[j] = a + b;
        x[j + h] = a - b;
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
