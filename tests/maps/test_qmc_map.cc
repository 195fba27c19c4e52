// Quasi-Monte-Carlo features (lib/host/maps/qmc_map.cc): the scrambled Sobol points are a net (one
// point per interval in each coordinate, one per elementary box in the first two), uniform under
// the scrambling, a function of the seed alone (the thread count never matters, and a fixed seed's
// W has a fixed checksum); the normal quantile inverts the normal CDF; the map refuses the kernels
// it cannot approximate, approximates the Gaussian kernel with a lower error than dense pairs at
// equal D, and trains a model that opens with its map kind. The registry's contract tests
// (test_fourier_maps.cc) check its features against the core bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "maps/dense_map.h"
#include "kernel_mse.h"
#include "normal_rows.h"
#include "maps/random.h"
#include "maps/sobol.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace f = rfk::format;

TEST_CASE("qmc: 2^m scrambled Sobol points put one point in every 1/2^m of each coordinate") {
  const std::uint32_t m = 8, n = 1u << m, dims = 130;  // primitive polynomials up to degree 9
  const std::vector<std::uint32_t> u = rfk::host::ScrambledSobol(n, dims, 3, 1);
  REQUIRE(u.size() == std::size_t{n} * dims);
  CHECK(rfk::host::ScrambledSobol(n, dims, 3, 3) == u);
  CHECK(rfk::host::ScrambledSobol(n, dims, 4, 1) != u);
  for (std::uint32_t c = 0; c < dims; ++c) {
    std::set<std::uint32_t> cells;
    for (std::uint32_t i = 0; i < n; ++i) cells.insert(u[std::size_t{i} * dims + c] >> (32 - m));
    CAPTURE(c);
    CHECK(cells.size() == n);
  }
  // The first two coordinates are a (0, m, 2)-net: every box of 2^a x 2^(m-a) cells holds one point.
  for (std::uint32_t a = 0; a <= m; ++a) {
    std::set<std::uint64_t> boxes;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint64_t x = a == 0 ? 0 : u[std::size_t{i} * dims] >> (32 - a);
      const std::uint64_t y = a == m ? 0 : u[std::size_t{i} * dims + 1] >> (32 - (m - a));
      boxes.insert(x << 32 | y);
    }
    CAPTURE(a);
    CHECK(boxes.size() == n);
  }
}

TEST_CASE("qmc: the scrambling makes each point uniform (first point's mean and variance over seeds)") {
  // Unscrambled, point 0 is the origin in every coordinate; scrambled, each coordinate is U[0, 1):
  // mean 1/2 and variance 1/12 over 40 seeds x 50 coordinates (standard errors 0.0065, 0.0019).
  double mean = 0, m2 = 0;
  const int seeds = 40, dims = 50;
  for (int seed = 1; seed <= seeds; ++seed) {
    const std::vector<std::uint32_t> u = rfk::host::ScrambledSobol(1, dims, seed, 1);
    for (std::uint32_t x : u) {
      const double v = (x + 0.5) * 0x1.0p-32;
      mean += v / (seeds * dims);
      m2 += v * v / (seeds * dims);
    }
  }
  CHECK(mean == doctest::Approx(0.5).epsilon(0.06));
  CHECK(m2 - mean * mean == doctest::Approx(1.0 / 12).epsilon(0.1));
}

TEST_CASE("qmc: NormalQuantile is Phi^-1 within 1.2e-9 relative over the map's whole range, tails included") {
  // The map's u = (x + 1/2) / 2^32 reaches 2^-33 from either end. The reference: the same x refined
  // by Newton's method on the normal CDF (std::erfc), to double precision.
  for (double u : {0x1.0p-33, 1e-6, 1e-3, 0.01, 0.0242, 0.0243, 0.1, 0.3, 0.5 + 0x1.0p-20, 0.7, 0.9, 0.9757, 0.99,
                   1 - 0x1.0p-33}) {
    const double x = rfk::host::NormalQuantile(u);
    double ref = x;
    for (int i = 0; i < 3; ++i)
      ref -= (0.5 * std::erfc(-ref / std::sqrt(2.0)) - u) / (std::exp(-0.5 * ref * ref) / std::sqrt(2 * M_PI));
    CAPTURE(u);
    CAPTURE(x);
    CAPTURE(ref);
    CHECK(std::fabs(x - ref) <= 1.2e-9 * std::fabs(ref));
    CHECK(rfk::host::NormalQuantile(1 - u) == doctest::Approx(-x).epsilon(1e-9));
  }
  CHECK(rfk::host::NormalQuantile(0.5) == 0.0);
  for (double bad : {0.0, 1.0, -0.5, 2.0, std::nan("")}) CHECK(std::isnan(rfk::host::NormalQuantile(bad)));
}

TEST_CASE("qmc: a seed gives fixed W and phase bits (a checksum: changing points, scrambling or quantile breaks it)") {
  const auto spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, f::MapKind::kQmcPhase, 16, 5, 0.25, 7);
  REQUIRE(spec.projection.size() == 16u * 5u);
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a over the floats' bits, W then the phases
  auto add = [&hash](const std::vector<float>& v) {
    for (float x : v) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &x, 4);
      for (int k = 0; k < 4; ++k) hash = (hash ^ ((bits >> (8 * k)) & 0xFF)) * 0x100000001b3ull;
    }
  };
  add(spec.projection);
  add(spec.phase);
  CHECK(hash == 15464201040403858991ull);
}

TEST_CASE("qmc: kernels other than the gaussian are refused, naming the valid choices") {
  for (f::MapKind map : {f::MapKind::kQmc, f::MapKind::kQmcPhase})
    for (f::Kernel k : {f::Kernel::kLaplacian, f::Kernel::kCauchy})
      CHECK_THROWS_WITH_AS((void)rfk::host::DrawFourierMap(map, k, 16, 4, 1, 1),
                           doctest::Contains("gaussian kernel only"), rfk::host::TrainError);
  CHECK(rfk::host::ParseMap("qmc") == f::MapKind::kQmc);
  CHECK(rfk::host::ParseMap("qmc-phase") == f::MapKind::kQmcPhase);
}

TEST_CASE("qmc: the committed Sobol table is the search's output, whatever the thread count") {
  const std::uint32_t dims = 80;  // the whole table takes minutes (rfk_sobol_choices)
  const std::vector<std::uint8_t> one = rfk::host::SearchSobolChoices(dims, 1);
  CHECK(rfk::host::SearchSobolChoices(dims, 3) == one);
  CHECK(rfk::host::SobolDirections(dims) == rfk::host::SobolDirections(dims, one));
  CHECK(rfk::host::SobolDirections(dims + 1, one) != rfk::host::SobolDirections(dims + 1));  // past the prefix
  std::set<int> drawn(one.begin(), one.end());
  CHECK(drawn.size() > 20);  // the search does choose: not draw 0 everywhere
}

TEST_CASE("qmc: with 100 inputs, well below dense features' kernel error (no two coordinates move together)") {
  // The first search's sequence (a plain sum of t-values) gave 0.8-0.9x dense on real 54- and
  // 123-input data; pairs of nearly dependent coordinates were the cause, and they show here too.
  const double e_qmc = rfk_test::GaussianMse(f::MapKind::kQmc, 1024, 100, 10);
  const double e_dense = rfk_test::GaussianMse(f::MapKind::kFourier, 1024, 100, 10);
  MESSAGE("qmc " << e_qmc << " vs dense " << e_dense);
  CHECK(e_qmc < 0.7 * e_dense);
}

TEST_CASE("qmc: lower mean squared kernel error than dense random Fourier features at equal D") {
  const std::uint32_t d = 8;
  // At D = 256 (128 points for pairs) in d = 8: about 4x lower for pairs, 20 % for the phase form.
  for (auto [qmc, dense, ratio] : {std::tuple{f::MapKind::kQmc, f::MapKind::kFourier, 0.5},
                                   std::tuple{f::MapKind::kQmcPhase, f::MapKind::kFourierPhase, 0.95}}) {
    const double e_qmc = rfk_test::GaussianMse(qmc, 256, d, 30), e_dense = rfk_test::GaussianMse(dense, 256, d, 30);
    const std::string name = rfk::host::MapName(qmc);
    CAPTURE(name);
    MESSAGE(name << ": " << e_qmc << " vs " << e_dense);
    CHECK(e_qmc < ratio * e_dense);
  }
}

TEST_CASE("qmc: a trained model (gamma and lambda by cross-validation) opens with its map kind") {
  const rfk::host::Dataset ds =  // a circle
      rfk_test::NormalRows(240, [](float a, float b) { return std::string(a * a + b * b > 1.4f ? "out" : "in"); });
  for (f::MapKind map : {f::MapKind::kQmc, f::MapKind::kQmcPhase}) {
    rfk::host::TrainOptions o;
    o.map = map;
    o.features = 64;
    o.gamma_auto = o.lambda_auto = true;
    const rfk::host::TrainResult r = rfk::host::Train(ds, o);
    CHECK(r.report.train_error < 0.1);
    rfk_test::Blob blob(r.model);
    rfk::Model m;
    REQUIRE(blob.Open(&m) == rfk::Status::kOk);
    CHECK(m.map == map);
    CHECK(m.num_frequencies == (map == f::MapKind::kQmc ? 32u : 64u));
  }
}
