// Training on data larger than memory (rfk/host/train.hpp TrainFile, rfk train --stream): the
// chunked reader yields ReadDataset's rows, errors in later chunks name FILE:LINE, and a streamed
// training writes the same model bytes as the in-memory one -- with tiny chunks, so that many
// chunk boundaries cut through the fixed row blocks, the folds and the samples.
#include <doctest/doctest.h>

#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"
#include "test_util.h"
#include "training/train_context.h"

namespace {

using rfk::host::ChunkedReader;
using rfk::host::Dataset;
using rfk::host::ReadOptions;
using rfk::host::TrainOptions;

std::string Cli() { return RFK_CLI; }

// A deterministic pseudo-random stream in [0, 1).
struct Lcg {
  std::uint64_t s;
  double operator()() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) * 0x1.0p-53;
  }
};

// CSV text of n rows of d features: a header (when asked), then rows whose label is a class
// ("a", "b", "c" by a rule on the first two features, with noise) or a smooth target; blank lines
// here and there (line numbers must still match).
std::string CsvText(std::size_t n, std::size_t d, bool classes, bool header, std::uint64_t seed,
                    bool weights = false) {
  Lcg u{seed};
  std::string t;
  if (header) {
    for (std::size_t j = 0; j < d; ++j) t += "x" + std::to_string(j) + ",";
    t += weights ? "w,y\n" : "y\n";
  }
  char buf[64];
  for (std::size_t i = 0; i < n; ++i) {
    double x0 = 0, x1 = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double v = 4 * u() - 2;
      if (j == 0) x0 = v;
      if (j == 1) x1 = v;
      std::snprintf(buf, sizeof buf, "%.5g,", v);
      t += buf;
    }
    if (weights) {
      std::snprintf(buf, sizeof buf, "%.3g,", i % 11 == 0 ? 0.0 : 0.5 + u());
      t += buf;
    }
    if (classes) {
      const double s = x0 * x0 + x1 + 0.3 * (u() - 0.5);
      t += s < 0.5 ? "a" : s < 2 ? "b" : "c";
    } else {
      std::snprintf(buf, sizeof buf, "%.6g", std::sin(x0) + 0.5 * x1 * x1 + 0.05 * u());
      t += buf;
    }
    t += i % 97 == 5 ? "\n\n" : "\n";
  }
  return t;
}

// LIBSVM text of n sparse rows (features up to d, the highest index only late in the file).
std::string LibsvmText(std::size_t n, std::size_t d, std::uint64_t seed) {
  Lcg u{seed};
  std::string t;
  char buf[64];
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    std::string feats;
    for (std::size_t j = 1; j <= d - (i < n / 2 ? 3 : 0); ++j) {
      if (u() < 0.6) continue;
      const double v = u();
      if (j <= 3) s += v;
      std::snprintf(buf, sizeof buf, " %zu:%.4g", j, v);
      feats += buf;
    }
    t += (s + 0.2 * u() > 0.8 ? "+1" : "-1") + feats + (i % 50 == 7 ? "\n# a comment\n" : "\n");
  }
  return t;
}

void WriteGzip(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(f) == Z_OK);
}

// The chunks of one pass, concatenated (dense or sparse, as read).
Dataset Concatenate(ChunkedReader& reader) {
  Dataset all;
  all.row_ptr.push_back(0);
  reader.ForEach([&](std::size_t first, const Dataset& c) {
    CHECK(first == all.rows);
    CHECK(c.cols == reader.meta().cols);
    all.rows += c.rows;
    all.dense.insert(all.dense.end(), c.dense.begin(), c.dense.end());
    for (std::size_t r = 0; c.sparse && r < c.rows; ++r) {
      for (std::uint64_t t = c.row_ptr[r]; t < c.row_ptr[r + 1]; ++t) {
        all.col_idx.push_back(c.col_idx[t]);
        all.values.push_back(c.values[t]);
      }
      all.row_ptr.push_back(all.col_idx.size());
    }
    all.labels.insert(all.labels.end(), c.labels.begin(), c.labels.end());
    all.lines.insert(all.lines.end(), c.lines.begin(), c.lines.end());
    all.weights.insert(all.weights.end(), c.weights.begin(), c.weights.end());
  });
  return all;
}

void CheckSameRows(const std::string& path, const ReadOptions& ro, std::size_t chunk_bytes) {
  const Dataset whole = rfk::host::ReadDataset(path, ro);
  ChunkedReader reader(path, ro, chunk_bytes);
  CHECK(reader.chunks() >= 2);
  const Dataset all = Concatenate(reader);
  const Dataset& meta = reader.meta();
  CHECK(meta.rows == whole.rows);
  CHECK(meta.cols == whole.cols);
  CHECK(meta.sparse == whole.sparse);
  CHECK(meta.feature_names == whole.feature_names);
  CHECK(meta.notes == whole.notes);
  CHECK(all.rows == whole.rows);
  CHECK(all.dense == whole.dense);
  if (whole.sparse) {
    CHECK(all.row_ptr == whole.row_ptr);
    CHECK(all.col_idx == whole.col_idx);
    CHECK(all.values == whole.values);
  }
  CHECK(all.labels == whole.labels);
  CHECK(all.lines == whole.lines);
  CHECK(all.weights == whole.weights);
}

// Train(ReadDataset) and TrainFile with tiny chunks: the same model bytes and report numbers.
void CheckSameModel(const std::string& path, const ReadOptions& ro, const TrainOptions& opt) {
  const Dataset data = rfk::host::ReadDataset(path, ro);
  TrainOptions in_memory = opt;
  in_memory.sample_weight = data.weights;
  const rfk::host::TrainResult a = rfk::host::Train(data, in_memory);
  const rfk::host::TrainResult b = rfk::host::TrainFile(path, ro, opt, 700);
  CHECK(b.report.chunk_bytes == 700);
  CHECK(b.report.chunks > 20);
  CHECK(a.report.chunk_bytes == 0);
  CHECK(a.model == b.model);
  CHECK(a.report.gamma == b.report.gamma);
  CHECK(a.report.lambda == b.report.lambda);
  CHECK(a.report.train_error == b.report.train_error);
  CHECK(a.report.calibration_method == b.report.calibration_method);
  CHECK(a.report.calibration_log_loss == b.report.calibration_log_loss);
  REQUIRE(a.report.cv.size() == b.report.cv.size());
  for (std::size_t i = 0; i < a.report.cv.size(); ++i) CHECK(a.report.cv[i].error == b.report.cv[i].error);
}

}  // namespace

TEST_CASE("stream: chunks of CSV and LIBSVM files are ReadDataset's rows, gzip'd or plain") {
  const rfk_test::TempDir dir;
  const std::string csv = dir.Path("h.csv"), plain = dir.Path("n.csv.gz"), svm = dir.Path("s.svm");
  rfk_test::WriteText(csv, CsvText(300, 5, true, true, 1, true));
  WriteGzip(plain, CsvText(300, 4, false, false, 2));
  rfk_test::WriteText(svm, LibsvmText(300, 12, 3));
  for (const std::size_t chunk : {1, 64, 333, 4096}) {
    CAPTURE(chunk);
    CheckSameRows(csv, {}, chunk);
    CheckSameRows(plain, {}, chunk);
    CheckSameRows(svm, {}, chunk);
    ReadOptions weighted;
    weighted.weight_column = "w";
    CheckSameRows(csv, weighted, chunk);
    ReadOptions by_name;
    by_name.label_name = "y";
    CheckSameRows(csv, by_name, chunk);
  }
}

TEST_CASE("stream: a column of row numbers is dropped only when every chunk continues it") {
  const rfk_test::TempDir dir;
  std::string counting, broken;
  for (int i = 0; i < 200; ++i) {
    const std::string rest = "," + std::to_string(i % 7) + ".5," + std::to_string((i * 13) % 11) + "," +
                             (i % 3 ? "1" : "0") + "\n";
    counting += std::to_string(i + 1) + rest;
    broken += std::to_string(i == 150 ? 7 : i + 1) + rest;
  }
  rfk_test::WriteText(dir.Path("counting.csv"), counting);
  rfk_test::WriteText(dir.Path("broken.csv"), broken);
  CheckSameRows(dir.Path("counting.csv"), {}, 100);
  CheckSameRows(dir.Path("broken.csv"), {}, 100);
  CHECK(rfk::host::ReadDataset(dir.Path("counting.csv")).cols == 2);
  CHECK(rfk::host::ReadDataset(dir.Path("broken.csv")).cols == 3);
}

TEST_CASE("stream: a bad value in a later chunk is an error naming file:line, idx is refused") {
  const rfk_test::TempDir dir;
  std::string text = CsvText(400, 3, true, true, 4);
  std::size_t pos = 0;
  for (int line = 1; line < 350; ++line) pos = text.find('\n', pos) + 1;  // the start of line 350
  text.insert(pos, "1.5,oops,2,a\n");
  rfk_test::WriteText(dir.Path("bad.csv"), text);
  std::string whole, chunked;
  try {
    rfk::host::ReadDataset(dir.Path("bad.csv"));
  } catch (const rfk::host::DataError& e) {
    whole = e.what();
  }
  try {
    ChunkedReader(dir.Path("bad.csv"), {}, 200);
  } catch (const rfk::host::DataError& e) {
    chunked = e.what();
  }
  CHECK(whole.find("bad.csv:350: column 2") != std::string::npos);
  CHECK(chunked == whole);
  rfk_test::WriteText(dir.Path("x-images-idx3-ubyte"), std::string("\0\0\x08\x01\0\0\0\0", 8));
  CHECK_THROWS_WITH_AS(ChunkedReader(dir.Path("x-images-idx3-ubyte"), {}, 200),
                       doctest::Contains("idx files are read whole"), rfk::host::DataError);
  rfk_test::WriteText(dir.Path("w.svm"), "1 1:0.5\n-1 2:0.25\n");
  ReadOptions weighted;
  weighted.weight_column = "w";
  CHECK_THROWS_WITH_AS(ChunkedReader(dir.Path("w.svm"), weighted, 200),
                       doctest::Contains("a weight column (--weight-column) needs a CSV file"), rfk::host::DataError);
}

TEST_CASE("stream: streamed training writes the in-memory model, byte for byte") {
  const rfk_test::TempDir dir;
  const std::string cls = dir.Path("cls.csv"), reg = dir.Path("reg.csv.gz"), svm = dir.Path("s.svm");
  rfk_test::WriteText(cls, CsvText(2600, 4, true, true, 5, true));
  WriteGzip(reg, CsvText(2500, 3, false, false, 6));
  rfk_test::WriteText(svm, LibsvmText(2300, 10, 7));
  TrainOptions fixed;
  fixed.features = 40;
  fixed.gamma = 0.5;
  fixed.lambda = 1e-3;
  fixed.threads = 2;
  TrainOptions selected = fixed;  // --gamma auto --lambda auto
  selected.gamma_auto = selected.lambda_auto = true;
  selected.cv_folds = 4;
  selected.map = rfk::format::MapKind::kOrthogonal;
  TrainOptions defaults;  // the defaults' cross-validation, with the data-scale gamma
  defaults.features = 30;
  defaults.map = rfk::format::MapKind::kFastfoodPhase;
  SUBCASE("classification (3 classes, calibrated)") {
    CheckSameModel(cls, {}, fixed);
    CheckSameModel(cls, {}, selected);
    CheckSameModel(cls, {}, defaults);
  }
  SUBCASE("classification with a weight column and balanced classes") {
    ReadOptions ro;
    ro.weight_column = "w";
    TrainOptions opt = selected;
    opt.class_weight = rfk::host::ClassWeight::kBalanced;
    CheckSameModel(cls, ro, opt);
  }
  SUBCASE("regression, gzip'd") {
    CheckSameModel(reg, {}, fixed);
    CheckSameModel(reg, {}, selected);
  }
  SUBCASE("binary classification from sparse LIBSVM") {
    CheckSameModel(svm, {}, fixed);
    CheckSameModel(svm, {}, selected);
  }
}

TEST_CASE("stream: binning is refused when streaming") {
  const rfk_test::TempDir dir;
  rfk_test::WriteText(dir.Path("c.csv"), CsvText(200, 3, true, true, 8));
  TrainOptions opt;
  opt.grids = 4;
  CHECK_THROWS_WITH_AS(rfk::host::TrainFile(dir.Path("c.csv"), {}, opt, 1000),
                       doctest::Contains("binning needs the data in memory"), rfk::host::TrainError);
}

TEST_CASE("stream: rfk train --stream, and streaming chosen by --memory-limit") {
  const rfk_test::TempDir dir;
  const std::string data = dir.Path("big.csv");
  rfk_test::WriteText(data, CsvText(100000, 20, true, false, 9));
  const std::string common = " train --train " + data + " -D 20 --gamma 0.1 --lambda 1e-3 --threads 1 --json";
  const auto whole = rfk_test::Run(Cli() + common + " -o " + dir.Path("a.rfk"));
  REQUIRE(whole.status == 0);
  CHECK(whole.out.find("\"streamed\": false") != std::string::npos);
  CHECK(whole.out.find("\"peak_rss\": ") != std::string::npos);
  const auto forced = rfk_test::Run(Cli() + common + " --stream --chunk 256K -o " + dir.Path("b.rfk"));
  REQUIRE(forced.status == 0);
  CHECK(forced.out.find("\"streamed\": {\"chunk_bytes\": 262144") != std::string::npos);
  CHECK(rfk_test::ReadText(dir.Path("a.rfk")) == rfk_test::ReadText(dir.Path("b.rfk")));
  // Training with the data read whole is estimated at about 17 MiB; streamed, at about 7.
  const auto refused = rfk_test::Run(Cli() + common + " --memory-limit 10M --chunk 64K -o " + dir.Path("c.rfk"));
  REQUIRE(refused.status == 0);
  CHECK(refused.out.find("\"streamed\": {\"chunk_bytes\": 65536") != std::string::npos);
  CHECK(rfk_test::ReadText(dir.Path("a.rfk")) == rfk_test::ReadText(dir.Path("c.rfk")));
  const auto progress = rfk_test::Run(Cli() + " train --train " + data + " -D 20 --lambda 1e-3 --stream --progress -q -o " +
                                      dir.Path("d.rfk"));
  REQUIRE(progress.status == 0);
  CHECK(progress.err.find("resident (getrusage ru_maxrss), streamed in chunks of 4.00 MiB") != std::string::npos);
  // A limit that streaming exceeds too: refused by the streamed run's guard, before training.
  const auto tight = rfk_test::Run(Cli() + common + " --memory-limit 3M --chunk 64K -o " + dir.Path("t.rfk"));
  CHECK(tight.status == 1);
  CHECK(tight.err.find("more than the limit of 3 MiB (--memory-limit)") != std::string::npos);
  const auto binning = rfk_test::Run(Cli() + " train --train " + data + " --map binning --stream -o " + dir.Path("e.rfk"));
  CHECK(binning.status == 1);
  CHECK(binning.err.find("binning needs the data in memory") != std::string::npos);
}

TEST_CASE("memory guard: a classifier's calibration groups are counted (the held-out pass's peak)") {
  // The calibration (FourierDesign::HeldOutOutputs) holds each held-out fold's ridge statistics and
  // their total (the other rows' statistics become the total) where a plain fit holds the total
  // alone (a fold's training set is centred straight into the solve's matrix, no copy): at
  // D = 2000, 3 folds, K = 1 and 60,000 rows, one fold is held out: 1 set of D x (D + K + 1)
  // doubles more (the solve's matrices are counted in both); 2 held out (40,000 rows): 2 more; all
  // 3 (29,000): 3 more.
  Dataset meta;
  meta.rows = 60000;
  meta.cols = 20;
  TrainOptions opt;
  opt.features = 2000;
  opt.gamma = 0.1;
  opt.lambda = 1e-3;
  opt.cv_folds = 3;
  const auto bytes = [&](rfk::format::Task task, const TrainOptions& o) {
    return rfk::host::EstimateTrainingMemory(meta, o, task, 1, 1).bytes;
  };
  const double set = 8.0 * 2000 * (2000 + 1 + 1);
  const double regression = bytes(rfk::format::Task::kRegression, opt);
  CHECK(bytes(rfk::format::Task::kBinary, opt) == doctest::Approx(regression + set));
  for (const auto& [rows, sets] : {std::pair<std::size_t, double>{40000, 2}, {29000, 3}}) {
    CAPTURE(rows);
    Dataset fewer = meta;
    fewer.rows = rows;
    CHECK(rfk::host::EstimateTrainingMemory(fewer, opt, rfk::format::Task::kBinary, 1, 1).bytes ==
          doctest::Approx(rfk::host::EstimateTrainingMemory(fewer, opt, rfk::format::Task::kRegression, 1, 1).bytes +
                          sets * set));
  }
  TrainOptions off = opt;
  off.calibrate = false;
  CHECK(bytes(rfk::format::Task::kBinary, off) == doctest::Approx(regression));
  Dataset few = meta;  // fewer than kMinRowsPerFold rows per fold: not calibrated
  few.rows = 3 * rfk::host::kMinRowsPerFold - 1;
  CHECK(rfk::host::EstimateTrainingMemory(few, opt, rfk::format::Task::kBinary, 1, 1).bytes ==
        doctest::Approx(rfk::host::EstimateTrainingMemory(few, opt, rfk::format::Task::kRegression, 1, 1).bytes));
}

namespace {

// 2,600 rows of `inputs` columns and three classes (every row in the calibration sample), and
// the options of both tests below; `base`: the memory estimate without a kept store.
struct CalibrationCase {
  rfk_test::TempDir dir;
  Dataset data;
  TrainOptions opt;
  double base = 0;
  explicit CalibrationCase(std::size_t inputs) {
    const std::string cls = dir.Path("cls.csv");
    rfk_test::WriteText(cls, CsvText(2600, inputs, true, true, 5));
    data = rfk::host::ReadDataset(cls, {});
    opt.features = 40;
    opt.gamma = 0.01;
    opt.lambda = 1e-3;
    opt.threads = 2;
    base = rfk::host::EstimateTrainingMemory(data, opt, rfk::format::Task::kMulticlass, 3, 2).bytes;
  }
};

}  // namespace

TEST_CASE("calibration: the sample's features kept from the fit, or computed again under a tighter limit, give the same model") {
  // FourierDesign keeps the calibration sample's features from its fit where a row has at least
  // kKeepMinInputs (256) inputs and the memory limit allows, and counts them in the estimate;
  // otherwise the held-out pass computes them again. The two must agree bit for bit.
  const CalibrationCase c(256);
  const rfk::host::TrainResult kept = rfk::host::Train(c.data, c.opt);
  REQUIRE(kept.report.calibration_reason.empty());
  const double store = 2600.0 * (4.0 * 40 + 4.0);  // every row is sampled: D floats and a row index each
  CHECK(kept.report.memory_estimate == doctest::Approx(c.base + store));
  TrainOptions tight = c.opt;
  tight.memory_limit = static_cast<std::uint64_t>(kept.report.memory_estimate - store / 2);
  const rfk::host::TrainResult again = rfk::host::Train(c.data, tight);
  CHECK(again.report.memory_estimate == doctest::Approx(c.base));
  CHECK(again.model == kept.model);
  CHECK(again.report.calibration_log_loss == kept.report.calibration_log_loss);
}

TEST_CASE("calibration: the sample is the fewest folds that reach kCalibrationRows rows, strided to at most twice that") {
  using rfk::host::CalibrationHeldOut, rfk::host::CalibrationStride, rfk::host::CalibrationSampleRows;
  const std::size_t S = rfk::host::kCalibrationRows;
  CHECK(S == 20000);
  struct Case {
    std::size_t n;
    std::uint32_t folds, held_out;
    std::size_t stride;
  };
  // Every row while a fold less would hold fewer than S rows; then fewer folds, then a stride.
  for (const Case c : {Case{2600, 3, 3, 1}, Case{29999, 3, 3, 1}, Case{30000, 3, 2, 1}, Case{59999, 3, 2, 1},
                       Case{60000, 3, 1, 1}, Case{119999, 3, 1, 1}, Case{120000, 3, 1, 2}, Case{522910, 3, 1, 8},
                       Case{60000, 5, 2, 1}, Case{60000, 10, 4, 1}, Case{1000000000, 10, 1, 5000}}) {
    CAPTURE(c.n);
    CAPTURE(c.folds);
    CHECK(CalibrationHeldOut(c.n, c.folds) == c.held_out);
    CHECK(CalibrationStride(c.n, c.folds) == c.stride);
    const std::size_t rows = CalibrationSampleRows(c.n, c.folds);
    CHECK(rows >= std::min(c.n, S));
    CHECK(rows <= 2 * S);
  }
}

namespace {

// n rows of 256 inputs in memory (uniform in [-2, 2]) and three classes by CsvText's rule.
Dataset ThreeClasses(std::size_t n, std::uint64_t seed) {
  Lcg u{seed};
  Dataset data;
  data.rows = n;
  data.cols = 256;
  data.dense.resize(n * data.cols);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < data.cols; ++j) data.dense[i * data.cols + j] = static_cast<float>(4 * u() - 2);
    const double x0 = data.dense[i * data.cols], x1 = data.dense[i * data.cols + 1];
    const double s = x0 * x0 + x1 + 0.3 * (u() - 0.5);
    data.labels.push_back(s < 0.5 ? "a" : s < 2 ? "b" : "c");
    data.lines.push_back(i + 1);
  }
  return data;
}

}  // namespace

TEST_CASE("calibration: with two of three folds held out, the kept features and the held-out pass's agree") {
  // 30,000 rows: folds 0 and 1 held out, fold 2 accumulated with nothing else in the third group.
  // The sample's features kept from the fit and the ones computed again give the same model.
  const Dataset data = ThreeClasses(30000, 11);
  TrainOptions opt;
  opt.features = 40;
  opt.gamma = 0.01;
  opt.lambda = 1e-3;
  opt.threads = 2;
  const rfk::host::TrainResult kept = rfk::host::Train(data, opt);
  REQUIRE(kept.report.calibration_reason.empty());
  const double base = rfk::host::EstimateTrainingMemory(data, opt, rfk::format::Task::kMulticlass, 3, 2).bytes;
  const double store = kept.report.memory_estimate - base;  // the kept features: 2 folds' rows
  CHECK(store > 19000 * (4.0 * 40 + 4.0));
  CHECK(store < 21000 * (4.0 * 40 + 4.0));
  TrainOptions tight = opt;
  tight.memory_limit = static_cast<std::uint64_t>(kept.report.memory_estimate - store / 2);
  const rfk::host::TrainResult again = rfk::host::Train(data, tight);
  REQUIRE(again.report.calibration_reason.empty());
  CHECK(again.report.memory_estimate == doctest::Approx(base));
  CHECK(again.model == kept.model);
  CHECK(again.report.calibration_log_loss == kept.report.calibration_log_loss);
  CHECK(kept.report.calibration_log_loss > 0);
}

TEST_CASE("calibration: with few inputs a row the sample's features are computed again, not kept") {
  // Below kKeepMinInputs a projection costs less than storing and reading back its features, so
  // no limit is needed for the fit to leave them out: the estimate has no store in it.
  const CalibrationCase c(255);
  const rfk::host::TrainResult r = rfk::host::Train(c.data, c.opt);
  REQUIRE(r.report.calibration_reason.empty());
  CHECK(r.report.memory_estimate == doctest::Approx(c.base));
}
