// The CSV reader: delimited text with numeric feature columns and a label column; the separator
// (',', ';', tab or runs of blanks) and the header detected from the first lines, double-quoted
// fields; dense rows. Which field becomes which column -- the label, an index column to drop,
// the features in the model's order -- is decided once, from the header (data_csv_columns.cc).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "data/data_internal.h"

namespace rfk::host::data_io {

namespace {

// From just after an opening quote at q: the position just past the closing quote. A doubled
// quote ("") is an escaped quote; a quoted field may not span lines.
const char* SkipQuoted(const char* q, const char* e, const std::string& where, std::size_t column) {
  for (++q;; ++q) {
    if (q == e) Fail(where + "unterminated quoted field starting at column " + std::to_string(column));
    if (*q != '"') continue;
    if (q + 1 < e && q[1] == '"') {
      ++q;
    } else {
      return q + 1;
    }
  }
}

// Fields separated by runs of blanks (R's write.table, whitespace-aligned tables); leading and
// trailing blanks are not fields. A quoted field ends at its closing quote, which a blank or the
// end of the line must follow.
void SplitBlankFields(std::string_view line, std::vector<std::string_view>* fields, const std::string& where) {
  const char* p = line.data();
  const char* const e = p + line.size();
  for (;;) {
    while (p < e && IsBlank(*p)) ++p;
    if (p == e) return;
    const char* const b = p;
    const std::size_t column = fields->size() + 1;
    if (*p == '"') {
      p = SkipQuoted(p, e, where, column);
      if (p < e && !IsBlank(*p))
        Fail(where + "column " + std::to_string(column) + ": unexpected text after a closing quote");
    } else {
      for (; p < e && !IsBlank(*p); ++p)
        if (*p == '"') Fail(where + "column " + std::to_string(column) + ": quote inside an unquoted field");
    }
    fields->emplace_back(b, static_cast<std::size_t>(p - b));
  }
}

// Splits a line into raw fields (still untrimmed, quotes kept). Double-quoted fields may contain
// the delimiter and "" escapes; a quoted field may not span lines. delim ' ': runs of blanks.
void SplitFields(std::string_view line, char delim, std::vector<std::string_view>* fields,
                 const std::string& path, std::uint64_t line_no) {
  fields->clear();
  if (delim == ' ') return SplitBlankFields(line, fields, At(path, line_no));
  const char* p = line.data();
  const char* const e = p + line.size();
  if (std::memchr(p, '"', line.size()) == nullptr) {
    for (;;) {
      const auto* d = static_cast<const char*>(std::memchr(p, delim, static_cast<std::size_t>(e - p)));
      fields->emplace_back(p, static_cast<std::size_t>((d ? d : e) - p));
      if (d == nullptr) return;
      p = d + 1;
    }
  }
  for (;;) {
    const char* const b = p;
    const char* q = p;
    const std::string column = std::to_string(fields->size() + 1);
    while (q < e && *q != delim && IsBlank(*q)) ++q;
    if (q < e && *q == '"') {
      q = SkipQuoted(q, e, At(path, line_no), fields->size() + 1);
      while (q < e && *q != delim && IsBlank(*q)) ++q;
      if (q < e && *q != delim)
        Fail(At(path, line_no) + "column " + column + ": unexpected text after a closing quote");
    } else {
      for (; q < e && *q != delim; ++q)
        if (*q == '"') Fail(At(path, line_no) + "column " + column + ": quote inside an unquoted field");
    }
    fields->emplace_back(b, static_cast<std::size_t>(q - b));
    if (q == e) return;
    p = q + 1;
  }
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

// A field's trimmed text may be a number written with a decimal comma ("2,5").
bool LooksLikeDecimalComma(std::string_view s) {
  const std::size_t comma = s.find(',');
  if (comma == std::string_view::npos || comma == 0 || comma + 1 == s.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (i != comma && !(c >= '0' && c <= '9') && !(i == 0 && (c == '-' || c == '+'))) return false;
  }
  return true;
}

// Appends rows to a dataset by a column plan: the features in plan order, then the label.
class RowReader {
 public:
  // cats: where a training read numbers its categorical columns (null: none may be).
  RowReader(const std::string& path, char delim, std::size_t nf, const CsvPlan& plan, const ReadOptions& opt,
            const std::vector<std::string>* names, Categories* cats)
      : path_(path), delim_(delim), nf_(nf), plan_(plan), opt_(opt), names_(names), cats_(cats) {
    for (std::size_t j = 0; j < plan_.category.size(); ++j)
      if (!plan_.category[j].empty()) unseen_.emplace(plan_.features[j], 0);
  }

  void Append(std::string_view text, std::uint64_t line_no, Dataset* ds) {
    SplitFields(text, delim_, &fields_, path_, line_no);
    if (fields_.size() != nf_)
      Fail(At(path_, line_no) + "expected " + std::to_string(nf_) + " fields, got " + std::to_string(fields_.size()));
    const std::size_t off = ds->dense.size();
    ds->dense.resize(off + plan_.features.size());
    for (std::size_t j = 0; j < plan_.features.size(); ++j) {
      float* out = &ds->dense[off + j];
      if (cats_ && cats_->Has(j)) Category(j, line_no, out, ds);
      else if (!plan_.category.empty() && !plan_.category[j].empty()) OneHot(j, line_no, out, ds);
      else Feature(j, line_no, out, ds);
    }
    for (auto& [field, count] : unseen_) {  // a text none of the field's features named
      bool seen = false;
      for (std::size_t j = 0; j < plan_.category.size() && !seen; ++j)
        seen = plan_.features[j] == field && ds->dense[off + j] != 0.0f;
      count += !seen && !IsMissingValue(FieldValue(fields_[field]));
    }
    if (plan_.label != CsvPlan::kNone) ds->labels.push_back(Label(line_no));
    if (plan_.weight != CsvPlan::kNone) ds->weights.push_back(Weight(line_no));
    ds->lines.push_back(line_no);
  }

  // After the last row: a note per categorical column with texts no training row held.
  void NoteUnseen(Dataset* ds) const {
    for (const auto& [field, count] : unseen_)
      if (count != 0)
        ds->notes.push_back(std::to_string(count) + " row" + (count == 1 ? "" : "s") + " of column " +
                            Quote((*names_)[field]) + " held a category no training row held: all its features 0");
  }

 private:
  // "column 3 ('Sepal.Width'): " for messages.
  std::string Column(std::size_t field) const {
    std::string s = "column " + std::to_string(field + 1);
    if (names_ && !(*names_)[field].empty()) s += " (" + Quote((*names_)[field]) + ")";
    return s + ": ";
  }

  // A missing value: NaN where allowed (--missing), else an error naming the line and column.
  void Missing(std::string_view s, const std::string& where, float* out, Dataset* ds) {
    if (!opt_.missing_as_nan)
      Fail(where + (s.empty() ? std::string("empty field") : "missing value " + Quote(s)) +
           " (rfk train --missing mean or median fills missing values in, and so do its models at prediction)");
    *out = std::numeric_limits<float>::quiet_NaN();
    ++ds->missing;
  }

  // Feature j of a categorical column (training): its text's number (Categories).
  void Category(std::size_t j, std::uint64_t line_no, float* out, Dataset* ds) {
    const std::string s = FieldValue(fields_[plan_.features[j]]);
    if (IsMissingValue(s)) return Missing(s, At(path_, line_no) + Column(plan_.features[j]), out, ds);
    if (HasControlChar(s)) Fail(At(path_, line_no) + Column(plan_.features[j]) + "control character in " + Quote(s));
    *out = cats_->Number(j, s);
  }

  // Feature j of a model's one-hot encoded column: 1 where the field holds its category.
  void OneHot(std::size_t j, std::uint64_t line_no, float* out, Dataset* ds) {
    const std::string s = FieldValue(fields_[plan_.features[j]]);
    if (IsMissingValue(s)) return Missing(s, At(path_, line_no) + Column(plan_.features[j]), out, ds);
    *out = s == plan_.category[j] ? 1.0f : 0.0f;
  }

  // A first data row's text in a feature column of a training file with a header: the column is
  // categorical (Categories), unless it is named like the label.
  bool StartsCategory(std::size_t j, std::string_view s, const std::string& where, Dataset* ds) {
    if (!cats_ || !ds->lines.empty() || names_ == nullptr || HasControlChar(s)) return false;
    const std::string& name = (*names_)[plan_.features[j]];
    if (IsLabelName(name) && opt_.label_name.empty() && opt_.label_col == -1)
      Fail(where + "text " + Quote(s) + " in a column named like a label, while the label is the last column: "
           "--label-col " + name + " makes it the label");
    cats_->Add(j, plan_.features.size());
    return true;
  }

  void Feature(std::size_t j, std::uint64_t line_no, float* out, Dataset* ds) {
    const std::size_t field = plan_.features[j];
    std::string_view s = Trim(fields_[field]);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {  // quoted: the text between, "" undoubled
      quoted_ = FieldValue(s);
      s = quoted_;
    }
    const auto where = [&] { return At(path_, line_no) + Column(field); };
    const Num r = ParseNumber(s, opt_.csv_decimal, out);
    if (r == Num::kOk || (r == Num::kBad && ParseBoolean(s, out))) return;
    if (r == Num::kRange) Fail(where() + "value out of float range: " + Quote(s));
    if (IsMissingValue(s)) return Missing(s, where(), out, ds);
    if (r == Num::kNonFinite) Fail(where() + "non-finite value " + Quote(s));
    if (LooksLikeDecimalComma(s) && opt_.csv_decimal != ',')
      Fail(where() + "expected a number, got " + Quote(s) + " (a decimal comma? --decimal , reads 2,5 as 2.5)");
    if (StartsCategory(j, s, where(), ds)) return Category(j, line_no, out, ds);
    // One message whether the file is read whole or in chunks (a chunk cannot tell its first row
    // from the file's).
    Fail(where() + "expected a number, got " + Quote(s) + " (if this is the label column, name it with --label-col" +
         (opt_.model_inputs == 0 ? "; a column of categories holds text from its first data row on, in a file with a "
                                   "header read whole, not with --stream"
                                 : "") +
         ")");
  }

  // A row weight: a finite number >= 0 (ReadOptions::weight_column); never imputed.
  double Weight(std::uint64_t line_no) {
    const std::string w = FieldValue(fields_[plan_.weight]);
    const auto where = [&] { return At(path_, line_no) + Column(plan_.weight); };
    if (IsMissingValue(w))
      Fail(where() + (w.empty() ? std::string("empty weight") : "missing weight " + Quote(w)) +
           " (every row needs a weight: give it one, or remove the row)");
    std::string text = w;
    if (opt_.csv_decimal == ',' && text.find('.') == std::string::npos)
      std::replace(text.begin(), text.end(), ',', '.');
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
      Fail(where() + "expected a weight (a number >= 0), got " + Quote(w));
    if (!std::isfinite(v)) Fail(where() + "non-finite weight " + Quote(w));
    if (v < 0) Fail(where() + "negative weight " + Quote(w) + " (weights are >= 0)");
    return v;
  }

  std::string Label(std::uint64_t line_no) {
    std::string label = FieldValue(fields_[plan_.label]);
    const auto where = [&] { return At(path_, line_no) + Column(plan_.label); };
    if (HasControlChar(label)) Fail(where() + "control character in label " + Quote(label));
    if (opt_.labels == LabelColumn::kRequired && IsMissingValue(label)) {
      if (label.empty()) Fail(where() + "empty label");
      Fail(where() + "missing label " + Quote(label) + " (rows without a label cannot be used: remove them)");
    }
    return label;
  }

  const std::string& path_;
  char delim_;
  std::size_t nf_;
  const CsvPlan& plan_;
  const ReadOptions& opt_;
  const std::vector<std::string>* names_;
  Categories* cats_;
  std::map<std::size_t, std::uint64_t> unseen_;  // per one-hot encoded field: rows of unseen texts
  std::vector<std::string_view> fields_;
  std::string quoted_;  // a quoted field's value (Feature's s views it)
};

// The first two rows of a file: their text, line numbers and raw fields.
struct Head {
  std::string first, second;
  std::uint64_t first_no = 0, second_no = 0;  // second_no 0: no second row
  std::vector<std::string_view> f1, f2;
  char delim = ',';
  char decimal = '.';
};

// Whether `line` split at `delim` has two or more fields, and every field that holds a comma is a
// number with one decimal comma (at least one does).
bool HasDecimalCommas(std::string_view line, char delim) {
  std::vector<std::string_view> fields;
  try {
    SplitFields(line, delim, &fields, "", 0);
  } catch (const DataError&) {
    return false;
  }
  std::size_t commas = 0;
  for (std::string_view f : fields) {
    const std::string v = FieldValue(f);
    if (v.find(',') == std::string::npos) continue;
    if (!LooksLikeDecimalComma(v)) return false;
    ++commas;
  }
  return fields.size() >= 2 && commas > 0;
}

// The separator and the decimal mark (ReadOptions::csv_sep, csv_decimal): given, or detected --
// the separator from the first line, a decimal comma from the first data row (the second row when
// there is one: the first may be a header). A line of "5,1;3,5;setosa" has as many commas as
// semicolons: read as decimal commas, it is ';'-separated.
void DecideSeparators(const ReadOptions& opt, const std::string& path, Head* h, Dataset* ds) {
  const std::string& data = h->second_no != 0 ? h->second : h->first;
  h->delim = opt.csv_sep != 0 ? opt.csv_sep : DetectDelimiter(h->first);
  h->decimal = opt.csv_decimal != 0 ? opt.csv_decimal : '.';
  if (opt.csv_decimal == '.' || opt.csv_sep == ',') {
    if (h->decimal == ',') Fail(path + ": --decimal , needs a field separator other than ',' (--sep)");
    return;
  }
  const bool given = opt.csv_decimal == ',';
  if (h->delim == ',') {  // the comma must be the decimal mark: which separator is left?
    char found = 0;
    for (const char cand : {';', '\t', ' '}) {
      if (given ? h->first.find(cand) != std::string::npos : HasDecimalCommas(data, cand)) {
        found = cand;
        break;
      }
    }
    if (found == 0) {
      if (given) Fail(path + ": --decimal , but the first line has no ';', tab or blank separator (--sep names it)");
      return;
    }
    h->delim = found;
  } else if (!given && !HasDecimalCommas(data, h->delim)) {
    return;
  }
  h->decimal = ',';
  if (!given)
    ds->notes.push_back(std::string("numbers are written with a decimal comma ('2,5' is 2.5), fields separated by ") +
                        (h->delim == '\t' ? "tabs" : h->delim == ' ' ? "blanks" : "';'") +
                        "; --decimal . reads commas as separators");
}

Head ReadHead(LineReader& in, const ReadOptions& opt, Dataset* ds) {
  Head h;
  if (!NextRow(in, &h.first, &h.first_no)) {
    in.Close();
    Fail(in.path() + ": no data rows");
  }
  NextRow(in, &h.second, &h.second_no);
  DecideSeparators(opt, in.path(), &h, ds);
  SplitFields(h.first, h.delim, &h.f1, in.path(), h.first_no);
  if (h.second_no != 0) SplitFields(h.second, h.delim, &h.f2, in.path(), h.second_no);
  return h;
}

}  // namespace

// The most frequent of ',', ';', '\t' outside double quotes (ties prefer that order); runs of
// blanks when none occurs and the line has two or more blank-separated tokens; else ','.
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
  if (comma + semi + tab == 0) {
    const char* p = line.data();
    const char* const e = p + line.size();
    NextToken(p, e);
    return NextToken(p, e).empty() ? ',' : ' ';
  }
  if (comma >= semi && comma >= tab) return ',';
  return semi >= tab ? ';' : '\t';
}

std::string FieldValue(std::string_view raw) {
  raw = Trim(raw);
  if (raw.size() < 2 || raw.front() != '"' || raw.back() != '"') return std::string(raw);
  const std::string_view s = Trim(raw.substr(1, raw.size() - 2));
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] == '"' && i + 1 < s.size() && s[i + 1] == '"') ++i;
  }
  return out;
}

Num ParseNumber(std::string_view s, char decimal, float* out) {
  const std::size_t comma = decimal == ',' ? s.find(',') : std::string_view::npos;
  if (comma == std::string_view::npos) return ParseFloat(s, out);
  if (s.find(',', comma + 1) != std::string_view::npos || s.find('.') != std::string_view::npos) return Num::kBad;
  char buf[64];
  if (s.size() >= sizeof buf) return Num::kBad;
  std::copy(s.begin(), s.end(), buf);
  buf[comma] = '.';
  return ParseFloat(buf, buf + s.size(), out);
}

Dataset ReadCsv(Input& file, const ReadOptions& options) {
  const std::string& path = file.path();
  Dataset ds = NewDataset(path, DataFormat::kCsv);
  LineReader in(file, file.Chunk());
  const Head h = ReadHead(in, options, &ds);
  ReadOptions opt = options;
  opt.csv_sep = h.delim;
  opt.csv_decimal = h.decimal;
  std::vector<std::string> names;
  const bool header = DetectHeader(h.f1, h.second_no ? &h.f2 : nullptr, opt, At(path, h.first_no), &names, &ds);
  const std::size_t nf = header ? names.size() : h.f1.size();
  const CsvPlan plan = PlanColumns(header ? &names : nullptr, nf, opt, At(path, h.first_no), &ds);
  ds.cols = plan.features.size();
  ds.has_labels = plan.label != CsvPlan::kNone;
  Categories cats;
  const bool categorical = opt.categorical && opt.model_inputs == 0 && header;
  RowReader rows(path, h.delim, nf, plan, opt, header ? &names : nullptr, categorical ? &cats : nullptr);
  if (!header) rows.Append(h.first, h.first_no, &ds);
  if (h.second_no != 0) rows.Append(h.second, h.second_no, &ds);
  std::string_view line;
  while (in.Next(&line)) {
    if (!IsBlankLine(line)) rows.Append(line, in.line_no(), &ds);
  }
  in.Close();
  if (ds.lines.empty()) Fail(path + ": no data rows");
  ds.rows = ds.lines.size();
  if (cats.Any()) cats.Expand(path, &ds);
  rows.NoteUnseen(&ds);
  if (!header) DropRowNumbers(opt, plan, &ds);
  WarnIdentifierValues(opt, plan, &ds);
  ds.csv_sep = h.delim;
  ds.csv_decimal = h.decimal;
  return ds;
}

}  // namespace rfk::host::data_io
