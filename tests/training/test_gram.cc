// The Gram statistics through BLAS (lib/host/training/gram.h): float within a block, double across blocks,
// the same bits for any thread count, weights as documented, head outputs through DGEMM; the
// kernel matrix and the dual ridge solve that selection uses on fewer rows than features.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "training/gram.h"
#include "training/solver.h"
#include "rfk/host/train.hpp"

namespace {

using rfk::host::GramAccumulator;
using rfk::host::kGramRows;
using rfk::host::RidgeStats;

// Feature-like rows: values of size 1/sqrt(D), as cos/sin features are.
std::vector<float> Features(std::size_t n, std::uint32_t D) {
  std::vector<float> Z(n * D);
  const double scale = 1.0 / std::sqrt(double(D));
  for (std::size_t i = 0; i < Z.size(); ++i)
    Z[i] = static_cast<float>(scale * std::cos(0.0137 * double(i) + std::sin(0.71 * double(i % 977))));
  return Z;
}

std::vector<double> PlusMinus(std::size_t n, std::uint32_t K) {
  std::vector<double> Y(n * K);
  for (std::size_t i = 0; i < Y.size(); ++i) Y[i] = std::sin(1.3 * double(i)) > 0 ? 1.0 : -1.0;
  return Y;
}

// The statistics of all n rows, block by block as the designs feed them.
RidgeStats Accumulate(const std::vector<float>& Z, const std::vector<double>& Y, const std::vector<double>& w,
                      std::size_t n, std::uint32_t D, std::uint32_t K, unsigned threads) {
  RidgeStats st(D, K);
  GramAccumulator gram(D, K, threads);
  for (std::size_t b = 0; b < n; b += kGramRows) {
    const std::size_t R = std::min(kGramRows, n - b);
    gram.Add(Z.data() + b * D, R, Y.data() + b * K, w.empty() ? nullptr : w.data() + b, &st);
  }
  return st;
}

}  // namespace

TEST_CASE("Gram statistics: close to an all-double reference, and the same bits for any thread count") {
  // Three blocks (the last partial) and three tiles per side (the last partial).
  const std::size_t n = 2 * kGramRows + 403;
  const std::uint32_t D = 2 * rfk::host::kGramTile + 77, K = 3;
  const std::vector<float> Z = Features(n, D);
  const std::vector<double> Y = PlusMinus(n, K);
  const RidgeStats one = Accumulate(Z, Y, {}, n, D, K, 1);
  for (unsigned threads : {2u, 3u, 8u}) {
    const RidgeStats st = Accumulate(Z, Y, {}, n, D, K, threads);
    CHECK(st.G == one.G);
    CHECK(st.h == one.h);
    CHECK(st.s == one.s);
    CHECK(st.ysum == one.ysum);
    CHECK(st.n == one.n);
  }
  CHECK(one.n == double(n));
  // Double reference, rows in order. G: float sums within a block of kGramRows rows, relative to
  // the diagonal's scale; h and s: double throughout.
  double worst_g = 0, worst_h = 0, scale = 0;
  std::vector<double> g(D);
  for (std::uint32_t i = 0; i < D; i += 37) {
    std::fill(g.begin(), g.end(), 0.0);
    double s = 0;
    std::vector<double> h(K, 0.0);
    for (std::size_t r = 0; r < n; ++r) {
      const double zi = Z[r * D + i];
      for (std::uint32_t j = i; j < D; ++j) g[j] += zi * double(Z[r * D + j]);
      s += zi;
      for (std::uint32_t k = 0; k < K; ++k) h[k] += zi * Y[r * K + k];
    }
    scale = std::max(scale, g[i]);
    for (std::uint32_t j = i; j < D; ++j) worst_g = std::max(worst_g, std::fabs(one.G[std::size_t{i} * D + j] - g[j]));
    for (std::uint32_t k = 0; k < K; ++k)
      worst_h = std::max(worst_h, std::fabs(one.h[std::size_t{i} * K + k] - h[k]) / (std::fabs(h[k]) + 1));
    CHECK(one.s[i] == doctest::Approx(s).epsilon(1e-12));
  }
  MESSAGE("largest |G - G_double| / max diag: " << worst_g / scale);
  CHECK(worst_g / scale < 2e-6);
  CHECK(worst_h < 1e-12);
}

TEST_CASE("Gram statistics: a weight is a repeat count, and zero-weight rows add nothing") {
  const std::uint32_t D = 40, K = 2;
  const std::size_t n = 300;
  const std::vector<float> Z = Features(n, D);
  const std::vector<double> Y = PlusMinus(n, K);
  std::vector<double> w(n);
  std::vector<float> Zr;
  std::vector<double> Yr;
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = double(i % 3);  // 0, 1 or 2 copies
    for (int c = 0; c < int(w[i]); ++c) {
      Zr.insert(Zr.end(), Z.begin() + i * D, Z.begin() + (i + 1) * D);
      Yr.insert(Yr.end(), Y.begin() + i * K, Y.begin() + (i + 1) * K);
    }
  }
  const std::size_t nr = Zr.size() / D;
  const RidgeStats weighted = Accumulate(Z, Y, w, n, D, K, 2), repeated = Accumulate(Zr, Yr, {}, nr, D, K, 2);
  CHECK(weighted.n == double(nr));
  for (std::size_t i = 0; i < D; ++i) {
    for (std::size_t j = i; j < D; ++j)
      CHECK(weighted.G[i * D + j] == doctest::Approx(repeated.G[i * D + j]).epsilon(1e-5).scale(1e-3));
    CHECK(weighted.s[i] == doctest::Approx(repeated.s[i]).epsilon(1e-12));
    for (std::uint32_t k = 0; k < K; ++k)
      CHECK(weighted.h[i * K + k] == doctest::Approx(repeated.h[i * K + k]).epsilon(1e-12));
  }
  for (std::uint32_t k = 0; k < K; ++k) CHECK(weighted.ysum[k] == repeated.ysum[k]);
}

TEST_CASE("HeadOutputs: bias + Z W in double, the same bits for any thread count") {
  const std::uint32_t D = 150, LK = 7;
  const std::size_t R = 301;  // several chunks of rows, the last partial
  const std::vector<float> Z = Features(R, D);
  std::vector<double> W(std::size_t{D} * LK), bias(LK);
  for (std::size_t i = 0; i < W.size(); ++i) W[i] = std::sin(0.3 * double(i));
  for (std::size_t k = 0; k < LK; ++k) bias[k] = 0.1 * double(k);
  std::vector<double> one(R * LK), three(R * LK);
  rfk::host::HeadOutputs(Z.data(), R, D, W, bias, 1, one.data());
  rfk::host::HeadOutputs(Z.data(), R, D, W, bias, 3, three.data());
  CHECK(one == three);
  for (std::size_t r = 0; r < R; r += 13)
    for (std::size_t k = 0; k < LK; ++k) {
      double ref = bias[k];
      for (std::uint32_t i = 0; i < D; ++i) ref += double(Z[r * D + i]) * W[i * LK + k];
      CHECK(one[r * LK + k] == doctest::Approx(ref).epsilon(1e-12));
    }
}

TEST_CASE("BetterBlasCoreFor: a vector core only in place of OpenBLAS's generic fallbacks") {
  using rfk::host::BetterBlasCoreFor;
  // Debian 12's OpenBLAS 0.3.21 on an Emerald Rapids Xeon (AVX-512): Prescott, 2.2x slower.
  CHECK(BetterBlasCoreFor("Prescott", true, true, true) == "SkylakeX");
  CHECK(BetterBlasCoreFor("Nehalem", false, true, true) == "Haswell");
  CHECK(BetterBlasCoreFor("Core2", false, false, true) == "Sandybridge");
  CHECK(BetterBlasCoreFor("Prescott", false, false, false).empty());  // no vector unit to use
  // OpenBLAS's own vector choices stand, even where another might be as good.
  for (const char* known : {"Haswell", "SkylakeX", "Cooperlake", "SapphireRapids", "Zen", "Sandybridge"})
    CHECK(BetterBlasCoreFor(known, true, true, true).empty());
}

TEST_CASE("BlasDescription names OpenBLAS's version and kernels") {
  const std::string d = rfk::host::BlasDescription();
  CHECK(d.rfind("OpenBLAS ", 0) == 0);
  CHECK(d.find(" kernels") != std::string::npos);
}

TEST_CASE("KernelMatrix: Z Z' in double, symmetric, the same bits for any thread count") {
  const std::size_t n = 150;
  const std::uint32_t D = 90;
  const std::vector<float> Z = Features(n, D);
  const std::vector<double> K1 = rfk::host::KernelMatrix(Z.data(), n, D, 1);
  CHECK(rfk::host::KernelMatrix(Z.data(), n, D, 3) == K1);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double ref = 0;
      for (std::uint32_t t = 0; t < D; ++t) ref += double(Z[i * D + t]) * double(Z[j * D + t]);
      worst = std::max(worst, std::fabs(K1[i * n + j] - ref));
      REQUIRE(K1[i * n + j] == K1[j * n + i]);
    }
  CHECK(worst < 1e-14);
}

TEST_CASE("DualHeldOutOutputs: each fold's held-out outputs are the primal ridge head's, with weights") {
  // Fewer rows than features, as where the dual is used; some rows weigh 0, others 2.5.
  const std::size_t n = 90, folds = 3;
  const std::uint32_t D = 160, K = 3;
  const std::vector<float> Z = Features(n, D);
  const std::vector<double> Y = PlusMinus(n, K);
  std::vector<double> w(n);
  std::vector<int> fold(n);
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = i % 7 == 0 ? 0.0 : i % 5 == 0 ? 2.5 : 1.0;
    fold[i] = static_cast<int>((i * 7) % folds);
  }
  const std::vector<double> lambdas = {1e-4, 1e-2, 1e-1};
  const std::vector<double> Kz = rfk::host::KernelMatrix(Z.data(), n, D, 2);
  const auto dual = rfk::host::DualHeldOutOutputs(Kz, n, Y, K, w, fold, folds, lambdas, 1);
  CHECK(rfk::host::DualHeldOutOutputs(Kz, n, Y, K, w, fold, folds, lambdas, 4) == dual);
  for (std::size_t f = 0; f < folds; ++f) {
    // The primal: the other folds' rows' statistics, all in double, SolveRidge, the held-out outputs.
    RidgeStats st(D, K);
    for (std::size_t i = 0; i < n; ++i) {
      if (fold[i] == static_cast<int>(f)) continue;
      const float* z = Z.data() + i * D;
      st.n += w[i];
      for (std::uint32_t a = 0; a < D; ++a) {
        st.s[a] += w[i] * z[a];
        for (std::uint32_t b = 0; b < D; ++b) st.G[a * D + b] += w[i] * double(z[a]) * z[b];
        for (std::uint32_t k = 0; k < K; ++k) st.h[a * K + k] += w[i] * z[a] * Y[i * K + k];
      }
      for (std::uint32_t k = 0; k < K; ++k) st.ysum[k] += w[i] * Y[i * K + k];
    }
    for (std::size_t l = 0; l < lambdas.size(); ++l) {
      const rfk::host::RidgeSolution h = rfk::host::SolveRidge(st, lambdas[l]);
      for (std::size_t i = 0; i < n; ++i) {
        if (fold[i] != static_cast<int>(f)) continue;
        for (std::uint32_t k = 0; k < K; ++k) {
          double o = h.bias[k];
          for (std::uint32_t t = 0; t < D; ++t) o += double(Z[i * D + t]) * h.W[t * K + k];
          CAPTURE(f);
          CAPTURE(lambdas[l]);
          CHECK(dual[l][i * K + k] == doctest::Approx(o).epsilon(1e-9).scale(1.0));
        }
      }
    }
  }
}

TEST_CASE("SolveRidgePath: every lambda's solution is SolveRidge's, bit for bit") {
  const std::size_t n = 700;
  const std::uint32_t D = 96, K = 5;
  const std::vector<float> Z = Features(n, D);
  const std::vector<double> Y = PlusMinus(n, K);
  const RidgeStats all = Accumulate(Z, Y, {}, n, D, K, 2);
  const RidgeStats part = Accumulate(Z, Y, {}, n / 3, D, K, 2);  // a held-out fold's
  const std::vector<double> lambdas = {1e-8, 1e-6, 1e-4, 1e-3, 1e-1};
  const auto path = rfk::host::SolveRidgePath(all, lambdas, 2, &part);
  REQUIRE(path.size() == lambdas.size());
  for (std::size_t l = 0; l < lambdas.size(); ++l) {
    const rfk::host::RidgeSolution one = rfk::host::SolveRidge(all, lambdas[l], 2, &part);
    CAPTURE(lambdas[l]);
    CHECK(path[l].W == one.W);
    CHECK(path[l].bias == one.bias);
  }
}

TEST_CASE("SubStats: the statistics of the chosen features are those of their columns alone") {
  const std::size_t n = 300;
  const std::uint32_t D = 40, K = 2;
  const std::vector<float> Z = Features(n, D);
  const std::vector<double> Y = PlusMinus(n, K);
  const std::vector<std::uint32_t> idx = {0, 1, 2, 3, 4, 20, 21, 22, 23, 24};  // half of a pair map's F = 20
  std::vector<float> Zs(n * idx.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < idx.size(); ++j) Zs[i * idx.size() + j] = Z[i * D + idx[j]];
  const RidgeStats sub = rfk::host::SubStats(Accumulate(Z, Y, {}, n, D, K, 1), idx);
  const RidgeStats direct = Accumulate(Zs, Y, {}, n, static_cast<std::uint32_t>(idx.size()), K, 1);
  REQUIRE(sub.D == idx.size());
  CHECK(sub.n == direct.n);
  CHECK(sub.ysum == direct.ysum);
  CHECK(sub.s == direct.s);
  CHECK(sub.h == direct.h);
  // G: the upper triangle the solver reads (a float tile's sums may group differently).
  for (std::size_t a = 0; a < idx.size(); ++a)
    for (std::size_t b = a; b < idx.size(); ++b)
      CHECK(sub.G[a * idx.size() + b] == doctest::Approx(direct.G[a * idx.size() + b]).epsilon(1e-6));
  const rfk::host::RidgeSolution x = rfk::host::SolveRidge(sub, 1e-3), y = rfk::host::SolveRidge(direct, 1e-3);
  for (std::size_t i = 0; i < x.W.size(); ++i) CHECK(x.W[i] == doctest::Approx(y.W[i]).epsilon(1e-6).scale(1e-6));
}
