#include "training/targets.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <utility>

namespace rfk::host {

using format::Task;

namespace {

// --task auto: integer labels are classes when there are at most kAutoMaxClasses distinct values
// and, beyond two, at least kAutoRowsPerClass rows per value on average; else a count or a score
// (54 rows of 31 distinct counts are no 31-class problem).
constexpr std::size_t kAutoMaxClasses = 32;
constexpr std::size_t kAutoRowsPerClass = 5;

bool ParseNumber(const std::string& s, double* v) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(x)) return false;
  *v = x;
  return true;
}

// More distinct values than this cannot be classes (the format's limit on outputs).
constexpr std::size_t kMaxDistinct = std::size_t{format::kMaxOutputs} + 1;

std::string Where(const Dataset& chunk, std::size_t r) {
  std::ostringstream o;
  o << chunk.source << ":" << (r < chunk.lines.size() ? chunk.lines[r] : r + 1);
  return o.str();
}

// The number of distinct label values, and "more than" when the reader stopped counting.
std::string DistinctCount(const LabelReader& v) {
  return (v.too_many_values ? "more than " : "") + std::to_string(v.values.size());
}

// True for classification; *reason says why. Throws if regression was asked for labels that are
// not numbers.
bool ChooseClassification(const LabelReader& v, TaskChoice choice, std::string* reason) {
  if (choice == TaskChoice::kRegression) {
    if (!v.all_numeric)
      throw TrainError(v.not_number.where + ": label '" + v.not_number.text +
                       "' is not a number (regression needs numeric targets)");
    *reason = "requested";
    return false;
  }
  if (choice == TaskChoice::kClassification) {
    *reason = "requested";
    return true;
  }
  if (!v.all_numeric) {
    *reason = "auto: labels are not all numbers";
    return true;
  }
  const std::size_t distinct = v.values.size();
  const bool few_rows = distinct > 2 && v.rows < kAutoRowsPerClass * distinct;
  const bool classify = v.all_integer && distinct <= kAutoMaxClasses && !few_rows && !v.too_many_values;
  std::ostringstream o;
  o << "auto: " << DistinctCount(v) << (v.all_integer ? " distinct integer" : " distinct") << " labels in "
    << v.rows << " rows";
  if (!v.all_integer) o << ", not all integers";
  else if (distinct > kAutoMaxClasses) o << ", more than " << kAutoMaxClasses << "; --task classification if they are classes";
  else if (few_rows) o << ", fewer than " << kAutoRowsPerClass << " rows per value: a count or score, not classes; "
                       << "--task classification if they are classes";
  *reason = o.str();
  return classify;
}

void RegressionTargets(LabelReader&& v, const std::function<void(Task, std::uint32_t)>& before_alloc, Targets* t) {
  // The model holds outputs as floats: a target beyond float range cannot be fitted.
  if (v.beyond_float.set)
    throw TrainError(v.beyond_float.where + ": label '" + v.beyond_float.text +
                     "' is beyond the float range of the model's outputs (|y| <= 3.4e38)");
  before_alloc(Task::kRegression, 1u);
  t->task = Task::kRegression;
  t->Y = std::move(v.num);
}

// Classes keyed by value when every label is a number ("+1" and "1" are one class, sorted
// numerically), else by text (sorted lexicographically). A class's label is its first spelling.
void IndexClasses(const LabelReader& v, Targets* t) {
  const std::size_t n = v.rows;
  t->cls.resize(n);
  if (v.all_numeric) {
    std::map<double, std::uint32_t> index;
    std::vector<std::pair<double, std::string>> sorted(v.values);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [value, spelling] : sorted) {
      index[value] = static_cast<std::uint32_t>(t->labels.size());
      t->labels.push_back(spelling);
    }
    for (std::size_t i = 0; i < n; ++i) t->cls[i] = index[v.num[i]];
    return;
  }
  std::vector<std::uint32_t> order(v.texts.size()), rank(v.texts.size());
  for (std::uint32_t q = 0; q < order.size(); ++q) order[q] = q;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return v.texts[a] < v.texts[b]; });
  for (std::uint32_t q = 0; q < order.size(); ++q) {
    rank[order[q]] = q;
    t->labels.push_back(v.texts[order[q]]);
  }
  for (std::size_t i = 0; i < n; ++i) t->cls[i] = rank[v.text_id[i]];
}

// One-vs-rest targets: +-1 for the one output of a binary task, one +1 per row otherwise.
void ClassTargets(const LabelReader& v, const std::function<void(Task, std::uint32_t)>& before_alloc, Targets* t) {
  if ((v.all_numeric && v.too_many_values) || (!v.all_numeric && v.too_many_texts))
    throw TrainError(v.source + ": more than " + std::to_string(format::kMaxOutputs) +
                     " classes exceed the format's limit");
  IndexClasses(v, t);
  const std::size_t C = t->labels.size();
  if (C < 2) throw TrainError(v.source + ": classification needs at least two classes, found " +
                              std::to_string(C) + " ('" + t->labels[0] + "')");
  if (C > format::kMaxOutputs)
    throw TrainError(v.source + ": " + std::to_string(C) + " classes exceed the format's limit");
  for (const std::string& l : t->labels)
    if (l.find('\0') != std::string::npos) throw TrainError(v.source + ": a label contains a NUL byte");
  t->task = C == 2 ? Task::kBinary : Task::kMulticlass;
  t->K = C == 2 ? 1 : static_cast<std::uint32_t>(C);
  before_alloc(t->task, t->K);
}

}  // namespace

void LabelReader::Add(const Dataset& chunk) {
  if (source.empty()) source = chunk.source;
  for (std::size_t r = 0; r < chunk.rows; ++r) {
    const std::string& label = chunk.labels[r];
    double x = 0;
    if (!ParseNumber(label, &x)) {
      x = std::nan("");
      if (all_numeric) not_number = {rows, Where(chunk, r), label, true};
      all_numeric = false;
    } else {
      if (x != std::floor(x)) all_integer = false;
      if (std::fabs(x) > double(FLT_MAX) && !beyond_float.set) beyond_float = {rows, Where(chunk, r), label, true};
      if (!too_many_values && value_index_.find(x) == value_index_.end()) {
        if (values.size() < kMaxDistinct) {
          value_index_.emplace(x, values.size());
          values.emplace_back(x, label);
        } else {
          too_many_values = true;
        }
      }
    }
    num.push_back(x);
    auto it = text_index_.find(label);
    if (it == text_index_.end() && !too_many_texts) {
      if (texts.size() < kMaxDistinct) {
        it = text_index_.emplace(label, static_cast<std::uint32_t>(texts.size())).first;
        texts.push_back(label);
      } else {
        too_many_texts = true;
      }
    }
    text_id.push_back(it == text_index_.end() ? 0 : it->second);
    ++rows;
  }
}

Targets MakeTargets(LabelReader&& labels, TaskChoice choice,
                    const std::function<void(Task, std::uint32_t)>& before_alloc) {
  Targets t;
  if (ChooseClassification(labels, choice, &t.reason)) {
    ClassTargets(labels, before_alloc, &t);
  } else {
    RegressionTargets(std::move(labels), before_alloc, &t);
  }
  return t;
}

Targets MakeTargets(const Dataset& data, TaskChoice choice,
                    const std::function<void(Task, std::uint32_t)>& before_alloc) {
  LabelReader labels;
  labels.Add(data);
  return MakeTargets(std::move(labels), choice, before_alloc);
}

void Targets::Row(std::size_t row, double* y) const {
  if (task == Task::kRegression) {
    y[0] = Y[row];
  } else if (K == 1) {
    y[0] = cls[row] == 1 ? 1.0 : -1.0;
  } else {
    std::fill(y, y + K, -1.0);
    y[cls[row]] = 1.0;
  }
}

std::vector<double> Targets::Matrix() const {
  const std::size_t n = task == Task::kRegression ? Y.size() : cls.size();
  std::vector<double> m(n * K);
  for (std::size_t i = 0; i < n; ++i) Row(i, m.data() + i * K);
  return m;
}

double RowLoss(const Targets& t, const double* out, std::size_t row) {
  if (t.task == Task::kRegression) {
    const double e = out[0] - t.Y[row];
    return e * e;
  }
  std::uint32_t pred = 0;
  if (t.decision.method != 0) {
    thread_local std::vector<double> p;
    p.resize(t.labels.size());
    CalibratedProbabilities(t.decision, out, t.K, p.data());
    pred = static_cast<std::uint32_t>(std::max_element(p.begin(), p.end()) - p.begin());  // the first maximum
  } else if (t.K == 1) {
    pred = out[0] > 0 ? 1 : 0;
  } else {
    for (std::uint32_t k = 1; k < t.K; ++k)
      if (out[k] > out[pred]) pred = k;
  }
  return pred != t.cls[row] ? 1.0 : 0.0;
}

double Metric(const Targets& t, double summed, double n, double rms_y) {
  if (t.task != Task::kRegression) return summed / n;
  return rms_y > 0 ? std::sqrt(summed / n) / rms_y : std::sqrt(summed / n);
}

double RmsTarget(const Targets& t, std::size_t stride) {
  if (t.task != Task::kRegression) return 0.0;
  double sum = 0;
  for (std::size_t i = 0; i < t.Y.size(); i += stride) sum += t.Weight(i) * t.Y[i] * t.Y[i];
  return std::sqrt(sum / WeightSum(t, t.Y.size(), stride));
}

double WeightSum(const Targets& t, std::size_t n, std::size_t stride) {
  if (t.w.empty()) return static_cast<double>((n + stride - 1) / stride);
  double sum = 0;
  for (std::size_t i = 0; i < n; i += stride) sum += t.w[i];
  return sum;
}

void ApplyWeights(const std::string& source, const TrainOptions& opt, Targets* t) {
  const std::size_t n = t->task == Task::kRegression ? t->Y.size() : t->cls.size();
  const bool balanced = opt.class_weight == ClassWeight::kBalanced;
  if (balanced && t->task == Task::kRegression)
    throw TrainError("--class-weight balanced needs a classification task; the labels were taken for regression");
  t->w.clear();
  if (!balanced && opt.sample_weight.empty()) return;
  t->w.assign(n, 1.0);
  if (!opt.sample_weight.empty()) t->w = opt.sample_weight;
  if (balanced) {
    const std::size_t C = t->labels.size();
    std::vector<double> count(C, 0.0);
    for (std::size_t i = 0; i < n; ++i) count[t->cls[i]] += 1;
    for (std::size_t i = 0; i < n; ++i)
      t->w[i] *= static_cast<double>(n) / (static_cast<double>(C) * count[t->cls[i]]);
  }
  double sum = 0;
  for (double v : t->w) sum += v;
  if (!(sum > 0)) throw TrainError(source + ": the row weights sum to 0; nothing to fit");
}

}  // namespace rfk::host
