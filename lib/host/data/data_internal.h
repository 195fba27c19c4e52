// Internals of the data readers (rfk/host/data.hpp), shared by their files: the input (a zlib
// file or a caller's buffer), the line splitter, number parsing and message helpers
// (data_input.cc), and one reader per format (data_libsvm.cc, data_csv.cc, data_idx.cc). Every
// error is a DataError whose message starts with "FILE:LINE: " or names the byte offset.
// All state is local to a call.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rfk/host/data.hpp"

namespace rfk::host::data_io {

// Read size of text readers and of idx payload chunks.
inline constexpr std::size_t kChunk = std::size_t{1} << 20;

[[noreturn]] void Fail(std::string msg);

// "PATH:LINE: ", the prefix of a message about one line.
std::string At(const std::string& path, std::uint64_t line);

// Quotes a piece of input for an error message: at most 40 bytes, non-printable bytes escaped.
std::string Quote(std::string_view s);

inline bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

bool HasControlChar(std::string_view s);

// The next blank-separated token of [p, e), advancing p past it; empty at the end.
inline std::string_view NextToken(const char*& p, const char* e) {
  while (p < e && IsBlank(*p)) ++p;
  const char* b = p;
  while (p < e && !IsBlank(*p)) ++p;
  return {b, static_cast<std::size_t>(p - b)};
}

enum class Num { kOk, kBad, kRange, kNonFinite };

// Parses all of [b, e) as a finite float. Accepts a leading '+'; tiny values round to (signed)
// zero or a subnormal; values beyond FLT_MAX are kRange; nan/inf are kNonFinite.
Num ParseFloat(const char* b, const char* e, float* out);
inline Num ParseFloat(std::string_view s, float* out) {
  return ParseFloat(s.data(), s.data() + s.size(), out);
}

// The bytes a reader consumes: a file read through zlib (gzip'd or plain, detected from the
// content), or a caller's buffer of plain (already decompressed) content.
class Input {
 public:
  // Opens the file; throws DataError naming the path and the reason.
  explicit Input(const std::string& path);
  // `first_line`: the line number of the content's first line (a chunk of a file: ChunkedReader).
  Input(std::string_view content, const std::string& name, std::uint64_t first_line = 1)
      : path_(name), mem_(content), first_line_(first_line) {}
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input();

  // Reads up to n bytes of decompressed content; returns fewer only at the end of the data.
  // Throws DataError on read errors and on corrupt or truncated compressed data.
  std::size_t Read(void* dst, std::size_t n);

  // Closes the file and reports any error zlib deferred to close time. Call after reading all.
  void Close();

  const std::string& path() const { return path_; }
  std::uint64_t first_line() const { return first_line_; }

  // The read size for LineReader: 1 MiB for files; for memory, a quarter of the content (a buffer
  // beyond the content would be wasted), which also takes short inputs through the refill path
  // that long lines take in files.
  std::size_t Chunk() const;

 private:
  [[noreturn]] void ThrowError();

  std::string path_;
  gzFile file_ = nullptr;
  std::string_view mem_;  // the unread rest of a memory input
  std::uint64_t first_line_ = 1;
};

// Splits decompressed content into lines. A line excludes its "\n" or "\r\n"; a last line
// without a newline is still returned; a UTF-8 byte order mark before line 1 is dropped.
class LineReader {
 public:
  LineReader(Input& file, std::size_t chunk)
      : file_(file), chunk_(chunk), line_no_(file.first_line() - 1) {
    buf_.resize(chunk_);
  }

  // The next line (valid until the next call), or false at the end of the data. Throws
  // DataError for a line longer than 2^30 bytes.
  bool Next(std::string_view* line);

  // 1-based number of the line last returned by Next.
  std::uint64_t line_no() const { return line_no_; }
  const std::string& path() const { return file_.path(); }
  void Close() { file_.Close(); }

 private:
  void Emit(std::size_t stop, std::string_view* line);

  Input& file_;
  std::size_t chunk_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;  // start of the unconsumed data
  std::size_t scan_ = 0;   // [begin_, scan_) holds no '\n'
  std::size_t end_ = 0;    // end of the valid data
  bool eof_ = false;
  std::uint64_t line_no_;
};

// An empty dataset of `format` read from `path`: what each reader starts from.
inline Dataset NewDataset(const std::string& path, DataFormat format) {
  Dataset ds;
  ds.source = path;
  ds.format = format;
  return ds;
}

// ---- CSV internals (data_csv.cc, data_csv_columns.cc)

// The field separator ReadOptions::csv_sep = 0 detects from a file's first line.
char DetectDelimiter(std::string_view line);

// ParseFloat with a decimal mark: with ',' a field's one comma stands for the point ("2,5" is 2.5;
// "1.234,5" is no number).
Num ParseNumber(std::string_view s, char decimal, float* out);

// A field's content: trimmed and, for a double-quoted field, the text between the quotes
// (trimmed) with "" undoubled.
std::string FieldValue(std::string_view raw);

// Which fields of a CSV row become what: column j of the dataset is field features[j], the
// label is field `label` and field `index` is an index column dropped (kNone: none).
struct CsvPlan {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> features;
  std::size_t label = kNone;
  std::size_t index = kNone;
  std::size_t weight = kNone;  // ReadOptions::weight_column
  // Reading for a model whose feature names one-hot encode a text column ("color=red", see
  // Categories): feature j is 1 where field features[j] holds category[j], else 0. Empty: no such
  // features; an empty string: feature j is a number.
  std::vector<std::string> category;
};

// A column name that usually names the label (label, class, target, y, outcome, response,
// species; any case): the readers' hints when such a column is not the label.
bool IsLabelName(std::string_view name);

// ---- Categorical columns (data_csv_categories.cc)
//
// Training (ReadOptions::categorical, with a header): a feature column whose first data row holds
// text (not a number, a boolean or a missing value) is categorical. While reading, Categories
// numbers each column's texts in order of appearance (the dataset holds that number); then
// Expand replaces the column by one 0/1 feature per text, in sorted order, named "NAME=TEXT":
// the names the model stores are the encoding, which predict and eval read back (ByName:
// CategoryOf). A missing value is NaN in every one of its features (--missing fills them with
// the categories' frequencies); more than kMaxCategories texts is an error (no category).
class Categories {
 public:
  static constexpr std::size_t kMaxCategories = 100;

  bool Any() const { return !columns_.empty(); }
  bool Has(std::size_t j) const { return j < index_.size() && index_[j] >= 0; }
  // Makes feature j (of d) categorical.
  void Add(std::size_t j, std::size_t d);
  // The number of `text` in feature j's dictionary (added at first sight).
  float Number(std::size_t j, const std::string& text);
  // Replaces the categorical features by their one-hot columns (see above); notes say which.
  void Expand(const std::string& path, Dataset* ds) const;

 private:
  std::vector<int> index_;  // per feature: its column in columns_, or -1
  struct Column {
    std::size_t feature;
    std::map<std::string, std::uint32_t> number;  // text -> its number (order of appearance)
  };
  std::vector<Column> columns_;
};

// Model reads: the header field that model feature name `name` one-hot encodes -- the longest
// header name c with name = c + "=" + category -- and *category; kNone when there is none.
std::size_t CategoryOf(const std::vector<std::string>& names, const std::vector<std::size_t>& fields,
                       const std::string& name, std::string* category);

// Whether the first row (raw fields f1; f2: the second row's, or null) is a header
// (ReadOptions::csv_header); if so, *names gets its field values, one per field of the data rows
// (an empty name in front when the header has one field fewer, R's write.table). `at` is
// "PATH:LINE: " for errors; notes go to *ds.
bool DetectHeader(const std::vector<std::string_view>& f1, const std::vector<std::string_view>* f2,
                  const ReadOptions& opt, const std::string& at, std::vector<std::string>* names, Dataset* ds);

// The plan for rows of nf fields, with the header's names (null: no header): see ReadOptions
// (index_col, label_col, label_name, labels, model_*). Fills ds's feature_names, label_name,
// notes and warnings; throws DataError prefixed by `at`.
CsvPlan PlanColumns(const std::vector<std::string>* names, std::size_t nf, const ReadOptions& opt,
                    const std::string& at, Dataset* ds);

// After reading a file without a header, for training: drops the first feature column when it
// holds the row numbers 0, 1, 2, ... or 1, 2, 3, ... (IndexColumn::kAuto), with a note.
void DropRowNumbers(const ReadOptions& opt, const CsvPlan& plan, Dataset* ds);

// After reading a file for training (IndexColumn::kAuto, 20 rows or more): a warning for each
// feature column that holds a different whole number on every row, as a row identifier would.
// O(rows) per column, plus a sort for a column whose range could hold that many distinct values.
void WarnIdentifierValues(const ReadOptions& opt, const CsvPlan& plan, Dataset* ds);

// The readers: each reads all of `file` and closes it (reporting deferred zlib errors).
Dataset ReadLibsvm(Input& file, const ReadOptions& opt);
Dataset ReadCsv(Input& file, const ReadOptions& opt);
// `open_labels` opens the labels file (null: none, a features-only read); it is called only once
// the images file has been read.
Dataset ReadIdx(Input& images, const std::function<Input*()>& open_labels);

// True if the 4 bytes at h are an idx magic number (a known element type, 1 to 4 dimensions).
bool IsIdxMagic(const unsigned char* h);

// The labels file of an MNIST-style images file ("images-idx3-ubyte" -> "labels-idx1-ubyte");
// throws DataError if the name has no such part.
std::string DeriveIdxLabels(const std::string& images);

}  // namespace rfk::host::data_io
