// What every step of the training pipeline (trainer.cc) shares: the run's inputs, the report it
// fills in, and the small helpers the steps have in common.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/input_stats.h"
#include "data/row_source.h"
#include "rfk/host/data.hpp"
#include "rfk/host/ranks.hpp"
#include "rfk/host/train.hpp"
#include "training/solver.h"
#include "training/targets.h"

namespace rfk::host {

// Rows per feature block: designs stream the data through a map in blocks of this many rows.
inline constexpr std::size_t kBlockRows = 512;

// The calibration's sample (design.h, CalibrationSample): held-out outputs of the first h of the
// F folds -- the fewest whose rows (about n / F each) reach kCalibrationRows, all F for smaller
// data -- and of every stride-th row of those, so that it holds about kCalibrationRows to twice as
// many rows (every row of data under F / (F - 1) x kCalibrationRows). Each held-out fold costs a
// ridge solve (a D x D factorisation) and its rows' outputs are the one per-row array of the
// pipeline that grows with K; a calibration of 2K - 1 parameters needs no more rows (docs/RESULTS.md,
// "Calibrated probabilities", compares this sample with every row's held-out outputs).
inline constexpr std::size_t kCalibrationRows = 20000;
// F: the calibration's folds, at least 3, more with --cv-folds.
inline std::uint32_t CalibrationFolds(const TrainOptions& opt) { return opt.cv_folds > 3 ? opt.cv_folds : 3; }
inline std::uint32_t CalibrationHeldOut(std::size_t n, std::uint32_t F) {
  if (n == 0) return F;
  const std::size_t h = (std::size_t{F} * kCalibrationRows + n - 1) / n;
  return static_cast<std::uint32_t>(h < F ? h : F);
}
inline std::size_t CalibrationStride(std::size_t n, std::uint32_t F) {
  const std::size_t s = n * CalibrationHeldOut(n, F) / (std::size_t{F} * kCalibrationRows);
  return s > 0 ? s : 1;
}
// The sample's expected size (the folds' sizes are binomial; for memory estimates).
inline std::size_t CalibrationSampleRows(std::size_t n, std::uint32_t F) {
  const std::size_t per = std::size_t{F} * CalibrationStride(n, F);
  return (n * CalibrationHeldOut(n, F) + per - 1) / per;
}

// A linear head in double: W (D x K, row-major) and bias (K). Ridge solves return it; selection
// scores it; the model stores it rounded to float (model_assembly.h).
using Head = RidgeSolution;

// The pipeline's passes as "step k of n" in progress messages: each selection point, the final
// fit and the training-error sample are one step; n grows when the gamma search extends.
struct ProgressSteps {
  std::uint32_t k = 0, n = 0;
};

// One training run: its inputs (validated) and the report the steps fill in. The report and the
// progress steps are the only things steps write through a const context.
struct TrainContext {
  const Dataset& data;          // in memory; streamed, its meta() (sizes and names, no rows)
  const TrainOptions& opt;
  const Targets& targets;
  const InputScaling& scaling;  // the model's standardisation (empty: none)
  unsigned threads;             // workers; never changes a result
  TrainReport* report;
  ProgressSteps* steps = nullptr;
  RowSource* source = nullptr;  // the rows of `data` (data itself, or a file read in chunks);
                                // distributed: this rank's share (RankRows)
  Ranks* ranks = nullptr;       // distributed training (opt.ranks with more than one), else null

  // The end of a pass over `source`: v (n values, this rank's partial sums) becomes the sum over
  // every rank's, in rank order (Ranks::SumInRankOrder); nothing in one process. Every pass's
  // statistics go through here before anything is decided from them.
  void Sum(double* v, std::size_t n) const {
    if (ranks != nullptr) ranks->SumInRankOrder(v, n);
  }
  void Sum(std::vector<double>* v) const { Sum(v->data(), v->size()); }
  // Work every rank needs the result of, in items (the folds' solves): item i is rank i mod P's to
  // compute (every item this process's in one), which then Shares it with every other rank.
  bool Mine(std::size_t i) const {
    return ranks == nullptr || i % static_cast<std::size_t>(ranks->size()) == static_cast<std::size_t>(ranks->rank());
  }
  void Share(std::size_t i, std::vector<double>* v) const {
    if (ranks != nullptr) ranks->Broadcast(v->data(), v->size(), static_cast<int>(i % static_cast<std::size_t>(ranks->size())));
  }

  // opt.progress, if set, with what prefixed by "step k of n: ".
  void Progress(std::uint64_t done, std::uint64_t total, const std::string& what) const {
    if (!opt.progress) return;
    if (steps == nullptr) return opt.progress(done, total, what);
    opt.progress(done, total, "step " + std::to_string(steps->k) + " of " + std::to_string(steps->n) + ": " + what);
  }
  // The next step begins; with `what`, reported as that at 0 of 1 (a step whose own passes report
  // their progress needs no `what`).
  void Step(const std::string& what = {}) const {
    if (steps != nullptr) ++steps->k;
    if (!what.empty()) Progress(0, 1, what);
  }
};

// Throws TrainError for options or data training cannot take (before anything is allocated).
// `data` may be a streamed file's meta(): its rows are checked chunk by chunk (ValidateChunk).
void ValidateOptions(const Dataset& data, const TrainOptions& opt);
// A chunk of the training rows: labels present, no missing values (naming file:line).
void ValidateChunk(const Dataset& chunk);

// The pipeline on any source of rows (Train and TrainFile are it on a Dataset and on a file).
TrainResult Train(RowSource& source, const TrainOptions& options);

// opt.threads, or every hardware thread for 0; at most 64.
unsigned ResolveThreads(const TrainOptions& opt);

// The resource guard: records EstimateTrainingMemory (the largest so far) and the limit in *rep,
// and throws TrainError, stating the need, its largest part and the limit, if it is exceeded.
// `chunk_memory` > 0: the data is streamed (EstimateTrainingMemory).
void CheckMemory(const Dataset& data, const TrainOptions& opt, format::Task task, std::uint32_t K, unsigned threads,
                 std::uint32_t exact_bins, TrainReport* rep, double chunk_memory = 0);

// A double with 9 significant digits, as reports, messages and metadata print gammas and lambdas.
std::string FormatDouble(double v);

}  // namespace rfk::host
