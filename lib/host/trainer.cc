// The training pipeline, the same for every map:
//   data -> targets -> standardisation and default gamma -> design (the maps' Gram statistics
//   or the sparse binning design: design.h) -> selection of gamma and lambda (selection.h) ->
//   the head -> (classification) the calibration on held-out outputs (calibration.h) -> model
//   assembly and the open-check (model_assembly.h) -> training-error sample.
// Fourier-type maps plug in below the design (fourier_map.h); the designs are the one step that
// differs between Fourier features alone and designs with random binning.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "calibration.h"
#include "design.h"
#include "fourier_map.h"
#include "gram.h"
#include "model_assembly.h"
#include "rfk/host/train.hpp"
#include "selection.h"
#include "train_context.h"

namespace rfk::host {

namespace {

constexpr std::size_t kTrainErrorRows = 10000;

// Training error as a fit diagnostic, of the model's float head on an evenly strided sample of
// at most kTrainErrorRows rows, so that it never costs more than a small part of training.
void TrainingError(Design& design, const Head& stored, const TrainContext& ctx) {
  const std::size_t n = ctx.data.rows;
  const std::size_t stride = (n + kTrainErrorRows - 1) / kTrainErrorRows;
  std::vector<std::uint32_t> sample;
  for (std::size_t i = 0; i < n; i += stride) sample.push_back(static_cast<std::uint32_t>(i));
  const double rms_sample = RmsTarget(ctx.targets, stride);
  const double loss = design.Loss(stored, sample);
  ctx.report->train_error_rows = sample.size();
  ctx.report->train_error = Metric(ctx.targets, loss, WeightSum(ctx.targets, n, stride), rms_sample);
  if (ctx.targets.task == format::Task::kRegression) return;
  std::vector<std::size_t> count(ctx.targets.labels.size(), 0);  // the sample's classes
  for (const std::uint32_t i : sample) ++count[ctx.targets.cls[i]];
  const auto top = std::max_element(count.begin(), count.end()) - count.begin();
  ctx.report->majority_rate = static_cast<double>(count[static_cast<std::size_t>(top)]) / static_cast<double>(sample.size());
  ctx.report->majority_label = ctx.targets.labels[static_cast<std::size_t>(top)];
}

// The task and the inputs' standardisation (input_stats.h), into the report.
InputScaling DescribeData(const Dataset& data, const TrainOptions& opt, const Targets& targets,
                          TrainReport* rep) {
  rep->task = targets.task;
  rep->task_reason = targets.reason;
  rep->labels = targets.labels;
  rep->rows = data.rows;
  rep->nonzero_fraction = NonZeroFraction(data);
  InputScaling scaling = ComputeStandardization(data, ChooseStandardization(data, opt.standardize));
  rep->standardized = !scaling.empty();
  rep->centred = scaling.centred;
  return scaling;
}

// The folds of the calibration's held-out outputs: at least 3, more with --cv-folds.
std::uint32_t CalibrationFolds(const TrainContext& ctx) {
  return std::max<std::uint32_t>(ctx.opt.cv_folds, 3);
}

// The calibration's folds, decided before the fit (which may accumulate their statistics in its
// own pass); none when the calibration does not run, with the reason in the report.
Folds CalibrationPlan(const TrainContext& ctx) {
  TrainReport& rep = *ctx.report;
  if (ctx.targets.task == format::Task::kRegression) return {};
  if (!ctx.opt.calibrate) {
    rep.calibration_reason = "--no-calibration";
    return {};
  }
  const std::uint32_t nf = CalibrationFolds(ctx);
  if (ctx.data.rows < std::size_t{kMinRowsPerFold} * nf) {
    rep.calibration_reason = "fewer than " + std::to_string(kMinRowsPerFold) + " rows per fold of " + std::to_string(nf);
    return {};
  }
  return SplitFolds(ctx.data.rows, nf, ctx.opt.seed);
}

// The calibration of the outputs (calibration.h) on held-out outputs at the chosen point, into
// the report (AssembleModel writes it into the model). Records why not when it is not fitted.
void Calibrate(Design& design, double factor, double lambda, const Folds& folds, const TrainContext& ctx) {
  TrainReport& rep = *ctx.report;
  const Targets& tg = ctx.targets;
  const auto t0 = std::chrono::steady_clock::now();
  ctx.Step("calibration: " + std::to_string(folds.held_out.size()) + "-fold held-out outputs");
  std::vector<double> S;
  if (!design.HeldOutOutputs(factor, lambda, folds, &S)) {
    rep.calibration_reason = "not computed for designs with random binning";
    return;
  }
  Calibration c;
  if (tg.task == format::Task::kBinary) {
    std::vector<std::uint8_t> y(tg.cls.size());
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = tg.cls[i] == 1 ? 1 : 0;
    c = FitPlattCubic(S, y, tg.w);
  } else {
    c = FitSoftmaxVector(S, tg.K, tg.cls, tg.w);
  }
  std::vector<float> params(c.params.size());
  for (std::size_t q = 0; q < params.size(); ++q) {
    params[q] = static_cast<float>(c.params[q]);
    if (!std::isfinite(params[q])) {
      rep.calibration_reason = "the fit did not converge to finite parameters";
      return;
    }
  }
  rep.calibration_method = c.method;
  rep.calibration_params = std::move(params);
  rep.calibration_log_loss = CalibratedLogLoss(c, S, tg.K, tg.cls, tg.w);
  rep.calibration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TrainResult Train(const Dataset& data, const TrainOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  TrainResult result;
  TrainReport& rep = result.report;
  const TrainOptions opt = ResolveDefaults(options, data.rows, &rep);
  ValidateOptions(data, opt);
  const unsigned threads = ResolveThreads(opt);
  const BlasOneThread blas_one_thread;  // rfk's own fixed partition of the work: gram.h
  Targets targets = MakeTargets(data, opt.task, [&](std::uint32_t K) {
    CheckMemory(data, opt, K, threads, 0, &rep);
  });
  ApplyWeights(data, opt, &targets);
  const InputScaling scaling = DescribeData(data, opt, targets, &rep);
  rep.gamma_default = DefaultGamma(data, opt.kernel, scaling, opt.seed);
  const std::vector<double> lambdas = LambdaGrid(opt);

  ProgressSteps steps;
  steps.n = PlannedSelectionPoints(opt, lambdas) + 2;  // + the fit and the training error
  const TrainContext ctx{data, opt, targets, scaling, threads, &rep, &steps};
  const std::unique_ptr<Design> design = opt.grids > 0 ? MakeBinningDesign(ctx) : MakeFourierDesign(ctx);
  const Choice choice = Select(*design, ctx, lambdas);
  rep.gamma = design->Gamma(choice.factor);
  rep.lambda = lambdas[choice.lambda];
  const Folds calibration = CalibrationPlan(ctx);
  const bool calibrate = !calibration.held_out.empty();
  if (calibrate) ++steps.n;
  ctx.Step("fit at gamma " + FormatDouble(rep.gamma) + ", lambda " + FormatDouble(rep.lambda));
  const Head head = design->Fit(choice.factor, rep.lambda, calibrate ? &calibration : nullptr);
  if (calibrate) Calibrate(*design, choice.factor, rep.lambda, calibration, ctx);
  AssembledModel model = AssembleModel(*design, head, ctx);
  result.model = StoreQuantized(model.blob, opt.w_storage, opt.head_storage, design->RoundedHead());
  ctx.Step("training error");
  TrainingError(*design, model.stored, ctx);
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

ModelSpec RandomFeatureSpec(format::Kernel kernel, format::MapKind map, std::uint32_t features,
                            std::uint32_t input_dim, double gamma, std::uint64_t seed) {
  const FourierMapType* type = FindFourierMap(map);
  if (features == 0 || (type && type->pairs && features % 2 != 0) || input_dim == 0 || !(gamma > 0))
    throw TrainError(
        "RandomFeatureSpec: need features > 0 (even for the pair form), input_dim > 0, gamma > 0");
  const std::unique_ptr<FourierMap> m =
      DrawFourierMap(map, kernel, features, input_dim, seed, 1)->At(gamma);
  ModelSpec spec;
  spec.input_dim = input_dim;
  m->Describe(&spec);
  spec.task = format::Task::kRegression;
  spec.num_outputs = 1;
  spec.head_weights.assign(m->features(), 0.0f);
  spec.head_bias.assign(1, 0.0f);
  return spec;
}

}  // namespace rfk::host
