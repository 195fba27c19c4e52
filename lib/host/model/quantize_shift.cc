// `rfk convert` without data: the inputs it draws (the input_stats section, else the
// standardisation), how far re-storing moved a model's outputs on them (EstimateOutputShift), and
// the rows a drawn refit calibrates on (DrawnCalibrationRows); rfk/host/quantize.hpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "maps/random.h"
#include "rfk/blob_view.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/model.hpp"
#include "rfk/status.hpp"

namespace rfk::host {

namespace {

namespace f = rfk::format;
namespace is = rfk::format::input_stats;

// The streams the draws come from (fixed: the same inputs on every run). The refit's rows and the
// estimate's are different draws, so an estimate after a refit is taken on inputs it was not fitted to.
constexpr std::uint64_t kShiftSeed = 0x5348494654ull, kShiftStream = 1, kRefitStream = 2;

std::uint32_t Load32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

[[noreturn]] void Bad(const char* field, std::uint64_t offset, const std::string& what) {
  throw QuantizeError(std::string(field) + " (offset " + std::to_string(offset) + "): " + what);
}

// Column c's draws: normal with mean[c] and deviation 1 / inv_sd[c] (at its mean where inv_sd[c]
// is 0), as the standardisation's inv_scale gives them (bit for bit the estimates before input_stats).
void Draw(const InputDistribution& in, RandomStream* rs, float* x) {
  for (std::size_t c = 0; c < in.mean.size(); ++c) {
    const double z = rs->Normal();
    x[c] = static_cast<float>(in.inv_sd[c] > 0 ? in.mean[c] + z / in.inv_sd[c] : in.mean[c]);
  }
}

}  // namespace

bool ReadInputStats(const Model& m, InputStats* out) {
  *out = InputStats();
  const std::uint8_t* b = m.bytes;
  const BlobView view(b, m.total_bytes);
  for (std::uint32_t i = 0; i < view.section_count().value; ++i) {  // OpenModel has checked the table
    const SectionEntryView e = view.Entry(i);
    if (e.type.value != f::kInputStatsSection) continue;
    const std::uint32_t off = e.offset.value, size = e.size.value, d = m.input_dim;
    if (size < is::kHeaderBytes) Bad("input_stats.size", e.at + f::entry::kSize, "shorter than its 16-byte header");
    if (Load32(b + off + is::kCount) != d)
      Bad("input_stats.count", off + is::kCount, "not the model's input dimension " + std::to_string(d));
    for (std::uint32_t r = 0; r < 3; ++r)
      if (Load32(b + off + is::kReserved + 4 * r) != 0) Bad("input_stats.reserved", off + is::kReserved + 4 * r, "not 0");
    if (size != is::Bytes(d))
      Bad("input_stats.size", e.at + f::entry::kSize,
          std::to_string(size) + " bytes, not 16 + 8 d = " + std::to_string(is::Bytes(d)));
    out->mean.resize(d);
    out->sd.resize(d);
    for (std::uint32_t c = 0; c < 2 * d; ++c) {
      const std::uint64_t at = std::uint64_t{off} + is::kHeaderBytes + 4ull * c;
      float v;
      std::memcpy(&v, b + at, 4);
      const bool sd = c >= d;
      if (!std::isfinite(v) || (sd && !(v >= 0)))
        Bad(sd ? "input_stats.sd" : "input_stats.mean", at, sd ? "not a finite number >= 0" : "not a finite number");
      (sd ? out->sd[c - d] : out->mean[c]) = v;
    }
    return true;
  }
  return false;
}

bool DrawDistribution(const Model& m, InputDistribution* out) {
  *out = InputDistribution();
  InputStats st;
  if (ReadInputStats(m, &st)) {
    out->mean = std::move(st.mean);
    for (const double sd : st.sd) out->inv_sd.push_back(sd > 0 ? 1.0 / sd : 0.0);
    out->source = InputDistribution::kInputStats;
    return true;
  }
  if (!IsStandardized(m)) return false;
  WidenedStandardization(m, &out->mean, &out->inv_sd);
  // Centred (input_stats.cc: some mean is not 0), the standardisation holds the training means and
  // deviations. Scaled without centring (sparse data: every mean 0), the draws are normal about 0
  // with the columns' deviations: of the rows' scale, which is what an estimate of the move
  // depends on, but not where the rows are (Forest Cover's models before input_stats were so).
  const bool centred = std::any_of(out->mean.begin(), out->mean.end(), [](double v) { return v != 0; });
  out->source = centred ? InputDistribution::kStandardization : InputDistribution::kScaleOnly;
  return true;
}

bool EstimateOutputShift(const Model& source, const Model& converted, OutputShift* shift) {
  *shift = OutputShift();
  const bool float_map = source.projection_weights.data != nullptr || source.fastfood.dp != 0;
  InputDistribution in;
  if (source.num_grids > 0 || !float_map || source.input_dim != converted.input_dim ||
      source.num_outputs != converted.num_outputs || !DrawDistribution(source, &in))
    return false;
  const std::size_t d = source.input_dim, K = source.num_outputs;
  AlignedBytes scratch(std::max(ScratchBytes(source), ScratchBytes(converted)));
  std::vector<float> x(d), a(K), b(K);
  std::vector<double> sum(K, 0.0), sum2(K, 0.0);
  RandomStream rs(kShiftSeed, kShiftStream);
  double diff2 = 0, largest = 0;
  for (std::size_t i = 0; i < kShiftInputs; ++i) {
    Draw(in, &rs, x.data());
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
  shift->source = in.source;
  return true;
}

bool DrawnCalibrationRows(const Model& m, Dataset* out) {
  InputDistribution in;
  if (!DrawDistribution(m, &in) || in.source == InputDistribution::kScaleOnly) return false;
  const std::size_t d = m.input_dim;
  Dataset& ds = *out;
  ds = Dataset();
  ds.source = "drawn inputs";
  ds.rows = std::max<std::size_t>(kRefitMinInputs, 2 * std::size_t{m.num_features});
  ds.cols = d;
  ds.has_labels = false;
  ds.dense.resize(ds.rows * d);
  RandomStream rs(kShiftSeed, kRefitStream);
  for (std::size_t i = 0; i < ds.rows; ++i) Draw(in, &rs, ds.dense.data() + i * d);
  return true;
}

}  // namespace rfk::host
