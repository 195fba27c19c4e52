/// @file
/// Host-only data readers: LIBSVM/svmlight, CSV and idx (MNIST family), gzip'd or plain.
/// Allocates and throws (rfk::host::DataError); never linked into the device core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rfk::host {

/// Every reader error carries "FILE:LINE: what" (LINE omitted when it does not apply, e.g. binary
/// idx files, where the message names the byte offset instead).
class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A data file's format; kAuto: detected from its content (DetectFormat).
enum class DataFormat { kAuto, kLibsvm, kCsv, kIdx };

/// "auto", "libsvm" (alias "svmlight"), "csv", "idx" -> format; throws DataError otherwise.
DataFormat ParseDataFormat(const std::string& name);
const char* DataFormatName(DataFormat f);  ///< "auto", "libsvm", "csv" or "idx"

/// Whether a file has a label column: training and evaluation need one; prediction takes files
/// with or without (kOptional: decided from the columns, see ReadOptions::model_inputs).
enum class LabelColumn { kRequired, kOptional, kAbsent };

/// CSV: a leading column of row names or numbers (R's write.csv, pandas' to_csv index).
/// kAuto drops it with a note when the header leaves its name empty (or the header has one field
/// fewer than the rows, R's write.table) or, without a header, when it holds the row numbers
/// 0, 1, 2, ... or 1, 2, 3, ... in file order; kDrop always drops the first column; kKeep never.
enum class IndexColumn { kAuto, kKeep, kDrop };

/// How ReadDataset reads a file: its format, the label and weight columns, CSV's header, separator
/// and columns, and (for a model's data) the columns and label the model expects.
struct ReadOptions {
  DataFormat format = DataFormat::kAuto;  ///< kAuto: detected from the content
  /// CSV: 0-based label column; negative counts from the end (-1 = last column, the default).
  int label_col = -1;
  /// CSV: the label column by its header name (takes precedence over label_col; needs a header).
  std::string label_name;
  /// CSV: header handling. -1 = detect: the first line is a header if one of its feature fields
  /// is text (not a number, and not a missing-value token such as NA), if its fields are the
  /// column numbers 0, 1, 2, ... or 1, 2, 3, ... (pandas' header of unnamed columns), or if its
  /// label is not a number while the next row's label is (house_16H's header "1,2,...,16,y").
  /// 0 = no header, 1 = header present.
  int csv_header = -1;
  /// CSV: the field separator; 0 = detect from the first line (the most frequent of ',', ';' and
  /// tab outside quotes; runs of blanks when none occurs). ' ' means runs of blanks.
  char csv_sep = 0;
  /// CSV: the decimal mark of numbers, '.' or ','; 0 = detect: ',' when the separator is not ','
  /// (detected or given) and the fields of the first data row that hold a comma are all numbers
  /// written with one decimal comma ("5,1;3,5;1,4;setosa"). Detection leaves a note.
  char csv_decimal = 0;
  /// kAuto also drops columns named like identifiers (id, ID, Id, row_id, PassengerId, customer_id,
  /// Unnamed: 0, ...; see IsIdentifierName) with a note; reading for a model, only those that are
  /// not among the model's feature names. kKeep keeps them.
  IndexColumn index_col = IndexColumn::kAuto;
  /// CSV: columns to leave out (drop_cols) or the only feature columns to read (use_cols), each a
  /// header name or a 0-based index among the columns after an index column (negative from the
  /// end), as label_col counts them. The label and weight columns are never features and need not
  /// be listed in use_cols. A name or index that matches no column is an error; so is dropping the
  /// label. Reading for a model that stores feature names, a file's columns are still matched by
  /// name: drop_cols names what is to be skipped besides them.
  std::vector<std::string> drop_cols;
  std::vector<std::string> use_cols;  ///< (see drop_cols)
  /// CSV, training: a feature column of text (with a header) is one-hot encoded, one 0/1 feature
  /// "NAME=TEXT" per distinct text (at most 100), with a note; false: such a column is an error.
  /// The chunked reader sets it false (the texts of the whole file decide the features). Reading
  /// for a model, features named "NAME=TEXT" encode column NAME the same way; a text seen in no
  /// training row is all zeros, counted in a note.
  bool categorical = true;
  /// CSV: a column of row weights taken out of the features (rfk train --weight-column): a header
  /// name, or a 0-based index among the columns after an index column (negative from the end).
  /// Empty: none. An explicit label_col counts the columns with the weight column still in; the
  /// default label is the last column other than the weight column. Each weight must be a finite
  /// number >= 0 (else an error naming file:line). Reading for a model (train
  /// --test), the column is taken out the same way (its weights checked, not used).
  /// LIBSVM and idx files have no weight column: setting this for them is an error.
  std::string weight_column;
  LabelColumn labels = LabelColumn::kRequired;  ///< whether the file has a label column (LabelColumn)
  /// Missing values (an empty field, NA, N/A, NaN, ?, null, None; see IsMissingValue) are an
  /// error naming file:line and column unless this is set; then they are read as NaN and counted
  /// in Dataset::missing (CSV features only; a missing label is always an error where labels are
  /// required).
  bool missing_as_nan = false;
  /// CSV, reading data for a model (predict, eval): the model's input dimension d (0: not reading
  /// for a model), and its feature names and label name when it stores them. A file with a header
  /// is matched to the names (columns reordered; missing and unexpected columns an error); else
  /// columns are taken by position: d fields are features only, d + 1 features and a label. With
  /// LabelColumn::kAbsent, a header column named model_label (not a feature's name) is skipped.
  std::size_t model_inputs = 0;
  std::vector<std::string> model_names;  ///< (see model_inputs)
  std::string model_label;               ///< (see model_inputs)
  /// idx: the labels file. Empty = derive from the images file name by replacing
  /// "images-idx3-ubyte" with "labels-idx1-ubyte" (works for MNIST and Fashion-MNIST names).
  std::string idx_labels;
  /// Minimum input dimension: LIBSVM files may not mention the highest feature index (a9a.t has
  /// no feature 123), so callers pass the model's dimension here. The result has
  /// cols = max(min_cols, highest index seen).
  std::size_t min_cols = 0;
  /// If non-zero, a row with a feature index above this is an error (file:line names it).
  std::size_t max_cols = 0;
};

/// A dataset held in memory. Exactly one of the dense/sparse representations is filled.
struct Dataset {
  std::string source;                  ///< file path, for messages
  DataFormat format = DataFormat::kAuto;  ///< the format actually read
  std::size_t rows = 0;                ///< rows read
  std::size_t cols = 0;                ///< input dimension d
  bool sparse = false;                 ///< CSR (row_ptr, col_idx, values) rather than dense

  std::vector<float> dense;            ///< rows * cols, row-major (when !sparse)

  std::vector<std::uint64_t> row_ptr;  ///< rows + 1 (when sparse; CSR)
  std::vector<std::uint32_t> col_idx;  ///< 0-based, strictly increasing within a row
  std::vector<float> values;           ///< the non-zero values, as col_idx

  std::vector<std::string> labels;     ///< label text per row, as written (trimmed); empty when
  bool has_labels = true;              ///<   !has_labels (a features-only file)
  std::vector<std::uint64_t> lines;    ///< 1-based source line of each row (idx: record index + 1)

  /// CSV with a header: the name of each feature column, in the order of the columns of `dense`
  /// (cols names), and the label column's name; empty without a header.
  std::vector<std::string> feature_names;
  std::string label_name;              ///< (see feature_names)
  std::uint64_t missing = 0;           ///< values read as NaN (ReadOptions::missing_as_nan)
  std::vector<double> weights;         ///< one per row with ReadOptions::weight_column, else empty
  /// What the reader decided that a user should know (a header of column numbers, a dropped index
  /// column, columns matched by name, ...) and what may be wrong (columns taken by position where
  /// names were expected): one sentence each, without the file name.
  std::vector<std::string> notes;
  std::vector<std::string> warnings;   ///< (see notes)
  /// CSV: the separator and decimal mark the reader used (given or detected); 0 for other formats.
  char csv_sep = 0;
  char csv_decimal = 0;                ///< (see csv_sep)
};

/// True for the spellings of a missing value: an empty field, NA, N/A, n/a, NaN, nan, -nan, ?,
/// null, NULL, None, `<NA>`, `#N/A` (a field's text, already unquoted and trimmed).
bool IsMissingValue(std::string_view text);

/// True for a column name that says the column identifies rows rather than describing them
/// (IndexColumn::kAuto drops such columns): id, ID, Id, row_id, rowid, row.names, "Unnamed: 0"
/// (pandas' re-saved index) and names ending in a separated or capitalised id: customer_id,
/// patient.id, "Patient ID", PassengerId, CustomerID. "lipid", "Acid" or "IDEA" are not.
bool IsIdentifierName(std::string_view name);

/// The values TRUE/FALSE, True/False, true/false as 1 and 0 (a boolean column is a 0/1 feature).
bool ParseBoolean(std::string_view text, float* out);

/// Reads a whole file (gzip detected from content, via zlib). Throws DataError on any problem:
/// missing file, bad syntax, non-finite value, ragged CSV rows, inconsistent idx files, ...
Dataset ReadDataset(const std::string& path, const ReadOptions& options = {});

/// Writes row `row` of `data` as a dense vector x of length d: absent sparse entries are 0 and
/// columns at or beyond d are dropped.
void DenseRow(const Dataset& data, std::size_t row, float* x, std::size_t d);

/// Detects the format from the first bytes/lines of the (decompressed) content.
DataFormat DetectFormat(const std::string& path);
/// DetectFormat on content already in memory (decompressed).
DataFormat DetectContentFormat(std::string_view content);

/// ReadDataset on content already in memory: plain bytes (gzip is not decoded here), parsed by the
/// same readers with the same checks; `name` stands for the file in messages. For idx,
/// `idx_labels` is the labels file's content, named in messages by options.idx_labels (or
/// "NAME (labels)" when that is empty).
Dataset ParseDataset(std::string_view content, const std::string& name,
                     const ReadOptions& options = {}, std::string_view idx_labels = {});

/// What reading a file whole would hold in memory, estimated from its size (a gzip'd file's
/// trailer, its uncompressed size modulo 2^32, or 4x its compressed size when larger) and its
/// first 1 MiB of text, parsed: rows, the input dimension seen there and the Dataset's bytes
/// (values, labels and line numbers). For the choice between reading a file and streaming it.
struct DataSizeEstimate {
  DataFormat format = DataFormat::kAuto;  ///< the format detected
  double rows = 0;                        ///< estimated rows
  double bytes = 0;                       ///< estimated Dataset bytes
  std::size_t cols = 0;                   ///< the input dimension seen in the first MiB
  bool sparse = false;                    ///< whether the Dataset would be CSR
};
/// The estimate above for the file at `path`, read as `options` say. Throws DataError as ReadDataset.
DataSizeEstimate EstimateDataSize(const std::string& path, const ReadOptions& options = {});

/// A LIBSVM or CSV file (gzip'd or plain) read in chunks of rows, for data larger than memory
/// (rfk train --stream). Each chunk is about `chunk_bytes` of decompressed text cut at a line
/// boundary and parsed by the same reader as ReadDataset (ParseDataset), its line numbers offset so
/// that errors name FILE:LINE of the file; the decisions ReadDataset makes for the whole file are
/// made once: the CSV separator, header and column plan from the first chunk (which holds at least
/// kFirstChunkLines lines; later chunks are parsed with the header line in front of them), a CSV
/// index column of row numbers by all rows, LIBSVM's input dimension as the highest index of all.
/// So the chunks of a pass, concatenated, are ReadDataset's rows: the same values, labels, line
/// numbers and weights (tests/training/test_stream.cc). idx files are refused (DataError): read them whole.
class ChunkedReader {
 public:
  static constexpr std::size_t kFirstChunkLines = 16;  ///< the first chunk holds at least these lines

  /// Scans the whole file once (every chunk parsed and checked: a bad row anywhere is a DataError
  /// naming FILE:LINE here, before training starts), counting the rows.
  ChunkedReader(const std::string& path, const ReadOptions& options, std::size_t chunk_bytes);

  /// ReadDataset's result without the rows' contents: source, format, rows, cols, sparse, feature
  /// and label names, notes and warnings, missing.
  const Dataset& meta() const { return meta_; }

  /// Reads the file again: fn(first, chunk) for each chunk of consecutive rows, in file order;
  /// `first` is the global index of the chunk's first row and chunk.cols == meta().cols.
  void ForEach(const std::function<void(std::size_t first, const Dataset& chunk)>& fn);

  std::size_t chunk_bytes() const { return chunk_bytes_; }       ///< the text per chunk asked for
  std::size_t chunks() const { return chunks_; }                 ///< chunks with rows, per pass
  double largest_chunk_bytes() const { return largest_chunk_; }  ///< a parsed chunk's memory

 private:
  void Pass(const std::function<void(std::size_t, Dataset&)>& fn);
  Dataset ParseChunk(std::string_view text, std::uint64_t line, bool first);
  void CheckRowNumbers(std::size_t first, Dataset* chunk);
  void Scan();

  std::string path_;
  ReadOptions options_;
  std::size_t chunk_bytes_;
  Dataset meta_;
  bool decided_ = false;          ///< the first chunk with rows was parsed (this pass)
  std::string header_;            ///< CSV: the header line, put in front of later chunks
  char delim_ = ',';              ///< CSV: the separator of the file
  char decimal_ = '.';            ///< CSV: its decimal mark
  bool header_row_ = false;       ///< CSV: the file has a header
  IndexColumn first_index_ = IndexColumn::kAuto;  ///< CSV: the first chunk's index_col
  bool row_numbers_ = false;      ///< CSV: column 1 holds row numbers and is dropped
  bool row_numbers_broken_ = false;
  float row_number_base_ = 0;
  std::size_t chunks_ = 0;
  double largest_chunk_ = 0;
};

}  // namespace rfk::host
