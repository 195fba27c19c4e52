// Every kernel of every compiled table this CPU supports (each Highway target in turn, xsimd,
// ...) against the scalar oracle. RFK_KERNEL_LIST drives the loop: a kernel added to the table
// without a parity check here does not compile.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "maps/random.h"
#include "rfk/format.hpp"
#include "rfk/kernels.hpp"

namespace {

using rfk::KernelTable;
constexpr double kFeatureTolerance = 1e-5;  // absolute, on features of scale <= 1

std::vector<float> Normal(std::size_t n, double sd, std::uint64_t seed) {
  rfk::host::RandomStream rs(seed, n);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(sd * rs.Normal());
  return v;
}

// W as panels (format::Layout::kPanels) for F frequencies of dimension d.
std::vector<float> Panels(const std::vector<float>& W, std::uint32_t F, std::uint32_t d) {
  const std::uint32_t pw = rfk::format::kPanelWidth;
  std::vector<float> p(std::size_t{rfk::format::StoredFrequencies(rfk::format::Layout::kPanels, F)} * d, 0.0f);
  for (std::uint32_t j = 0; j < F; ++j)
    for (std::uint32_t c = 0; c < d; ++c) p[std::size_t{j / pw} * pw * d + std::size_t{c} * pw + j % pw] = W[std::size_t{j} * d + c];
  return p;
}

void Near(const std::vector<float>& got, const std::vector<float>& want, double tol) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      REQUIRE(std::isnan(got[i]));
      continue;
    }
    worst = std::max(worst, std::fabs(double(got[i]) - want[i]));
  }
  CHECK(worst <= tol);
}

struct Shape {
  std::uint32_t d, F;
};
// The benchmark shapes (d, D) of the pair form, plus awkward sizes (tails everywhere). Under
// emulation (cross builds run by qemu, where an emulated SVE instruction costs ~20x a NEON one)
// the largest shape is left out: it adds no code path the others do not take.
#if RFK_TEST_UNDER_EMULATION
constexpr Shape kShapes[] = {{16, 128}, {54, 512}, {123, 250}, {7, 37}, {1, 1}, {3, 17}};
#else
constexpr Shape kShapes[] = {{16, 128}, {54, 512}, {123, 250}, {784, 1000}, {7, 37}, {1, 1}, {3, 17}};
#endif

void ParityStandardize(const KernelTable& t) {
  for (std::uint32_t d : {1u, 7u, 54u, 123u, 784u}) {
    const auto x = Normal(d, 3, 1), mean = Normal(d, 1, 2), inv = Normal(d, 1, 3);
    std::vector<float> a(d), b(d), inplace = x;
    t.Standardize(x.data(), mean.data(), inv.data(), d, a.data());
    rfk::ScalarKernels().Standardize(x.data(), mean.data(), inv.data(), d, b.data());
    t.Standardize(inplace.data(), mean.data(), inv.data(), d, inplace.data());
    CHECK(a == b);  // same operations per element: exact
    CHECK(inplace == b);
  }
}

// Normal values scaled by 2^k, k uniform in [-20, 20]: sums of such values round differently in
// almost any other order, so a stage or butterfly out of FwhtRef's order changes bits.
std::vector<float> MixedMagnitudes(std::size_t n, std::uint64_t seed) {
  rfk::host::RandomStream rs(seed, n);
  std::vector<float> v(n);
  for (float& x : v) {
    const int k = static_cast<int>(rs.Uniform() * 41) - 20;
    x = static_cast<float>(std::ldexp(rs.Normal(), k));
  }
  return v;
}

// Every power-of-two length 1 .. 2^12 (the lengths Fastfood pads d to): identical bits to the
// scalar table on mixed magnitudes, and on normal values, whose transform applied twice is n x.
void ParityFwht(const KernelTable& t) {
  for (std::uint32_t n = 1; n <= 4096; n *= 2) {
    CAPTURE(n);
    const auto mixed = MixedMagnitudes(n, 22);
    std::vector<float> a = mixed, b = mixed;
    t.Fwht(a.data(), n);
    rfk::FwhtRef(b.data(), n);
    CHECK(std::memcmp(a.data(), b.data(), n * sizeof(float)) == 0);
    const auto x = Normal(n, 3, 21);
    a = x;
    b = x;
    t.Fwht(a.data(), n);
    rfk::ScalarKernels().Fwht(b.data(), n);
    CHECK(std::memcmp(a.data(), b.data(), n * sizeof(float)) == 0);
    rfk::FwhtRef(b.data(), n);  // H H = n I: the transform applied twice is n x, within rounding
    for (std::uint32_t i = 0; i < n; ++i) CHECK(std::fabs(b[i] / float(n) - x[i]) <= 1e-5f * std::sqrt(float(n)) * 12);
  }
}

// Projections with arguments of every size: ordinary, past the vector fast range (scalar
// fallback lanes), and past kSinCosMaxArg (NaN in both). The batch kernels end in the head:
// they are checked on its outputs for 13 samples (a full group of the largest tile, smaller
// groups, and a single sample left over) and K = 1 and 3 outputs.
void ParityFourier(const KernelTable& t, bool phase, bool batch) {
  constexpr std::uint32_t kN = 13;
  for (const Shape& s : kShapes) {
    for (double wscale : {0.3, 3e4, 3e8}) {
      CAPTURE(s.d);
      CAPTURE(s.F);
      CAPTURE(wscale);
      const std::uint32_t n = batch ? kN : 1, D = phase ? s.F : 2 * s.F;
      const auto W = Normal(std::size_t{s.F} * s.d, wscale / std::sqrt(double(s.d)), 4);
      const auto Wp = Panels(W, s.F, s.d);
      const auto b = Normal(s.F, 1, 5);
      const auto X = Normal(std::size_t{n} * s.d, 1, 6);
      const float scale = 0.7f;
      // The oracle's features depend on the case only, not on the table: computed once per case
      // (under emulation the reference is most of this test's time).
      static std::map<std::tuple<std::uint32_t, std::uint32_t, double, bool, bool>, std::vector<float>> oracle;
      std::vector<float>& want = oracle[{s.d, s.F, wscale, phase, batch}];
      if (want.empty()) {
        want.resize(std::size_t{n} * D);
        for (std::uint32_t i = 0; i < n; ++i) {
          if (phase)
            rfk::FourierPhaseRef(W.data(), b.data(), X.data() + i * s.d, s.F, s.d, scale, want.data() + i * D);
          else
            rfk::FourierPairRef(W.data(), X.data() + i * s.d, s.F, s.d, scale, want.data() + i * D);
        }
      }
      if (!batch) {
        std::vector<float> got(D);
        if (phase) t.FourierPhase(Wp.data(), b.data(), X.data(), s.F, s.d, scale, got.data());
        else t.FourierPair(Wp.data(), X.data(), s.F, s.d, scale, got.data());
        // Summation order and fused multiply-adds move an argument of size A by ~A * d * 2^-24:
        // within the tolerance for ordinary arguments; for the huge ones only NaN-ness must agree.
        if (wscale < 1) Near(got, want, kFeatureTolerance);
        else
          for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::isnan(got[i]) == std::isnan(want[i]));
        continue;
      }
      for (std::uint32_t K : {1u, 3u}) {
        CAPTURE(K);
        const auto H = Normal(std::size_t{K} * D, 0.5, 14), bias = Normal(K, 1, 15);
        std::vector<float> acc(rfk::HeadBatchScratchFloats(n, K)), got(std::size_t{n} * K);
        if (phase)
          t.FourierPhaseHeadBatch(Wp.data(), b.data(), X.data(), n, s.F, s.d, scale, H.data(), bias.data(), K, acc.data(), got.data());
        else
          t.FourierPairHeadBatch(Wp.data(), X.data(), n, s.F, s.d, scale, H.data(), bias.data(), K, acc.data(), got.data());
        for (std::uint32_t i = 0; i < n; ++i) {
          for (std::uint32_t k = 0; k < K; ++k) {
            float ref;
            rfk::LinearHeadRef(H.data() + std::size_t{k} * D, bias.data() + k, want.data() + std::size_t{i} * D, 1, D, &ref);
            const float g = got[std::size_t{i} * K + k];
            if (wscale > 1 || std::isnan(ref)) {
              CHECK(std::isnan(g) == std::isnan(ref));
              continue;
            }
            // Each feature within 1e-5 (as above), each term weighted by its head weight.
            double mass = 0;
            for (std::uint32_t j = 0; j < D; ++j)
              mass += std::fabs(double(H[std::size_t{k} * D + j]));
            CHECK(std::fabs(double(g) - ref) <= kFeatureTolerance * std::max(1.0, mass));
          }
        }
      }
    }
  }
}
void ParityFourierPhase(const KernelTable& t) { ParityFourier(t, true, false); }
void ParityFourierPair(const KernelTable& t) { ParityFourier(t, false, false); }
void ParityFourierPhaseHeadBatch(const KernelTable& t) { ParityFourier(t, true, true); }
void ParityFourierPairHeadBatch(const KernelTable& t) { ParityFourier(t, false, true); }

// The scalar table's head against the sum written out: from the bias, in j order, a pair's second
// half term right after the first's (kernels.hpp: LinearHeadQuantRef), bit for bit.
std::vector<float> SequentialHead(const std::vector<float>& H, std::uint32_t stride, std::uint32_t pair,
                                  const std::vector<float>& bias, const std::vector<float>& z, std::uint32_t K,
                                  std::uint32_t D) {
  std::vector<float> out(bias.begin(), bias.begin() + K);
  for (std::uint32_t k = 0; k < K; ++k)
    for (std::uint32_t j = 0; j < D; ++j) {
      out[k] += H[std::size_t{k} * stride + j] * z[j];
      if (pair != 0) out[k] += H[std::size_t{k} * stride + pair + j] * z[D + j];
    }
  return out;
}

void ParityLinearHead(const KernelTable& t) {
  for (std::uint32_t K : {1u, 3u, 10u}) {
    for (std::uint32_t D : {1u, 37u, 500u, 2000u}) {
      for (std::uint32_t pair : {0u, D + 3}) {  // a pair block: the sines' columns D + 3 after
        CAPTURE(pair);
        const std::uint32_t stride = 2 * D + 8;
        const auto H = Normal(std::size_t{K} * stride, 0.1, 7), z = Normal(2 * D, 0.05, 8), bias = Normal(K, 1, 9);
        std::vector<float> a(K), b(K);
        t.LinearHead(H.data(), stride, pair, bias.data(), z.data(), K, D, a.data());
        rfk::ScalarKernels().LinearHead(H.data(), stride, pair, bias.data(), z.data(), K, D, b.data());
        Near(a, b, kFeatureTolerance);
        const std::vector<float> want = SequentialHead(H, stride, pair, bias, z, K, D);
        CHECK(std::memcmp(b.data(), want.data(), 4 * K) == 0);
        // bias may be out (Predict adds its blocks so): the same bits as a separate bias.
        std::vector<float> in_place = bias;
        t.LinearHead(H.data(), stride, pair, in_place.data(), z.data(), K, D, in_place.data());
        CHECK(std::memcmp(in_place.data(), a.data(), 4 * K) == 0);
      }
    }
  }
}

// Quantized weights as a model stores them: `rows` x `cols` elements (W: panels when `panels`,
// F_s rows; the head: row-major), f16 as binary16 bits of normal values ~ N(0, sd^2) (truncated:
// any finite pattern will do, the kernels widen what is stored), int8 as q in [-127, 127] with a
// positive scale per row.
struct QuantWeights {
  std::vector<std::uint16_t> half;
  std::vector<std::int8_t> q;
  std::vector<float> scale;
  rfk::WeightsView View(rfk::WeightType type) const {
    rfk::WeightsView v;
    v.type = type;
    v.data = type == rfk::WeightType::kInt8 ? static_cast<const void*>(q.data()) : static_cast<const void*>(half.data());
    v.scale = scale.data();
    return v;
  }
};
QuantWeights Quantized(std::size_t rows, std::size_t cols, double sd, std::uint64_t seed) {
  rfk::host::RandomStream rs(seed, rows * cols);
  QuantWeights w;
  w.half.resize(rows * cols);
  w.q.resize(rows * cols);
  w.scale.resize(rows);
  for (std::size_t i = 0; i < rows * cols; ++i) {
    const float f = static_cast<float>(sd * rs.Normal());
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    const std::uint32_t exp = (bits >> 23) & 0xFFu;
    w.half[i] = exp > 112 && exp < 143
                    ? static_cast<std::uint16_t>(((bits >> 16) & 0x8000u) | ((exp - 112) << 10) | ((bits >> 13) & 0x3FFu))
                    : std::uint16_t{0};
    w.q[i] = static_cast<std::int8_t>(std::max(-127.0, std::min(127.0, std::round(40 * rs.Normal()))));
  }
  for (float& v : w.scale) v = static_cast<float>(sd * (0.5 + rs.Uniform()) / 40);
  return w;
}

// StandardizeF16: every table against the scalar table and against StandardizeRef on the widened
// vectors (bit for bit), with subnormal, zero, signed-zero and largest-finite halves among the
// normal ones; in place (out = x) too.
void ParityStandardizeF16(const KernelTable& t) {
  for (std::uint32_t d : {1u, 7u, 54u, 123u, 784u}) {
    QuantWeights h = Quantized(2, d, 2.0, 34);
    const std::uint16_t special[] = {0x0001u, 0x03FFu, 0x0000u, 0x8000u, 0x7BFFu, 0x8401u, 0x0400u};
    for (std::uint32_t i = 0; i < 2 * d; i += 3) h.half[i] = special[(i / 3) % 7];
    const auto x = Normal(d, 3, 35);
    std::vector<float> mean(d), inv(d), want(d), a(d), b(d), inplace = x;
    for (std::uint32_t c = 0; c < d; ++c) {
      mean[c] = rfk::HalfToFloat(h.half[c]);
      inv[c] = rfk::HalfToFloat(h.half[d + c]);
    }
    rfk::StandardizeRef(x.data(), mean.data(), inv.data(), d, want.data());
    t.StandardizeF16(x.data(), h.half.data(), h.half.data() + d, d, a.data());
    rfk::ScalarKernels().StandardizeF16(x.data(), h.half.data(), h.half.data() + d, d, b.data());
    t.StandardizeF16(inplace.data(), h.half.data(), h.half.data() + d, d, inplace.data());
    CAPTURE(d);
    CHECK(std::memcmp(a.data(), want.data(), 4 * d) == 0);
    CHECK(std::memcmp(b.data(), want.data(), 4 * d) == 0);
    CHECK(std::memcmp(inplace.data(), want.data(), 4 * d) == 0);
  }
}

// FourierQuant: every table against the scalar reference, f16 and int8, panels and row-major,
// both forms, on the shapes above (F not a multiple of the panel width included).
void ParityFourierQuant(const KernelTable& t) {
  for (const Shape& s : kShapes) {
    for (bool panels : {true, false}) {
      const std::uint32_t Fs = panels ? rfk::format::StoredFrequencies(rfk::format::Layout::kPanels, s.F) : s.F;
      const QuantWeights W = Quantized(Fs, s.d, 1 / std::sqrt(double(s.d)), 31);
      const auto b = Normal(s.F, 1, 32), x = Normal(s.d, 1, 33);
      for (rfk::WeightType type : {rfk::WeightType::kF16, rfk::WeightType::kInt8}) {
        for (bool phase : {true, false}) {
          CAPTURE(s.d);
          CAPTURE(s.F);
          CAPTURE(panels);
          CAPTURE(static_cast<int>(type));
          CAPTURE(phase);
          const std::uint32_t D = phase ? s.F : 2 * s.F;
          std::vector<float> got(D), want(D);
          t.FourierQuant(W.View(type), panels, phase ? b.data() : nullptr, x.data(), s.F, s.d, 0.7f, got.data());
          if (phase) rfk::FourierPhaseQuantRef(W.View(type), panels, b.data(), x.data(), s.F, s.d, 0.7f, want.data());
          else rfk::FourierPairQuantRef(W.View(type), panels, x.data(), s.F, s.d, 0.7f, want.data());
          Near(got, want, kFeatureTolerance);
        }
      }
    }
  }
}

// f16-scaled heads: per-output scales as rfk writes them (powers of two, 2^-6 .. 2^17: real weights
// up to about 2^33, as a regression head past f16's range), checked within the head tolerance
// relative to the row's sum_j |scale_k h_kj| (kernels.hpp), and the scalar oracle against
// LinearHeadRef on the widened, scaled f32 weights bit for bit (a power of two commutes with rounding).
void ParityF16ScaledHead(const KernelTable& t, std::uint32_t K, std::uint32_t D, QuantWeights H,
                         const std::vector<float>& z, const std::vector<float>& bias) {
  const std::uint32_t stride = D + 5;
  for (std::uint32_t k = 0; k < K; ++k) H.scale[k] = std::ldexp(1.0f, int(k * 23 / 9) - 6);
  const rfk::WeightsView view = H.View(rfk::WeightType::kF16Scaled);
  std::vector<float> a(K), b(K), widened(std::size_t{K} * D), c(K);
  t.LinearHeadQuant(view, stride, 0, bias.data(), z.data(), K, D, a.data());
  rfk::LinearHeadQuantRef(view, stride, 0, bias.data(), z.data(), K, D, b.data());
  for (std::uint32_t k = 0; k < K; ++k) {
    double mass = 0;
    for (std::uint32_t j = 0; j < D; ++j) {
      widened[std::size_t{k} * D + j] = rfk::WeightAt(view, std::size_t{k} * stride + j, k);
      mass += std::fabs(widened[std::size_t{k} * D + j]);
    }
    CAPTURE(k);
    CHECK(std::fabs(double(a[k]) - b[k]) <= kFeatureTolerance * std::max(1.0, mass));
  }
  rfk::LinearHeadRef(widened.data(), bias.data(), z.data(), K, D, c.data());
  CHECK(std::memcmp(b.data(), c.data(), 4 * K) == 0);
}

void ParityLinearHeadQuant(const KernelTable& t) {
  for (std::uint32_t K : {1u, 3u, 10u}) {
    for (std::uint32_t D : {1u, 37u, 500u, 2000u}) {
      const std::uint32_t stride = 2 * D + 5;  // room for a pair block's second half
      const QuantWeights H = Quantized(K, stride, 0.1, 34);
      const auto z = Normal(D, 0.05, 35), bias = Normal(K, 1, 36);
      CAPTURE(K);
      CAPTURE(D);
      for (rfk::WeightType type : {rfk::WeightType::kF16, rfk::WeightType::kInt8}) {
        CAPTURE(static_cast<int>(type));
        std::vector<float> a(K), b(K);
        t.LinearHeadQuant(H.View(type), stride, 0, bias.data(), z.data(), K, D, a.data());
        rfk::LinearHeadQuantRef(H.View(type), stride, 0, bias.data(), z.data(), K, D, b.data());
        Near(a, b, kFeatureTolerance);
        std::vector<float> in_place = bias;  // bias may be out, as for LinearHead
        t.LinearHeadQuant(H.View(type), stride, 0, in_place.data(), z.data(), K, D, in_place.data());
        CHECK(std::memcmp(in_place.data(), a.data(), 4 * K) == 0);
        // A pair block (the second half's columns `pair` after, against z[D, 2D)): the reference is
        // LinearHeadRef's order on the widened weights, written out.
        {
          const std::uint32_t pair = D + 1;
          const auto z2 = Normal(2 * D, 0.05, 37);
          std::vector<float> widened(std::size_t{K} * stride), pa(K), pb(K);
          for (std::size_t i = 0; i < widened.size(); ++i)
            widened[i] = rfk::WeightAt(H.View(type), i, i / stride);
          t.LinearHeadQuant(H.View(type), stride, pair, bias.data(), z2.data(), K, D, pa.data());
          rfk::LinearHeadQuantRef(H.View(type), stride, pair, bias.data(), z2.data(), K, D, pb.data());
          Near(pa, pb, kFeatureTolerance);
          const std::vector<float> want = SequentialHead(widened, stride, pair, bias, z2, K, D);
          CHECK(std::memcmp(pb.data(), want.data(), 4 * K) == 0);
        }
      }
      ParityF16ScaledHead(t, K, D, H, z, bias);
    }
  }
}

void ParityBinKeys(const KernelTable& t) {
  for (std::uint32_t d : {1u, 7u, 54u, 130u}) {
    const std::uint32_t P = 9;
    auto iw = Normal(std::size_t{P} * d, 2, 10);
    for (float& v : iw) v = std::fabs(v) + 0.01f;
    const auto off = Normal(std::size_t{P} * d, 1, 11);
    for (double xs : {1.0, 1e9}) {  // 1e9: bins clamped at +-2^30
      const auto x = Normal(d, xs, 12);
      std::vector<std::uint64_t> a(P), b(P);
      t.BinKeys(iw.data(), off.data(), x.data(), P, d, 77, a.data());
      rfk::BinKeysRef(iw.data(), off.data(), x.data(), P, d, 77, b.data());
      CHECK(a == b);
    }
  }
}

// Fastfood's diagonals in every storage a diagonal may have (and f16-scaled, which the contract
// covers), at lengths around every vector width and offsets into the matrix: bit for bit the
// scalar kernel's, and the contract's u[i] = WeightAt(D, first + i, row) * u[i].
void ParityScaleByDiagonal(const KernelTable& t) {
  std::uint32_t state = 12345u;
  const auto next = [&state] { return state = state * 1664525u + 1013904223u; };
  const std::size_t total = 2048;
  std::vector<float> f32 = MixedMagnitudes(total, 31);
  std::vector<std::int8_t> q(total);
  std::vector<std::uint16_t> h(total);
  for (std::size_t i = 0; i < total; ++i) {
    q[i] = static_cast<std::int8_t>(static_cast<int>(next() >> 24) % 255 - 127);  // -127 .. 127
    std::uint16_t v = static_cast<std::uint16_t>(next() >> 16);
    if ((v & 0x7C00u) == 0x7C00u) v = static_cast<std::uint16_t>(v & 0xBBFFu);  // finite, subnormals kept
    h[i] = v;
  }
  const float scales[2] = {0.0123f, 3.5f};
  using rfk::WeightType;
  for (const WeightType type : {WeightType::kF32, WeightType::kF16, WeightType::kInt8, WeightType::kF16Scaled}) {
    const void* data = type == WeightType::kF32 ? static_cast<const void*>(f32.data())
                       : type == WeightType::kInt8 ? static_cast<const void*>(q.data())
                                                  : static_cast<const void*>(h.data());
    const rfk::WeightsView D{type, data, scales};
    for (std::uint32_t n : {1u, 3u, 7u, 16u, 17u, 64u, 100u, 1024u})
      for (std::uint32_t first : {0u, 5u}) {
        CAPTURE(static_cast<int>(type));
        CAPTURE(n);
        CAPTURE(first);
        const std::uint32_t row = first == 0 ? 0 : 1;
        const auto u0 = MixedMagnitudes(n, 32 + n);
        std::vector<float> a = u0, b = u0, c = u0;
        t.ScaleByDiagonal(D, row, first, n, a.data());
        rfk::ScalarKernels().ScaleByDiagonal(D, row, first, n, b.data());
        for (std::uint32_t i = 0; i < n; ++i) c[i] = rfk::WeightAt(D, std::uint64_t{first} + i, row) * c[i];
        CHECK(std::memcmp(a.data(), b.data(), n * sizeof(float)) == 0);
        CHECK(std::memcmp(b.data(), c.data(), n * sizeof(float)) == 0);
      }
  }
}

// Fastfood's B at every block length a map may have (d' = 1 .. 1024, blocks starting inside a
// byte where d' < 8), x shorter than the block or as long, in place and not: bit for bit the
// scalar kernel's, and the contract's t[i] = -v where bit first + i is set, v otherwise (the
// padding's zeros included: -0.0f).
void ParityApplySigns(const KernelTable& t) {
  std::vector<std::uint8_t> signs(512);
  std::uint32_t state = 777u;
  for (auto& b : signs) b = static_cast<std::uint8_t>((state = state * 1664525u + 1013904223u) >> 24);
  for (std::uint32_t dp = 1; dp <= 1024; dp *= 2)
    for (std::uint32_t block : {0u, 1u, 3u}) {
      const std::uint32_t first = block * dp;
      for (std::uint32_t n : {dp, dp - dp / 3, dp / 2 + 1, 0u}) {
        CAPTURE(dp);
        CAPTURE(first);
        CAPTURE(n);
        const auto x = MixedMagnitudes(dp, 40 + n);  // x[n .. dp) is not read
        std::vector<float> a(dp, 7.0f), b(dp, 7.0f), c = x, want(dp);
        t.ApplySigns(signs.data(), first, x.data(), n, dp, a.data());
        rfk::ScalarKernels().ApplySigns(signs.data(), first, x.data(), n, dp, b.data());
        t.ApplySigns(signs.data(), first, c.data(), n, dp, c.data());  // in place
        for (std::uint32_t i = 0; i < dp; ++i) {
          const float v = i < n ? x[i] : 0.0f;
          want[i] = (signs[(first + i) / 8] >> ((first + i) % 8)) & 1u ? -v : v;
        }
        CHECK(std::memcmp(a.data(), b.data(), dp * sizeof(float)) == 0);
        CHECK(std::memcmp(b.data(), want.data(), dp * sizeof(float)) == 0);
        CHECK(std::memcmp(c.data(), want.data(), dp * sizeof(float)) == 0);
      }
    }
}

// n sin/cos arguments spread over (-limit, limit), the frequencies of a d = 1 map.
std::vector<float> Arguments(std::uint32_t n, double limit, std::uint64_t seed) {
  auto w = Normal(n, 1, seed);
  for (float& v : w) v = static_cast<float>(std::fmod(double(v) * 1e4, 1.0) * limit);
  return w;
}

}  // namespace

TEST_CASE("every compiled and supported kernel table matches the scalar oracle") {
  REQUIRE(rfk::KernelTableCount() >= 1);
  REQUIRE(std::string(rfk::KernelTableAt(rfk::KernelTableCount() - 1)->backend) == "scalar");
  // Plain calls, not SUBCASEs: doctest would run a same-named SUBCASE for the first table only.
  std::size_t checked = 0;
  for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
    const KernelTable& t = *rfk::KernelTableAt(i);
    const std::string name = std::string(t.backend) + "-" + t.target;
    MESSAGE("kernel table " << name);
    CAPTURE(name);
#define RFK_PARITY(kernel, params)           \
  {                                          \
    const std::string kernel_name = #kernel; \
    CAPTURE(kernel_name);                    \
    Parity##kernel(t);                       \
    ++checked;                               \
  }
    RFK_KERNEL_LIST(RFK_PARITY)
#undef RFK_PARITY
  }
  constexpr std::size_t kKernels = 0
#define RFK_COUNT(kernel, params) +1
      RFK_KERNEL_LIST(RFK_COUNT)
#undef RFK_COUNT
      ;
  CHECK(checked == kKernels * rfk::KernelTableCount());
}

TEST_CASE("SelectKernels switches tables by name and refuses unknown names") {
  const KernelTable& best = *rfk::KernelTableAt(0);
  CHECK(rfk::SelectKernels("scalar"));
  CHECK(std::string(rfk::ActiveKernels().backend) == "scalar");
  CHECK_FALSE(rfk::SelectKernels("no-such-target"));
  CHECK(std::string(rfk::ActiveKernels().backend) == "scalar");  // unchanged
  CHECK_FALSE(rfk::SelectKernels(nullptr));
  const std::string full = std::string(best.backend) + "-" + best.target;
  CHECK(rfk::SelectKernels(full.c_str()));
  CHECK(&rfk::ActiveKernels() == &best);
}

TEST_CASE("every table's sin and cos are within 1.2e-7 of double precision up to kSinCosMaxArg") {
  // FourierPair with d = 1, x = [1], scale 1: frequency j's row is [w_j], so the features are
  // cos(w_j) and sin(w_j) themselves (w_j * 1 is exact).
  const std::uint32_t F = 20000;
  const float x = 1.0f;
  for (double limit : {10.0, 1e3, 1e5, 1e6, 1e9}) {
    CAPTURE(limit);
    const auto w = Arguments(F, limit, 13);
    const auto Wp = Panels(w, F, 1);
    for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
      const KernelTable& t = *rfk::KernelTableAt(i);
      const std::string name = std::string(t.backend) + "-" + t.target;
      CAPTURE(name);
      std::vector<float> z(2 * F);
      t.FourierPair(Wp.data(), &x, F, 1, 1.0f, z.data());
      double worst_cos = 0, worst_sin = 0;
      for (std::uint32_t j = 0; j < F; ++j) {
        worst_cos = std::max(worst_cos, std::fabs(z[j] - std::cos(double(w[j]))));
        worst_sin = std::max(worst_sin, std::fabs(z[F + j] - std::sin(double(w[j]))));
      }
      MESSAGE(name << " |x| < " << limit << ": cos " << worst_cos << ", sin " << worst_sin);
      CHECK(worst_cos <= 1.2e-7);
      CHECK(worst_sin <= 1.2e-7);
    }
  }
}

TEST_CASE("every table's batch kernels: sin and cos within 1.6e-7 up to kSinCosMaxArg, through an identity head") {
  // d = 1 and every input x = [1]: the phases are the frequencies themselves (b = 0), so with
  // H = I (K = D outputs), bias 0 and scale 1 each output is one feature, exactly: its head sum
  // has a single nonzero term. n = 7 samples: a full group of the widest tile and one left over.
  // The arguments mix lanes within and beyond the vector fast range (FeaturesIntoHead checks a
  // row of vectors at once: a row with one large lane must still be right in every lane).
  const std::uint32_t F = 512, n = 7;
  const std::vector<float> X(n, 1.0f), b(F, 0.0f);
  for (const bool phase : {true, false}) {
    const std::uint32_t D = phase ? F : 2 * F, K = D;
    std::vector<float> H(std::size_t{K} * D, 0.0f), bias(K, 0.0f);
    for (std::uint32_t k = 0; k < K; ++k) H[std::size_t{k} * D + k] = 1.0f;
    for (double limit : {10.0, 1e3, 1e5, 1e6, 1e9}) {
      CAPTURE(phase);
      CAPTURE(limit);
      const auto w = Arguments(F, limit, 16);
      const auto Wp = Panels(w, F, 1);
      for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
        const KernelTable& t = *rfk::KernelTableAt(i);
        const std::string name = std::string(phase ? "phase " : "pair ") + t.backend + "-" + t.target;
        CAPTURE(name);
        std::vector<float> acc(rfk::HeadBatchScratchFloats(n, K)), out(std::size_t{n} * K);
        if (phase)
          t.FourierPhaseHeadBatch(Wp.data(), b.data(), X.data(), n, F, 1, 1.0f, H.data(), bias.data(), K, acc.data(), out.data());
        else
          t.FourierPairHeadBatch(Wp.data(), X.data(), n, F, 1, 1.0f, H.data(), bias.data(), K, acc.data(), out.data());
        double worst = 0;
        for (std::uint32_t s = 0; s < n; ++s)
          for (std::uint32_t j = 0; j < F; ++j) {
            const float* o = out.data() + std::size_t{s} * K;
            worst = std::max(worst, std::fabs(o[j] - std::cos(double(w[j]))));
            if (!phase) worst = std::max(worst, std::fabs(o[F + j] - std::sin(double(w[j]))));
          }
        MESSAGE(name << " |x| < " << limit << ": " << worst);
        CHECK(worst <= 1.6e-7);
      }
    }
  }
}
