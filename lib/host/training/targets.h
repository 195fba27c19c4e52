// Training targets: the task (regression, binary or multi-class), the class labels, the n x K
// target matrix of one-vs-rest ridge, and the losses selection and reports score heads with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "training/calibration.h"
#include "rfk/format.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"

namespace rfk::host {

struct Targets {
  format::Task task = format::Task::kRegression;
  std::string reason;               // why this task (for the report)
  std::vector<std::string> labels;  // classes, in model order (their first spelling in the data)
  std::vector<std::uint32_t> cls;   // class index per row (classification)
  std::vector<double> Y;            // regression: y per row (empty for classification)
  std::uint32_t K = 1;              // outputs: 1 for regression and binary, C for multi-class
  std::vector<double> w;            // per row: the weight in the fit and in scores (empty: all 1)
  // Set once the model's calibration is fitted (method 0 before, and without one): RowLoss then
  // decides as rfk::DecideClass does, by the most probable class, so that the training error is
  // the stored model's decision's.
  Calibration decision;

  double Weight(std::size_t row) const { return w.empty() ? 1.0 : w[row]; }
  // Row `row`'s K ridge targets into y: y (regression), +-1 (binary: class 1 is +1), or +1 for
  // its class and -1 for the others (one-vs-rest). Per-row state stays 4 bytes (classes) or 8
  // (regression targets), plus 8 with weights: training in bounded memory keeps it.
  void Row(std::size_t row, double* y) const;
  // Every row's targets, n x K row-major (the binning design's CG solves take them whole).
  std::vector<double> Matrix() const;
};

// The training labels, gathered chunk by chunk in row order (a pass over the data), for
// MakeTargets: per row its value as a number and its text's index among the distinct texts (12
// bytes a row), the distinct values and texts (at most format::kMaxOutputs + 1 of each are kept:
// more cannot be classes), and the first rows that regression could not take, with their lines.
class LabelReader {
 public:
  void Add(const Dataset& chunk);

  struct Bad {  // a row whose label regression cannot take
    std::size_t row = 0;
    std::string where, text;  // "FILE:LINE", the label
    bool set = false;
  };
  std::string source;
  std::size_t rows = 0;
  std::vector<double> num;             // per row; NaN where the label is not a number
  std::vector<std::uint32_t> text_id;  // per row: the index of its text in `texts`
  std::vector<std::string> texts;      // distinct texts in order of first appearance
  std::vector<std::pair<double, std::string>> values;  // distinct numbers, first spelling; unsorted
  bool all_numeric = true, all_integer = true;
  bool too_many_values = false, too_many_texts = false;  // beyond kMaxOutputs + 1
  Bad not_number, beyond_float;

 private:
  std::map<double, std::size_t> value_index_;                // into values
  std::unordered_map<std::string, std::uint32_t> text_index_;  // into texts
};

// Decides the task (`choice`, or from the labels for kAuto: non-numeric labels, or at most 32
// distinct integers with at least 5 rows per value when there are more than two, mean
// classification) and builds the targets (consuming the labels). `before_alloc(task, K)` runs
// once the task and K are known, before the per-row targets are built (the resource guard).
// Throws TrainError, naming file:line, for a label regression cannot use, and for fewer than 2 or
// too many classes.
Targets MakeTargets(LabelReader&& labels, TaskChoice choice,
                    const std::function<void(format::Task, std::uint32_t)>& before_alloc);
// The same on a dataset in memory (its labels read as one chunk).
Targets MakeTargets(const Dataset& data, TaskChoice choice,
                    const std::function<void(format::Task, std::uint32_t)>& before_alloc);

// Sets t->w from opt.sample_weight (validated: one finite weight >= 0 per row) times, for
// opt.class_weight == kBalanced, n / (C * n_c) for a row of class c (scikit-learn's "balanced":
// every class then carries the same total weight); leaves it empty when every weight would be 1.
// Throws TrainError for balanced weights on a regression task, and when the weights sum to 0.
void ApplyWeights(const std::string& source, const TrainOptions& opt, Targets* t);

// The summed weights of rows 0, stride, 2 stride, ... (their count when unweighted).
double WeightSum(const Targets& t, std::size_t n, std::size_t stride);

// One row's loss for summed held-out errors: the squared error (regression) or 1 for a
// misclassification (sign for binary, first argmax for multi-class, as rfk::DecideClassRaw; with
// `t.decision` set, the first maximum of its probabilities, as rfk::DecideClass).
// `out`: the K outputs of a head for data row `row`.
double RowLoss(const Targets& t, const double* out, std::size_t row);

// Summed (weighted) losses over rows of total weight n as the reported metric: the error rate, or
// the RMSE relative to `rms_y` (plain RMSE when rms_y is 0).
double Metric(const Targets& t, double summed, double n, double rms_y);

// Root (weighted) mean square of the regression target over rows 0, stride, 2 stride, ... (in
// that order); 0 for classification.
double RmsTarget(const Targets& t, std::size_t stride);

}  // namespace rfk::host
