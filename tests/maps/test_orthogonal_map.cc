// Orthogonal random features (lib/host/maps/orthogonal_map.cc): the unit draws are orthogonal within
// each block (checked in double) with chi(d) row norms, independent of the thread count; the map
// refuses the kernels it cannot approximate; it approximates the Gaussian kernel with a lower mean
// squared error than dense pairs at equal D; and a trained model (gamma and lambda by
// cross-validation) opens in the core with its map kind. The registry's contract tests
// (test_fourier_maps.cc) check its features against the core bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "maps/dense_map.h"
#include "maps/random.h"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "kernel_mse.h"
#include "normal_rows.h"
#include "test_util.h"

namespace f = rfk::format;

namespace {

double Dot(const double* a, const double* b, std::uint32_t d) {
  double s = 0;
  for (std::uint32_t c = 0; c < d; ++c) s += a[c] * b[c];
  return s;
}

}  // namespace

TEST_CASE("orf: each block of d rows is orthogonal, the last one truncated, whatever the threads") {
  const std::uint32_t d = 7, F = 2 * d + 3;  // two whole blocks and three rows
  const std::vector<double> w = rfk::host::OrthogonalUnitRows(F, d, 5, 1);
  REQUIRE(w.size() == std::size_t{F} * d);
  CHECK(rfk::host::OrthogonalUnitRows(F, d, 5, 3) == w);
  CHECK(rfk::host::OrthogonalUnitRows(F, d, 6, 1) != w);
  for (std::uint32_t i = 0; i < F; ++i) {
    const double ni = std::sqrt(Dot(&w[i * d], &w[i * d], d));
    CHECK(ni > 0.0);
    for (std::uint32_t k = i + 1; k < F; ++k) {
      const double cosine = Dot(&w[i * d], &w[k * d], d) / (ni * std::sqrt(Dot(&w[k * d], &w[k * d], d)));
      CAPTURE(i);
      CAPTURE(k);
      if (i / d == k / d) CHECK(std::fabs(cosine) < 1e-12);   // same block: orthogonal
      else CHECK(std::fabs(cosine) > 1e-6);                   // different blocks: independent
    }
  }
}

TEST_CASE("orf: row norms follow chi(d): |w|^2 has mean d and variance 2d") {
  const std::uint32_t d = 16, F = 4000;
  const std::vector<double> w = rfk::host::OrthogonalUnitRows(F, d, 11, 2);
  double mean = 0, m2 = 0;
  for (std::uint32_t j = 0; j < F; ++j) {
    const double n2 = Dot(&w[j * d], &w[j * d], d);
    mean += n2 / F;
    m2 += n2 * n2 / F;
  }
  const double var = m2 - mean * mean;
  // Standard errors: sqrt(2d/F) = 0.09 for the mean, about 1.6 for the variance.
  CHECK(mean == doctest::Approx(d).epsilon(0.03));
  CHECK(var == doctest::Approx(2.0 * d).epsilon(0.25));
  // Each coordinate is N(0, 1) too: the first coordinate's second moment is 1.
  double c0 = 0;
  for (std::uint32_t j = 0; j < F; ++j) c0 += w[j * d] * w[j * d] / F;
  CHECK(c0 == doctest::Approx(1.0).epsilon(0.1));
}

TEST_CASE("orf: kernels other than the gaussian are refused, naming the valid choices") {
  for (f::MapKind map : {f::MapKind::kOrthogonal, f::MapKind::kOrthogonalPhase})
    for (f::Kernel k : {f::Kernel::kLaplacian, f::Kernel::kCauchy}) {
      try {
        (void)rfk::host::DrawFourierMap(map, k, 16, 4, 1, 1);
        FAIL("no error");
      } catch (const rfk::host::TrainError& e) {
        const std::string what = e.what();
        CHECK(what.find("gaussian kernel only") != std::string::npos);
        CHECK(what.find("--kernel gaussian") != std::string::npos);
        CHECK(what.find("--map fourier") != std::string::npos);
      }
    }
  CHECK(rfk::host::ParseMap("orf") == f::MapKind::kOrthogonal);
  CHECK(rfk::host::ParseMap("orf-phase") == f::MapKind::kOrthogonalPhase);
  CHECK_THROWS_WITH_AS(rfk::host::ParseMap("sorf"), doctest::Contains("orf-phase"), rfk::host::TrainError);
  CHECK_THROWS_AS(rfk::host::ParseMap("structured"), rfk::host::TrainError);
}

TEST_CASE("orf: the core refuses an orthogonal map with a kernel it cannot approximate") {
  auto spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, f::MapKind::kOrthogonal, 8, 3, 0.5, 1);
  spec.kernel = f::Kernel::kLaplacian;
  rfk_test::Blob blob(rfk::host::SerializeModel(spec));
  rfk::ModelError err;
  CHECK(blob.Open(nullptr, &err) == rfk::Status::kBadValue);
  CHECK(std::string(err.field) == "map_params.kernel");
}

TEST_CASE("orf: lower mean squared kernel error than dense random Fourier features at equal D") {
  const std::uint32_t d = 8;
  // Pairs: about 3x lower here. The phase form's error is mostly its random phases' (the
  // cos(w.(x + y) + 2b) term, which orthogonality does not touch): about 10% lower.
  for (auto [orf, dense, ratio] : {std::tuple{f::MapKind::kOrthogonal, f::MapKind::kFourier, 0.5},
                                   std::tuple{f::MapKind::kOrthogonalPhase, f::MapKind::kFourierPhase, 1.0}}) {
    const double e_orf = rfk_test::GaussianMse(orf, 64, d, 30), e_dense = rfk_test::GaussianMse(dense, 64, d, 30);
    const std::string name = rfk::host::MapName(orf);
    CAPTURE(name);
    CAPTURE(e_orf);
    CAPTURE(e_dense);
    MESSAGE(name << ": " << e_orf << " vs " << e_dense);
    CHECK(e_orf < ratio * e_dense);
  }
}

TEST_CASE("orf: a trained model (gamma and lambda by cross-validation) opens with its map kind") {
  const rfk::host::Dataset ds =  // a circle
      rfk_test::NormalRows(240, [](float a, float b) { return std::string(a * a + b * b > 1.4f ? "out" : "in"); });
  for (f::MapKind map : {f::MapKind::kOrthogonal, f::MapKind::kOrthogonalPhase}) {
    rfk::host::TrainOptions o;
    o.map = map;
    o.features = 64;
    o.gamma_auto = o.lambda_auto = true;
    const rfk::host::TrainResult r = rfk::host::Train(ds, o);
    CHECK(!r.report.cv.empty());
    CHECK(r.report.train_error < 0.1);  // a circle: easy for a Gaussian kernel
    rfk_test::Blob blob(r.model);
    rfk::Model m;
    REQUIRE(blob.Open(&m) == rfk::Status::kOk);
    CHECK(m.map == map);
    CHECK(m.fourier_features == 64);
    CHECK(m.num_frequencies == (map == f::MapKind::kOrthogonal ? 32u : 64u));
  }
}
