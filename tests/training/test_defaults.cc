// The defaults training decides from the data (rfk/host/train.hpp): D from the rows within the
// model-size budget, and what the selection measures of the model on half the frequencies.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"
#include "training/selection.h"

namespace {

namespace f = rfk::format;
using rfk::host::TrainOptions;
using rfk::host::TrainReport;

// The default D for `rows` rows of d inputs and K outputs, and the reason the report gives.
std::uint32_t DefaultD(const TrainOptions& o, std::size_t rows, std::size_t d, std::uint32_t K,
                       std::string* reason = nullptr) {
  TrainReport rep;
  const TrainOptions out = rfk::host::ResolveDefaults(o, rows, d, K, &rep);
  CHECK(rep.features == out.features);
  if (reason) *reason = rep.features_reason;
  return out.features;
}

// Two classes in 6-D, separated by a curved boundary; deterministic.
rfk::host::Dataset Curved(std::size_t n) {
  rfk::host::Dataset ds;
  ds.source = "curved";
  ds.rows = n;
  ds.cols = 6;
  std::uint64_t s = 5;
  auto uni = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) * 0x1.0p-53 - 0.5;
  };
  for (std::size_t i = 0; i < n; ++i) {
    double x[6];
    for (double& v : x) v = 4 * uni();
    for (double v : x) ds.dense.push_back(static_cast<float>(v));
    ds.labels.push_back(std::sin(x[0]) + 0.5 * x[1] * x[2] > 0 ? "p" : "n");
    ds.lines.push_back(i + 1);
  }
  return ds;
}

}  // namespace

TEST_CASE("default D: rows / 4 in hundreds, within [1000, 4000]") {
  const TrainOptions o;
  REQUIRE(o.features == rfk::host::kDefaultFeatures);
  std::string why;
  CHECK(DefaultD(o, 150, 5, 1, &why) == 1000);
  CHECK(why.find("150 rows / 4") != std::string::npos);
  CHECK(DefaultD(o, 6000, 5, 1) == 1500);
  CHECK(DefaultD(o, 6399, 5, 1) == 1500);
  CHECK(DefaultD(o, 16000, 16, 26) == 4000);
  CHECK(DefaultD(o, 10000000, 54, 7) == 4000);
  TrainOptions given = o;
  given.features = 64;
  CHECK(DefaultD(given, 16000, 16, 26, &why) == 64);
  CHECK(why == "given");
}

TEST_CASE("default D: at most what --max-model-bytes holds, counted as stored") {
  TrainOptions o;
  o.max_model_bytes = 64 * 1024;
  std::string why;
  // Pair form: half a row of W (100 f32) and one f32 head weight per feature: 204 B, after the
  // rest: 1024 + 8 (d + K) + 16 rows of W = 8,232 B. (65,536 - 8,232) / 204 = 280.9.
  CHECK(DefaultD(o, 50000, 100, 1, &why) == 280);
  CHECK(why.find("--max-model-bytes 64.0 KiB") != std::string::npos);
  // Phase form: a whole row, a phase and the head weight: 408 B.
  o.map = f::MapKind::kFourierPhase;
  CHECK(DefaultD(o, 50000, 100, 1) == 140);
  // int8 W and head: 50 + 1 B per pair-form feature, the rest 3,432 B: 4.3x the features.
  o.map = f::MapKind::kFourier;
  o.w_storage = o.head_storage = f::Storage::kInt8;
  CHECK(DefaultD(o, 50000, 100, 1) == 1216);
  // The outputs count: 8 f32 of W and 26 f32 head weights a feature, 136 B; the rest 2,384 B.
  o.w_storage = o.head_storage = f::Storage::kF32;
  CHECK(DefaultD(o, 50000, 16, 26) == 464);
  // Too small for two features: refused, naming the option.
  o.max_model_bytes = 300;
  CHECK_THROWS_WITH_AS(DefaultD(o, 50000, 100, 1),
                       doctest::Contains("--max-model-bytes 300 B holds no feature of this data"),
                       rfk::host::TrainError);
}

TEST_CASE("a model trained to a budget fits in it") {
  const rfk::host::Dataset data = Curved(900);
  for (const std::uint64_t budget : {3000u, 8192u}) {
    TrainOptions o;
    o.max_model_bytes = budget;
    o.threads = 2;
    const rfk::host::TrainResult r = rfk::host::Train(data, o);
    CAPTURE(budget);
    CHECK(r.report.features < rfk::host::kDefaultFeaturesMin);
    CHECK(r.report.features_reason.find("--max-model-bytes") != std::string::npos);
    CHECK(r.model.size() <= budget);
    CHECK(r.model.size() > budget / 2);
  }
}

TEST_CASE("a cross-validated fit reports the held-out error on half the frequencies") {
  const rfk::host::Dataset data = Curved(900);
  for (const f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFourierPhase}) {
    TrainOptions o;
    o.map = map;
    o.features = 128;
    o.gamma = 0;  // the data scale; lambda: the default's cross-validation
    o.threads = 2;
    const rfk::host::TrainResult r = rfk::host::Train(data, o);
    CAPTURE(static_cast<int>(map));
    CHECK(r.report.features == 128);
    CHECK(r.report.half_features == 64);
    double chosen = -1;
    for (const auto& p : r.report.cv)
      if (p.lambda == r.report.lambda) chosen = p.error;
    // Half the features of this curved boundary fit it worse, and the chosen point is the best
    // over the same grid at 128 features.
    CHECK(r.report.half_features_error > chosen);
    CHECK(r.report.half_features_error < 0.5);
  }
  TrainOptions fixed;  // nothing cross-validated: nothing measured
  fixed.features = 128;
  fixed.gamma = 0;
  fixed.lambda = 1e-4;
  CHECK(rfk::host::Train(data, fixed).report.half_features == 0);
}
