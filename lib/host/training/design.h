// The design step of the training pipeline: the one step that differs between fitting
// Fourier-type features alone (Gram statistics Z'Z, a Cholesky solve: fourier_design.cc) and a
// design with random binning, alone or after Fourier-type features (a sparse design, conjugate
// gradients: binning_design.cc). Everything else -- targets, standardisation, the default gamma,
// folds, the gamma search and lambda grid, head rounding, model assembly, the open-check and the
// training-error sample -- is the pipeline's (trainer.cc) and the same for every design.
//
// Gammas are chosen as factors: the selection tries factor = 2^k, and a design rescales every map
// it holds (the Fourier-type map's gamma and binning's) by the same factor from their base gammas
// (the option, else the data-scale default).
//
// The pipeline calls, in this order: HeldOutLosses (then KeepBest when that factor holds the best
// point so far) for each factor the selection tries, none without selection; Fit once at the
// chosen factor and lambda; HeldOutOutputs once there (classification, for the calibration, on the
// sample Fit was given; only a design that ComputesHeldOutOutputs); then Describe and Loss. Designs
// allocate and throw TrainError.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "maps/random.h"
#include "rfk/host/model_writer.hpp"
#include "maps/streams.h"
#include "rfk/host/quantize.hpp"
#include "training/train_context.h"

namespace rfk::host {

// Cross-validation folds: a row's fold is RandomBits(seed, kFoldStream, row) % count, a function
// of its global index alone (independent of the row order in the file and of the chunks a
// streamed pass reads). count 0: no folds.
struct Folds {
  std::uint32_t count = 0;
  std::uint64_t seed = 0;
  int Of(std::size_t row) const { return static_cast<int>(RandomBits(seed, kFoldStream, row) % count); }
  // Each fold's rows of 0 .. n-1, ascending (for designs that hold the data in memory).
  std::vector<std::vector<std::uint32_t>> HeldOut(std::size_t n) const;
};

// The calibration's held-out outputs (trainer.cc's CalibrationPlan; train_context.h says how large):
// folds 0 .. held_out - 1 of `folds` are held out, each row of theirs among 0, stride, 2 stride, ...
// is scored by the head fitted without its fold. The statistics are accumulated in Groups() groups:
// each held-out fold, then the other folds' rows as one group. held_out 0: no calibration.
struct CalibrationSample {
  Folds folds;
  std::uint32_t held_out = 0;
  std::size_t stride = 1;
  std::vector<std::uint32_t> rows;  // the sample: every such row of 0 .. n-1, ascending

  std::size_t Groups() const { return held_out + (held_out < folds.count ? 1 : 0); }
  int GroupOf(std::size_t row) const {
    const int f = folds.Of(row);
    return f < static_cast<int>(held_out) ? f : static_cast<int>(held_out);
  }
  // The row's fold when the row is in the sample, else -1.
  int SampleFold(std::size_t row) const {
    if (row % stride != 0) return -1;
    const int f = folds.Of(row);
    return f < static_cast<int>(held_out) ? f : -1;
  }
  // A sampled row's position in `rows`.
  std::size_t Index(std::uint32_t row) const {
    return static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), row) - rows.begin());
  }
};

class Design {
 public:
  virtual ~Design() = default;

  // The gamma the report and the selection points name at `factor`: the Fourier-type map's when
  // the design has one, else binning's.
  virtual double Gamma(double factor) const = 0;
  // The gamma of the selection's starting point (held-out error +inf, factor 1, the first
  // lambda), which only a point at +inf error and a smaller gamma replaces.
  virtual double StartGamma() const = 0;

  // Summed held-out losses (RowLoss), one per lambda: for each fold, heads fitted on the other
  // folds' rows at `factor` and every lambda, scored on the fold's rows.
  virtual std::vector<double> HeldOutLosses(double factor, const Folds& folds,
                                            const std::vector<double>& lambdas) = 0;
  // The last HeldOutLosses factor holds the best point so far: a design may keep what Fit can
  // reuse from it.
  virtual void KeepBest() {}
  // What the last HeldOutLosses measured of the model on half the Fourier frequencies (the first
  // F/2; a pair's two features together), at the same factor and lambdas: its features (0: not
  // measured, then no losses) and summed losses, one per lambda.
  virtual std::uint32_t HalfFeatures() const { return 0; }
  virtual std::vector<double> HalfFeatureLosses() const { return {}; }

  // Whether HeldOutOutputs computes the calibration's outputs. Random binning's design does not:
  // the pipeline then plans no calibration (nor its progress step) and Fit gets no sample.
  virtual bool ComputesHeldOutOutputs() const { return false; }
  // Held-out outputs at (factor, lambda) of the calibration's sample: each held-out fold's sampled
  // rows through the head fitted on the other rows; out gets cal.rows.size() x K values, in row
  // order. Called only where ComputesHeldOutOutputs.
  virtual void HeldOutOutputs(double /*factor*/, double /*lambda*/, const CalibrationSample& /*cal*/,
                              std::vector<double>* /*out*/) {}

  // The head on every row at (factor, lambda). Records the design's own report fields.
  // cal (null: no calibration follows) is the sample HeldOutOutputs will get: a design that makes
  // a pass over the data here may accumulate its groups' statistics in that pass.
  virtual Head Fit(double factor, double lambda, const CalibrationSample* cal) = 0;
  // After Fit: the design's part of the model -- the maps (each map's part of the ModelSpec) and
  // the design's metadata lines ("key=value\n", between producer= and lambda=).
  virtual void Describe(ModelSpec* spec, std::string* metadata) const = 0;
  // After Fit: the summed losses (RowLoss) of `head` (the model's float weights) on data rows
  // 0, stride, 2 stride, ..., in row order, through the fitted maps.
  virtual double Loss(const Head& head, std::size_t stride) = 0;
  // After Fit, when TrainOptions::head_storage is int8: the head rounded for the model by the
  // design (GptqInt8Head on the fit's ridge system), or null: the model's writer rounds the
  // float head plainly.
  virtual const Int8Head* RoundedHead() const { return nullptr; }
};

// Fourier-type features alone (opt.grids == 0).
std::unique_ptr<Design> MakeFourierDesign(const TrainContext& ctx);
// Random binning (opt.grids > 0), after Fourier-type features when opt.fourier.
std::unique_ptr<Design> MakeBinningDesign(const TrainContext& ctx);

}  // namespace rfk::host
