// `rfk convert` without data: how far re-storing moved a model's outputs, on inputs drawn from the
// model's own standardisation (EstimateOutputShift, rfk/host/quantize.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/model.hpp"
#include "rfk/status.hpp"

namespace rfk::host {

namespace {

// The stream EstimateOutputShift draws from (fixed: the same inputs on every run).
constexpr std::uint64_t kShiftSeed = 0x5348494654ull, kShiftStream = 1;

}  // namespace

bool EstimateOutputShift(const Model& source, const Model& converted, OutputShift* shift) {
  *shift = OutputShift();
  const bool float_map = source.projection_weights.data != nullptr || source.fastfood.dp != 0;
  if (!IsStandardized(source) || source.num_grids > 0 || !float_map || source.input_dim != converted.input_dim ||
      source.num_outputs != converted.num_outputs)
    return false;
  const std::size_t d = source.input_dim, K = source.num_outputs;
  std::vector<double> mean, inv_scale;
  WidenedStandardization(source, &mean, &inv_scale);
  // Scaled without centring (sparse data, input_stats.cc: every mean 0), the draws are normal about
  // 0 with the columns' root mean square: unlike sparse rows, but of their scale, which is what the
  // move depends on (Forest Cover's models are scaled so; docs/RESULTS.md).
  AlignedBytes scratch(std::max(ScratchBytes(source), ScratchBytes(converted)));
  std::vector<float> x(d), a(K), b(K);
  std::vector<double> sum(K, 0.0), sum2(K, 0.0);
  RandomStream rs(kShiftSeed, kShiftStream);
  double diff2 = 0, largest = 0;
  for (std::size_t i = 0; i < kShiftInputs; ++i) {
    for (std::size_t c = 0; c < d; ++c) {
      const double z = rs.Normal();
      // A column constant in training (inv_scale 0) is drawn at its mean.
      x[c] = static_cast<float>(inv_scale[c] > 0 ? mean[c] + z / inv_scale[c] : mean[c]);
    }
    if (Predict(source, x.data(), d, scratch.data(), scratch.size(), a.data(), K) != Status::kOk ||
        Predict(converted, x.data(), d, scratch.data(), scratch.size(), b.data(), K) != Status::kOk) {
      *shift = OutputShift();
      return false;  // not expected: the inputs are finite and both models have a float map
    }
    for (std::size_t k = 0; k < K; ++k) {
      const double e = static_cast<double>(b[k]) - a[k];
      diff2 += e * e;
      largest = std::max(largest, std::fabs(e));
      sum[k] += a[k];
      sum2[k] += static_cast<double>(a[k]) * a[k];
    }
  }
  const double n = static_cast<double>(kShiftInputs);
  double var = 0;
  for (std::size_t k = 0; k < K; ++k) var += std::max(0.0, sum2[k] / n - (sum[k] / n) * (sum[k] / n));
  shift->rms = std::sqrt(diff2 / (n * static_cast<double>(K)));
  shift->max = largest;
  shift->source_sd = std::sqrt(var / static_cast<double>(K));
  shift->inputs = kShiftInputs;
  return true;
}

}  // namespace rfk::host
