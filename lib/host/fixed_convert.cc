// Conversion of a trained model to a fixed-point one (contract: rfk/host/fixed.hpp). The arithmetic
// is in double; what the device computes is then only the stored integers (lib/core/predict_fixed.cc).
#include "rfk/host/fixed.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "rfk/fixed.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"

namespace rfk::host {
namespace {

namespace f = format;
namespace fp = format::fixed_params;

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kTurnsPerRadian = 4294967296.0 / kTwoPi;

template <class T>
void Put(std::vector<std::uint8_t>& out, std::uint64_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}

std::uint32_t Load32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Per input column: offset and scale of the int16 conversion, from the calibration rows' range.
void InputQuantization(const Model& m, const Dataset& data, std::vector<float>* offset, std::vector<float>* scale) {
  const std::size_t d = m.input_dim;
  std::vector<double> lo(d, std::numeric_limits<double>::infinity()), hi(d, -std::numeric_limits<double>::infinity());
  std::vector<float> x(d);
  for (std::size_t r = 0; r < data.rows; ++r) {
    DenseRow(data, r, x.data(), d);
    for (std::size_t c = 0; c < d; ++c) {
      const float v = std::isnan(x[c]) && m.impute != nullptr ? m.impute[c] : x[c];
      if (std::isnan(v)) continue;
      lo[c] = std::min(lo[c], double(v));
      hi[c] = std::max(hi[c], double(v));
    }
  }
  offset->assign(d, 0.0f);
  scale->assign(d, 1.0f);
  for (std::size_t c = 0; c < d; ++c) {
    if (!(lo[c] <= hi[c])) continue;  // no value seen: offset 0, scale 1
    (*offset)[c] = static_cast<float>((lo[c] + hi[c]) / 2);
    const double half = (hi[c] - lo[c]) / 2;
    if (half > 0) (*scale)[c] = static_cast<float>(32767.0 / half);
  }
}

// W folded into turns per int16 input unit, stored as q * 2^shift per row; the phases in turns.
void FoldMap(const Model& m, const std::vector<float>& offset, const std::vector<float>& scale, const fp::Layout& l,
             std::vector<std::uint8_t>& out, FixedReport* rep) {
  const std::uint64_t d = m.input_dim, F = m.num_frequencies;
  const bool panels = m.layout == f::Layout::kPanels;
  std::vector<double> a(d);
  for (std::uint64_t j = 0; j < F; ++j) {
    double amax = 0, bias = m.phase != nullptr ? double(m.phase[j]) : 0.0;
    for (std::uint64_t c = 0; c < d; ++c) {
      const std::uint64_t i = panels ? (j / f::kPanelWidth) * f::kPanelWidth * d + c * f::kPanelWidth + j % f::kPanelWidth
                                     : j * d + c;
      const double w = WeightAt(m.projection_weights, i, j);
      const double mean = m.mean != nullptr ? double(m.mean[c]) : 0.0;
      const double inv = m.inv_scale != nullptr ? double(m.inv_scale[c]) : 1.0;
      a[c] = w * inv / double(scale[c]) * kTurnsPerRadian;  // turns per input unit
      bias += w * inv * (double(offset[c]) - mean);
      amax = std::max(amax, std::fabs(a[c]));
    }
    std::uint32_t shift = 0;
    while (shift < 31 && amax / std::ldexp(1.0, int(shift)) > 32767.0) ++shift;
    if (amax > 0 && amax < 16384.0 && rep) ++rep->coarse_rows;
    for (std::uint64_t c = 0; c < d; ++c) {
      const double v = std::clamp(std::round(a[c] / std::ldexp(1.0, int(shift))), -32767.0, 32767.0);
      Put(out, l.w + 2 * (j * d + c), static_cast<std::int16_t>(v));
    }
    out[l.shift + j] = static_cast<std::uint8_t>(shift);
    double turns = bias / kTwoPi;
    turns -= std::floor(turns);  // [0, 1]
    Put(out, l.phase + 4 * j, static_cast<std::uint32_t>(static_cast<std::uint64_t>(std::llround(turns * 4294967296.0))));
  }
}

// The head: int8 per output (scale max|w s| / 127), the output unit, mult / 2^rshift, int32 biases.
float FoldHead(const Model& m, const fp::Layout& l, std::vector<std::uint8_t>& out) {
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  std::vector<double> sigma(K), bound(K);
  std::vector<std::int8_t> q(K * D);
  for (std::uint64_t k = 0; k < K; ++k) {
    double vmax = 0, sum = 0;
    for (std::uint64_t j = 0; j < D; ++j) vmax = std::max(vmax, std::fabs(double(WeightAt(m.head, k * D + j, k)) * m.feature_scale));
    sigma[k] = vmax > 0 ? vmax / 127 : 1.0;
    for (std::uint64_t j = 0; j < D; ++j) {
      const double v = double(WeightAt(m.head, k * D + j, k)) * m.feature_scale / sigma[k];
      q[k * D + j] = static_cast<std::int8_t>(std::clamp(std::round(v), -127.0, 127.0));
      sum += std::fabs(double(q[k * D + j]));
    }
    bound[k] = std::fabs(double(m.head_bias[k])) + sigma[k] * sum;
  }
  const double B = *std::max_element(bound.begin(), bound.end());
  const float u = static_cast<float>((B > 0 ? B : 1.0) / 1073741824.0);
  std::memcpy(out.data() + l.head, q.data(), q.size());
  for (std::uint64_t k = 0; k < K; ++k) {
    const double ratio = sigma[k] / (32767.0 * double(u));  // <= 2^30 / (127 * 32767) < 2^9 by u's choice
    std::uint32_t n = 0;
    while (n < fp::kMaxRshift && ratio * std::ldexp(1.0, int(n) + 1) < 32768.0) ++n;
    const double mult = std::round(ratio * std::ldexp(1.0, int(n)));
    if (mult > fp::kMaxMult) throw std::logic_error("FixedModel: a head multiplier out of range");
    Put(out, l.mult + 4 * k, static_cast<std::uint32_t>(mult));
    Put(out, l.rshift + 4 * k, n);
    const double b = std::clamp(std::round(double(m.head_bias[k]) / double(u)), -double(fp::kMaxBias), double(fp::kMaxBias));
    Put(out, l.bias + 4 * k, static_cast<std::int32_t>(b));
  }
  return u;
}

}  // namespace

std::vector<std::uint8_t> FixedModel(const Model& m, const Dataset& data, FixedReport* report) {
  if (FixedSection(m) != nullptr) throw QuantizeError("the model is already a fixed-point model");
  if (m.fourier_features == 0 || f::IsFastfood(m.map) || m.num_grids != 0)
    throw QuantizeError("the integer path computes dense Fourier maps (fourier, orf and their phase forms) without "
                        "binning; this model's map is not one");
  if (data.rows == 0) throw QuantizeError("no calibration rows");
  FixedReport rep;
  std::vector<float> offset, scale;
  InputQuantization(m, data, &offset, &scale);
  const fp::Layout l = fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features);
  std::vector<std::uint8_t> sec(l.bytes, 0);
  Put(sec, fp::kInputDim, m.input_dim);
  Put(sec, fp::kNumFrequencies, m.num_frequencies);
  Put(sec, fp::kNumOutputs, m.num_outputs);
  Put(sec, fp::kNumFeatures, m.num_features);
  Put(sec, fp::kInputBits, std::uint32_t{16});
  std::memcpy(sec.data() + l.offset, offset.data(), 4 * offset.size());
  std::memcpy(sec.data() + l.scale, scale.data(), 4 * scale.size());
  FoldMap(m, offset, scale, l, sec, &rep);
  rep.output_scale = FoldHead(m, l, sec);
  Put(sec, fp::kOutputScale, rep.output_scale);

  std::vector<RawSection> sections;
  const std::uint32_t count = Load32(m.bytes + f::kOffSectionCount), table = Load32(m.bytes + f::kOffSectionTable);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint8_t* e = m.bytes + table + i * f::kSectionEntryBytes;
    RawSection s;
    std::memcpy(&s.type, e + f::entry::kType, 2);
    std::memcpy(&s.flags, e + f::entry::kFlags, 2);
    const std::uint8_t* p = m.bytes + Load32(e + f::entry::kOffset);
    s.payload.assign(p, p + Load32(e + f::entry::kSize));
    sections.push_back(std::move(s));
  }
  sections.push_back(RawSection{static_cast<std::uint16_t>(f::SectionType::kFixed), f::kSectionRequired, std::move(sec)});
  std::vector<std::uint8_t> blob = AssembleModel(sections);

  // Open what was made, and count the calibration values its input conversion clamps.
  AlignedBytes bytes(blob.size());
  std::copy(blob.begin(), blob.end(), bytes.data());
  Model fixed;
  ModelError err;
  if (OpenModel(bytes.data(), bytes.size(), &fixed, &err) != Status::kOk)
    throw std::logic_error(std::string("FixedModel: the converted model does not open: ") + err.field);
  std::vector<float> x(m.input_dim);
  std::vector<std::int16_t> xq(m.input_dim);
  for (std::size_t r = 0; r < data.rows; ++r) {
    DenseRow(data, r, x.data(), x.size());
    std::uint32_t sat = 0;
    if (QuantizeInput(fixed, x.data(), x.size(), xq.data(), xq.size(), &sat) == Status::kOk) rep.saturated += sat;
  }
  rep.rows = data.rows;
  rep.values = std::uint64_t{data.rows} * m.input_dim;
  if (report) *report = rep;
  return blob;
}

}  // namespace rfk::host
