// Evaluation through the device core, shared by eval, predict and train --test.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "rfk/fixed.hpp"

namespace rfk::cli {
namespace {

// The model's classes as numbers too, so "+1" in a test file matches the class "1".
struct ClassMatcher {
  explicit ClassMatcher(const rfk::Model& m) : m_(m), value_(m.num_classes), numeric_(m.num_classes) {
    for (std::uint32_t c = 0; c < m.num_classes; ++c) numeric_[c] = ParseDouble(rfk::ClassLabel(m, c), &value_[c]);
  }
  // The class `truth` names, or -1 when it names none of the model's.
  long Find(const std::string& truth) const {
    double truth_num = 0;
    const bool truth_is_num = ParseDouble(truth, &truth_num);
    for (std::uint32_t c = 0; c < m_.num_classes; ++c) {
      const bool same = numeric_[c] && truth_is_num ? value_[c] == truth_num : truth == rfk::ClassLabel(m_, c);
      if (same) return static_cast<long>(c);
    }
    return -1;
  }

 private:
  const rfk::Model& m_;
  std::vector<double> value_;
  std::vector<char> numeric_;
};

constexpr int kEceBins = 15;

// Running sums of the metrics over the rows scored so far.
struct Tally {
  double errors = 0, sq = 0, sq_y = 0, abs = 0, seconds = 0;
  std::size_t unknown = 0;
  std::uint64_t saturated = 0;                  // fixed-point models: inputs clamped to +-32767
  std::vector<std::uint64_t> confusion;         // C x C
  std::vector<std::pair<float, bool>> decision;  // binary: (output, true class is 1)
  bool raw = false;                              // Decision::kRaw
  std::vector<double> y;                         // regression targets, for R^2
  // Probabilities (models with calibration): sums over the rows of a known class.
  std::vector<float> p;                          // C, one row's
  double log_loss = 0, brier = 0;
  std::size_t proba_n = 0;
  double bin_n[kEceBins] = {}, bin_conf[kEceBins] = {}, bin_hit[kEceBins] = {};
};

// One row's probabilities against its class (index `truth`).
void ScoreProba(const rfk::Model& m, const float* o, long truth, Tally* t) {
  if (rfk::Probabilities(m, o, m.num_outputs, t->p.data(), t->p.size()) != rfk::Status::kOk) return;
  const std::size_t y = static_cast<std::size_t>(truth);
  t->log_loss -= std::log(std::max(static_cast<double>(t->p[y]), 1e-15));
  if (m.task == rfk::format::Task::kBinary) {
    const double d = t->p[1] - (y == 1 ? 1.0 : 0.0);
    t->brier += d * d;
  } else {
    for (std::size_t k = 0; k < t->p.size(); ++k) {
      const double d = t->p[k] - (k == y ? 1.0 : 0.0);
      t->brier += d * d;
    }
  }
  // The top probability's class (first maximum): the decided class unless --decision raw.
  std::size_t top = 0;
  for (std::size_t k = 1; k < t->p.size(); ++k)
    if (t->p[k] > t->p[top]) top = k;
  const double conf = t->p[top];
  const int b = std::min(kEceBins - 1, static_cast<int>(conf * kEceBins));
  t->bin_n[b] += 1;
  t->bin_conf[b] += conf;
  t->bin_hit[b] += top == y ? 1.0 : 0.0;
  ++t->proba_n;
}

// Scores one row's outputs `o` against its label; appends its prediction when asked.
void Score(const rfk::Model& m, const host::Dataset& data, std::size_t i, const float* o,
           const ClassMatcher& classes, std::vector<std::string>* predictions, Tally* t) {
  if (m.task != rfk::format::Task::kRegression) {
    const std::uint32_t cls = t->raw ? rfk::DecideClassRaw(m, o) : rfk::DecideClass(m, o);
    if (predictions) predictions->push_back(rfk::ClassLabel(m, cls));
    if (!data.has_labels) return;
    const long truth = classes.Find(data.labels[i]);
    if (truth < 0) ++t->unknown;
    if (truth != static_cast<long>(cls)) t->errors += 1;
    if (truth < 0) return;
    ++t->confusion[static_cast<std::size_t>(truth) * m.num_classes + cls];
    if (m.calibration_method != 0) ScoreProba(m, o, truth, t);
    if (m.task == rfk::format::Task::kBinary) t->decision.emplace_back(o[0], truth == 1);
    return;
  }
  if (predictions) predictions->push_back(Num(o[0]));
  if (!data.has_labels) return;
  double y = 0;
  if (!ParseDouble(data.labels[i], &y)) {
    if (!predictions)
      throw CliError(data.source + ":" + std::to_string(data.lines[i]) + ": label '" + data.labels[i] +
                     "' is not a number");
    return;
  }
  t->sq += (o[0] - y) * (o[0] - y);
  t->abs += std::fabs(o[0] - y);
  t->sq_y += y * y;
  t->y.push_back(y);
}

// A fixed-point model's outputs for x through the integer path (QuantizeInput, then PredictFixed),
// as reals: out[k] * the output unit (order and sign kept: --decision raw gives the integers' decisions).
rfk::Status PredictFixedRow(const rfk::Model& m, const float* x, void* scratch, float* out, Tally* t) {
  thread_local std::vector<std::int16_t> xq;
  thread_local std::vector<std::int32_t> o;
  xq.resize(m.input_dim);
  o.resize(m.num_outputs);
  std::uint32_t sat = 0;
  rfk::Status s = rfk::QuantizeInput(m, x, m.input_dim, xq.data(), xq.size(), &sat);
  if (s == rfk::Status::kOk) s = rfk::PredictFixed(m, xq.data(), xq.size(), scratch, rfk::FixedScratchBytes(m), o.data(), o.size());
  t->saturated += sat;
  const double unit = rfk::FixedOutputScale(m);
  for (std::size_t k = 0; s == rfk::Status::kOk && k < o.size(); ++k) out[k] = static_cast<float>(o[k] * unit);
  return s;
}

// Predicts rows [c0, c0 + cn) of X (dense, d each) into outputs, timing only rfk::Predict (or, for a
// fixed-point model, the integer path with its input conversion).
void PredictChunk(const rfk::Model& m, const host::Dataset& data, std::size_t c0, std::size_t cn,
                  const float* X, void* scratch, float* outputs, Tally* t) {
  const std::size_t d = m.input_dim;
  const bool fixed = rfk::FixedSection(m) != nullptr;
  const auto t0 = Clock::now();
  for (std::size_t r = 0; r < cn; ++r) {
    const rfk::Status s = fixed ? PredictFixedRow(m, X + r * d, scratch, outputs + r * m.num_outputs, t)
                                : rfk::Predict(m, X + r * d, d, scratch, rfk::ScratchBytes(m),
                                               outputs + r * m.num_outputs, m.num_outputs);
    if (s != rfk::Status::kOk) {
      std::ostringstream o;
      o << data.source << ":" << data.lines[c0 + r] << ": prediction failed: " << rfk::StatusMessage(s) << " ["
        << rfk::StatusName(s) << "]";
      throw CliError(o.str());
    }
  }
  t->seconds += std::chrono::duration<double>(Clock::now() - t0).count();
}

// The metrics of the tally over n rows.
EvalResult Finish(const rfk::Model& m, const host::Dataset& data, Tally&& t) {
  EvalResult res;
  const double n = static_cast<double>(data.rows);
  res.n = data.rows;
  res.classification = m.task != rfk::format::Task::kRegression;
  res.labelled = data.has_labels;
  res.predict_us = n > 0 ? t.seconds * 1e6 / n : 0.0;
  res.fixed_point = rfk::FixedSection(m) != nullptr;
  res.saturated = t.saturated;
  res.decision = !t.raw && m.calibration_method != 0 ? "calibrated" : "raw";
  if (!data.has_labels) return res;
  res.unknown_labels = t.unknown;
  res.error_rate = t.errors / n;
  res.accuracy = 1.0 - res.error_rate;
  res.rmse = std::sqrt(t.sq / n);
  res.rel_rmse = t.sq_y > 0 ? res.rmse / std::sqrt(t.sq_y / n) : 0.0;
  if (res.classification) {
    for (std::uint32_t c = 0; c < m.num_classes; ++c) res.classes.push_back(rfk::ClassLabel(m, c));
    res.confusion = std::move(t.confusion);
    FinishClassMetrics(&res);
    if (m.task == rfk::format::Task::kBinary) res.roc_auc = RocAuc(std::move(t.decision));
    if (m.calibration_method != 0 && t.proba_n > 0) {
      const double pn = static_cast<double>(t.proba_n);
      res.has_proba = true;
      res.log_loss = t.log_loss / pn;
      res.brier = t.brier / pn;
      res.ece = 0;
      for (int b = 0; b < kEceBins; ++b)
        if (t.bin_n[b] > 0) res.ece += std::fabs(t.bin_hit[b] - t.bin_conf[b]) / pn;
    }
    return res;
  }
  res.mae = t.abs / n;
  double mean = 0, ss = 0;
  for (const double y : t.y) mean += y;
  mean /= static_cast<double>(t.y.size());
  for (const double y : t.y) ss += (y - mean) * (y - mean);
  res.r2 = ss > 0 ? 1.0 - t.sq / ss : NAN;
  return res;
}

}  // namespace

void ThrowNoCalibration(const rfk::Model& m, const std::string& path) {
  if (m.task == rfk::format::Task::kRegression)
    throw CliError(path + " is a regression model: it has no class probabilities (--proba is for classifiers; "
                   "--scores prints the raw output)");
  throw CliError(path + " has no calibration section (trained with --no-calibration, with random binning, or by an "
                 "older rfk), so no class probabilities; retrain it without --no-calibration, or use --scores "
                 "for the raw outputs");
}

EvalResult Evaluate(const rfk::Model& m, const host::Dataset& data, std::vector<std::string>* predictions,
                    std::vector<float>* scores, std::vector<float>* proba, Decision decision) {
  const ClassMatcher classes(m);
  const std::size_t chunk = 4096, d = m.input_dim;
  std::vector<float> X(chunk * d), outputs(chunk * m.num_outputs);
  const std::size_t scratch_bytes = std::max(rfk::ScratchBytes(m), rfk::FixedScratchBytes(m));
  std::vector<std::uint8_t> scratch_store(scratch_bytes + rfk::kScratchAlignment);
  void* scratch = scratch_store.data();
  std::size_t space = scratch_store.size();
  scratch = std::align(rfk::kScratchAlignment, scratch_bytes, scratch, space);

  Tally t;
  t.raw = decision == Decision::kRaw;
  t.p.assign(m.num_classes, 0.0f);
  t.confusion.assign(std::size_t{m.num_classes} * m.num_classes, 0);
  for (std::size_t c0 = 0; c0 < data.rows; c0 += chunk) {
    const std::size_t cn = std::min(chunk, data.rows - c0);
    for (std::size_t r = 0; r < cn; ++r) host::DenseRow(data, c0 + r, X.data() + r * d, d);
    PredictChunk(m, data, c0, cn, X.data(), scratch, outputs.data(), &t);
    for (std::size_t r = 0; r < cn; ++r)
      Score(m, data, c0 + r, outputs.data() + r * m.num_outputs, classes, predictions, &t);
    if (scores) scores->insert(scores->end(), outputs.begin(), outputs.begin() + cn * m.num_outputs);
    for (std::size_t r = 0; proba && r < cn; ++r) {
      const std::size_t at = proba->size();
      proba->resize(at + m.num_classes);
      const rfk::Status s = rfk::Probabilities(m, outputs.data() + r * m.num_outputs, m.num_outputs,
                                               proba->data() + at, m.num_classes);
      if (s != rfk::Status::kOk)
        throw CliError(data.source + ":" + std::to_string(data.lines[c0 + r]) + ": probabilities failed: " +
                       rfk::StatusMessage(s) + " [" + rfk::StatusName(s) + "]");
    }
  }
  return Finish(m, data, std::move(t));
}

}  // namespace rfk::cli
