#include "model/model_assembly.h"

#include <algorithm>
#include <string>

#include "rfk/host/opened_model.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/model.hpp"

namespace rfk::host {

namespace {

// spec->head_weights (K x D) and head_bias: the head rounded to float; returns those values.
Head RoundHead(const Head& head, std::uint32_t K, ModelSpec* spec) {
  const std::size_t D = head.W.size() / K;
  spec->head_weights.resize(K * D);
  spec->head_bias.resize(K);
  Head stored;
  stored.W.resize(head.W.size());
  stored.bias.resize(K);
  for (std::uint32_t k = 0; k < K; ++k) {
    spec->head_bias[k] = static_cast<float>(head.bias[k]);
    stored.bias[k] = spec->head_bias[k];
    for (std::size_t i = 0; i < D; ++i) {
      const float w = static_cast<float>(head.W[i * K + k]);
      spec->head_weights[k * D + i] = w;
      stored.W[i * K + k] = w;
    }
  }
  return stored;
}

// "key=value\n" lines: the producer, the design's lines, then the run's.
std::string Metadata(const Design& design, const TrainContext& ctx, ModelSpec* spec) {
  std::string md = "producer=rfk train\n";
  design.Describe(spec, &md);
  md += "lambda=" + FormatDouble(ctx.report->lambda) + "\nseed=" + std::to_string(ctx.opt.seed) +
        "\ntrain_rows=" + std::to_string(ctx.data.rows) +
        "\nstandardized=" + (ctx.report->standardized ? "1" : "0") + "\n";
  return md;
}

}  // namespace

AssembledModel AssembleModel(const Design& design, const Head& head, const TrainContext& ctx) {
  ModelSpec spec;
  spec.input_dim = static_cast<std::uint32_t>(ctx.data.cols);
  spec.seed = ctx.opt.seed;
  // Without metadata (TrainOptions::metadata false) the spec's text stays empty and SerializeModel
  // writes no section for it; Describe still fills the design's other spec fields.
  const std::string metadata = Metadata(design, ctx, &spec);
  if (ctx.opt.metadata) spec.metadata = metadata;
  spec.mean = ctx.scaling.mean;
  spec.inv_scale = ctx.scaling.inv_scale;
  spec.task = ctx.targets.task;
  spec.num_outputs = ctx.targets.K;
  AssembledModel out;
  out.stored = RoundHead(head, ctx.targets.K, &spec);
  if (ctx.targets.task != format::Task::kRegression) spec.labels = ctx.targets.labels;
  spec.impute = ctx.opt.impute;
  spec.impute_method = ctx.opt.impute_method;
  // The inputs' means and deviations where the standardisation does not hold them (scaled
  // without centring, or none), with the metadata: what `rfk convert` draws inputs from to
  // estimate and refit a re-stored head (format::input_stats). Fourier-type maps only (convert
  // neither estimates nor refits with random binning).
  if (ctx.opt.metadata && ctx.opt.fourier && ctx.opt.grids == 0 && !ctx.scaling.centred) {
    spec.input_mean = ctx.scaling.data_mean;
    spec.input_sd = ctx.scaling.data_sd;
  }
  if (!ctx.data.feature_names.empty()) {
    spec.feature_names = ctx.data.feature_names;
    spec.target_name = ctx.data.label_name;
  }
  spec.calibration_method = ctx.report->calibration_method;
  spec.calibration_params = ctx.report->calibration_params;
  // The storages of --storage / --head-storage (training already rounded the standardisation to
  // f16 where the writer will store it so, and the design's features used W as stored).
  spec.map_storage = ctx.opt.w_storage;
  spec.head_storage = ctx.opt.head_storage;
  if (const Int8Head* rounded = design.RoundedHead()) SetInt8Head(*rounded, &spec);
  out.blob = SerializeModel(spec);
  CheckModelOpens(out.blob);
  return out;
}

void CheckModelOpens(const std::vector<std::uint8_t>& blob) {
  try {
    OpenedModel check(blob);
  } catch (const ModelOpenError& e) {
    throw TrainError(std::string("the trained model fails its own check (") + StatusMessage(e.status()) +
                     " at field '" + e.error().field + "'); a parameter is outside what the format "
                     "holds as a float -- e.g. targets or inputs of extreme magnitude (rescale "
                     "them), or a gamma that rounds to 0");
  }
}

}  // namespace rfk::host
