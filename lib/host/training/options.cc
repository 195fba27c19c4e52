// The run's settings: options validation, the thread count, and how numbers are printed.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>
#include <thread>
#include <utility>

#include "maps/fourier_map.h"
#include "rfk/host/settings.hpp"
#include "training/train_context.h"

namespace rfk::host {

using format::MapKind;

std::string FormatDouble(double v) {
  std::ostringstream o;
  o.precision(9);
  o << v;
  return o.str();
}

unsigned ResolveThreads(const TrainOptions& opt) {
  const unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  return std::min(threads, 64u);
}

namespace {

// The data as a whole: rows, labels and a dimension the format holds.
void ValidateData(const Dataset& data) {
  if (data.rows == 0) throw TrainError(data.source + ": no training rows");
  if (data.cols == 0 || data.cols > format::kMaxInputDim)
    throw TrainError(data.source + ": input dimension " + std::to_string(data.cols) + " out of range");
  if (data.rows > 0xFFFFFFFFull) throw TrainError(data.source + ": more than 2^32 rows");
  if (!data.has_labels) throw TrainError(data.source + ": no label column (training needs one)");
  if (!data.feature_names.empty() && data.feature_names.size() != data.cols)
    throw TrainError(data.source + ": " + std::to_string(data.feature_names.size()) + " feature names for " +
                     std::to_string(data.cols) + " columns");
}

// The option `flag` as the options' interface spells it.
std::string Name(const TrainOptions& opt, const char* flag) { return OptionName(flag, opt.spelling); }

// The maps: at least one, of sizes the format holds.
void ValidateMaps(const TrainOptions& opt) {
  if (!opt.fourier && opt.grids == 0) throw TrainError("no feature map: need Fourier features or " + Name(opt, "--grids"));
  if (opt.grids > format::kMaxOutputs)
    throw TrainError(Name(opt, "--grids") + " must be between 1 and " + std::to_string(format::kMaxOutputs));
  if (opt.grids > 0 && opt.buckets > 0 && std::uint64_t{opt.grids} * opt.buckets > format::kMaxFeatures)
    throw TrainError(Name(opt, "--grids") + " x " + Name(opt, "--bins-per-grid") + " exceeds the format's 2^24 columns");
  if (!opt.fourier) return;
  const FourierMapType* type = FindFourierMap(opt.map);
  if (type == nullptr)
    throw TrainError(OptionGiven("--map", MapName(opt.map), opt.spelling) + " has no Fourier-type feature map to train");
  if (opt.features == kDefaultFeatures) return;  // resolved from the data (ResolveDefaults), then checked
  if (opt.features > format::kMaxFeatures)
    throw TrainError(Name(opt, "--features") + " must be between 1 and " + std::to_string(format::kMaxFeatures));
  if (type->pairs && opt.features % 2 != 0)
    throw TrainError(Name(opt, "--features") + " must be even for " + OptionGiven("--map", MapName(opt.map), opt.spelling) +
                     " (cos/sin pairs); got " + std::to_string(opt.features));
}

// Gamma, lambda and the folds.
void ValidateSelection(const Dataset& data, const TrainOptions& opt) {
  if (!opt.lambda_auto && opt.lambda != kDefaultLambda && !(opt.lambda >= 0 && std::isfinite(opt.lambda)))
    throw TrainError(Name(opt, "--lambda") + " must be a finite number >= 0");
  if (!opt.gamma_auto && !(std::isfinite(opt.gamma)))
    throw TrainError(Name(opt, "--gamma") + " must be a finite positive number");
  // The model stores gammas as floats: a value a float cannot hold as a normal number would be
  // written as 0 or infinity.
  for (const auto& [name, g] : {std::pair<const char*, double>{"--gamma", opt.gamma},
                               {opt.fourier ? "--bin-gamma" : "--gamma", opt.bin_gamma}}) {
    if (g > 0 && !(g >= double(FLT_MIN) && g <= double(FLT_MAX)))
      throw TrainError(Name(opt, name) + " " + FormatDouble(g) + " is outside the float range the model stores it in (" +
                       FormatDouble(double(FLT_MIN)) + " to " + FormatDouble(double(FLT_MAX)) + ")");
  }
  if ((opt.gamma_auto || opt.lambda_auto) && (opt.cv_folds < 2 || opt.cv_folds > data.rows))
    throw TrainError("cross-validation needs 2 <= folds <= rows");
}

// Sample weights: none, or one finite weight >= 0 per row.
void ValidateWeights(const Dataset& data, const TrainOptions& opt) {
  const std::vector<double>& w = opt.sample_weight;
  if (w.empty()) return;
  if (w.size() != data.rows)
    throw TrainError(data.source + ": " + std::to_string(w.size()) + " sample weights for " +
                     std::to_string(data.rows) + " rows");
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!(w[i] >= 0 && std::isfinite(w[i])))
      throw TrainError(data.source + ":" + std::to_string(i < data.lines.size() ? data.lines[i] : i + 1) +
                       ": sample weight " + FormatDouble(w[i]) + " is not a finite number >= 0");
}

}  // namespace

void ValidateChunk(const Dataset& chunk) {
  if (chunk.labels.size() != chunk.rows) throw TrainError(chunk.source + ": labels missing");
  if (!chunk.has_labels) throw TrainError(chunk.source + ": no label column (training needs one)");
  for (std::size_t i = 0; i < chunk.dense.size(); ++i)
    if (std::isnan(chunk.dense[i]))
      throw TrainError(chunk.source + ":" + std::to_string(chunk.lines[i / chunk.cols]) + ": column " +
                       std::to_string(i % chunk.cols + 1) + ": missing value: impute the data first (rfk::host::Impute)");
}

void ValidateOptions(const Dataset& data, const TrainOptions& opt) {
  ValidateData(data);
  ValidateMaps(opt);
  ValidateSelection(data, opt);
  if (!opt.impute.empty() &&
      (opt.impute.size() != data.cols || !std::all_of(opt.impute.begin(), opt.impute.end(),
                                                      [](float v) { return std::isfinite(v); })))
    throw TrainError("imputation values: need " + std::to_string(data.cols) + " finite values, one per column");
  ValidateWeights(data, opt);
}

}  // namespace rfk::host
