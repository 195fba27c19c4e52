// Conversion of a trained model to a fixed-point one (contract: rfk/host/fixed.hpp). The arithmetic
// is in double; what the device computes is then only the stored integers (lib/core/fixed_predict.cc).
#include "rfk/host/fixed.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/fixed_fastfood.h"
#include "rfk/fixed.hpp"
#include "rfk/kernels.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/quantize.hpp"

namespace rfk::host {
namespace {

namespace f = format;
namespace fp = format::fixed_params;
namespace fb = format::fixed_params::binning;

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
  std::vector<double> a(d), mean, inv;
  WidenedStandardization(m, &mean, &inv);
  for (std::uint64_t j = 0; j < F; ++j) {
    double amax = 0, bias = m.phase != nullptr ? double(m.phase[j]) : 0.0;
    for (std::uint64_t c = 0; c < d; ++c) {
      const double w = WeightAt(m.projection_weights, f::WeightIndex(m.layout, j, c, d), j);
      a[c] = w * inv[c] / double(scale[c]) * kTurnsPerRadian;  // turns per input unit
      bias += w * inv[c] * (double(offset[c]) - mean[c]);
      amax = std::max(amax, std::fabs(a[c]));
    }
    std::uint32_t shift = 0;
    while (shift < 31 && amax / std::ldexp(1.0, int(shift)) > 32767.0) ++shift;
    if (amax > 0 && amax < 16384.0 && rep) ++rep->coarse_rows;
    for (std::uint64_t c = 0; c < d; ++c) {
      const double r = std::round(a[c] / std::ldexp(1.0, int(shift)));
      if (std::fabs(r) > 32767.0 && rep) ++rep->clamped_weights;  // a step of x over 16,383 periods
      const double v = std::clamp(r, -32767.0, 32767.0);
      Put(out, l.w + 2 * (j * d + c), static_cast<std::int16_t>(v));
    }
    out[l.shift + j] = static_cast<std::uint8_t>(shift);
    double turns = bias / kTwoPi;
    turns -= std::floor(turns);  // [0, 1]
    Put(out, l.phase + 4 * j, static_cast<std::uint32_t>(static_cast<std::uint64_t>(std::llround(turns * 4294967296.0))));
  }
}

// Fastfood's input quantization: H mixes the columns, so every column gets the same scale s_in in
// standardised units, x_q = round(s_in (x - mean) / sd): offset = mean, scale = s_in / sd, with s_in
// = 32767 / (the calibration rows' largest |standardised value|), so no calibration value clamps
// (a column the standardisation zeroes keeps x_q = 0). Returns s_in.
double FastfoodInputQuantization(const Model& m, const Dataset& data, std::vector<float>* offset,
                                 std::vector<float>* scale) {
  const std::size_t d = m.input_dim;
  std::vector<double> mean, inv;
  WidenedStandardization(m, &mean, &inv);
  std::vector<float> x(d);
  double amax = 0;
  for (std::size_t r = 0; r < data.rows; ++r) {
    DenseRow(data, r, x.data(), d);
    for (std::size_t c = 0; c < d; ++c) {
      const float v = std::isnan(x[c]) && m.impute != nullptr ? m.impute[c] : x[c];
      if (std::isfinite(v)) amax = std::max(amax, std::fabs((double(v) - mean[c]) * inv[c]));
    }
  }
  const double s_in = amax > 0 ? 32767.0 / amax : 1.0;
  offset->resize(d);
  scale->resize(d);
  for (std::size_t c = 0; c < d; ++c) {
    (*offset)[c] = static_cast<float>(mean[c]);
    (*scale)[c] = static_cast<float>(s_in * inv[c]);
    // A column the standardisation zeroes (inverse scale 0: constant in training) must stay 0: a
    // scale of 2^-126 (the format wants one > 0) rounds every |x - mean| < 2^125 to 0.
    if (!((*scale)[c] > 0.0f) || !std::isfinite((*scale)[c])) (*scale)[c] = std::ldexp(1.0f, -126);
  }
  return s_in;
}

// Fastfood's integers (format::fixed_params::FastfoodTail): per block, g = round(G / sigma_b) with
// sigma_b = max_i |G_bi| / 32767 and the smallest g_shift the validator's bound allows; per
// frequency the real turns per unit of the integer u, c_j = S_j sigma_b 2^g_shift / s_in * 2^32 /
// (2 pi), as s_mult / 2^s_shift with the largest s_shift <= 62 that keeps |s_mult| <= 2^31 - 1;
// phase[j] = b_j in turns (0 for pairs); perm and B's signs copied. The errors this adds to the
// float map: g's rounding (0.5 / 32767 of the block's largest |G|, relative), v's rounding (half a
// unit of 2^g_shift), s_mult's (2^-31 relative, at least) and the input's (half a step of 1 / s_in).
void FoldFastfood(const Model& m, double s_in, const fp::Layout& l, const fp::FastfoodTail& ff,
                  std::vector<std::uint8_t>& out) {
  const FastfoodArrays& a = m.fastfood;
  const std::uint32_t d = m.input_dim, F = m.num_frequencies, dp = ff.dp;
  if (a.dp != dp || a.blocks != ff.blocks)
    throw QuantizeError("the model's fastfood section does not match its input width and frequencies");
  const WeightsView G = FastfoodDiagonal(a, a.G), S = FastfoodDiagonal(a, a.S);
  for (std::uint32_t b = 0; b < ff.blocks; ++b) {
    double gmax = 0;
    for (std::uint32_t i = 0; i < dp; ++i) gmax = std::max(gmax, std::fabs(double(WeightAt(G, b * dp + i, b))));
    const double sigma = gmax > 0 ? gmax / 32767.0 : 1.0;
    std::uint32_t qmax = 0;
    for (std::uint32_t i = 0; i < dp; ++i) {
      const double q = std::clamp(std::round(double(WeightAt(G, b * dp + i, b)) / sigma), -32767.0, 32767.0);
      Put(out, ff.g + 2 * (std::uint64_t{b} * dp + i), static_cast<std::int16_t>(q));
      qmax = std::max(qmax, static_cast<std::uint32_t>(std::fabs(q)));
    }
    std::uint32_t gs = 0;
    for (;; ++gs) {
      const std::uint64_t h = gs == 0 ? 0 : std::uint64_t{1} << (gs - 1);
      if (((std::uint64_t{32768} * d * qmax + h) >> gs) * dp <= 0x7FFFFFFFu) break;
    }
    out[ff.g_shift + b] = static_cast<std::uint8_t>(gs);
    for (std::uint32_t i = 0; i < dp && b * dp + i < F; ++i) {
      const std::uint32_t j = b * dp + i;
      const double c = double(WeightAt(S, j, b)) * sigma * std::ldexp(1.0, int(gs)) / s_in * kTurnsPerRadian;
      if (!(std::fabs(c) <= 2147483647.0))
        throw QuantizeError("a Fastfood frequency turns more than half a period per step of the integer transform");
      std::uint32_t ss = 0;
      while (ss < fp::kMaxSShift && std::fabs(std::round(c * std::ldexp(1.0, int(ss) + 1))) <= 2147483647.0) ++ss;
      Put(out, ff.s_mult + 4 * std::uint64_t{j}, static_cast<std::int32_t>(std::round(c * std::ldexp(1.0, int(ss)))));
      out[ff.s_shift + j] = static_cast<std::uint8_t>(ss);
      double turns = (m.phase != nullptr ? double(m.phase[j]) : 0.0) / kTwoPi;
      turns -= std::floor(turns);  // [0, 1]
      Put(out, l.phase + 4 * std::uint64_t{j},
          static_cast<std::uint32_t>(static_cast<std::uint64_t>(std::llround(turns * 4294967296.0))));
    }
  }
  const std::uint64_t N = std::uint64_t{dp} * ff.blocks;
  std::memcpy(out.data() + ff.perm, a.perm, ff.signs - ff.perm);  // the fastfood section's packing
  std::memcpy(out.data() + ff.signs, a.signs, (N + 7) / 8);
}

// One (grid, column)'s integer bin: base + ((mult x_q + frac) >> shift) (fixed::BinIndex).
struct BinFold {
  double mult = 0, frac = 0, base = 0;
  std::uint32_t shift = 0;
};

// floor(a x_q + b0) as a slope: mult / 2^shift = a (the largest shift <= 30 with mult <= 2^15,
// rounded to nearest) and base + frac / 2^shift = b0 (base = floor, frac rounded). Over
// |x_q| <= 2^15 a boundary moves by at most 2^14 / mult input units. Counts what it clamps.
BinFold SlopeFold(double a, double b0, FixedReport* rep) {
  BinFold b;
  b.shift = fb::kMaxShift;
  while (b.shift > 0 && std::round(std::ldexp(a, int(b.shift))) > fb::kMaxMult) --b.shift;
  b.mult = std::round(std::ldexp(a, int(b.shift)));
  if (b.mult > fb::kMaxMult && rep) ++rep->clamped_bins;  // more than 2^15 bins per input unit
  b.mult = std::min(b.mult, double(fb::kMaxMult));
  b.base = std::floor(b0);
  b.frac = std::round(std::ldexp(b0 - b.base, int(b.shift)));
  if (b.frac >= std::ldexp(1.0, int(b.shift))) b.base += 1, b.frac = 0;
  return b;
}

// floor(a x_q + b0) over the int16 range when it takes at most two values (bins wider than the
// range, the common case: SlopeFold's mult would have few bits): exactly, as a threshold. x_t, the
// first x_q in the upper bin, becomes mult 1, shift 16 and frac 2^16 - x_t (x_t > 0, base the lower
// bin) or -x_t (x_t <= 0, base the upper bin), so (x_q + frac) >> 16 steps by one at x_t alone.
bool ThresholdFold(double a, double b0, BinFold* b) {
  const double lo = std::floor(a * -32768.0 + b0), hi = std::floor(a * 32767.0 + b0);
  if (hi - lo > 1) return false;
  if (hi == lo) {
    *b = BinFold{0, 0, lo, 0};
    return true;
  }
  double xt = std::ceil((hi - b0) / a);  // the first x_q with a x_q + b0 >= hi
  while (xt > -32768 && std::floor(a * (xt - 1) + b0) >= hi) --xt;  // (guards against the division's rounding)
  while (xt <= 32767 && std::floor(a * xt + b0) < hi) ++xt;
  *b = xt > 0 ? BinFold{1, 65536 - xt, lo, 16} : BinFold{1, -xt, hi, 16};
  return true;
}

// The grids folded into the int16 input's units. The float bin of column c in grid g is
// floor((x_std - u) / delta), x_std = (x - mean) inv; with x = offset + x_q / scale it is
// floor(a x_q + b0), a = inv / (delta scale) bins per input unit, b0 its bin at x_q = 0: exactly
// as a threshold where the int16 range holds at most one boundary (ThresholdFold), else as a
// rounded slope (SlopeFold; docs/EMBEDDED.md "Binning on the integer path").
void FoldBins(const Model& m, const std::vector<float>& offset, const std::vector<float>& scale, const fb::Layout& t,
              std::vector<std::uint8_t>& out, FixedReport* rep) {
  const std::uint64_t d = m.input_dim, P = m.num_grids;
  std::vector<double> mean, inv;
  WidenedStandardization(m, &mean, &inv);
  Put(out, t.at + fb::kNumGrids, m.num_grids);
  Put(out, t.at + fb::kBinFeatures, m.bin_features);
  for (std::uint64_t i = 0; i < P * d; ++i) {
    const std::uint64_t c = i % d;
    const double iw = double(m.bin_inv_width[i]), a = inv[c] * iw / double(scale[c]);
    const double b0 = ((double(offset[c]) - mean[c]) * inv[c] - double(m.bin_offset[i])) * iw;
    BinFold b;
    if (!ThresholdFold(a, b0, &b)) b = SlopeFold(a, b0, rep);
    if (std::fabs(b.base) > fb::kMaxBase && rep) ++rep->clamped_bins;
    b.base = std::clamp(b.base, -double(fb::kMaxBase), double(fb::kMaxBase));
    Put(out, t.mult + 2 * i, static_cast<std::uint16_t>(b.mult));
    out[t.shift + i] = static_cast<std::uint8_t>(b.shift);
    Put(out, t.frac + 4 * i, static_cast<std::uint32_t>(b.frac));
    Put(out, t.base + 4 * i, static_cast<std::int32_t>(b.base));
  }
}

// An int8 head: q (K x D), the real value of a step per output, the biases.
struct Head8 {
  std::vector<std::int8_t> q;
  std::vector<double> sigma, bias;
};

// The head's weights times feature_scale, and the bins' times bin_scale (the real weights of the
// features in [-1, 1], a bin's feature 1), K x D.
std::vector<double> RealHead(const Model& m) {
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  std::vector<double> w(K * D);
  for (std::uint64_t i = 0; i < K * D; ++i)
    w[i] = double(WeightAt(m.head, i, i / D)) * double(i % D < m.fourier_features ? m.feature_scale : m.bin_scale);
  return w;
}

// Plain rounding: sigma = max |w| / 127 per output, q rounded to nearest.
Head8 PlainHead(const Model& m) {
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  const std::vector<double> w = RealHead(m);
  Head8 h{std::vector<std::int8_t>(K * D), std::vector<double>(K), std::vector<double>(K)};
  for (std::uint64_t k = 0; k < K; ++k) {
    double vmax = 0;
    for (std::uint64_t j = 0; j < D; ++j) vmax = std::max(vmax, std::fabs(w[k * D + j]));
    h.sigma[k] = vmax > 0 ? vmax / 127 : 1.0;
    for (std::uint64_t j = 0; j < D; ++j)
      h.q[k * D + j] = static_cast<std::int8_t>(std::clamp(std::round(w[k * D + j] / h.sigma[k]), -127.0, 127.0));
    h.bias[k] = m.head_bias[k];
  }
  return h;
}

// Rounded for its outputs (RoundInt8Gptq) on the features the integer path computes for up to
// kGptqRows evenly strided calibration rows: A = their covariance, the biases corrected by the
// features' mean times the rounding change (as GptqInt8Head does for int8 heads).
constexpr std::size_t kGptqRows = 4096;
// A's diagonal damped by this share of its mean: undamped, the error feedback follows the sample's
// near-singular directions, and on tests/core/test_fixed_predict.cc's binary data the outputs moved 9.5 %
// (RMS) from the f32 ones instead of 0.16 % (1e-4 to 1e-1 all give 0.11 to 0.16 % there).
constexpr double kGptqDamping = 0.01;
constexpr std::uint32_t kGptqMaxFeatures = 2048;  // beyond, O(D^3) rounding is minutes: plain rounding
Head8 GptqHead(const Model& m, const Model& fixed, const Dataset& data) {
  const std::uint32_t d = m.input_dim, F = m.num_frequencies, K = m.num_outputs, D = m.num_features,
                      Df = m.fourier_features;
  const bool dense = !f::IsFastfood(m.map);
  const fp::Layout l = fp::LayoutOf(d, F, K, D, dense);
  const std::uint8_t* sec = FixedSection(fixed);
  const fp::FastfoodTail tail = fp::FastfoodTailOf(l.bytes, d, F);
  const core::FixedFastfoodView ffv = core::FixedFastfoodOf(sec, l.phase, tail, d, F);
  std::vector<std::int32_t> t(tail.dp);
  std::vector<std::uint32_t> turns(dense ? F : std::uint64_t{tail.dp} * tail.blocks);
  const std::size_t stride = std::max<std::size_t>(1, data.rows / kGptqRows);
  std::vector<double> mu(D, 0.0), A(std::size_t{D} * D, 0.0), z(D);
  std::vector<float> x(d);
  std::vector<std::int16_t> xq(d);
  std::vector<std::uint32_t> nz;
  nz.reserve(D);
  double n = 0;
  for (std::size_t r = 0; r < data.rows; r += stride) {
    DenseRow(data, r, x.data(), d);
    if (QuantizeInput(fixed, x.data(), d, xq.data(), d) != Status::kOk) continue;
    for (std::uint32_t j = 0; dense && j < F; ++j)
      turns[j] = fixed::PhaseTurns(reinterpret_cast<const std::int16_t*>(sec + l.w) + std::size_t{j} * d, xq.data(), d,
                                   sec[l.shift + j], Load32(sec + l.phase + 4 * j));
    for (std::uint32_t b = 0; !dense && b < tail.blocks; ++b)
      core::FixedFastfoodTurns(ffv, xq.data(), b, t.data(), turns.data() + std::size_t{b} * tail.dp);
    for (std::uint32_t j = 0; j < F; ++j) {
      z[j] = fixed::CosTurns(turns[j]) / 32767.0;
      if (Df == 2 * F) z[F + j] = fixed::SinTurns(turns[j]) / 32767.0;
    }
    std::fill(z.begin() + Df, z.end(), 0.0);
    for (std::uint32_t p = 0; p < fixed.num_grids; ++p) {  // a bin's feature: 1 (its weight holds 1/sqrt(P))
      const std::uint32_t col = FixedBinColumn(fixed, xq.data(), p);
      if (col != kNoColumn) z[Df + col] = 1.0;
    }
    // Over the nonzero features only, in index order: a binning row has P ones among its D_B
    // features, and the zeros' products would add exact zeros to the same sums.
    nz.clear();
    for (std::uint32_t i = 0; i < D; ++i)
      if (z[i] != 0.0) nz.push_back(i);
    for (std::size_t a = 0; a < nz.size(); ++a) {
      const std::uint32_t i = nz[a];
      mu[i] += z[i];
      for (std::size_t b = a; b < nz.size(); ++b) A[std::size_t{i} * D + nz[b]] += z[i] * z[nz[b]];
    }
    n += 1;
  }
  for (std::uint32_t i = 0; i < D; ++i) mu[i] /= n;
  for (std::uint32_t i = 0; i < D; ++i)
    for (std::uint32_t j = i; j < D; ++j) A[std::size_t{i} * D + j] = A[std::size_t{i} * D + j] / n - mu[i] * mu[j];
  double trace = 0;
  for (std::uint32_t i = 0; i < D; ++i) trace += A[std::size_t{i} * D + i];
  const double damp = kGptqDamping * trace / D;
  for (std::uint32_t i = 0; i < D; ++i) A[std::size_t{i} * D + i] += damp;
  const std::vector<double> w = RealHead(m);
  std::vector<float> scale;
  Head8 h;
  RoundInt8Gptq(w, K, D, std::move(A), 1, &h.q, &scale);
  h.sigma.assign(scale.begin(), scale.end());
  h.bias.resize(K);
  for (std::uint32_t k = 0; k < K; ++k) {
    double shift = 0;
    for (std::uint32_t i = 0; i < D; ++i)
      shift += mu[i] * (w[std::size_t{k} * D + i] - h.sigma[k] * h.q[std::size_t{k} * D + i]);
    h.bias[k] = m.head_bias[k] + shift;
  }
  return h;
}

// Stores an int8 head: the output unit u = max_k (|bias_k| + sigma_k sum_j |q_kj|) / 2^30,
// mult_k / 2^rshift_k = sigma_k / (32767 u), the biases in units of u. Returns u.
float StoreHead(const Head8& h, const Model& m, const fp::Layout& l, std::vector<std::uint8_t>& out) {
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  double B = 0;
  for (std::uint64_t k = 0; k < K; ++k) {
    double sum = 0;
    for (std::uint64_t j = 0; j < D; ++j) sum += std::fabs(double(h.q[k * D + j]));
    B = std::max(B, std::fabs(h.bias[k]) + h.sigma[k] * sum);
  }
  const float u = static_cast<float>((B > 0 ? B : 1.0) / 1073741824.0);
  std::memcpy(out.data() + l.head, h.q.data(), h.q.size());
  for (std::uint64_t k = 0; k < K; ++k) {
    const double ratio = h.sigma[k] / (32767.0 * double(u));  // <= 2^30 / (127 * 32767) < 2^9 by u's choice
    std::uint32_t n = 0;
    while (n < fp::kMaxRshift && ratio * std::ldexp(1.0, int(n) + 1) < 32768.0) ++n;
    const double mult = std::round(ratio * std::ldexp(1.0, int(n)));
    if (mult > fp::kMaxMult) throw std::logic_error("FixedModel: a head multiplier out of range");
    Put(out, l.mult + 4 * k, static_cast<std::uint32_t>(mult));
    Put(out, l.rshift + 4 * k, n);
    const double b = std::clamp(std::round(h.bias[k] / double(u)), -double(fp::kMaxBias), double(fp::kMaxBias));
    Put(out, l.bias + 4 * k, static_cast<std::int32_t>(b));
  }
  return u;
}

// The model's sections (fixed_only: without W, b and the standardisation), then `sec` as the
// fixed section.
std::vector<std::uint8_t> WithSection(const Model& m, const std::vector<std::uint8_t>& sec, bool fixed_only = false) {
  std::vector<RawSection> sections;
  for (RawSection& s : SectionsOf(m)) {
    const auto type = static_cast<f::SectionType>(s.type);
    if (!fixed_only || (type != f::SectionType::kProjection && type != f::SectionType::kPhase &&
                        type != f::SectionType::kStandardize && type != f::SectionType::kFastfood &&
                        type != f::SectionType::kBinGrids))
      sections.push_back(std::move(s));
  }
  sections.push_back(RawSection{static_cast<std::uint16_t>(f::SectionType::kFixed), f::kSectionRequired, sec});
  return AssembleModel(sections);
}

}  // namespace

void WidenedStandardization(const Model& m, std::vector<double>* mean, std::vector<double>* inv) {
  const std::uint64_t d = m.input_dim;
  mean->assign(d, 0.0);
  inv->assign(d, 1.0);
  if (!IsStandardized(m)) return;
  const std::uint16_t* half = StandardizeF16Values(m);
  for (std::uint64_t c = 0; c < d; ++c) {
    (*mean)[c] = half ? double(HalfToFloat(half[c])) : double(m.mean[c]);
    (*inv)[c] = half ? double(HalfToFloat(half[d + c])) : double(m.inv_scale[c]);
  }
}

std::vector<std::uint8_t> FixedModel(const Model& m, const Dataset& data, FixedReport* report, bool fixed_only) {
  if (FixedSection(m) != nullptr) throw QuantizeError("the model is already a fixed-point model");
  if (m.fourier_features == 0 ? m.num_grids == 0 : f::IsFastfood(m.map) && m.num_grids != 0)
    throw QuantizeError("the integer path computes Fourier maps (fourier, orf, fastfood and their phase forms) "
                        "and binning, alone or beside a dense map (not beside Fastfood); this model's map is not one");
  if (data.rows == 0) throw QuantizeError("no calibration rows");
  const bool dense = !f::IsFastfood(m.map);
  if (!dense && f::fastfood::PaddedDim(m.input_dim) > fp::kMaxFastfoodPaddedDim)
    throw QuantizeError("Fastfood on the integer path takes d' <= 32768");
  FixedReport rep;
  std::vector<float> offset, scale;
  double s_in = 0;
  if (dense) InputQuantization(m, data, &offset, &scale);
  else s_in = FastfoodInputQuantization(m, data, &offset, &scale);
  const fp::Layout l = fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features, dense);
  const fp::FastfoodTail tail = fp::FastfoodTailOf(l.bytes, m.input_dim, m.num_frequencies);
  const fb::Layout t = fb::LayoutOf(l.bytes, m.num_grids, m.input_dim);  // not beside Fastfood (refused above)
  std::vector<std::uint8_t> sec(!dense ? tail.bytes : m.num_grids != 0 ? t.bytes : l.bytes, 0);
  Put(sec, fp::kInputDim, m.input_dim);
  Put(sec, fp::kNumFrequencies, m.num_frequencies);
  Put(sec, fp::kNumOutputs, m.num_outputs);
  Put(sec, fp::kNumFeatures, m.num_features);
  Put(sec, fp::kInputBits, std::uint32_t{16});
  std::memcpy(sec.data() + l.offset, offset.data(), 4 * offset.size());
  std::memcpy(sec.data() + l.scale, scale.data(), 4 * scale.size());
  if (dense) FoldMap(m, offset, scale, l, sec, &rep);
  else FoldFastfood(m, s_in, l, tail, sec);
  if (m.num_grids != 0) FoldBins(m, offset, scale, t, sec, &rep);
  rep.output_scale = StoreHead(PlainHead(m), m, l, sec);
  Put(sec, fp::kOutputScale, rep.output_scale);
  std::vector<std::uint8_t> blob = WithSection(m, sec);
  if (m.num_features <= kGptqMaxFeatures) {  // the head rounded for the integer features' outputs
    const OpenedModel plain(blob, "the fixed-point model");
    rep.output_scale = StoreHead(GptqHead(m, plain.model(), data), m, l, sec);
    Put(sec, fp::kOutputScale, rep.output_scale);
    blob = WithSection(m, sec);
  }
  if (fixed_only) {  // the same fixed section; the head stored int8 (it is still required), no W
    const std::vector<std::uint8_t> small = RequantizeModel(m, m.projection_storage, f::Storage::kInt8);
    blob = WithSection(OpenedModel(small, "the int8-head model").model(), sec, true);
  }
  // Open what was made, and count the calibration values its input conversion clamps.
  const OpenedModel made(blob, "the fixed-point model");
  const Model& fixed = made.model();
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

InputCodes MakeInputCodes(const Model& m) {
  const std::uint8_t* sec = FixedSection(m);
  if (sec == nullptr) throw std::invalid_argument("the model has no fixed section: no integer input conversion");
  const fp::Layout l = fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features);
  const double kInt32 = 2147483647.0;
  const auto clamp32 = [kInt32](double v) { return static_cast<std::int32_t>(std::max(-kInt32, std::min(kInt32, v))); };
  InputCodes c;
  for (std::uint32_t j = 0; j < m.input_dim; ++j) {
    float o = 0, s = 0;
    std::memcpy(&o, sec + l.offset + 4 * j, 4);
    std::memcpy(&s, sec + l.scale + 4 * j, 4);
    const std::int32_t center = clamp32(std::round(static_cast<double>(o)));
    int shift = 30;
    while (shift > 0 && std::ldexp(std::fabs(static_cast<double>(s)), shift) > 1073741824.0) --shift;
    // (center - o) and the product in double: exact enough (53 bits) for the rounding below.
    c.center.push_back(center);
    c.mult.push_back(clamp32(std::round(std::ldexp(static_cast<double>(s), shift))));
    c.bias.push_back(clamp32(std::round(std::ldexp((center - static_cast<double>(o)) * s, shift))));
    c.shift.push_back(static_cast<std::uint8_t>(shift));
  }
  return c;
}

}  // namespace rfk::host
