// ChunkedReader (rfk/host/data.hpp): a LIBSVM or CSV file read in chunks of rows, each chunk
// parsed by the readers of ReadDataset (ParseDataset on the chunk's text), with the file-wide
// decisions made once so that the chunks together are ReadDataset's rows.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "data/data_internal.h"

namespace rfk::host {

namespace {

// The note the CSV reader leaves when it drops a column of row numbers (DropRowNumbers).
constexpr std::string_view kRowNumbersNote = "holds the row numbers";

// Bytes a parsed chunk holds (the memory guard's share of a chunk).
double ChunkMemory(const Dataset& c) {
  return 4.0 * static_cast<double>(c.dense.size() + c.col_idx.size() + c.values.size()) +
         8.0 * static_cast<double>(c.row_ptr.size() + c.lines.size() + c.weights.size()) +
         static_cast<double>(c.labels.size() * sizeof(std::string));
}

bool IsNoRowsError(const DataError& e, const std::string& name) {
  return std::string_view(e.what()) == name + ": no data rows";
}

}  // namespace

ChunkedReader::ChunkedReader(const std::string& path, const ReadOptions& options, std::size_t chunk_bytes)
    : path_(path), options_(options), chunk_bytes_(std::max<std::size_t>(chunk_bytes, 1)) {
  if (options_.format == DataFormat::kAuto) options_.format = DetectFormat(path);
  if (options_.format == DataFormat::kIdx)
    throw DataError(path + ": idx files are read whole, not in chunks (train them without --stream, within "
                    "--memory-limit; or convert them to CSV)");
  if (!options_.weight_column.empty() && options_.format != DataFormat::kCsv)  // as ReadDataset
    throw DataError(path + ": a weight column (--weight-column) needs a CSV file; this is " +
                    DataFormatName(options_.format) + " (write the weights as a CSV column, or convert the file)");
  first_index_ = options_.index_col;
  Scan();
}

// The scan: one pass that checks every row and decides what needs all rows. A column of row
// numbers that the first chunk dropped but a later row (or more than 2^24 rows, the CSV reader's
// limit) contradicts is kept after all: the file is scanned again with it kept.
void ChunkedReader::Scan() {
  for (;;) {
    meta_ = Dataset();
    std::size_t cols = 0;
    Pass([&](std::size_t, Dataset& chunk) {
      cols = std::max(cols, chunk.cols);
      meta_.missing += chunk.missing;
      largest_chunk_ = std::max(largest_chunk_, ChunkMemory(chunk));
    });
    const bool contradicted = row_numbers_ && (row_numbers_broken_ || meta_.rows > (std::size_t{1} << 24));
    if (!contradicted) {
      meta_.cols = options_.format == DataFormat::kLibsvm ? std::max(options_.min_cols, cols) : cols;
      return;
    }
    first_index_ = IndexColumn::kKeep;
  }
}

void ChunkedReader::ForEach(const std::function<void(std::size_t first, const Dataset& chunk)>& fn) {
  Pass([&](std::size_t first, Dataset& chunk) {
    chunk.cols = meta_.cols;  // LIBSVM: the highest index of the whole file
    fn(first, chunk);
  });
}

// Reads the file from the start, cutting its text after the last newline of each chunk_bytes_
// read, and calls fn(first row, parsed chunk) for each chunk with rows.
void ChunkedReader::Pass(const std::function<void(std::size_t, Dataset&)>& fn) {
  data_io::Input in(path_);
  std::string buf;
  std::uint64_t line = 1;  // the line number of buf's first line
  std::size_t rows = 0;
  bool eof = false;
  decided_ = false;
  row_numbers_broken_ = false;
  chunks_ = 0;
  while (!eof || !buf.empty()) {
    std::size_t cut = std::string::npos;
    while (!eof) {  // read until a cut: a newline (the first chunk: kFirstChunkLines of them)
      const std::size_t old = buf.size();
      buf.resize(old + chunk_bytes_);
      const std::size_t got = in.Read(buf.data() + old, chunk_bytes_);
      buf.resize(old + got);
      eof = got < chunk_bytes_;
      const std::size_t nl = buf.rfind('\n');
      const bool enough = decided_ || std::count(buf.begin(), buf.end(), '\n') >= std::ptrdiff_t{kFirstChunkLines};
      if (nl != std::string::npos && enough) {
        cut = nl + 1;
        break;
      }
    }
    if (eof) cut = buf.size();
    const std::string_view text(buf.data(), cut);
    Dataset chunk = ParseChunk(text, line, !decided_);
    line += static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
    buf.erase(0, cut);
    if (chunk.rows == 0) continue;
    if (!decided_) {
      decided_ = true;
      meta_.source = path_;
      meta_.format = chunk.format;
      meta_.sparse = chunk.sparse;
      meta_.has_labels = chunk.has_labels;
      meta_.feature_names = chunk.feature_names;
      meta_.label_name = chunk.label_name;
      meta_.notes = chunk.notes;
      meta_.warnings = chunk.warnings;
    } else {
      CheckRowNumbers(rows, &chunk);
    }
    ++chunks_;
    fn(rows, chunk);
    rows += chunk.rows;
  }
  in.Close();
  if (rows == 0) data_io::Fail(path_ + ": no data rows");
  meta_.rows = rows;
}

// Parses one chunk's text (lines from `line` on); an empty chunk (blank or comment lines only)
// has no rows. The first chunk with rows decides the CSV separator, header and row-number column.
Dataset ChunkedReader::ParseChunk(std::string_view text, std::uint64_t line, bool first) {
  ReadOptions o = options_;
  o.categorical = false;  // the features of a categorical column follow from the whole file's texts
  std::string content;
  if (o.format == DataFormat::kLibsvm) o.min_cols = 0;
  if (o.format == DataFormat::kCsv && first) o.index_col = first_index_;
  if (o.format == DataFormat::kCsv && !first) {
    o.csv_sep = delim_;
    o.csv_decimal = decimal_;
    o.csv_header = header_row_ ? 1 : 0;
    if (!header_row_) o.index_col = IndexColumn::kKeep;  // row numbers: CheckRowNumbers
    if (header_row_) {
      content = header_ + "\n";
      --line;
    }
  }
  content.append(text);
  Dataset chunk;
  try {
    data_io::Input in(content, path_, line);  // ParseDataset's readers, lines numbered from `line`
    chunk = o.format == DataFormat::kCsv ? data_io::ReadCsv(in, o) : data_io::ReadLibsvm(in, o);
  } catch (const DataError& e) {
    if (IsNoRowsError(e, path_)) return Dataset();
    throw;
  }
  if (o.format == DataFormat::kCsv && first) {
    std::string_view rest = text;
    while (!rest.empty()) {  // the header, if any, is the first non-blank line
      const std::size_t nl = rest.find('\n');
      std::string_view l = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (line == 1 && l.substr(0, 3) == "\xEF\xBB\xBF") l.remove_prefix(3);
      if (data_io::Trim(l).empty()) continue;
      header_ = std::string(l);
      break;
    }
    delim_ = chunk.csv_sep;
    decimal_ = chunk.csv_decimal;
    header_row_ = !chunk.feature_names.empty();
    row_numbers_ = false;
    for (const std::string& note : chunk.notes) {  // "... the row numbers 0, 1, 2, ..." or "1, 2, 3"
      const std::size_t at = note.find(kRowNumbersNote);
      if (at == std::string::npos) continue;
      row_numbers_ = true;
      row_number_base_ = note.compare(at + kRowNumbersNote.size(), 3, " 0,") == 0 ? 0.0f : 1.0f;
    }
  }
  return chunk;
}

// A later chunk of a file whose first chunk held row numbers in column 1 (dropped there): checks
// that they go on (else the scan keeps the column after all) and drops the column.
void ChunkedReader::CheckRowNumbers(std::size_t first, Dataset* chunk) {
  if (!row_numbers_ || options_.format != DataFormat::kCsv) return;
  const std::size_t n = chunk->rows, d = chunk->cols;
  for (std::size_t r = 0; r < n && !row_numbers_broken_; ++r)
    if (chunk->dense[r * d] != row_number_base_ + static_cast<float>(first + r)) row_numbers_broken_ = true;
  for (std::size_t r = 0; r < n; ++r)
    std::copy(chunk->dense.begin() + static_cast<std::ptrdiff_t>(r * d + 1),
              chunk->dense.begin() + static_cast<std::ptrdiff_t>(r * d + d),
              chunk->dense.begin() + static_cast<std::ptrdiff_t>(r * (d - 1)));
  chunk->dense.resize(n * (d - 1));
  chunk->cols = d - 1;
}

namespace {

// The file's decompressed size: a plain file's size; a gzip'd file's ISIZE trailer (modulo
// 2^32), or 4x its compressed size if that is larger (a wrapped ISIZE, or concatenated members).
double TextBytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return 0;
  unsigned char magic[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  const bool gz = std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  std::fseek(f, 0, SEEK_END);
  const double size = static_cast<double>(std::ftell(f));
  double text = size;
  if (gz && std::fseek(f, -4, SEEK_END) == 0 && std::fread(tail, 1, 4, f) == 4) {
    const double isize = tail[0] + 256.0 * (tail[1] + 256.0 * (tail[2] + 256.0 * tail[3]));
    text = std::max(isize, 4.0 * size);
  }
  std::fclose(f);
  return text;
}

}  // namespace

DataSizeEstimate EstimateDataSize(const std::string& path, const ReadOptions& options) {
  DataSizeEstimate e;
  e.format = options.format == DataFormat::kAuto ? DetectFormat(path) : options.format;
  const double text = TextBytes(path);
  if (e.format == DataFormat::kIdx) {
    e.bytes = 4.0 * text;  // bytes become floats
    return e;
  }
  std::string head(std::size_t{1} << 20, '\0');
  {
    data_io::Input in(path);
    head.resize(in.Read(head.data(), head.size()));
  }
  if (head.size() == (std::size_t{1} << 20)) head.resize(head.rfind('\n') == std::string::npos ? head.size() : head.rfind('\n') + 1);
  ReadOptions o = options;
  o.format = e.format;
  const Dataset d = ParseDataset(head, path, o);
  const double scale = head.empty() ? 0 : text / static_cast<double>(head.size());
  e.rows = static_cast<double>(d.rows) * scale;
  e.cols = d.cols;
  e.sparse = d.sparse;
  e.bytes = ChunkMemory(d) * scale;
  return e;
}

}  // namespace rfk::host
