// Host-side dataset readers (LIBSVM/svmlight, CSV, idx), gzip'd or plain via zlib.
//
// Text formats are streamed through LineReader in 1 MiB chunks and parsed by hand
// (std::from_chars); idx payloads are converted chunk by chunk. All state is local to a call.
#include "rfk/host/data.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <optional>
#include <system_error>
#include <utility>

namespace rfk::host {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
// Upper bound on one text line; beyond it the input is treated as garbage.
constexpr std::size_t kMaxLine = std::size_t{1} << 30;
// Bytes of decompressed content DetectFormat looks at.
constexpr std::size_t kDetectBytes = std::size_t{64} << 10;

[[noreturn]] void Fail(std::string msg) { throw DataError(std::move(msg)); }

std::string At(const std::string& path, std::uint64_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

// Quotes a piece of input for an error message: at most 40 bytes, non-printable bytes escaped.
std::string Quote(std::string_view s) {
  constexpr std::size_t kMax = 40;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  out += s.size() > kMax ? "'..." : "'";
  return out;
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

bool HasControlChar(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// ---------------------------------------------------------------------------------------------
// Number parsing.

enum class Num { kOk, kBad, kRange, kNonFinite };

// For a string from_chars accepted as a decimal number but whose value is outside double's range:
// true if it is huge (overflow), false if it is tiny (underflow).
bool DecimalIsHuge(const char* b, const char* e) {
  if (b < e && (*b == '-' || *b == '+')) ++b;
  long long int_digits = 0;     // digits before '.'
  long long first_nonzero = -1;  // position of the first nonzero digit among all digits
  long long pos = 0;
  bool in_fraction = false;
  for (; b < e && *b != 'e' && *b != 'E'; ++b) {
    if (*b == '.') {
      in_fraction = true;
      continue;
    }
    if (first_nonzero < 0 && *b != '0') first_nonzero = pos;
    if (!in_fraction) ++int_digits;
    ++pos;
  }
  if (first_nonzero < 0) return false;
  long long exp10 = 0;
  if (b < e) {  // exponent
    ++b;
    bool neg = false;
    if (b < e && (*b == '-' || *b == '+')) neg = *b++ == '-';
    for (; b < e; ++b) exp10 = std::min(exp10 * 10 + (*b - '0'), 1'000'000'000LL);
    if (neg) exp10 = -exp10;
  }
  // The first nonzero digit has weight 10^(int_digits - 1 - first_nonzero + exp10).
  return int_digits - 1 - first_nonzero + exp10 > 0;
}

// Parses all of [b, e) as a finite float. Accepts a leading '+'; tiny values round to (signed)
// zero or a subnormal; values beyond FLT_MAX are kRange; nan/inf are kNonFinite.
Num ParseFloat(const char* b, const char* e, float* out) {
  if (b < e && *b == '+') {
    ++b;
    if (b < e && (*b == '+' || *b == '-')) return Num::kBad;
  }
  if (b == e) return Num::kBad;
  float v = 0;
  auto [ptr, ec] = std::from_chars(b, e, v);
  if (ptr != e || ec == std::errc::invalid_argument) return Num::kBad;
  if (ec == std::errc::result_out_of_range) {
    double d = 0;
    auto [dptr, dec] = std::from_chars(b, e, d);
    if (dptr != e || dec == std::errc::invalid_argument) return Num::kBad;
    if (dec == std::errc::result_out_of_range) {
      if (DecimalIsHuge(b, e)) return Num::kRange;
      d = *b == '-' ? -0.0 : 0.0;
    }
    if (std::fabs(d) > static_cast<double>(FLT_MAX)) return Num::kRange;
    v = static_cast<float>(d);
  }
  if (!std::isfinite(v)) return Num::kNonFinite;
  *out = v;
  return Num::kOk;
}

Num ParseFloat(std::string_view s, float* out) {
  return ParseFloat(s.data(), s.data() + s.size(), out);
}

// ---------------------------------------------------------------------------------------------
// zlib file access.

// The bytes a reader consumes: a file read through zlib (gzip'd or plain, detected from the
// content), or a caller's buffer of plain (already decompressed) content.
class Input {
 public:
  explicit Input(const std::string& path) : path_(path) {
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      const int err = errno;
      Fail(path + ": cannot open: " +
           (err != 0 ? std::generic_category().message(err) : std::string("out of memory")));
    }
    gzbuffer(file_, 256u << 10);
  }
  Input(std::string_view content, const std::string& name) : path_(name), mem_(content) {}
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() {
    if (file_ != nullptr) gzclose(file_);
  }

  // Reads up to n bytes of decompressed content; returns fewer only at the end of the data.
  // Throws DataError on read errors and on corrupt or truncated compressed data.
  std::size_t Read(void* dst, std::size_t n) {
    if (file_ == nullptr) {  // memory (or a closed file, which has nothing left)
      const std::size_t k = std::min(n, mem_.size());
      if (k != 0) std::memcpy(dst, mem_.data(), k);
      mem_.remove_prefix(k);
      return k;
    }
    std::size_t total = 0;
    while (total < n) {
      const auto want = static_cast<unsigned>(std::min<std::size_t>(n - total, 1u << 30));
      const int got = gzread(file_, static_cast<char*>(dst) + total, want);
      if (got < 0) ThrowError();
      total += static_cast<std::size_t>(got);
      if (static_cast<unsigned>(got) < want) {
        // End of data, or an error zlib reports only through gzerror (a truncated stream
        // yields a short read with Z_BUF_ERROR).
        int errnum = Z_OK;
        gzerror(file_, &errnum);
        if (errnum != Z_OK) ThrowError();
        break;
      }
    }
    return total;
  }

  // Closes the file and reports any error zlib deferred to close time. Call after reading all.
  void Close() {
    mem_ = {};
    if (file_ == nullptr) return;
    const int rc = gzclose(file_);
    file_ = nullptr;
    if (rc == Z_BUF_ERROR) Fail(path_ + ": truncated compressed data (unexpected end of file)");
    if (rc != Z_OK) Fail(path_ + ": error closing file (zlib code " + std::to_string(rc) + ")");
  }

  const std::string& path() const { return path_; }

  // The read size for LineReader: 1 MiB for files; for memory, a quarter of the content (a buffer
  // beyond the content would be wasted), which also takes short inputs through the refill path
  // that long lines take in files.
  std::size_t Chunk() const {
    return file_ != nullptr ? kChunk : std::min(kChunk, mem_.size() / 4 + 16);
  }

 private:
  [[noreturn]] void ThrowError() {
    int errnum = Z_OK;
    std::string msg = gzerror(file_, &errnum);
    // zlib prefixes its messages with the path it was opened with.
    const std::string prefix = path_ + ": ";
    if (msg.compare(0, prefix.size(), prefix) == 0) msg.erase(0, prefix.size());
    if (errnum == Z_BUF_ERROR) Fail(path_ + ": truncated compressed data (" + msg + ")");
    if (errnum == Z_DATA_ERROR) Fail(path_ + ": corrupt compressed data (" + msg + ")");
    Fail(path_ + ": read error: " + msg);
  }

  std::string path_;
  gzFile file_ = nullptr;
  std::string_view mem_;  // the unread rest of a memory input
};

// Splits decompressed content into lines. A line excludes its "\n" or "\r\n"; a last line
// without a newline is still returned; a UTF-8 byte order mark before line 1 is dropped.
class LineReader {
 public:
  LineReader(Input& file, std::size_t chunk) : file_(file), chunk_(chunk) {
    buf_.resize(chunk_);
  }

  // The next line (valid until the next call), or false at the end of the data.
  bool Next(std::string_view* line) {
    for (;;) {
      if (scan_ < end_) {
        const void* nl = std::memchr(buf_.data() + scan_, '\n', end_ - scan_);
        if (nl != nullptr) {
          const std::size_t pos = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
          Emit(pos, line);
          begin_ = scan_ = pos + 1;
          return true;
        }
        scan_ = end_;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        Emit(end_, line);
        begin_ = scan_ = end_;
        return true;
      }
      if (end_ - begin_ > kMaxLine) {
        Fail(At(file_.path(), line_no_ + 1) + "line longer than " + std::to_string(kMaxLine) +
             " bytes");
      }
      if (begin_ > 0) {
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        scan_ -= begin_;
        begin_ = 0;
      }
      if (buf_.size() - end_ < chunk_) buf_.resize(std::max(buf_.size() * 2, end_ + chunk_));
      const std::size_t want = buf_.size() - end_;
      const std::size_t got = file_.Read(buf_.data() + end_, want);
      end_ += got;
      eof_ = got < want;
    }
  }

  // 1-based number of the line last returned by Next.
  std::uint64_t line_no() const { return line_no_; }
  const std::string& path() const { return file_.path(); }
  void Close() { file_.Close(); }

 private:
  void Emit(std::size_t stop, std::string_view* line) {
    std::string_view s(buf_.data() + begin_, stop - begin_);
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (line_no_ == 0 && s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
    ++line_no_;
    *line = s;
  }

  Input& file_;
  std::size_t chunk_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;  // start of the unconsumed data
  std::size_t scan_ = 0;   // [begin_, scan_) holds no '\n'
  std::size_t end_ = 0;    // end of the valid data
  bool eof_ = false;
  std::uint64_t line_no_ = 0;
};

// ---------------------------------------------------------------------------------------------
// LIBSVM / svmlight.

std::string_view NextToken(const char*& p, const char* e) {
  while (p < e && IsBlank(*p)) ++p;
  const char* b = p;
  while (p < e && !IsBlank(*p)) ++p;
  return {b, static_cast<std::size_t>(p - b)};
}

Dataset ReadLibsvm(Input& file, const ReadOptions& opt) {
  const std::string& path = file.path();
  Dataset ds;
  ds.source = path;
  ds.format = DataFormat::kLibsvm;
  ds.sparse = true;
  ds.row_ptr.push_back(0);
  std::uint64_t max_index = 0;

  LineReader in(file, file.Chunk());
  std::string_view line;
  while (in.Next(&line)) {
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const char* p = line.data();
    const char* const e = p + line.size();
    const std::string_view label = NextToken(p, e);
    if (label.empty()) continue;  // blank or comment line
    const auto where = [&] { return At(path, in.line_no()); };
    if (label.find(':') != std::string_view::npos)
      Fail(where() + "expected a label before the features, got " + Quote(label));
    float label_value = 0;
    if (ParseFloat(label, &label_value) != Num::kOk)
      Fail(where() + "expected a finite numeric label, got " + Quote(label));

    std::uint64_t prev = 0;
    for (;;) {
      const std::string_view tok = NextToken(p, e);
      if (tok.empty()) break;
      const std::size_t colon = tok.find(':');
      if (colon == std::string_view::npos)
        Fail(where() + "expected 'index:value', got " + Quote(tok));
      if (tok.substr(0, colon) == "qid") continue;
      const char* const tb = tok.data();
      std::uint64_t index = 0;
      const auto [iptr, iec] = std::from_chars(tb, tb + colon, index);
      if (colon == 0 || iptr != tb + colon || iec == std::errc::invalid_argument)
        Fail(where() + "bad feature index in " + Quote(tok));
      if (iec == std::errc::result_out_of_range)
        Fail(where() + "feature index in " + Quote(tok) + " is too large");
      if (index == 0) Fail(where() + "feature index 0 in " + Quote(tok) + " (indices are 1-based)");
      if (index <= prev) {
        Fail(where() + "feature indices must be strictly increasing: " + std::to_string(index) +
             " after " + std::to_string(prev));
      }
      if (opt.max_cols != 0 && index > opt.max_cols) {
        Fail(where() + "feature index " + std::to_string(index) +
             " exceeds the model's input dimension " + std::to_string(opt.max_cols));
      }
      if (index > std::uint64_t{UINT32_MAX})
        Fail(where() + "feature index " + std::to_string(index) + " is too large");
      float v = 0;
      switch (ParseFloat(tb + colon + 1, tb + tok.size(), &v)) {
        case Num::kOk: break;
        case Num::kBad: Fail(where() + "bad feature value in " + Quote(tok));
        case Num::kRange: Fail(where() + "feature value out of float range in " + Quote(tok));
        case Num::kNonFinite: Fail(where() + "non-finite feature value in " + Quote(tok));
      }
      ds.col_idx.push_back(static_cast<std::uint32_t>(index - 1));
      ds.values.push_back(v);
      prev = index;
    }
    max_index = std::max(max_index, prev);
    ds.labels.emplace_back(label);
    ds.lines.push_back(in.line_no());
    ds.row_ptr.push_back(ds.col_idx.size());
  }
  in.Close();
  if (ds.labels.empty()) Fail(path + ": no data rows");
  ds.rows = ds.labels.size();
  ds.cols = std::max<std::size_t>(opt.min_cols, static_cast<std::size_t>(max_index));
  return ds;
}

// ---------------------------------------------------------------------------------------------
// CSV.

// Splits a line into raw fields (still untrimmed, quotes kept). Double-quoted fields may contain
// the delimiter and "" escapes; a quoted field may not span lines.
void SplitFields(std::string_view line, char delim, std::vector<std::string_view>* fields,
                 const std::string& path, std::uint64_t line_no) {
  const auto where = [&] { return At(path, line_no); };
  fields->clear();
  const char* p = line.data();
  const char* const e = p + line.size();
  if (std::memchr(p, '"', line.size()) == nullptr) {
    for (;;) {
      const auto* d = static_cast<const char*>(std::memchr(p, delim, static_cast<std::size_t>(e - p)));
      if (d == nullptr) {
        fields->emplace_back(p, static_cast<std::size_t>(e - p));
        return;
      }
      fields->emplace_back(p, static_cast<std::size_t>(d - p));
      p = d + 1;
    }
  }
  for (;;) {
    const char* const b = p;
    const char* q = p;
    while (q < e && *q != delim && IsBlank(*q)) ++q;
    if (q < e && *q == '"') {
      for (++q;; ++q) {
        if (q == e) Fail(where() + "unterminated quoted field starting at column " +
                         std::to_string(fields->size() + 1));
        if (*q == '"') {
          if (q + 1 < e && q[1] == '"') {
            ++q;
          } else {
            break;
          }
        }
      }
      ++q;  // past the closing quote
      while (q < e && *q != delim && IsBlank(*q)) ++q;
      if (q < e && *q != delim) {
        Fail(where() + "column " + std::to_string(fields->size() + 1) +
             ": unexpected text after a closing quote");
      }
    } else {
      while (q < e && *q != delim) {
        if (*q == '"') {
          Fail(where() + "column " + std::to_string(fields->size() + 1) +
               ": quote inside an unquoted field");
        }
        ++q;
      }
    }
    fields->emplace_back(b, static_cast<std::size_t>(q - b));
    if (q == e) return;
    p = q + 1;
  }
}

// The field's content: trimmed, and for a quoted field the text between the quotes (trimmed),
// with "" still doubled.
std::string_view FieldText(std::string_view raw, bool* quoted) {
  raw = Trim(raw);
  *quoted = raw.size() >= 2 && raw.front() == '"' && raw.back() == '"';
  if (*quoted) raw = Trim(raw.substr(1, raw.size() - 2));
  return raw;
}

std::string LabelText(std::string_view raw) {
  bool quoted = false;
  const std::string_view s = FieldText(raw, &quoted);
  if (!quoted) return std::string(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] == '"' && i + 1 < s.size() && s[i + 1] == '"') ++i;
  }
  return out;
}

// True if the field reads as a number (finite or not): a header field never does.
bool LooksNumeric(std::string_view raw) {
  bool quoted = false;
  float v = 0;
  return ParseFloat(FieldText(raw, &quoted), &v) != Num::kBad;
}

// The most frequent of ',', ';', '\t' outside double quotes (ties prefer that order); ','
// when none occurs.
char DetectDelimiter(std::string_view line) {
  std::size_t comma = 0, semi = 0, tab = 0;
  bool in_quotes = false;
  for (const char c : line) {
    if (c == '"') in_quotes = !in_quotes;
    if (in_quotes) continue;
    comma += c == ',';
    semi += c == ';';
    tab += c == '\t';
  }
  if (comma >= semi && comma >= tab) return ',';
  return semi >= tab ? ';' : '\t';
}

bool IsBlankLine(std::string_view line) { return Trim(line).empty(); }

Dataset ReadCsv(Input& file, const ReadOptions& opt) {
  const std::string& path = file.path();
  Dataset ds;
  ds.source = path;
  ds.format = DataFormat::kCsv;

  LineReader in(file, file.Chunk());
  std::string_view line;
  std::string first, second;
  std::uint64_t first_no = 0, second_no = 0;
  while (in.Next(&line)) {
    if (!IsBlankLine(line)) {
      first.assign(line);
      first_no = in.line_no();
      break;
    }
  }
  if (first_no == 0) {
    in.Close();
    Fail(path + ": no data rows");
  }

  const char delim = DetectDelimiter(first);
  std::vector<std::string_view> fields;
  SplitFields(first, delim, &fields, path, first_no);
  const std::size_t nf = fields.size();
  if (nf < 2) {
    Fail(At(path, first_no) +
         "found a single column (no ',', ';' or tab delimiter); need a label and at least one "
         "feature column");
  }
  long long lc = opt.label_col;
  if (lc < 0) lc += static_cast<long long>(nf);
  if (lc < 0 || lc >= static_cast<long long>(nf)) {
    Fail(At(path, first_no) + "label column " + std::to_string(opt.label_col) +
         " is out of range for " + std::to_string(nf) + " columns");
  }
  const auto label_col = static_cast<std::size_t>(lc);

  bool header = opt.csv_header == 1;
  if (opt.csv_header == -1) {
    for (std::size_t c = 0; c < nf && !header; ++c) {
      if (c == label_col) continue;
      bool quoted = false;
      header = !FieldText(fields[c], &quoted).empty() && !LooksNumeric(fields[c]);
    }
    // All features numeric but a non-numeric label ("1,2,...,16,y"): a header if the next
    // row's label is numeric.
    if (!header && !LooksNumeric(fields[label_col])) {
      while (in.Next(&line)) {
        if (!IsBlankLine(line)) {
          second.assign(line);
          second_no = in.line_no();
          break;
        }
      }
      if (second_no != 0) {
        SplitFields(second, delim, &fields, path, second_no);
        header = fields.size() == nf && LooksNumeric(fields[label_col]);
      }
    }
  }

  const std::size_t d = nf - 1;
  ds.cols = d;
  const auto process = [&](std::string_view text, std::uint64_t line_no) {
    const auto where = [&] { return At(path, line_no); };
    SplitFields(text, delim, &fields, path, line_no);
    if (fields.size() != nf) {
      Fail(where() + "expected " + std::to_string(nf) + " fields, got " +
           std::to_string(fields.size()));
    }
    const std::size_t off = ds.dense.size();
    ds.dense.resize(off + d);
    float* out = ds.dense.data() + off;
    for (std::size_t c = 0; c < nf; ++c) {
      if (c == label_col) continue;
      bool quoted = false;
      const std::string_view s = FieldText(fields[c], &quoted);
      switch (ParseFloat(s, out)) {
        case Num::kOk: break;
        case Num::kBad:
          if (s.empty()) Fail(where() + "column " + std::to_string(c + 1) + ": empty field");
          Fail(where() + "column " + std::to_string(c + 1) + ": expected a number, got " + Quote(s));
        case Num::kRange:
          Fail(where() + "column " + std::to_string(c + 1) + ": value out of float range: " +
               Quote(s));
        case Num::kNonFinite:
          Fail(where() + "column " + std::to_string(c + 1) + ": non-finite value " + Quote(s));
      }
      ++out;
    }
    std::string label = LabelText(fields[label_col]);
    if (label.empty()) Fail(where() + "column " + std::to_string(label_col + 1) + ": empty label");
    if (HasControlChar(label)) {
      Fail(where() + "column " + std::to_string(label_col + 1) + ": control character in label " +
           Quote(label));
    }
    ds.labels.push_back(std::move(label));
    ds.lines.push_back(line_no);
  };

  if (!header) process(first, first_no);
  if (second_no != 0) process(second, second_no);
  while (in.Next(&line)) {
    if (!IsBlankLine(line)) process(line, in.line_no());
  }
  in.Close();
  if (ds.labels.empty()) Fail(path + ": no data rows");
  ds.rows = ds.labels.size();
  return ds;
}

// ---------------------------------------------------------------------------------------------
// idx (MNIST family).

std::size_t IdxElemSize(unsigned type) {
  switch (type) {
    case 0x08: case 0x09: return 1;
    case 0x0B: return 2;
    case 0x0C: case 0x0D: return 4;
    case 0x0E: return 8;
    default: return 0;
  }
}

bool IsIdxMagic(const unsigned char* h) {
  return h[0] == 0 && h[1] == 0 && IdxElemSize(h[2]) != 0 && h[3] >= 1 && h[3] <= 4;
}

std::uint32_t LoadBe32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | static_cast<std::uint32_t>(p[3]);
}

std::uint64_t LoadBe64(const unsigned char* p) {
  return static_cast<std::uint64_t>(LoadBe32(p)) << 32 | LoadBe32(p + 4);
}

// One element as a double (exact for every idx type).
double IdxValue(unsigned type, const unsigned char* p) {
  switch (type) {
    case 0x08: return p[0];
    case 0x09: return static_cast<std::int8_t>(p[0]);
    case 0x0B: return static_cast<std::int16_t>(static_cast<std::uint16_t>(p[0] << 8 | p[1]));
    case 0x0C: return static_cast<std::int32_t>(LoadBe32(p));
    case 0x0D: {
      const std::uint32_t bits = LoadBe32(p);
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    default: {
      const std::uint64_t bits = LoadBe64(p);
      double v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
  }
}

struct IdxHeader {
  unsigned type = 0;
  std::size_t elem_size = 0;
  std::vector<std::uint64_t> dims;
  std::uint64_t header_bytes = 0;
  std::uint64_t count = 0;  // product of dims
};

IdxHeader ReadIdxHeader(Input& f) {
  const std::string& path = f.path();
  unsigned char h[4];
  const std::size_t got = f.Read(h, 4);
  if (got < 4) {
    Fail(path + ": truncated idx header: the file has " + std::to_string(got) +
         " bytes, the magic number needs 4");
  }
  if (h[0] != 0 || h[1] != 0) Fail(path + ": byte offset 0: not an idx file (bad magic number)");
  IdxHeader hd;
  hd.type = h[2];
  hd.elem_size = IdxElemSize(hd.type);
  if (hd.elem_size == 0) {
    Fail(path + ": byte offset 2: unknown idx element type " + std::to_string(hd.type));
  }
  const unsigned nd = h[3];
  if (nd == 0) Fail(path + ": byte offset 3: idx file with zero dimensions");
  std::vector<unsigned char> raw(4 * std::size_t{nd});
  const std::size_t got_dims = f.Read(raw.data(), raw.size());
  hd.header_bytes = 4 + raw.size();
  if (got_dims < raw.size()) {
    Fail(path + ": truncated idx header: " + std::to_string(nd) + " dimensions need " +
         std::to_string(hd.header_bytes) + " bytes, the file ends at byte offset " +
         std::to_string(4 + got_dims));
  }
  hd.count = 1;
  // Payloads beyond 2^56 bytes are certainly not real files; the bound also keeps the
  // size arithmetic below from overflowing.
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 56;
  for (unsigned i = 0; i < nd; ++i) {
    const std::uint64_t dim = LoadBe32(raw.data() + 4 * i);
    if (dim == 0) {
      Fail(path + ": byte offset " + std::to_string(4 + 4 * i) + ": dimension " +
           std::to_string(i + 1) + " is zero");
    }
    hd.dims.push_back(dim);
    if (hd.count > kLimit / dim) Fail(path + ": idx header declares an impossibly large payload");
    hd.count *= dim;
  }
  if (hd.count > kLimit / hd.elem_size) {
    Fail(path + ": idx header declares an impossibly large payload");
  }
  return hd;
}

// Reads exactly hd.count elements and checks that the file ends there, then closes f and calls
// sink(bytes, first_element, n_elements) per chunk. Memory grows only as data actually arrives,
// so a garbage header cannot trigger a huge allocation.
template <class Sink>
void ReadIdxPayload(Input& f, const IdxHeader& hd, Sink&& sink) {
  const std::string& path = f.path();
  const std::uint64_t expected = hd.header_bytes + hd.count * hd.elem_size;
  std::vector<std::vector<unsigned char>> chunks;
  std::uint64_t done = 0;  // elements read
  while (done < hd.count) {
    const std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>(hd.count - done, kChunk / hd.elem_size)) * hd.elem_size;
    chunks.emplace_back(want);
    const std::size_t got = f.Read(chunks.back().data(), want);
    if (got < want) {
      Fail(path + ": truncated: the idx header declares " + std::to_string(expected) +
           " bytes, the data ends at byte offset " +
           std::to_string(hd.header_bytes + done * hd.elem_size + got));
    }
    done += want / hd.elem_size;
  }
  unsigned char extra;
  if (f.Read(&extra, 1) != 0) {
    Fail(path + ": byte offset " + std::to_string(expected) +
         ": data after the end the idx header declares (" + std::to_string(expected) +
         " bytes)");
  }
  f.Close();
  std::uint64_t first = 0;
  for (std::vector<unsigned char>& chunk : chunks) {
    const std::size_t k = chunk.size() / hd.elem_size;
    sink(chunk.data(), first, k);
    first += k;
    std::vector<unsigned char>().swap(chunk);
  }
}

std::string DeriveIdxLabels(const std::string& images) {
  static constexpr std::string_view kImages = "images-idx3-ubyte";
  static constexpr std::string_view kLabels = "labels-idx1-ubyte";
  const std::size_t slash = images.find_last_of('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t pos = images.rfind(kImages);
  if (pos == std::string::npos || pos < base) {
    Fail(images + ": cannot derive the idx labels file name (no 'images-idx3-ubyte' in the "
                  "file name); set the labels file explicitly");
  }
  std::string out = images;
  out.replace(pos, kImages.size(), kLabels);
  return out;
}

// `open_labels` opens the labels file; it is called only once the images file has been read.
template <class OpenLabels>
Dataset ReadIdx(Input& images, OpenLabels&& open_labels) {
  const std::string& path = images.path();
  Dataset ds;
  ds.source = path;
  ds.format = DataFormat::kIdx;

  const IdxHeader hd = ReadIdxHeader(images);
  if (hd.dims.size() < 2) {
    Fail(path + ": byte offset 3: an idx images file needs at least 2 dimensions (records x "
                "features), this one has " + std::to_string(hd.dims.size()));
  }
  const std::uint64_t n = hd.dims[0];
  const std::uint64_t d = hd.count / n;
  ReadIdxPayload(images, hd, [&](const unsigned char* p, std::uint64_t first, std::size_t k) {
    if (first == 0) ds.dense.resize(static_cast<std::size_t>(hd.count));
    float* out = ds.dense.data() + first;
    if (hd.type == 0x08) {  // the common case (MNIST), kept branch-free
      for (std::size_t i = 0; i < k; ++i) out[i] = p[i];
      return;
    }
    for (std::size_t i = 0; i < k; ++i) {
      const double v = IdxValue(hd.type, p + i * hd.elem_size);
      if (!std::isfinite(v) || std::fabs(v) > static_cast<double>(FLT_MAX)) {
        Fail(path + ": byte offset " +
             std::to_string(hd.header_bytes + (first + i) * hd.elem_size) +
             ": non-finite or out-of-float-range value");
      }
      out[i] = static_cast<float>(v);
    }
  });

  Input& labels = open_labels();
  const std::string& labels_path = labels.path();
  const IdxHeader lh = ReadIdxHeader(labels);
  if (lh.dims.size() != 1) {
    Fail(labels_path + ": byte offset 3: an idx labels file needs exactly 1 dimension, this one "
                       "has " + std::to_string(lh.dims.size()));
  }
  if (lh.dims[0] != n) {
    Fail(labels_path + ": " + std::to_string(lh.dims[0]) + " labels, but " + path + " has " +
         std::to_string(n) + " records");
  }
  ds.labels.reserve(static_cast<std::size_t>(n));
  ReadIdxPayload(labels, lh, [&](const unsigned char* p, std::uint64_t first, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) {
      const unsigned char* e = p + i * lh.elem_size;
      char text[64];
      std::to_chars_result r{};
      if (lh.type == 0x0D || lh.type == 0x0E) {
        const double v = IdxValue(lh.type, e);
        if (!std::isfinite(v)) {
          Fail(labels_path + ": byte offset " +
               std::to_string(lh.header_bytes + (first + i) * lh.elem_size) +
               ": non-finite label");
        }
        r = lh.type == 0x0D ? std::to_chars(text, text + sizeof text, static_cast<float>(v))
                            : std::to_chars(text, text + sizeof text, v);
      } else {
        r = std::to_chars(text, text + sizeof text, static_cast<long long>(IdxValue(lh.type, e)));
      }
      ds.labels.emplace_back(text, r.ptr);
    }
  });

  ds.rows = static_cast<std::size_t>(n);
  ds.cols = static_cast<std::size_t>(d);
  ds.lines.resize(ds.rows);
  for (std::size_t i = 0; i < ds.rows; ++i) ds.lines[i] = i + 1;
  return ds;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

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

Dataset ReadDataset(const std::string& path, const ReadOptions& options) {
  const DataFormat format =
      options.format == DataFormat::kAuto ? DetectFormat(path) : options.format;
  Input in(path);
  switch (format) {
    case DataFormat::kLibsvm: return ReadLibsvm(in, options);
    case DataFormat::kCsv: return ReadCsv(in, options);
    case DataFormat::kIdx: {
      std::optional<Input> labels;
      return ReadIdx(in, [&]() -> Input& {
        return labels.emplace(options.idx_labels.empty() ? DeriveIdxLabels(path) : options.idx_labels);
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
  Input in(content, name);
  switch (format) {
    case DataFormat::kLibsvm: return ReadLibsvm(in, options);
    case DataFormat::kCsv: return ReadCsv(in, options);
    case DataFormat::kIdx: {
      Input labels(idx_labels, options.idx_labels.empty() ? name + " (labels)" : options.idx_labels);
      return ReadIdx(in, [&]() -> Input& { return labels; });
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
