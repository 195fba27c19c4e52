// libFuzzer targets for the data readers (rfk/host/data.hpp), on content in memory through
// ParseDataset: the parsers the CLI runs on files, minus zlib (whose inflate is zlib's own,
// fuzzed upstream; truncated and corrupt gzip are covered by tests/data/test_data.cc).
// A reader may reject an input only with DataError; whatever it accepts must be a well-formed
// Dataset (checked below), so a parser that silently returns garbage fails as surely as a crash.
// Build and run: scripts/fuzz.sh.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_targets.h"
#include "rfk/host/data.hpp"

namespace {

using rfk::host::DataError;
using rfk::host::DataFormat;
using rfk::host::Dataset;
using rfk::host::ReadOptions;

void CheckDataset(const Dataset& ds, const ReadOptions& opt, DataFormat format) {
  FUZZ_CHECK(ds.format == format);
  FUZZ_CHECK(ds.rows > 0);
  FUZZ_CHECK(ds.labels.size() == (ds.has_labels ? ds.rows : 0));
  FUZZ_CHECK(ds.has_labels || opt.labels != rfk::host::LabelColumn::kRequired);
  FUZZ_CHECK(ds.feature_names.empty() || ds.feature_names.size() == ds.cols);
  if (opt.model_inputs != 0 && format == DataFormat::kCsv) FUZZ_CHECK(ds.cols == opt.model_inputs);
  FUZZ_CHECK(ds.lines.size() == ds.rows);
  FUZZ_CHECK(ds.weights.size() == (opt.weight_column.empty() ? 0 : ds.rows));
  for (const double w : ds.weights) FUZZ_CHECK(std::isfinite(w) && w >= 0);
  FUZZ_CHECK(ds.cols >= opt.min_cols);
  if (opt.max_cols != 0 && format == DataFormat::kLibsvm) FUZZ_CHECK(ds.cols <= std::max(opt.max_cols, opt.min_cols));
  for (std::size_t i = 0; i < ds.rows; ++i) {
    FUZZ_CHECK(ds.lines[i] >= 1);
    if (i > 0) FUZZ_CHECK(ds.lines[i] > ds.lines[i - 1]);
    if (format != DataFormat::kIdx && opt.labels == rfk::host::LabelColumn::kRequired)
      FUZZ_CHECK(!ds.labels[i].empty());
  }
  if (ds.sparse) {
    FUZZ_CHECK(format == DataFormat::kLibsvm);
    FUZZ_CHECK(ds.dense.empty());
    FUZZ_CHECK(ds.row_ptr.size() == ds.rows + 1);
    FUZZ_CHECK(ds.row_ptr.front() == 0);
    FUZZ_CHECK(ds.row_ptr.back() == ds.col_idx.size());
    FUZZ_CHECK(ds.values.size() == ds.col_idx.size());
    for (std::size_t r = 0; r < ds.rows; ++r) {
      FUZZ_CHECK(ds.row_ptr[r] <= ds.row_ptr[r + 1]);
      for (std::uint64_t t = ds.row_ptr[r]; t < ds.row_ptr[r + 1]; ++t) {
        FUZZ_CHECK(ds.col_idx[t] < ds.cols);
        if (t > ds.row_ptr[r]) FUZZ_CHECK(ds.col_idx[t] > ds.col_idx[t - 1]);
        FUZZ_CHECK(std::isfinite(ds.values[t]));
      }
    }
  } else {
    FUZZ_CHECK(ds.cols > 0);
    FUZZ_CHECK(ds.row_ptr.empty() && ds.col_idx.empty() && ds.values.empty());
    FUZZ_CHECK(ds.dense.size() == ds.rows * ds.cols);
    std::uint64_t missing = 0;  // NaN only where asked for (ReadOptions::missing_as_nan), and counted
    for (const float v : ds.dense) {
      missing += std::isnan(v);
      FUZZ_CHECK(std::isfinite(v) || std::isnan(v));
    }
    FUZZ_CHECK(missing == ds.missing);
    FUZZ_CHECK(missing == 0 || opt.missing_as_nan);
  }
  // DenseRow at the data's width, one narrower and one wider: what predict/eval do with rows.
  for (const std::size_t d : {ds.cols, ds.cols + 1, ds.cols > 0 ? ds.cols - 1 : 0}) {
    if (d > (std::size_t{1} << 20)) continue;  // a LIBSVM index can name a column ~2^32
    std::vector<float> x(d + 1, -7.0f);
    for (std::size_t r = 0; r < ds.rows; ++r) {
      x[d] = -7.0f;
      rfk::host::DenseRow(ds, r, x.data(), d);
      FUZZ_CHECK(x[d] == -7.0f);  // nothing written past d
      for (std::size_t j = 0; j < d; ++j) FUZZ_CHECK(std::isfinite(x[j]) || (opt.missing_as_nan && std::isnan(x[j])));
    }
  }
}

// Parses `content` with `opt`; a DataError must carry the name given, as "NAME:" or "NAME (".
void Parse(std::string_view content, const ReadOptions& opt, DataFormat format,
           std::string_view labels = {}) {
  static const std::string kName = "fuzz-input";
  try {
    const Dataset ds = rfk::host::ParseDataset(content, kName, opt, labels);
    CheckDataset(ds, opt, format);
  } catch (const DataError& e) {
    const std::string_view msg = e.what();
    FUZZ_CHECK(msg.substr(0, kName.size()) == kName);
  }
}

std::string_view View(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace

int rfk_fuzz::Libsvm(const std::uint8_t* data, std::size_t size) {
  const std::string_view content = View(data, size);
  ReadOptions o;
  o.format = DataFormat::kLibsvm;
  Parse(content, o, DataFormat::kLibsvm);
  // As predict/eval read: the model's dimension as both bounds.
  o.min_cols = 5;
  o.max_cols = 5;
  Parse(content, o, DataFormat::kLibsvm);
  // Detection must agree with what the auto read does.
  const DataFormat detected = rfk::host::DetectContentFormat(content);
  FUZZ_CHECK(detected == DataFormat::kLibsvm || detected == DataFormat::kCsv ||
             detected == DataFormat::kIdx);
  if (detected != DataFormat::kIdx) Parse(content, ReadOptions{}, detected);
  return 0;
}

int rfk_fuzz::Csv(const std::uint8_t* data, std::size_t size) {
  const std::string_view content = View(data, size);
  ReadOptions o;
  o.format = DataFormat::kCsv;
  Parse(content, o, DataFormat::kCsv);  // header detected, label last
  o.label_col = 0;
  o.csv_header = 0;
  Parse(content, o, DataFormat::kCsv);
  o.label_col = -2;
  o.csv_header = 1;
  Parse(content, o, DataFormat::kCsv);
  // As predict reads for a model with names and imputation: columns by name or position, with or
  // without a label, missing values as NaN; then blank-separated, index column dropped.
  ReadOptions m;
  m.format = DataFormat::kCsv;
  m.labels = rfk::host::LabelColumn::kOptional;
  m.missing_as_nan = true;
  m.model_inputs = 2;
  m.model_names = {"a", "b"};
  m.model_label = "y";
  Parse(content, m, DataFormat::kCsv);
  // predict --no-label (a column named as the model's label is skipped); train --weight-column,
  // by name with the label by name, then by index.
  m.labels = rfk::host::LabelColumn::kAbsent;
  Parse(content, m, DataFormat::kCsv);
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.weight_column = "w";
  m.label_name = "y";
  Parse(content, m, DataFormat::kCsv);
  m.label_name.clear();
  m.weight_column = "-2";
  m.label_col = 0;
  Parse(content, m, DataFormat::kCsv);
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.csv_sep = ' ';
  m.index_col = rfk::host::IndexColumn::kDrop;
  m.label_name = "y";
  Parse(content, m, DataFormat::kCsv);
  // --drop-col by name and index with a positional label and weight (their indices rewritten),
  // --use-cols, a decimal comma given, and a model read that drops a column besides its names.
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.drop_cols = {"id", "1", "-3"};
  m.label_col = 2;
  m.weight_column = "-1";
  Parse(content, m, DataFormat::kCsv);
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.use_cols = {"a", "0"};
  m.csv_decimal = ',';
  Parse(content, m, DataFormat::kCsv);
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.labels = rfk::host::LabelColumn::kRequired;
  m.model_inputs = 2;
  m.model_names = {"a", "b"};
  m.model_label = "y";
  m.drop_cols = {"c"};
  m.label_name = "y";
  Parse(content, m, DataFormat::kCsv);
  // A model whose names one-hot encode a text column (Categories), missing values as NaN; and a
  // training read with them too (a categorical column's missing values in each of its features).
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.labels = rfk::host::LabelColumn::kOptional;
  m.missing_as_nan = true;
  m.model_inputs = 3;
  m.model_names = {"a=x", "a=y", "b"};
  m.model_label = "y";
  Parse(content, m, DataFormat::kCsv);
  m = ReadOptions{};
  m.format = DataFormat::kCsv;
  m.missing_as_nan = true;
  Parse(content, m, DataFormat::kCsv);
  return 0;
}

// The input is an images file followed by a labels file: the images part is as long as its own
// header declares (all of the input when the header is incomplete or declares more).
int rfk_fuzz::Idx(const std::uint8_t* data, std::size_t size) {
  std::size_t images = size;
  if (size >= 4 && data[3] >= 1 && data[3] <= 8) {
    const std::size_t header = 4 + 4 * std::size_t{data[3]};
    const unsigned type = data[2];
    std::uint64_t bytes = type == 0x08 || type == 0x09 ? 1 : type == 0x0B ? 2 : type == 0x0E ? 8 : 4;
    if (header <= size) {
      for (std::size_t i = 4; i < header && bytes <= size; i += 4) {
        const std::uint64_t dim = std::uint64_t{data[i]} << 24 | std::uint64_t{data[i + 1]} << 16 |
                                  std::uint64_t{data[i + 2]} << 8 | data[i + 3];
        bytes *= dim;
      }
      if (bytes <= size - header) images = header + static_cast<std::size_t>(bytes);
    }
  }
  const std::string_view content = View(data, size);
  ReadOptions o;
  o.format = DataFormat::kIdx;
  Parse(content.substr(0, images), o, DataFormat::kIdx, content.substr(images));
  return 0;
}

#ifdef RFK_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rfk_fuzz::RFK_FUZZ_ENTRY(data, size);
}
#endif
