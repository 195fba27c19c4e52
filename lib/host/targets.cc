#include "targets.h"

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

std::string Where(const Dataset& data, std::size_t row) {
  std::ostringstream o;
  o << data.source << ":" << (row < data.lines.size() ? data.lines[row] : row + 1);
  return o.str();
}

// The labels read as numbers, where they are.
struct LabelValues {
  std::vector<double> num;  // per row; unspecified where the label is not a number
  bool all_numeric = true, all_integer = true;
  std::size_t first_bad = 0;  // the first row whose label is not a number (rows if none)
};

LabelValues ParseLabels(const Dataset& data) {
  const std::size_t n = data.rows;
  LabelValues v;
  v.num.resize(n);
  v.first_bad = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ParseNumber(data.labels[i], &v.num[i])) {
      v.all_numeric = false;
      if (v.first_bad == n) v.first_bad = i;
    } else if (v.num[i] != std::floor(v.num[i])) {
      v.all_integer = false;
    }
  }
  return v;
}

// True for classification; *reason says why. Throws if regression was asked for labels that are
// not numbers.
bool ChooseClassification(const Dataset& data, TaskChoice choice, const LabelValues& v,
                          std::string* reason) {
  if (choice == TaskChoice::kRegression) {
    if (!v.all_numeric)
      throw TrainError(Where(data, v.first_bad) + ": label '" + data.labels[v.first_bad] +
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
  std::vector<double> u(v.num);
  std::sort(u.begin(), u.end());
  const auto distinct = static_cast<std::size_t>(std::unique(u.begin(), u.end()) - u.begin());
  const bool few_rows = distinct > 2 && data.rows < kAutoRowsPerClass * distinct;
  const bool classify = v.all_integer && distinct <= kAutoMaxClasses && !few_rows;
  std::ostringstream o;
  o << "auto: " << distinct << (v.all_integer ? " distinct integer" : " distinct") << " labels in " << data.rows
    << " rows";
  if (!v.all_integer) o << ", not all integers";
  else if (distinct > kAutoMaxClasses) o << ", more than " << kAutoMaxClasses << "; --task classification if they are classes";
  else if (few_rows) o << ", fewer than " << kAutoRowsPerClass << " rows per value: a count or score, not classes; "
                       << "--task classification if they are classes";
  *reason = o.str();
  return classify;
}

void RegressionTargets(const Dataset& data, LabelValues&& v,
                       const std::function<void(std::uint32_t)>& before_alloc, Targets* t) {
  // The model holds outputs as floats: a target beyond float range cannot be fitted.
  for (std::size_t i = 0; i < data.rows; ++i) {
    if (std::fabs(v.num[i]) > double(FLT_MAX))
      throw TrainError(Where(data, i) + ": label '" + data.labels[i] +
                       "' is beyond the float range of the model's outputs (|y| <= 3.4e38)");
  }
  before_alloc(1u);
  t->task = Task::kRegression;
  t->Y = std::move(v.num);
}

// Classes keyed by value when every label is a number ("+1" and "1" are one class, sorted
// numerically), else by text (sorted lexicographically). A class's label is its first spelling.
void IndexClasses(const Dataset& data, const LabelValues& v, Targets* t) {
  const std::size_t n = data.rows;
  t->cls.resize(n);
  if (v.all_numeric) {
    std::map<double, std::size_t> seen;
    for (std::size_t i = 0; i < n; ++i) seen.emplace(v.num[i], i);
    std::map<double, std::uint32_t> index;
    for (const auto& [value, row] : seen) {
      index[value] = static_cast<std::uint32_t>(t->labels.size());
      t->labels.push_back(data.labels[row]);
    }
    for (std::size_t i = 0; i < n; ++i) t->cls[i] = index[v.num[i]];
    return;
  }
  std::map<std::string, std::uint32_t> index;
  for (std::size_t i = 0; i < n; ++i) index.emplace(data.labels[i], 0);
  for (auto& [label, idx] : index) {
    idx = static_cast<std::uint32_t>(t->labels.size());
    t->labels.push_back(label);
  }
  for (std::size_t i = 0; i < n; ++i) t->cls[i] = index[data.labels[i]];
}

// One-vs-rest targets: +-1 for the one output of a binary task, one +1 per row otherwise.
void ClassTargets(const Dataset& data, const LabelValues& v,
                  const std::function<void(std::uint32_t)>& before_alloc, Targets* t) {
  IndexClasses(data, v, t);
  const std::size_t C = t->labels.size();
  if (C < 2) throw TrainError(data.source + ": classification needs at least two classes, found " +
                              std::to_string(C) + " ('" + t->labels[0] + "')");
  if (C > format::kMaxOutputs)
    throw TrainError(data.source + ": " + std::to_string(C) + " classes exceed the format's limit");
  for (const std::string& l : t->labels)
    if (l.find('\0') != std::string::npos) throw TrainError(data.source + ": a label contains a NUL byte");
  t->task = C == 2 ? Task::kBinary : Task::kMulticlass;
  t->K = C == 2 ? 1 : static_cast<std::uint32_t>(C);
  before_alloc(t->K);
  t->Y.assign(data.rows * t->K, -1.0);
  for (std::size_t i = 0; i < data.rows; ++i) {
    if (C == 2) t->Y[i] = t->cls[i] == 1 ? 1.0 : -1.0;
    else t->Y[i * t->K + t->cls[i]] = 1.0;
  }
}

}  // namespace

Targets MakeTargets(const Dataset& data, TaskChoice choice,
                    const std::function<void(std::uint32_t)>& before_alloc) {
  LabelValues values = ParseLabels(data);
  Targets t;
  if (ChooseClassification(data, choice, values, &t.reason)) {
    ClassTargets(data, values, before_alloc, &t);
  } else {
    RegressionTargets(data, std::move(values), before_alloc, &t);
  }
  return t;
}

double RowLoss(const Targets& t, const double* out, std::size_t row) {
  if (t.task == Task::kRegression) {
    const double e = out[0] - t.Y[row];
    return e * e;
  }
  std::uint32_t pred = 0;
  if (t.K == 1) {
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

void ApplyWeights(const Dataset& data, const TrainOptions& opt, Targets* t) {
  const std::size_t n = data.rows;
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
  if (!(sum > 0)) throw TrainError(data.source + ": the row weights sum to 0; nothing to fit");
}

}  // namespace rfk::host
