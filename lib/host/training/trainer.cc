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
#include <stdexcept>
#include <utility>
#include <vector>

#include <sys/resource.h>

#include "maps/block_kernels.h"
#include "training/calibration.h"
#include "training/design.h"
#include "training/distributed.h"
#include "maps/fourier_map.h"
#include "training/gram.h"
#include "model/model_assembly.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "training/selection.h"
#include "data/row_source.h"
#include "training/train_context.h"

namespace rfk::host {

namespace {

constexpr std::size_t kTrainErrorRows = 10000;
// The stride of an evenly strided sample of at most `cap` of n rows.
std::size_t Stride(std::size_t n, std::size_t cap) { return (n + cap - 1) / cap; }

// Training error as a fit diagnostic, of the model's float head on an evenly strided sample of
// at most kTrainErrorRows rows, so that it never costs more than a small part of training.
void TrainingError(Design& design, const Head& stored, const TrainContext& ctx) {
  const std::size_t n = ctx.data.rows;
  const std::size_t stride = Stride(n, kTrainErrorRows);
  const double rms_sample = RmsTarget(ctx.targets, stride);
  const double loss = design.Loss(stored, stride);
  ctx.report->train_error_rows = (n + stride - 1) / stride;
  ctx.report->train_error = Metric(ctx.targets, loss, WeightSum(ctx.targets, n, stride), rms_sample);
  if (ctx.targets.task == format::Task::kRegression) return;
  std::vector<std::size_t> count(ctx.targets.labels.size(), 0);  // the sample's classes
  for (std::size_t i = 0; i < n; i += stride) ++count[ctx.targets.cls[i]];
  const auto top = std::max_element(count.begin(), count.end()) - count.begin();
  ctx.report->majority_rate = static_cast<double>(count[static_cast<std::size_t>(top)]) /
                              static_cast<double>(ctx.report->train_error_rows);
  ctx.report->majority_label = ctx.targets.labels[static_cast<std::size_t>(top)];
}

// The statistics pass: every chunk checked, the labels, the inputs' column sums and (streamed
// data) the weight column, gathered in row order.
struct DataStats {
  LabelReader labels;
  ColumnStats columns;
  std::vector<double> weights;
};

DataStats ReadStats(RowSource& source, bool take_weights, const TrainOptions& opt) {
  DataStats s;
  const Dataset& meta = source.meta();
  source.ForEach([&](std::size_t first, const Dataset& chunk) {
    ValidateChunk(chunk);
    s.labels.Add(chunk);
    s.columns.Add(chunk);
    if (take_weights) s.weights.insert(s.weights.end(), chunk.weights.begin(), chunk.weights.end());
    if (opt.progress) opt.progress(first + chunk.rows, meta.rows, "statistics pass");
  });
  s.columns.cols = meta.cols;  // LIBSVM: min_cols beyond the highest index
  s.columns.s1.resize(meta.cols, 0.0);
  s.columns.s2.resize(meta.cols, 0.0);
  s.columns.indicator.resize(meta.cols, 1);
  return s;
}

// The task and the inputs' standardisation (input_stats.h), into the report.
InputScaling DescribeData(const ColumnStats& columns, const TrainOptions& opt, const Targets& targets,
                          TrainReport* rep) {
  rep->task = targets.task;
  rep->task_reason = targets.reason;
  rep->labels = targets.labels;
  rep->rows = columns.rows;
  rep->nonzero_fraction = NonZeroFraction(columns);
  InputScaling scaling = ComputeStandardization(columns, ChooseStandardization(columns, opt.standardize));
  ColumnMoments(columns, &scaling.data_mean, &scaling.data_sd);
  // Rounded to f16 where the model will store it so (quantized Fourier-type maps): training then
  // computes the device's features (to the fused projection's rounding: block_kernels.h).
  StandardizationStorage(opt.w_storage, opt.fourier && opt.grids == 0, &scaling.mean, &scaling.inv_scale);
  rep->standardized = !scaling.empty();
  rep->centred = scaling.centred;
  return scaling;
}

// The calibration's sample, decided before the fit (which may accumulate its groups' statistics in
// its own pass): of max(3, --cv-folds) folds, held_out of them (train_context.h); empty when the
// calibration does not run, with the reason in the report.
CalibrationSample CalibrationPlan(const TrainContext& ctx) {
  TrainReport& rep = *ctx.report;
  if (ctx.targets.task == format::Task::kRegression) return {};
  if (!ctx.opt.calibrate) {
    rep.calibration_reason = "--no-calibration";
    return {};
  }
  const std::uint32_t nf = CalibrationFolds(ctx.opt);
  const std::size_t n = ctx.data.rows;
  if (n < std::size_t{kMinRowsPerFold} * nf) {
    rep.calibration_reason = "fewer than " + std::to_string(kMinRowsPerFold) + " rows per fold of " + std::to_string(nf);
    return {};
  }
  CalibrationSample cal;
  cal.folds = SplitFolds(nf, ctx.opt.seed);
  cal.held_out = CalibrationHeldOut(n, nf);
  cal.stride = CalibrationStride(n, nf);
  const std::size_t expected = CalibrationSampleRows(n, nf);
  cal.rows.reserve(expected + expected / 8);
  for (std::size_t i = 0; i < n; i += cal.stride)
    if (cal.SampleFold(i) >= 0) cal.rows.push_back(static_cast<std::uint32_t>(i));
  return cal;
}

// The calibration of the outputs (calibration.h) on the held-out outputs of the sample at the
// chosen point, into the report (AssembleModel writes it into the model). Records why not when it
// is not fitted.
void Calibrate(Design& design, double factor, double lambda, const CalibrationSample& cal, const TrainContext& ctx) {
  TrainReport& rep = *ctx.report;
  const Targets& tg = ctx.targets;
  const auto t0 = std::chrono::steady_clock::now();
  ctx.Step("calibration: held-out outputs of " + std::to_string(cal.held_out) + " of " +
           std::to_string(cal.folds.count) + " folds (" + std::to_string(cal.rows.size()) + " rows)");
  std::vector<double> S;
  design.HeldOutOutputs(factor, lambda, cal, &S);
  std::vector<std::uint32_t> cls;
  std::vector<double> w;
  for (const std::uint32_t i : cal.rows) {
    cls.push_back(tg.cls[i]);
    if (!tg.w.empty()) w.push_back(tg.w[i]);
  }
  Calibration c;
  if (tg.task == format::Task::kBinary) {
    std::vector<std::uint8_t> y(cls.size());
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = cls[i] == 1 ? 1 : 0;
    c = FitPlattCubic(S, y, w);
  } else {
    c = FitSoftmaxVector(S, tg.K, cls, w);
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
  rep.calibration_log_loss = CalibratedLogLoss(c, S, tg.K, cls, w);
  rep.calibration_rows = cal.rows.size();
  rep.calibration_held_out = cal.held_out;
  rep.calibration_folds = cal.folds.count;
  rep.calibration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Streamed data: what training with it cannot do (binning's sparse design holds every row).
void RefuseStreamed(const TrainOptions& opt, const RowSource& source) {
  if (source.chunk_bytes() == 0) return;
  if (opt.grids > 0)
    throw TrainError("--map with binning needs the data in memory (its sparse design holds every row), and "
                     "training streams it (--stream, or the data exceeds --memory-limit): train binning "
                     "without --stream, within a larger --memory-limit, or use a Fourier map");
  if (!opt.sample_weight.empty())
    throw TrainError("streamed training takes row weights from the file's --weight-column, not as a list");
}

// The peak resident memory of the process so far (getrusage), bytes.
double PeakRss() {
  struct rusage ru {};
  if (::getrusage(RUSAGE_SELF, &ru) != 0) return 0;
#ifdef __APPLE__
  return static_cast<double>(ru.ru_maxrss);
#else
  return static_cast<double>(ru.ru_maxrss) * 1024.0;
#endif
}

// The pipeline's first steps: the statistics pass (labels, the targets, the inputs'
// standardisation, the weights), then the default gamma's sample.
// The defaults (ResolveDefaults) are resolved in *opt once the labels give the outputs, before
// the memory guard, which needs D.
Targets PrepareData(RowSource& source, TrainOptions* opt, unsigned threads, InputScaling* scaling, TrainReport* rep) {
  const Dataset& data = source.meta();
  const bool streamed = source.chunk_bytes() > 0;
  DataStats stats = ReadStats(source, streamed, *opt);
  Targets targets = MakeTargets(std::move(stats.labels), opt->task, [&](format::Task task, std::uint32_t K) {
    *opt = ResolveDefaults(*opt, data.rows, data.cols, K, rep);
    ValidateOptions(data, *opt);
    CheckMemory(data, *opt, task, K, threads, 0, rep, source.chunk_memory());
  });
  if (streamed && !stats.weights.empty()) opt->sample_weight = std::move(stats.weights);
  ApplyWeights(data.source, *opt, &targets);
  *scaling = DescribeData(stats.columns, *opt, targets, rep);
  const Dataset sample = GatherRows(source, GammaSampleRows(data.rows, opt->seed));
  rep->gamma_default = DefaultGamma(sample, data.rows, opt->kernel, *scaling, opt->seed);
  return targets;
}

}  // namespace

TrainResult Train(RowSource& source, const TrainOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const Dataset& data = source.meta();
  TrainResult result;
  TrainReport& rep = result.report;
  TrainOptions opt = options;
  ValidateOptions(data, opt);  // as given (the defaults are resolved, and checked again, in PrepareData)
  RefuseStreamed(opt, source);
  rep.chunk_bytes = static_cast<double>(source.chunk_bytes());
  rep.chunks = source.chunk_bytes() ? source.chunks() : 0;
  const unsigned threads = ResolveThreads(opt);
  const BlasOneThread blas_one_thread;  // rfk's own fixed partition of the work: gram.h
  InputScaling scaling;
  Targets targets = PrepareData(source, &opt, threads, &scaling, &rep);  // + its decision, once calibrated
  const std::vector<double> lambdas = LambdaGrid(opt);

  // Distributed: every rank has read every row for the statistics; the design's passes read its
  // share and sum their statistics over the ranks (TrainContext::Sum).
  Ranks* const ranks = DistributedRanks(opt);
  std::unique_ptr<RowSource> share;
  if (ranks != nullptr) {
    CheckRanksAgree(*ranks, data, opt, targets, scaling, rep.gamma_default);
    share = RankShare(source, *ranks);
    rep.ranks = static_cast<std::uint32_t>(ranks->size());
  }

  ProgressSteps steps;
  steps.n = PlannedSelectionPoints(opt, lambdas) + 2;  // + the fit and the training error
  const TrainContext ctx{data, opt, targets, scaling, threads, &rep, &steps, share ? share.get() : &source, ranks};
  const std::unique_ptr<Design> design = opt.grids > 0 ? MakeBinningDesign(ctx) : MakeFourierDesign(ctx);
  const Choice choice = Select(*design, ctx, lambdas);
  rep.gamma = design->Gamma(choice.factor);
  rep.lambda = lambdas[choice.lambda];
  const CalibrationSample calibration = CalibrationPlan(ctx);
  const bool calibrate = calibration.held_out > 0 && design->ComputesHeldOutOutputs();
  if (calibration.held_out > 0 && !calibrate) rep.calibration_reason = "not computed for designs with random binning";
  if (calibrate) ++steps.n;
  ctx.Step("fit at gamma " + FormatDouble(rep.gamma) + ", lambda " + FormatDouble(rep.lambda));
  const Head head = design->Fit(choice.factor, rep.lambda, calibrate ? &calibration : nullptr);
  if (calibrate) Calibrate(*design, choice.factor, rep.lambda, calibration, ctx);
  AssembledModel model = AssembleModel(*design, head, ctx);
  result.model = std::move(model.blob);
  // The training error of the stored model's decision: by its calibration where it has one.
  targets.decision.method = rep.calibration_method;
  targets.decision.params.assign(rep.calibration_params.begin(), rep.calibration_params.end());
  ctx.Step("training error");
  TrainingError(*design, model.stored, ctx);
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.blas = BlasDescription();
  rep.host_kernels = HostPathName(HostPath());
  rep.peak_rss = PeakRss();
  return result;
}

TrainResult Train(const Dataset& data, const TrainOptions& options) {
  DatasetSource source(data);
  return Train(source, options);
}

TrainResult TrainFile(const std::string& path, const ReadOptions& read, const TrainOptions& options,
                      std::size_t chunk_bytes, Dataset* meta) {
  const auto t0 = std::chrono::steady_clock::now();
  FileSource source(path, read, chunk_bytes);
  const double scan = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (meta) *meta = source.meta();
  TrainResult result = Train(source, options);
  result.report.scan_seconds = scan;
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
