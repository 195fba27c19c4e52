// The metrics eval reports beyond the error rate: per-class precision and recall, balanced
// accuracy, the majority-class baseline, ROC AUC (binary), MAE and R^2 (regression); as text and
// as JSON members.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "cli.hpp"

namespace rfk::cli {

namespace {

// Confusion matrices wider than this are printed in --json only.
constexpr std::size_t kMaxTextClasses = 20;

std::string Cut(const std::string& s, std::size_t width) {
  return s.size() <= width ? s : s.substr(0, width - 1) + "~";
}

// "0.9512", or "-" where the metric is undefined (NaN).
std::string Fixed(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

void PrintConfusion(const EvalResult& e) {
  const std::size_t C = e.classes.size();
  if (C > kMaxTextClasses) {
    std::printf("confusion:             %zu x %zu (in --json)\n", C, C);
    return;
  }
  std::size_t w = 6;
  for (const std::string& c : e.classes) w = std::max(w, std::min<std::size_t>(c.size(), 12));
  std::printf("confusion (rows: true class, columns: predicted):\n  %-*s", static_cast<int>(w), "");
  for (const std::string& c : e.classes) std::printf(" %*s", static_cast<int>(w), Cut(c, w).c_str());
  std::printf("\n");
  for (std::size_t t = 0; t < C; ++t) {
    std::printf("  %-*s", static_cast<int>(w), Cut(e.classes[t], w).c_str());
    for (std::size_t p = 0; p < C; ++p)
      std::printf(" %*llu", static_cast<int>(w), static_cast<unsigned long long>(e.confusion[t * C + p]));
    std::printf("\n");
  }
}

}  // namespace

void FinishClassMetrics(EvalResult* e) {
  const std::size_t C = e->classes.size();
  e->precision.assign(C, NAN);
  e->recall.assign(C, NAN);
  e->support.assign(C, 0);
  std::uint64_t total = 0;
  double recall_sum = 0;
  std::size_t present = 0, top = 0;
  for (std::size_t c = 0; c < C; ++c) {
    std::uint64_t predicted = 0;
    for (std::size_t t = 0; t < C; ++t) {
      e->support[c] += e->confusion[c * C + t];
      predicted += e->confusion[t * C + c];
    }
    const double hits = static_cast<double>(e->confusion[c * C + c]);
    if (predicted > 0) e->precision[c] = hits / static_cast<double>(predicted);
    if (e->support[c] > 0) {
      e->recall[c] = hits / static_cast<double>(e->support[c]);
      recall_sum += e->recall[c];
      ++present;
    }
    total += e->support[c];
    if (e->support[c] > e->support[top]) top = c;
  }
  if (present > 0) e->balanced_accuracy = recall_sum / static_cast<double>(present);
  if (total > 0) {
    e->majority_rate = static_cast<double>(e->support[top]) / static_cast<double>(e->n);
    e->majority_label = e->classes[top];
  }
}

double RocAuc(std::vector<std::pair<float, bool>> scored) {
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double positives = 0, rank_sum = 0;
  for (std::size_t i = 0; i < scored.size();) {
    std::size_t j = i;
    while (j < scored.size() && scored[j].first == scored[i].first) ++j;
    const double rank = (static_cast<double>(i) + static_cast<double>(j - 1)) / 2 + 1;  // tied: mean rank
    for (std::size_t k = i; k < j; ++k)
      if (scored[k].second) {
        positives += 1;
        rank_sum += rank;
      }
    i = j;
  }
  const double negatives = static_cast<double>(scored.size()) - positives;
  if (positives == 0 || negatives == 0) return NAN;
  return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives);
}

void PrintMetricsText(const EvalResult& e) {
  if (!e.classification) {
    std::printf("mae:                   %.9g\nr2:                    %.6f\n", e.mae, e.r2);
    return;
  }
  std::printf("balanced_accuracy:     %.6f (the mean of the per-class recalls)\n", e.balanced_accuracy);
  std::printf("majority_rate:         %.6f (the accuracy of always predicting '%s')\n", e.majority_rate,
              e.majority_label.c_str());
  if (!std::isnan(e.roc_auc)) std::printf("roc_auc:               %.6f\n", e.roc_auc);
  std::printf("per class:              %-10s %-10s %s\n", "precision", "recall", "support");
  for (std::size_t c = 0; c < e.classes.size(); ++c)
    std::printf("  %-20s %-10s %-10s %llu\n", Cut(e.classes[c], 20).c_str(), Fixed(e.precision[c]).c_str(),
                Fixed(e.recall[c]).c_str(), static_cast<unsigned long long>(e.support[c]));
  PrintConfusion(e);
}

std::string MetricsJson(const EvalResult& e) {
  std::ostringstream js;
  if (!e.classification) {
    js << ", \"mae\": " << Num(e.mae) << ", \"r2\": " << Num(e.r2);
    return js.str();
  }
  const std::size_t C = e.classes.size();
  js << ", \"balanced_accuracy\": " << Num(e.balanced_accuracy) << ", \"majority_rate\": " << Num(e.majority_rate)
     << ", \"majority_label\": \"" << JsonEscape(e.majority_label) << "\", \"roc_auc\": " << Num(e.roc_auc)
     << ", \"classes\": [";
  for (std::size_t c = 0; c < C; ++c) js << (c ? ", " : "") << "\"" << JsonEscape(e.classes[c]) << "\"";
  js << "], \"confusion\": [";
  for (std::size_t t = 0; t < C; ++t) {
    js << (t ? ", [" : "[");
    for (std::size_t p = 0; p < C; ++p) js << (p ? ", " : "") << e.confusion[t * C + p];
    js << "]";
  }
  js << "], \"per_class\": [";
  for (std::size_t c = 0; c < C; ++c)
    js << (c ? ", " : "") << "{\"label\": \"" << JsonEscape(e.classes[c]) << "\", \"precision\": " << Num(e.precision[c])
       << ", \"recall\": " << Num(e.recall[c]) << ", \"support\": " << e.support[c] << "}";
  js << "]";
  return js.str();
}

}  // namespace rfk::cli
