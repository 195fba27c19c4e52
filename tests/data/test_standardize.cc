// The default standardisation depends on the data, not the file format (input_stats.h): dense
// data is centred and scaled, sparse data scaled without centring, 0/1 indicators left alone.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "data/input_stats.h"
#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"

namespace {

using rfk::host::Standardization;

// LIBSVM text: every entry of column 1 is non-zero (values 1..n), column 2 a 0/1 indicator,
// column 3 a count up to about 16,000 present in every `every`-th row.
std::string Libsvm(std::size_t n, std::size_t every) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += (i % 2 ? "+1" : "-1");
    s += " 1:" + std::to_string(1 + i % 7);
    if (i % 3 == 0) s += " 2:1";
    if (i % every == 0) s += " 3:" + std::to_string(16000 - 97 * (i % 11));
    s += "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("standardisation: chosen by the density of non-zeros, whatever the format") {
  const auto dense_libsvm = rfk::host::ParseDataset(Libsvm(40, 1), "d.svm");  // 3 of 3 columns in 2/3 of rows
  const auto sparse_libsvm = rfk::host::ParseDataset(Libsvm(40, 1) + "-1 40:1\n", "s.svm");  // d = 40
  REQUIRE(dense_libsvm.sparse);
  CHECK(rfk::host::NonZeroFraction(dense_libsvm) == doctest::Approx((40 + 14 + 40) / 120.0));
  CHECK(rfk::host::ChooseStandardization(dense_libsvm, -1) == Standardization::kCentred);
  CHECK(rfk::host::NonZeroFraction(sparse_libsvm) < rfk::host::kDenseFraction);
  CHECK(rfk::host::ChooseStandardization(sparse_libsvm, -1) == Standardization::kUncentred);
  CHECK(rfk::host::ChooseStandardization(sparse_libsvm, 1) == Standardization::kCentred);
  CHECK(rfk::host::ChooseStandardization(dense_libsvm, 0) == Standardization::kOff);
  // The same rows as CSV: the same choice.
  std::string csv;
  for (std::size_t i = 0; i < 40; ++i)
    csv += std::to_string(1 + i % 7) + "," + (i % 3 == 0 ? "1" : "0") + "," + std::to_string(16000 - 97 * (i % 11)) +
           "," + (i % 2 ? "+1" : "-1") + "\n";
  const auto dense_csv = rfk::host::ParseDataset(csv, "d.csv");
  REQUIRE_FALSE(dense_csv.sparse);
  CHECK(rfk::host::NonZeroFraction(dense_csv) == rfk::host::NonZeroFraction(dense_libsvm));
  CHECK(rfk::host::ChooseStandardization(dense_csv, -1) == Standardization::kCentred);
}

TEST_CASE("standardisation without centring: mean 0, 1/std, indicators kept, zeros stay zeros") {
  const auto data = rfk::host::ParseDataset(Libsvm(60, 4), "s.svm");
  const auto s = rfk::host::ComputeStandardization(data, Standardization::kUncentred);
  REQUIRE(s.mean.size() == 3);
  CHECK_FALSE(s.centred);
  for (float m : s.mean) CHECK(m == 0.0f);
  CHECK(s.inv_scale[1] == 1.0f);  // the 0/1 indicator
  double s1 = 0, s2 = 0;          // column 3's deviation, zeros included
  for (std::size_t i = 0; i < 60; ++i) {
    const double v = i % 4 == 0 ? 16000 - 97 * (i % 11) : 0;
    s1 += v;
    s2 += v * v;
  }
  const double sd = std::sqrt(s2 / 60 - (s1 / 60) * (s1 / 60));
  CHECK(s.inv_scale[2] == doctest::Approx(1 / sd).epsilon(1e-6));
  const auto c = rfk::host::ComputeStandardization(data, Standardization::kCentred);
  CHECK(c.centred);
  CHECK(c.inv_scale[2] == s.inv_scale[2]);
  CHECK(c.inv_scale[1] != 1.0f);  // centred: every feature to unit deviation, as before
  // Indicators only (a9a's kind of data): nothing to do, no standardisation section.
  const auto ind = rfk::host::ParseDataset("+1 1:1 3:1\n-1 2:1\n+1 1:1 5:1\n-1 4:1\n", "i.svm");
  CHECK(rfk::host::ComputeStandardization(ind, Standardization::kUncentred).empty());
  CHECK(rfk::host::ComputeStandardization(ind, Standardization::kOff).empty());
}

TEST_CASE("standardisation: the report says what the model does") {
  rfk::host::TrainOptions o;
  o.features = 16;
  const auto dense = rfk::host::Train(rfk::host::ParseDataset(Libsvm(40, 1), "d.svm"), o).report;
  CHECK(dense.standardized);
  CHECK(dense.centred);
  const auto sparse = rfk::host::Train(rfk::host::ParseDataset(Libsvm(40, 1) + "-1 40:1\n", "s.svm"), o).report;
  CHECK(sparse.standardized);
  CHECK_FALSE(sparse.centred);
  CHECK(sparse.nonzero_fraction < 0.25);
  o.standardize = 0;
  CHECK_FALSE(rfk::host::Train(rfk::host::ParseDataset(Libsvm(40, 1), "d.svm"), o).report.standardized);
}
