// `rfk convert` without data: how far re-storing moved a model's outputs, on inputs drawn from the
// model's own standardisation (EstimateOutputShift, rfk/host/quantize.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "rfk/status.hpp"

namespace rfk::host {

namespace {

// The stream EstimateOutputShift draws from (fixed: the figure is the same on every run).
constexpr std::uint64_t kShiftSeed = 0x5348494654ull, kShiftStream = 1;

}  // namespace

bool EstimateOutputShift(const Model& source, const Model& converted, OutputShift* shift) {
  *shift = OutputShift();
  if (!IsStandardized(source) || source.num_grids > 0 || source.input_dim != converted.input_dim ||
      source.num_outputs != converted.num_outputs)
    return false;
  const std::size_t d = source.input_dim, K = source.num_outputs;
  std::vector<float> mean(d), inv_scale(d);
  if (const std::uint16_t* h = StandardizeF16Values(source)) {
    for (std::size_t c = 0; c < d; ++c) mean[c] = HalfToFloat(h[c]), inv_scale[c] = HalfToFloat(h[d + c]);
  } else {
    mean.assign(source.mean, source.mean + d);
    inv_scale.assign(source.inv_scale, source.inv_scale + d);
  }
  AlignedBytes scratch(std::max(ScratchBytes(source), ScratchBytes(converted)));
  std::vector<float> x(d), a(K), b(K);
  RandomStream rs(kShiftSeed, kShiftStream);
  double diff2 = 0, out2 = 0;
  for (std::size_t i = 0; i < kShiftInputs; ++i) {
    for (std::size_t c = 0; c < d; ++c) {
      const double z = rs.Normal();
      // A column constant in training (inv_scale 0) is drawn at its mean.
      x[c] = inv_scale[c] > 0 ? static_cast<float>(mean[c] + z / inv_scale[c]) : mean[c];
    }
    if (Predict(source, x.data(), d, scratch.data(), scratch.size(), a.data(), K) != Status::kOk ||
        Predict(converted, x.data(), d, scratch.data(), scratch.size(), b.data(), K) != Status::kOk)
      return false;  // not expected: a drawn input is finite, and both models opened
    for (std::size_t k = 0; k < K; ++k) {
      const double e = static_cast<double>(b[k]) - a[k];
      diff2 += e * e;
      out2 += static_cast<double>(a[k]) * a[k];
      shift->max = std::max(shift->max, std::fabs(e));
    }
  }
  const double n = static_cast<double>(kShiftInputs * K);
  shift->rms = std::sqrt(diff2 / n);
  shift->source_rms = std::sqrt(out2 / n);
  shift->inputs = kShiftInputs;
  return true;
}

}  // namespace rfk::host
