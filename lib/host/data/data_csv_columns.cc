// The CSV reader's column decisions, made once from the first rows: whether line 1 is a header,
// which field is an index column to drop, which is the label, and which fields are the features,
// in which order -- by position, or by name against a model's stored feature names.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <map>

#include "data/data_internal.h"

namespace rfk::host::data_io {

namespace {

constexpr std::size_t kNone = CsvPlan::kNone;

bool IsNumber(std::string_view raw, char decimal) {
  float v = 0;
  return ParseNumber(Trim(FieldValue(raw)), decimal, &v) == Num::kOk;
}

// Text a header would hold: not a number, a boolean or a missing-value token (NA in a data row is
// not a column name).
bool IsText(std::string_view raw, char decimal) {
  const std::string s = FieldValue(raw);
  float v = 0;
  return !IsMissingValue(s) && ParseNumber(s, decimal, &v) == Num::kBad && !ParseBoolean(s, &v);
}

// The fields count up by one from `first` (after an empty first field when skip_empty: pandas
// writes an unnamed index that way); at least two of them.
bool CountsUp(const std::vector<std::string_view>& f, bool skip_empty, std::size_t* first) {
  const std::size_t start = skip_empty && f.size() >= 3 && FieldValue(f[0]).empty() ? 1 : 0;
  if (f.size() - start < 2) return false;
  for (std::size_t i = start; i < f.size(); ++i) {
    const std::string s = FieldValue(f[i]);
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    const std::size_t v = std::stoul(s);
    if (i == start) *first = v;
    if (v != *first + (i - start)) return false;
  }
  return true;
}

// The first row holds pandas' column numbers 0, 1, 2, ... and the second row does not count up
// as well ("1,2,3" then "4,5,6" are data).
bool IsColumnNumbers(const std::vector<std::string_view>& f1, const std::vector<std::string_view>& f2) {
  std::size_t first = 1, second = 0;
  return CountsUp(f1, true, &first) && first == 0 && !CountsUp(f2, false, &second);
}

// The default label field of nf fields (ReadOptions::label_col), or kNone when out of range.
std::size_t DefaultLabelField(const ReadOptions& opt, std::size_t nf) {
  long long lc = opt.label_col;
  if (lc < 0) lc += static_cast<long long>(nf);
  return lc < 0 || lc >= static_cast<long long>(nf) ? kNone : static_cast<std::size_t>(lc);
}

// Header detection (ReadOptions::csv_header = -1) from the first row f1 and the second, f2.
bool LooksLikeHeader(const std::vector<std::string_view>& f1, const std::vector<std::string_view>* f2,
                     const ReadOptions& opt, Dataset* ds) {
  if (f2 != nullptr && IsColumnNumbers(f1, *f2)) {
    ds->notes.push_back("line 1 holds the column numbers 0, 1, ..., " + FieldValue(f1.back()) +
                        " (pandas' header of unnamed columns): read as a header; --no-header reads it as data");
    return true;
  }
  const std::size_t label = DefaultLabelField(opt, f1.size());
  for (std::size_t c = 0; c < f1.size(); ++c)
    if (c != label && IsText(f1[c], opt.csv_decimal)) return true;
  // Numeric feature names and a text label ("1,2,...,16,y"): a header if the next row's label
  // is a number.
  return label != kNone && IsText(f1[label], opt.csv_decimal) && f2 != nullptr && f2->size() == f1.size() &&
         IsNumber((*f2)[label], opt.csv_decimal);
}

// "'a', 'b', 'c' and 4 more"
std::string List(const std::vector<std::string>& names, std::size_t max = 8) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) s += (i ? ", " : "") + Quote(names[i]);
  if (names.size() > max) s += " and " + std::to_string(names.size() - max) + " more";
  return s;
}

// The index field to drop (0), or kNone (IndexColumn).
std::size_t IndexField(const std::vector<std::string>* names, std::size_t nf, const ReadOptions& opt, Dataset* ds) {
  if (opt.index_col == IndexColumn::kKeep || nf < 2) return kNone;
  if (opt.index_col == IndexColumn::kDrop) {
    ds->notes.push_back("column 1 dropped (--index-col drop)");
    return 0;
  }
  const bool label_first = !opt.label_name.empty() ? names && (*names)[0] == opt.label_name
                                                    : DefaultLabelField(opt, nf) == 0;
  if (label_first) return kNone;
  if (names != nullptr && (*names)[0].empty()) {
    ds->notes.push_back("column 1 has no name in the header: read as row names (R's write.csv, pandas' "
                        "index) and dropped; --index-col keep keeps it as a feature");
    return 0;
  }
  if (names == nullptr && opt.model_inputs != 0 && opt.labels != LabelColumn::kAbsent && nf == opt.model_inputs + 2) {
    ds->notes.push_back("the rows have " + std::to_string(nf) + " fields, the model's " +
                        std::to_string(opt.model_inputs) + " features, a label and one more: column 1 is read "
                        "as an index and dropped; --index-col keep keeps it");
    return 0;
  }
  return kNone;
}

// The field named `name` among `fields`, or kNone.
std::size_t Named(const std::vector<std::string>& names, const std::vector<std::size_t>& fields, const std::string& name) {
  for (std::size_t f : fields)
    if (names[f] == name) return f;
  return kNone;
}

// Features and label by position among `rest` (the fields left after an index column).
void Positional(const std::vector<std::string>* names, const std::vector<std::size_t>& rest, const ReadOptions& opt,
                const std::string& at, CsvPlan* plan, Dataset* ds) {
  const std::size_t n = rest.size(), d = opt.model_inputs;
  const std::string cols = std::to_string(n) + (plan->index != kNone ? " columns after the index" : " columns");
  bool with_label = opt.labels != LabelColumn::kAbsent;
  if (!opt.label_name.empty()) {
    plan->label = Named(*names, rest, opt.label_name);
    if (plan->label == kNone)
      Fail(at + "no column named " + Quote(opt.label_name) + " in the header (columns: " +
           List(*names) + ")");
  } else if (d != 0 && (opt.labels == LabelColumn::kAbsent ? n != d : n != d && n != d + 1)) {
    Fail(at + "the rows have " + cols + "; the model takes " + std::to_string(d) + " features" +
         (opt.labels == LabelColumn::kAbsent ? " (--no-label: features only)"
                                             : ": expected " + std::to_string(d) + " (features only) or " +
                                                   std::to_string(d + 1) + " (features and a label)"));
  } else if (d != 0 && n == d && with_label) {
    if (opt.labels == LabelColumn::kRequired)
      Fail(at + "the rows have " + cols + ", as many as the model's features: there is no label column to "
           "evaluate against");
    ds->notes.push_back("the rows have " + cols + ", the model's features: read as features only (no label)");
    with_label = false;
  }
  if (with_label && plan->label == kNone) {
    const std::size_t lc = DefaultLabelField(opt, n);
    if (lc == kNone)
      Fail(at + "label column " + std::to_string(opt.label_col) + " is out of range for " + std::to_string(n) + " columns");
    plan->label = rest[lc];
  }
  for (std::size_t f : rest)
    if (f != plan->label) plan->features.push_back(f);
}

// How to skip columns a model does not take: "; --drop-col a,b skips them"; for one column, when
// no weight column is named, that --weight-column takes it if it holds row weights.
std::string SkipHint(const std::vector<std::string>& unexpected, const ReadOptions& opt) {
  std::string cols;
  for (const std::string& u : unexpected) cols += (cols.empty() ? "" : ",") + u;
  std::string hint = "; --drop-col " + cols + (unexpected.size() == 1 ? " skips it" : " skips them");
  if (unexpected.size() == 1 && opt.weight_column.empty())
    hint += " (or --weight-column " + unexpected[0] + ", if it holds row weights)";
  return hint;
}

// The model's feature names against the header: features in the model's order; the label by the
// model's label name, --label-col, or as the one column left over.
void ByName(const std::vector<std::string>& names, const std::vector<std::size_t>& rest, const ReadOptions& opt,
            const std::string& at, CsvPlan* plan, Dataset* ds) {
  if (!opt.label_name.empty()) {  // --label-col NAME: that column, whatever its position
    const std::size_t f = Named(names, rest, opt.label_name);
    if (f == kNone)
      Fail(at + "no column named " + Quote(opt.label_name) + " in the header (columns: " + List(names) + ")");
    if (opt.labels != LabelColumn::kAbsent) plan->label = f;
  } else if (opt.labels != LabelColumn::kAbsent) {
    if (opt.label_col != -1) {
      const std::size_t lc = DefaultLabelField(opt, rest.size());
      if (lc == kNone) Fail(at + "label column " + std::to_string(opt.label_col) + " is out of range");
      plan->label = rest[lc];
    } else if (std::find(opt.model_names.begin(), opt.model_names.end(), opt.model_label) == opt.model_names.end()) {
      plan->label = Named(names, rest, opt.model_label);
    }
  }
  // --no-label on a file that still holds the training label column: that column is skipped.
  std::size_t skipped = kNone;
  if (opt.labels == LabelColumn::kAbsent && !opt.label_name.empty()) {
    skipped = Named(names, rest, opt.label_name);
    ds->notes.push_back("column " + Quote(opt.label_name) + " is the label column (--no-label): skipped");
  } else if (opt.labels == LabelColumn::kAbsent && !opt.model_label.empty() &&
      std::find(opt.model_names.begin(), opt.model_names.end(), opt.model_label) == opt.model_names.end()) {
    skipped = Named(names, rest, opt.model_label);
    if (skipped != kNone)
      ds->notes.push_back("column " + Quote(opt.model_label) +
                          " is the model's label column (--no-label): skipped, the rows are predicted from the others");
  }
  std::vector<std::string> missing, unexpected;
  bool categories = false;
  for (const std::string& name : opt.model_names) {
    std::size_t f = Named(names, rest, name);
    std::string category;  // a one-hot feature "NAME=TEXT" of column NAME (Categories)
    if (f == kNone && opt.categorical) f = CategoryOf(names, rest, name, &category);
    if (f == kNone || f == plan->label) {
      missing.push_back(name);
    } else {
      plan->features.push_back(f);
      plan->category.push_back(category);
      categories = categories || !category.empty();
    }
  }
  if (!categories) plan->category.clear();
  std::vector<std::size_t> extra;
  for (std::size_t f : rest)
    if (f != plan->label && f != skipped &&
        std::find(plan->features.begin(), plan->features.end(), f) == plan->features.end())
      extra.push_back(f);
  if (missing.empty() && extra.size() == 1 && plan->label == kNone && opt.labels != LabelColumn::kAbsent) {
    plan->label = extra[0];
    extra.clear();
    ds->notes.push_back("column " + Quote(names[plan->label]) + " is not one of the model's features: read as the label");
  }
  for (std::size_t f : extra) unexpected.push_back(names[f]);
  if (!missing.empty() || !unexpected.empty())
    Fail(at + "the header does not match the model's features:" + (missing.empty() ? "" : " missing " + List(missing)) +
         (missing.empty() || unexpected.empty() ? "" : ";") +
         (unexpected.empty() ? "" : " not among the model's features " + List(unexpected)) + " (the model takes " +
         List(opt.model_names) + ")" + (missing.empty() ? SkipHint(unexpected, opt) : ""));
  if (plan->label == kNone && opt.labels == LabelColumn::kRequired)
    Fail(at + "no label column" + (opt.model_label.empty() ? "" : " (" + Quote(opt.model_label) + " in training)"));
  if (!std::is_sorted(plan->features.begin(), plan->features.end()))
    ds->notes.push_back("columns matched to the model's features by name (the file has them in another order)");
}

bool HasDuplicates(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) != v.end();
}

// A note when the label is the default (last) column but the first is named like a label.
void LabelNameHint(const std::vector<std::string>& names, const CsvPlan& plan, const ReadOptions& opt, Dataset* ds) {
  if (!opt.label_name.empty() || opt.label_col != -1 || plan.features.empty()) return;
  if (IsLabelName(names[plan.features[0]]))
    ds->notes.push_back("the first column is named " + Quote(names[plan.features[0]]) + ", yet the label is the last (" +
                        Quote(names[plan.label]) + "); --label-col " + names[plan.features[0]] +
                        " makes the first the label");
}

// The weight field among `rest` (ReadOptions::weight_column), taken out of *rest; kNone when
// none is asked for. An explicit positional label_col in *opt is rewritten to count without it.
std::size_t WeightField(const std::vector<std::string>* names, std::vector<std::size_t>* rest, ReadOptions* opt,
                        const std::string& at) {
  const std::string& spec = opt->weight_column;
  if (spec.empty()) return kNone;
  const long long n = static_cast<long long>(rest->size());
  std::size_t pos = kNone;
  char* end = nullptr;
  const long long v = std::strtoll(spec.c_str(), &end, 10);
  if (end == spec.c_str() + spec.size()) {
    const long long i = v < 0 ? v + n : v;
    if (i < 0 || i >= n)
      Fail(at + "weight column " + spec + " is out of range for " + std::to_string(n) + " columns");
    pos = static_cast<std::size_t>(i);
  } else {
    if (names == nullptr) Fail(at + "--weight-column " + Quote(spec) + " names a column, but the file has no header");
    for (std::size_t i = 0; i < rest->size(); ++i)
      if ((*names)[(*rest)[i]] == spec) pos = i;
    if (pos == kNone) Fail(at + "no column named " + Quote(spec) + " in the header (columns: " + List(*names) + ")");
  }
  if (!opt->label_name.empty() && names != nullptr && (*names)[(*rest)[pos]] == opt->label_name)
    Fail(at + "the weight column is the label column " + Quote(opt->label_name));
  if (opt->label_name.empty() && opt->label_col != -1) {
    const long long lc = opt->label_col < 0 ? opt->label_col + n : opt->label_col;
    if (lc == static_cast<long long>(pos)) Fail(at + "the weight column is the label column (" + spec + ")");
    if (lc > static_cast<long long>(pos)) opt->label_col = static_cast<int>(lc - 1);
    else if (lc >= 0) opt->label_col = static_cast<int>(lc);
  }
  const std::size_t field = (*rest)[pos];
  rest->erase(rest->begin() + static_cast<std::ptrdiff_t>(pos));
  if (rest->empty()) Fail(at + "no columns left besides the weight column");
  return field;
}

// Whether a column spec is a 0-based index (else a header name).
bool IsIndexSpec(const std::string& spec) {
  char* end = nullptr;
  std::strtoll(spec.c_str(), &end, 10);
  return !spec.empty() && end == spec.c_str() + spec.size();
}

// The field a column spec names among `rest`: a header name, or a 0-based index (negative from
// the end); kNone when it names none.
std::size_t FindSpec(const std::vector<std::string>* names, const std::vector<std::size_t>& rest,
                     const std::string& spec) {
  if (IsIndexSpec(spec)) {
    const long long n = static_cast<long long>(rest.size()), v = std::strtoll(spec.c_str(), nullptr, 10);
    const long long i = v < 0 ? v + n : v;
    return i < 0 || i >= n ? kNone : rest[static_cast<std::size_t>(i)];
  }
  return names == nullptr ? kNone : Named(*names, rest, spec);
}

// FindSpec, or an error saying why the spec names no column; `what` names the option.
std::size_t SpecField(const std::vector<std::string>* names, const std::vector<std::size_t>& rest,
                      const std::string& spec, const std::string& what, const std::string& at) {
  const std::size_t f = FindSpec(names, rest, spec);
  if (f != kNone) return f;
  if (IsIndexSpec(spec))
    Fail(at + what + " " + spec + " is out of range for " + std::to_string(rest.size()) + " columns");
  if (names == nullptr) Fail(at + what + " " + Quote(spec) + " names a column, but the file has no header");
  Fail(at + what + ": no column named " + Quote(spec) + " in the header (columns: " + List(*names) + ")");
}

// A column's name for lists: its header name, else its 1-based number.
std::string ColumnName(const std::vector<std::string>* names, std::size_t f) {
  return names != nullptr && !(*names)[f].empty() ? (*names)[f] : "column " + std::to_string(f + 1);
}

// Takes the columns that are no features out of *rest: --drop-col, those not in --use-cols, and
// (IndexColumn::kAuto) those named like row identifiers. The label and weight columns stay, and
// *opt's positional label_col and weight_column are rewritten to count without what went.
void DropColumns(const std::vector<std::string>* names, std::vector<std::size_t>* rest, ReadOptions* opt,
                 const std::string& at, Dataset* ds) {
  const bool model = opt->model_inputs != 0;
  const bool label_pos = opt->label_name.empty() && opt->label_col != -1;
  const bool weight_pos = IsIndexSpec(opt->weight_column);
  std::size_t label = kNone, weight = kNone;  // fields, where a spec names them
  if (!opt->label_name.empty() && names != nullptr) label = Named(*names, *rest, opt->label_name);
  if (label_pos && DefaultLabelField(*opt, rest->size()) != kNone)
    label = (*rest)[DefaultLabelField(*opt, rest->size())];
  if (!opt->weight_column.empty()) weight = FindSpec(names, *rest, opt->weight_column);  // else WeightField says why
  // Training's default label: the last column other than the weight column.
  std::size_t default_label = kNone;
  if (!model && opt->label_name.empty() && !label_pos && opt->labels != LabelColumn::kAbsent)
    for (std::size_t f : *rest)
      if (f != weight) default_label = f;
  if (model && names != nullptr && !opt->model_label.empty()) default_label = Named(*names, *rest, opt->model_label);
  const auto label_of = [&](std::size_t f) { return f != kNone && (f == label || f == default_label); };
  std::vector<std::size_t> drop, keep;
  for (const std::string& spec : opt->drop_cols) {
    const std::size_t f = SpecField(names, *rest, spec, "--drop-col", at);
    if (label_of(f))
      Fail(at + "--drop-col " + spec + " is the label column" +
           (f == default_label && !model ? " (the last; --label-col names another)" : ""));
    if (f == weight) Fail(at + "--drop-col " + spec + " is the weight column");
    drop.push_back(f);
  }
  for (const std::string& spec : opt->use_cols) {
    const std::size_t f = SpecField(names, *rest, spec, "--use-cols", at);
    if (label_of(f) && !model)
      Fail(at + "--use-cols lists " + spec + ", the label column" +
           (f == default_label ? " (the last; --label-col names another)" : "") + ": list the features only");
    keep.push_back(f);
  }
  const auto listed = [](const std::vector<std::size_t>& v, std::size_t f) {
    return std::find(v.begin(), v.end(), f) != v.end();
  };
  std::vector<std::string> ids, left_out;
  for (std::size_t f : drop) left_out.push_back(ColumnName(names, f));
  for (std::size_t f : *rest) {
    if (label_of(f) || f == weight || listed(drop, f)) continue;
    if (!opt->use_cols.empty() && !listed(keep, f)) {
      drop.push_back(f);
      left_out.push_back(ColumnName(names, f));
    } else if (opt->index_col == IndexColumn::kAuto && names != nullptr && !listed(keep, f) &&
               IsIdentifierName((*names)[f]) &&
               (!model || (!opt->model_names.empty() && std::find(opt->model_names.begin(), opt->model_names.end(),
                                                                   (*names)[f]) == opt->model_names.end()))) {
      drop.push_back(f);
      ids.push_back((*names)[f]);
    }
  }
  if (!ids.empty())
    ds->notes.push_back(std::string(ids.size() == 1 ? "column " : "columns ") + List(ids) +
                        (ids.size() == 1 ? " is" : " are") + " named like a row identifier, not a feature: " +
                        (model ? "skipped" : "left out") + " (--index-col keep keeps " +
                        (ids.size() == 1 ? "it" : "them") + ")");
  if (!left_out.empty())
    ds->notes.push_back(std::string(opt->use_cols.empty() ? "--drop-col" : "--drop-col/--use-cols") + ": left out " +
                        List(left_out));
  if (drop.empty()) return;
  std::vector<std::size_t> kept;
  for (std::size_t f : *rest)
    if (!listed(drop, f)) kept.push_back(f);
  if (kept.empty() || (kept.size() < 2 && opt->labels != LabelColumn::kAbsent && !model))
    Fail(at + "no feature columns are left once " + List(left_out) + (ids.empty() ? "" : " and " + List(ids)) +
         (left_out.size() + ids.size() == 1 ? " is" : " are") + " left out");
  const auto position = [&](std::size_t f) {
    return static_cast<long long>(std::find(kept.begin(), kept.end(), f) - kept.begin());
  };
  if (label_pos && label != kNone) opt->label_col = static_cast<int>(position(label));
  if (weight_pos && weight != kNone) opt->weight_column = std::to_string(position(weight));
  *rest = kept;
}

}  // namespace

bool IsLabelName(std::string_view name) {
  std::string low(name);
  std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const char* const kLabelish[] = {"label", "class", "target", "y", "outcome", "response", "species"};
  return std::any_of(std::begin(kLabelish), std::end(kLabelish), [&low](const char* l) { return low == l; });
}

bool DetectHeader(const std::vector<std::string_view>& f1, const std::vector<std::string_view>* f2,
                  const ReadOptions& opt, const std::string& at, std::vector<std::string>* names, Dataset* ds) {
  bool header = opt.csv_header == 1 || (opt.csv_header == -1 && !opt.label_name.empty());
  if (opt.csv_header == -1 && !header) header = LooksLikeHeader(f1, f2, opt, ds);
  if (!header) {
    if (!opt.label_name.empty()) Fail(at + "--label-col " + Quote(opt.label_name) + " names a column, but the file has no header");
    return false;
  }
  names->clear();
  for (std::string_view f : f1) names->push_back(FieldValue(f));
  for (const std::string& n : *names)
    if (HasControlChar(n)) Fail(at + "control character in the header's column name " + Quote(n));
  if (f2 != nullptr && f2->size() == f1.size() + 1) {  // R's write.table: no name over the row names
    names->insert(names->begin(), std::string());
    ds->notes.push_back("the header has one name fewer than the rows (R's write.table): the first column holds row names");
  }
  return true;
}

CsvPlan PlanColumns(const std::vector<std::string>* names, std::size_t nf, const ReadOptions& options,
                    const std::string& at, Dataset* ds) {
  CsvPlan plan;
  ReadOptions opt = options;
  if (nf < 2 && opt.model_inputs == 0)
    Fail(at + "found a single column (no ',', ';', tab or blank separator); need a label and at least one feature column");
  plan.index = IndexField(names, nf, opt, ds);
  std::vector<std::size_t> rest;
  for (std::size_t f = 0; f < nf; ++f)
    if (f != plan.index) rest.push_back(f);
  DropColumns(names, &rest, &opt, at, ds);
  plan.weight = WeightField(names, &rest, &opt, at);
  const bool model = opt.model_inputs != 0;
  if (model && names && !opt.model_names.empty() && !HasDuplicates(opt.model_names) && !HasDuplicates(*names)) {
    ByName(*names, rest, opt, at, &plan, ds);
  } else {
    if (model && names && opt.model_names.empty())
      ds->warnings.push_back("the model stores no feature names (its training file had no header): columns are taken by position");
    if (model && !names && !opt.model_names.empty())
      ds->warnings.push_back("no header: columns are taken by position, in the model's order (" + List(opt.model_names) + ")");
    if (model && names && !opt.model_names.empty())
      ds->warnings.push_back("duplicate column names: columns are taken by position, not by name");
    Positional(names, rest, opt, at, &plan, ds);
  }
  if (plan.features.empty()) Fail(at + "no feature columns");
  if (names == nullptr) return plan;
  for (std::size_t j = 0; j < plan.features.size(); ++j)
    ds->feature_names.push_back((*names)[plan.features[j]] +
                                (plan.category.empty() || plan.category[j].empty() ? "" : "=" + plan.category[j]));
  if (plan.label != kNone) ds->label_name = (*names)[plan.label];
  if (!model && plan.label != kNone) LabelNameHint(*names, plan, opt, ds);
  return plan;
}

void DropRowNumbers(const ReadOptions& opt, const CsvPlan& plan, Dataset* ds) {
  const std::size_t n = ds->rows, d = ds->cols;
  if (opt.index_col != IndexColumn::kAuto || opt.model_inputs != 0 || plan.index != kNone || d < 2 ||
      plan.features[0] != 0 || n < 3 || n > (std::size_t{1} << 24))  // floats count exactly to 2^24
    return;
  const float first = ds->dense[0];
  if (first != 0.0f && first != 1.0f) return;
  for (std::size_t r = 0; r < n; ++r)
    if (ds->dense[r * d] != first + static_cast<float>(r)) return;
  for (std::size_t r = 0; r < n; ++r)
    std::copy(ds->dense.begin() + static_cast<std::ptrdiff_t>(r * d + 1),
              ds->dense.begin() + static_cast<std::ptrdiff_t>(r * d + d),
              ds->dense.begin() + static_cast<std::ptrdiff_t>(r * (d - 1)));
  ds->dense.resize(n * (d - 1));
  ds->cols = d - 1;
  ds->notes.push_back(std::string("column 1 holds the row numbers ") + (first == 0.0f ? "0, 1, 2" : "1, 2, 3") +
                      ", ... (an index, not a feature): dropped; --index-col keep keeps it");
}

}  // namespace rfk::host::data_io

namespace rfk::host::data_io {

void WarnIdentifierValues(const ReadOptions& opt, const CsvPlan& plan, Dataset* ds) {
  const std::size_t n = ds->rows, d = ds->cols;
  if (opt.index_col != IndexColumn::kAuto || opt.model_inputs != 0 || n < 20) return;
  std::vector<float> column(n);
  for (std::size_t j = 0; j < d; ++j) {
    float lo = ds->dense[j], hi = lo;
    bool whole = true;
    for (std::size_t r = 0; r < n && whole; ++r) {
      const float v = ds->dense[r * d + j];
      whole = std::isfinite(v) && v == std::nearbyint(v);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      column[r] = v;
    }
    // n distinct whole numbers span at least n - 1: a cheap test before the sort.
    if (!whole || static_cast<double>(hi) - lo < static_cast<double>(n - 1)) continue;
    std::sort(column.begin(), column.end());
    if (std::adjacent_find(column.begin(), column.end()) != column.end()) continue;
    const std::string name = ds->feature_names.empty() ? "column " + std::to_string(plan.features[j] + 1)
                                                        : Quote(ds->feature_names[j]);
    ds->warnings.push_back(name + " holds a different whole number on each of its " + std::to_string(n) +
                           " rows, as a row identifier would; if it is one, --drop-col " +
                           (ds->feature_names.empty() ? std::to_string(plan.features[j]) : ds->feature_names[j]) +
                           " leaves it out of the features");
  }
}

}  // namespace rfk::host::data_io
