// The CSV reader: a label column and numeric feature columns, delimiter (',', ';' or tab) and
// header detected from the first lines, double-quoted fields; dense rows.
#include <cstring>
#include <utility>

#include "data_internal.h"

namespace rfk::host::data_io {

namespace {


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

// The next non-blank line into *text and *line_no; false at the end of the data.
bool NextRow(LineReader& in, std::string* text, std::uint64_t* line_no) {
  std::string_view line;
  while (in.Next(&line)) {
    if (!IsBlankLine(line)) {
      text->assign(line);
      *line_no = in.line_no();
      return true;
    }
  }
  return false;
}

// The shape every row must have, from the first non-blank line.
struct CsvLayout {
  char delim = ',';
  std::size_t nf = 0;         // fields per row
  std::size_t label_col = 0;  // 0-based
};

// The layout of the file whose first row is `first`; *fields gets that row's raw fields.
CsvLayout LayoutOf(const std::string& first, std::uint64_t first_no, const ReadOptions& opt,
                   const std::string& path, std::vector<std::string_view>* fields) {
  CsvLayout l;
  l.delim = DetectDelimiter(first);
  SplitFields(first, l.delim, fields, path, first_no);
  l.nf = fields->size();
  if (l.nf < 2) {
    Fail(At(path, first_no) +
         "found a single column (no ',', ';' or tab delimiter); need a label and at least one "
         "feature column");
  }
  long long lc = opt.label_col;
  if (lc < 0) lc += static_cast<long long>(l.nf);
  if (lc < 0 || lc >= static_cast<long long>(l.nf)) {
    Fail(At(path, first_no) + "label column " + std::to_string(opt.label_col) +
         " is out of range for " + std::to_string(l.nf) + " columns");
  }
  l.label_col = static_cast<std::size_t>(lc);
  return l;
}

// Whether the first row (its raw fields in *fields) is a header (ReadOptions::csv_header). When
// detection needs the next row, it is read into *second and *second_no (else *second_no stays 0).
bool HasHeader(LineReader& in, const CsvLayout& l, const ReadOptions& opt,
               std::vector<std::string_view>* fields, std::string* second,
               std::uint64_t* second_no) {
  if (opt.csv_header != -1) return opt.csv_header == 1;
  for (std::size_t c = 0; c < l.nf; ++c) {
    if (c == l.label_col) continue;
    bool quoted = false;
    if (!FieldText((*fields)[c], &quoted).empty() && !LooksNumeric((*fields)[c])) return true;
  }
  // All features numeric but a non-numeric label ("1,2,...,16,y"): a header if the next
  // row's label is numeric.
  if (LooksNumeric((*fields)[l.label_col]) || !NextRow(in, second, second_no)) return false;
  SplitFields(*second, l.delim, fields, in.path(), *second_no);
  return fields->size() == l.nf && LooksNumeric((*fields)[l.label_col]);
}

// Appends the row `text` (line line_no): its features, every column but the label's, and its
// label. *fields is scratch.
void AppendRow(std::string_view text, std::uint64_t line_no, const CsvLayout& l,
               const std::string& path, std::vector<std::string_view>* fields, Dataset* ds) {
  const auto where = [&] { return At(path, line_no); };
  SplitFields(text, l.delim, fields, path, line_no);
  if (fields->size() != l.nf) {
    Fail(where() + "expected " + std::to_string(l.nf) + " fields, got " +
         std::to_string(fields->size()));
  }
  const std::size_t off = ds->dense.size();
  ds->dense.resize(off + l.nf - 1);
  float* out = ds->dense.data() + off;
  for (std::size_t c = 0; c < l.nf; ++c) {
    if (c == l.label_col) continue;
    bool quoted = false;
    const std::string_view s = FieldText((*fields)[c], &quoted);
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
  std::string label = LabelText((*fields)[l.label_col]);
  if (label.empty()) Fail(where() + "column " + std::to_string(l.label_col + 1) + ": empty label");
  if (HasControlChar(label)) {
    Fail(where() + "column " + std::to_string(l.label_col + 1) + ": control character in label " +
         Quote(label));
  }
  ds->labels.push_back(std::move(label));
  ds->lines.push_back(line_no);
}

}  // namespace

Dataset ReadCsv(Input& file, const ReadOptions& opt) {
  const std::string& path = file.path();
  Dataset ds = NewDataset(path, DataFormat::kCsv);

  LineReader in(file, file.Chunk());
  std::string first, second;
  std::uint64_t first_no = 0, second_no = 0;
  if (!NextRow(in, &first, &first_no)) {
    in.Close();
    Fail(path + ": no data rows");
  }
  std::vector<std::string_view> fields;
  const CsvLayout layout = LayoutOf(first, first_no, opt, path, &fields);
  const bool header = HasHeader(in, layout, opt, &fields, &second, &second_no);
  ds.cols = layout.nf - 1;
  if (!header) AppendRow(first, first_no, layout, path, &fields, &ds);
  if (second_no != 0) AppendRow(second, second_no, layout, path, &fields, &ds);
  std::string_view line;
  while (in.Next(&line)) {
    if (!IsBlankLine(line)) AppendRow(line, in.line_no(), layout, path, &fields, &ds);
  }
  in.Close();
  if (ds.labels.empty()) Fail(path + ": no data rows");
  ds.rows = ds.labels.size();
  return ds;
}

}  // namespace rfk::host::data_io
