// The data readers' entry points (rfk/host/data.hpp): format names and detection, reading a file
// or a buffer with the reader of its format, and DenseRow. The readers themselves are one file
// per format (data_libsvm.cc, data_csv.cc, data_idx.cc) over data_input.cc.
#include "rfk/host/data.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>

#include <unistd.h>
#include <string_view>

#include "data/data_internal.h"

namespace rfk::host {

using data_io::DeriveIdxLabels;
using data_io::Input;
using data_io::IsIdxMagic;
using data_io::NextToken;
using data_io::Quote;
using data_io::ReadCsv;
using data_io::ReadIdx;
using data_io::ReadLibsvm;

namespace {
// Bytes of decompressed content DetectFormat looks at.
constexpr std::size_t kDetectBytes = std::size_t{64} << 10;

// The idx labels file to read for `images`, or "" for none: LabelColumn::kAbsent, or kOptional
// when none is named and the derived one does not exist.
std::string IdxLabelsFile(const std::string& images, const ReadOptions& options) {
  if (options.labels == LabelColumn::kAbsent) return "";
  if (!options.idx_labels.empty()) return options.idx_labels;
  if (options.labels == LabelColumn::kRequired) return DeriveIdxLabels(images);
  try {
    const std::string derived = DeriveIdxLabels(images);
    return ::access(derived.c_str(), R_OK) == 0 ? derived : "";
  } catch (const DataError&) {
    return "";
  }
}
}  // namespace

bool IsMissingValue(std::string_view s) {
  static constexpr std::string_view kTokens[] = {"",     "NA",   "N/A",  "n/a", "NaN",  "nan", "-nan",
                                                 "?",    "null", "NULL", "None", "<NA>", "#N/A"};
  return std::find(std::begin(kTokens), std::end(kTokens), s) != std::end(kTokens);
}

bool IsIdentifierName(std::string_view name) {
  std::string low(name);
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::string_view kNames[] = {"id", "row_id", "rowid", "row.id", "row.names", "row_names", "rownames",
                                                "index"};
  if (std::find(std::begin(kNames), std::end(kNames), std::string_view(low)) != std::end(kNames)) return true;
  const std::string_view unnamed = "unnamed: ";  // pandas' name for a re-saved index column
  if (low.size() > unnamed.size() && low.compare(0, unnamed.size(), unnamed) == 0 &&
      low.find_first_not_of("0123456789", unnamed.size()) == std::string::npos)
    return true;
  const std::size_t n = name.size();
  if (n < 4) return false;
  const char sep = low[n - 3];
  if (low.compare(n - 2, 2, "id") == 0 && (sep == '_' || sep == '.' || sep == ' ' || sep == '-')) return true;
  // PassengerId, CustomerID: a capitalised Id after a lower-case letter.
  return name[n - 2] == 'I' && (name[n - 1] == 'd' || name[n - 1] == 'D') &&
         std::islower(static_cast<unsigned char>(name[n - 3]));
}

bool ParseBoolean(std::string_view s, float* out) {
  static constexpr std::string_view kTrue[] = {"TRUE", "True", "true"}, kFalse[] = {"FALSE", "False", "false"};
  if (std::find(std::begin(kTrue), std::end(kTrue), s) != std::end(kTrue)) {
    *out = 1.0f;
    return true;
  }
  if (std::find(std::begin(kFalse), std::end(kFalse), s) != std::end(kFalse)) {
    *out = 0.0f;
    return true;
  }
  return false;
}

DataFormat ParseDataFormat(const std::string& name) {
  std::string s = name;
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "auto") return DataFormat::kAuto;
  if (s == "libsvm" || s == "svmlight") return DataFormat::kLibsvm;
  if (s == "csv") return DataFormat::kCsv;
  if (s == "idx") return DataFormat::kIdx;
  throw DataError("unknown data format " + Quote(name) + " (expected auto, libsvm, csv or idx)");
}

const char* DataFormatName(DataFormat f) {
  switch (f) {
    case DataFormat::kAuto: return "auto";
    case DataFormat::kLibsvm: return "libsvm";
    case DataFormat::kCsv: return "csv";
    case DataFormat::kIdx: return "idx";
  }
  return "unknown";
}

DataFormat DetectFormat(const std::string& path) {
  std::string head(kDetectBytes, '\0');
  {
    Input f(path);
    head.resize(f.Read(head.data(), head.size()));
  }
  return DetectContentFormat(head);
}

DataFormat DetectContentFormat(std::string_view content) {
  const std::string_view head = content.substr(0, kDetectBytes);
  if (head.size() >= 4 && IsIdxMagic(reinterpret_cast<const unsigned char*>(head.data())))
    return DataFormat::kIdx;
  std::string_view rest(head);
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    const char* p = line.data();
    const char* const e = p + line.size();
    const std::string_view t1 = NextToken(p, e);
    if (t1.empty() || t1.front() == '#') continue;
    const std::string_view t2 = NextToken(p, e);
    if (t1.find_first_of(",;") != std::string_view::npos) return DataFormat::kCsv;
    if (!t2.empty()) {
      return t2.find(':') != std::string_view::npos ? DataFormat::kLibsvm : DataFormat::kCsv;
    }
    // A lone token: a LIBSVM row without features or a one-column file; look further.
  }
  return DataFormat::kCsv;
}

namespace {

// A weight column is a CSV notion: LIBSVM and idx files have no place for one.
void RefuseWeightColumn(DataFormat format, const ReadOptions& options, const std::string& name) {
  if (!options.weight_column.empty() && format != DataFormat::kCsv)
    throw DataError(name + ": a weight column (--weight-column) needs a CSV file; this is " +
                    DataFormatName(format) + " (write the weights as a CSV column, or convert the file)");
}

}  // namespace

Dataset ReadDataset(const std::string& path, const ReadOptions& options) {
  const DataFormat format =
      options.format == DataFormat::kAuto ? DetectFormat(path) : options.format;
  RefuseWeightColumn(format, options, path);
  Input in(path);
  switch (format) {
    case DataFormat::kLibsvm: return ReadLibsvm(in, options);
    case DataFormat::kCsv: return ReadCsv(in, options);
    case DataFormat::kIdx: {
      std::optional<Input> labels;
      return ReadIdx(in, [&]() -> Input* {
        const std::string name = IdxLabelsFile(path, options);
        return name.empty() ? nullptr : &labels.emplace(name);
      });
    }
    case DataFormat::kAuto: break;
  }
  throw DataError(path + ": unsupported data format");
}

Dataset ParseDataset(std::string_view content, const std::string& name, const ReadOptions& options,
                     std::string_view idx_labels) {
  const DataFormat format =
      options.format == DataFormat::kAuto ? DetectContentFormat(content) : options.format;
  RefuseWeightColumn(format, options, name);
  Input in(content, name);
  switch (format) {
    case DataFormat::kLibsvm: return ReadLibsvm(in, options);
    case DataFormat::kCsv: return ReadCsv(in, options);
    case DataFormat::kIdx: {
      Input labels(idx_labels, options.idx_labels.empty() ? name + " (labels)" : options.idx_labels);
      const bool none = options.labels == LabelColumn::kAbsent ||
                        (options.labels == LabelColumn::kOptional && idx_labels.empty());
      return ReadIdx(in, [&]() -> Input* { return none ? nullptr : &labels; });
    }
    case DataFormat::kAuto: break;
  }
  throw DataError(name + ": unsupported data format");
}

void DenseRow(const Dataset& data, std::size_t row, float* x, std::size_t d) {
  if (data.sparse) {
    std::fill(x, x + d, 0.0f);
    for (std::uint64_t t = data.row_ptr[row]; t < data.row_ptr[row + 1]; ++t)
      if (data.col_idx[t] < d) x[data.col_idx[t]] = data.values[t];
  } else {
    const std::size_t n = std::min(d, data.cols);
    std::copy(data.dense.begin() + static_cast<std::ptrdiff_t>(row * data.cols),
              data.dense.begin() + static_cast<std::ptrdiff_t>(row * data.cols + n), x);
    std::fill(x + n, x + d, 0.0f);
  }
}

}  // namespace rfk::host
