// The optional sections about a model's inputs: impute (values for missing, NaN, inputs) and
// feature_names. Predict and PredictBatch substitute the values exactly; a model without the
// section refuses NaN, and every model refuses infinities; each corruption has its field.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;
using rfk_test::Blob;

// Three classes in 4-D, deterministic, with a header's names.
rfk::host::Dataset Data() {
  rfk::host::Dataset ds;
  ds.source = "inputs";
  ds.rows = 90;
  ds.cols = 4;
  for (std::size_t i = 0; i < ds.rows; ++i) {
    for (std::size_t c = 0; c < 4; ++c) ds.dense.push_back(static_cast<float>((i * 7 + c * 5) % 13) + (i % 3 == c) * 6.0f);
    ds.labels.push_back(std::to_string(i % 3));
    ds.lines.push_back(i + 1);
  }
  ds.feature_names = {"sepal length", "w", "", "x4"};
  ds.label_name = "species";
  return ds;
}

std::vector<std::uint8_t> Model(bool standardize, bool impute) {
  const rfk::host::Dataset ds = Data();
  rfk::host::TrainOptions o;
  o.features = 32;
  o.gamma = 0;
  o.lambda = 1e-3;
  o.standardize = standardize ? 1 : 0;
  if (impute) o.impute = rfk::host::ImputationValues(ds, f::ImputeMethod::kMedian);
  o.impute_method = f::ImputeMethod::kMedian;
  return rfk::host::Train(ds, o).model;
}

}  // namespace

TEST_CASE("a NaN input is replaced by the model's impute value, bit for bit, in Predict and PredictBatch") {
  for (const bool standardize : {true, false}) {
    CAPTURE(standardize);
    Blob b(Model(standardize, true));
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    REQUIRE(m.impute != nullptr);
    CHECK(m.impute_method == f::ImputeMethod::kMedian);
    rfk::host::AlignedBytes scratch(rfk::BatchScratchBytes(m));
    const rfk::host::Dataset ds = Data();
    std::vector<float> X(ds.dense.begin(), ds.dense.begin() + 20 * 4), filled = X;
    for (std::size_t i = 0; i < 20; ++i) {  // a missing value in every other row, in turn per column
      if (i % 2) continue;
      X[i * 4 + (i / 2) % 4] = NAN;
      filled[i * 4 + (i / 2) % 4] = m.impute[(i / 2) % 4];
    }
    std::vector<float> batch(20 * 3), a(3), want(3);
    REQUIRE(rfk::PredictBatch(m, X.data(), 20, X.size(), scratch.data(), scratch.size(), batch.data(), batch.size()) ==
            Status::kOk);
    for (std::size_t i = 0; i < 20; ++i) {
      REQUIRE(rfk::Predict(m, &X[i * 4], 4, scratch.data(), scratch.size(), a.data(), 3) == Status::kOk);
      REQUIRE(rfk::Predict(m, &filled[i * 4], 4, scratch.data(), scratch.size(), want.data(), 3) == Status::kOk);
      CHECK(std::memcmp(a.data(), want.data(), sizeof(float) * 3) == 0);
      for (std::size_t k = 0; k < 3; ++k) CHECK(batch[i * 3 + k] == doctest::Approx(want[k]).epsilon(1e-5).scale(1.0));
    }
    const float inf[4] = {1, INFINITY, 1, 1};  // not a missing value
    CHECK(rfk::Predict(m, inf, 4, scratch.data(), scratch.size(), a.data(), 3) == Status::kNonFiniteInput);
  }
  Blob plain(Model(true, false));
  rfk::Model m;
  REQUIRE(plain.Open(&m) == Status::kOk);
  CHECK(m.impute == nullptr);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  const float x[4] = {1, NAN, 1, 1};
  float out[3];
  CHECK(rfk::Predict(m, x, 4, scratch.data(), scratch.size(), out, 3) == Status::kNonFiniteInput);
}

TEST_CASE("feature names and the label's name travel in the model") {
  Blob b(Model(true, false));
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  CHECK(m.num_names == 5);
  CHECK(std::string(rfk::FeatureName(m, 0)) == "sepal length");
  CHECK(std::string(rfk::FeatureName(m, 2)).empty());
  CHECK(std::string(rfk::FeatureName(m, 3)) == "x4");
  CHECK(std::string(rfk::FeatureName(m, 4)) == "species");
  CHECK(std::string(rfk::FeatureName(m, 5)).empty());
  rfk::host::Dataset nameless = Data();
  nameless.feature_names.clear();
  rfk::host::TrainOptions o;
  o.features = 16;
  o.gamma = 0;
  o.lambda = 1e-3;
  Blob none(rfk::host::Train(nameless, o).model);
  REQUIRE(none.Open(&m) == Status::kOk);
  CHECK(m.num_names == 0);
  CHECK(std::string(rfk::FeatureName(m, 0)).empty());
}

TEST_CASE("corrupt impute and feature_names sections are refused with their field") {
  const auto bytes = Model(true, true);
  rfk::ModelError err;
  const auto payload = [](Blob& b, f::SectionType t) { return b.U32(b.Entry(t) + 4); };
  struct Case {
    f::SectionType section;
    std::uint32_t at, value;
    Status status;
    const char* field;
  };
  const float nan = NAN;
  std::uint32_t nan_bits;
  std::memcpy(&nan_bits, &nan, 4);
  for (const Case& c : {Case{f::SectionType::kImpute, f::impute::kMethod, 9, Status::kBadValue, "impute.method"},
                        Case{f::SectionType::kImpute, f::impute::kCount, 3, Status::kBadValue, "impute.count"},
                        Case{f::SectionType::kImpute, f::impute::kHeaderBytes + 4, nan_bits, Status::kBadValue, "impute"},
                        Case{f::SectionType::kFeatureNames, f::feature_names::kCount, 4, Status::kBadValue,
                             "feature_names.count"},
                        Case{f::SectionType::kFeatureNames, f::feature_names::kOffsets + 8, 1u << 20, Status::kBadValue,
                             "feature_names.offsets"}}) {
    CAPTURE(c.field);
    Blob b(bytes);
    b.SetU32(payload(b, c.section) + c.at, c.value);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == c.status);
    CHECK(std::string(err.field) == c.field);
  }
  // Every flip in the sections' bytes, behind a recomputed checksum, opens consistently or not at all.
  Blob probe(bytes);
  const std::uint32_t start = payload(probe, f::SectionType::kImpute);
  int opened = 0;
  for (std::size_t at = start; at < bytes.size(); ++at)
    for (int bit = 0; bit < 8; bit += 3) {
      Blob b(bytes);
      b.data()[at] ^= static_cast<std::uint8_t>(1u << bit);
      b.FixCrc();
      rfk::Model m;
      if (b.Open(&m) != Status::kOk) continue;
      ++opened;
      for (std::uint32_t i = 0; i <= m.num_names; ++i) CHECK(std::strlen(rfk::FeatureName(m, i)) < 64);
      std::vector<float> x(m.input_dim, NAN), out(m.num_outputs);
      rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
      const Status st = rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size(), out.data(), out.size());
      CHECK((st == Status::kOk || st == Status::kNonFiniteInput));
    }
  CHECK(opened > 0);  // flips in the names' text and the impute values' low bits still open
}
