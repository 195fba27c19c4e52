// Class and sample weights in the ridge fit (TrainOptions::class_weight, sample_weight): a weight
// is a repeat count in both designs, balanced class weights rescue a rare class, and bad weights
// are refused with a clear message.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

using rfk::host::Dataset;
using rfk::host::TrainOptions;

// Two overlapping classes in 4-D, class "b" about one row in `every`.
Dataset TwoClasses(std::size_t n, std::size_t every, std::uint64_t seed) {
  Dataset ds;
  ds.source = "two-classes";
  ds.rows = n;
  ds.cols = 4;
  std::uint64_t s = seed;
  auto uni = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) * 0x1.0p-53;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const bool b = i % every == 0;
    for (int k = 0; k < 4; ++k) ds.dense.push_back(static_cast<float>((b && k < 2 ? 1.0 : 0.0) + 1.2 * (uni() - 0.5)));
    ds.labels.push_back(b ? "b" : "a");
    ds.lines.push_back(i + 1);
  }
  return ds;
}

// The rows of `data` for which keep(i), as a new dataset (dense or sparse, like `data`).
Dataset Subset(const Dataset& data, const std::function<bool(std::size_t)>& keep) {
  Dataset out;
  out.source = data.source;
  out.cols = data.cols;
  out.sparse = data.sparse;
  if (out.sparse) out.row_ptr.push_back(0);
  for (std::size_t i = 0; i < data.rows; ++i) {
    if (!keep(i)) continue;
    ++out.rows;
    out.labels.push_back(data.labels[i]);
    out.lines.push_back(data.lines[i]);
    if (!data.sparse) {
      out.dense.insert(out.dense.end(), data.dense.begin() + i * data.cols, data.dense.begin() + (i + 1) * data.cols);
      continue;
    }
    for (std::uint64_t t = data.row_ptr[i]; t < data.row_ptr[i + 1]; ++t) {
      out.col_idx.push_back(data.col_idx[t]);
      out.values.push_back(data.values[t]);
    }
    out.row_ptr.push_back(out.values.size());
  }
  return out;
}

// Predicted labels of every row of `data` through the device core.
std::vector<std::string> Predict(const std::vector<std::uint8_t>& bytes, const Dataset& data) {
  rfk_test::Blob blob(bytes);
  rfk::Model m;
  REQUIRE(blob.Open(&m) == rfk::Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::vector<float> x(m.input_dim), out(m.num_outputs);
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < data.rows; ++i) {
    rfk::host::DenseRow(data, i, x.data(), x.size());
    REQUIRE(rfk::Predict(m, x.data(), m.input_dim, scratch.data(), scratch.size(), out.data(), m.num_outputs) ==
            rfk::Status::kOk);
    labels.push_back(rfk::ClassLabel(m, rfk::DecideClass(m, out.data())));
  }
  return labels;
}

// (recall of `positive` + recall of the other class) / 2.
double BalancedAccuracy(const std::vector<std::string>& pred, const Dataset& data, const std::string& positive) {
  double tp = 0, pos = 0, tn = 0, neg = 0;
  for (std::size_t i = 0; i < data.rows; ++i) {
    const bool p = data.labels[i] == positive;
    (p ? pos : neg) += 1;
    if (p && pred[i] == positive) tp += 1;
    if (!p && pred[i] != positive) tn += 1;
  }
  return 0.5 * (tp / pos + tn / neg);
}

}  // namespace

TEST_CASE("class weights: balanced weights rescue a rare class (a9a, +1 subsampled to 6 %)") {
  const std::string train_path = rfk_test::SharedDataset("adult_a9a/a9a.gz");
  const std::string test_path = rfk_test::SharedDataset("adult_a9a/a9a.t.gz");
  if (train_path.empty()) {
    MESSAGE("../shared/datasets is not beside this checkout; skipping");
    return;
  }
  const Dataset full = rfk::host::ReadDataset(train_path);
  std::size_t positives = 0;
  const Dataset train = Subset(full, [&](std::size_t i) { return full.labels[i] != "+1" || positives++ % 5 == 0; });
  rfk::host::ReadOptions ro;
  ro.min_cols = full.cols;
  const Dataset test = rfk::host::ReadDataset(test_path, ro);
  std::size_t kept = 0;
  for (const std::string& l : train.labels) kept += l == "+1";
  CHECK(double(kept) / double(train.rows) == doctest::Approx(0.06).epsilon(0.05));
  TrainOptions o;
  o.features = 200;
  o.threads = 2;
  const double plain = BalancedAccuracy(Predict(rfk::host::Train(train, o).model, test), test, "+1");
  o.class_weight = rfk::host::ClassWeight::kBalanced;
  const double balanced = BalancedAccuracy(Predict(rfk::host::Train(train, o).model, test), test, "+1");
  MESSAGE("a9a with 6 % positives, balanced accuracy on a9a.t: unweighted " << plain << ", balanced " << balanced);
  CHECK(plain < 0.6);      // barely above always predicting -1 (0.5)
  CHECK(balanced > 0.75);  // a real classifier of both classes
}

TEST_CASE("sample weights: a weight is a repeat count, in the Fourier and the binning design") {
  const Dataset data = TwoClasses(600, 3, 5);
  TrainOptions o;
  o.features = 80;
  o.gamma = 0.7;  // the default gammas and standardisation are statistics of the rows, not weights
  o.bin_gamma = 0.5;
  o.standardize = 0;
  o.lambda = 1e-3;
  o.threads = 2;
  o.sample_weight.resize(data.rows);
  for (std::size_t i = 0; i < data.rows; ++i) o.sample_weight[i] = double(i / 3 % 3);  // 0, 1 or 2 copies
  std::vector<std::size_t> copies;
  for (std::size_t i = 0; i < data.rows; ++i)
    for (std::size_t c = 0; c < i / 3 % 3; ++c) copies.push_back(i);
  Dataset repeated = Subset(data, [](std::size_t) { return false; });
  for (std::size_t i : copies) {
    repeated.dense.insert(repeated.dense.end(), data.dense.begin() + i * 4, data.dense.begin() + (i + 1) * 4);
    repeated.labels.push_back(data.labels[i]);
    repeated.lines.push_back(data.lines[i]);
  }
  repeated.rows = copies.size();
  const Dataset probe = TwoClasses(200, 2, 99);
  for (std::uint32_t grids : {0u, 8u}) {
    CAPTURE(grids);
    o.grids = grids;
    TrainOptions plain = o;
    plain.sample_weight.clear();
    rfk_test::Blob a(rfk::host::Train(data, o).model), b(rfk::host::Train(repeated, plain).model);
    rfk::Model ma, mb;
    REQUIRE(a.Open(&ma) == rfk::Status::kOk);
    REQUIRE(b.Open(&mb) == rfk::Status::kOk);
    rfk::host::AlignedBytes sa(rfk::ScratchBytes(ma)), sb(rfk::ScratchBytes(mb));
    for (std::size_t i = 0; i < probe.rows; ++i) {
      float oa = 0, ob = 0;
      REQUIRE(rfk::Predict(ma, &probe.dense[i * 4], 4, sa.data(), sa.size(), &oa, 1) == rfk::Status::kOk);
      REQUIRE(rfk::Predict(mb, &probe.dense[i * 4], 4, sb.data(), sb.size(), &ob, 1) == rfk::Status::kOk);
      CHECK(oa == doctest::Approx(ob).epsilon(1e-3).scale(1e-2));
    }
  }
}

TEST_CASE("weights: bad weights and balanced regression are refused, naming the problem") {
  const Dataset data = TwoClasses(50, 3, 1);
  TrainOptions o;
  o.features = 16;
  auto fails = [&](const TrainOptions& opt, const std::string& what) {
    CAPTURE(what);
    try {
      rfk::host::Train(data, opt);
      FAIL("trained");
    } catch (const rfk::host::TrainError& e) {
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  TrainOptions w = o;
  w.sample_weight.assign(49, 1.0);
  fails(w, "49 sample weights for 50 rows");
  w.sample_weight.assign(50, 1.0);
  w.sample_weight[7] = -1;
  fails(w, "two-classes:8: sample weight -1 is not a finite number >= 0");
  w.sample_weight[7] = std::numeric_limits<double>::quiet_NaN();
  fails(w, "two-classes:8: sample weight nan");
  w.sample_weight.assign(50, 0.0);
  fails(w, "the row weights sum to 0");
  Dataset numeric = data;
  for (std::string& l : numeric.labels) l = l == "a" ? "0.5" : "1.5";
  TrainOptions r = o;
  r.task = rfk::host::TaskChoice::kRegression;
  r.class_weight = rfk::host::ClassWeight::kBalanced;
  try {
    rfk::host::Train(numeric, r);
    FAIL("trained");
  } catch (const rfk::host::TrainError& e) {
    CHECK(std::string(e.what()).find("--class-weight balanced needs a classification task") != std::string::npos);
  }
}
