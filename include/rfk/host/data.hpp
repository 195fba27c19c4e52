// Host-only data readers: LIBSVM/svmlight, CSV and idx (MNIST family), gzip'd or plain.
// Allocates and throws (rfk::host::DataError); never linked into the device core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rfk::host {

// Every reader error carries "FILE:LINE: what" (LINE omitted when it does not apply, e.g. binary
// idx files, where the message names the byte offset instead).
class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class DataFormat { kAuto, kLibsvm, kCsv, kIdx };

// "auto", "libsvm" (alias "svmlight"), "csv", "idx" -> format; throws DataError otherwise.
DataFormat ParseDataFormat(const std::string& name);
const char* DataFormatName(DataFormat f);

struct ReadOptions {
  DataFormat format = DataFormat::kAuto;
  // CSV: 0-based label column; negative counts from the end (-1 = last column, the default).
  int label_col = -1;
  // CSV: header handling. -1 = detect: the first line is a header if one of its feature fields
  // is not a number, or if its label is not a number while the next row's label is (house_16H's
  // header "1,2,...,16,y"); a header of numbers only needs 1. 0 = no header, 1 = header present.
  int csv_header = -1;
  // idx: the labels file. Empty = derive from the images file name by replacing
  // "images-idx3-ubyte" with "labels-idx1-ubyte" (works for MNIST and Fashion-MNIST names).
  std::string idx_labels;
  // Minimum input dimension: LIBSVM files may not mention the highest feature index (a9a.t has
  // no feature 123), so callers pass the model's dimension here. The result has
  // cols = max(min_cols, highest index seen).
  std::size_t min_cols = 0;
  // If non-zero, a row with a feature index above this is an error (file:line names it).
  std::size_t max_cols = 0;
};

// A dataset held in memory. Exactly one of the dense/sparse representations is filled.
struct Dataset {
  std::string source;                  // file path, for messages
  DataFormat format = DataFormat::kAuto;  // the format actually read
  std::size_t rows = 0;
  std::size_t cols = 0;                // input dimension d
  bool sparse = false;

  std::vector<float> dense;            // rows * cols, row-major (when !sparse)

  std::vector<std::uint64_t> row_ptr;  // rows + 1 (when sparse; CSR)
  std::vector<std::uint32_t> col_idx;  // 0-based, strictly increasing within a row
  std::vector<float> values;

  std::vector<std::string> labels;     // label text per row, as written (trimmed)
  std::vector<std::uint64_t> lines;    // 1-based source line of each row (idx: record index + 1)
};

// Reads a whole file (gzip detected from content, via zlib). Throws DataError on any problem:
// missing file, bad syntax, non-finite value, ragged CSV rows, inconsistent idx files, ...
Dataset ReadDataset(const std::string& path, const ReadOptions& options = {});

// Writes row `row` of `data` as a dense vector x of length d: absent sparse entries are 0 and
// columns at or beyond d are dropped.
void DenseRow(const Dataset& data, std::size_t row, float* x, std::size_t d);

// Detects the format from the first bytes/lines of the (decompressed) content.
DataFormat DetectFormat(const std::string& path);
DataFormat DetectContentFormat(std::string_view content);

// ReadDataset on content already in memory: plain bytes (gzip is not decoded here), parsed by the
// same readers with the same checks; `name` stands for the file in messages. For idx,
// `idx_labels` is the labels file's content, named in messages by options.idx_labels (or
// "NAME (labels)" when that is empty).
Dataset ParseDataset(std::string_view content, const std::string& name,
                     const ReadOptions& options = {}, std::string_view idx_labels = {});

}  // namespace rfk::host
