// Fastfood (Le, Sarlos, Smola, "Fastfood: Approximating Kernel Expansions in Loglinear Time",
// ICML 2013) for the Gaussian kernel: each block of d' = 2^ceil(log2 d) frequencies is
// V = (1 / (sigma sqrt(d'))) S H G Pi H B applied to x zero-padded to d' (H: Walsh-Hadamard, B:
// random signs, Pi: a random permutation, G: Gaussian diagonal, S: chi(d') norms over ||G||), so
// each row of V has the norm distribution of a Gaussian row of W while prediction costs
// O(F log d) and the model stores O(F) numbers instead of F x d. The features are computed by the
// core's own FastfoodFeatures with the scalar kernels (rfk/kernels.hpp), so they are the device's
// bit for bit.
#include "maps/fastfood_map.h"

#include <cmath>
#include <string>
#include <utility>

#include "maps/dense_map.h"
#include "parallel.h"
#include "maps/random.h"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "maps/streams.h"

namespace rfk::host {

namespace {

namespace ff = format::fastfood;

// The unit-scale draws: the stored arrays except that S lacks the factor sqrt(2 gamma).
struct FastfoodUnitDraws {
  std::uint32_t dp = 0;
  std::vector<float> G;
  std::vector<double> S;             // s_i / (||G_block|| sqrt(d')), s_i ~ chi(d')
  std::vector<std::uint8_t> perm;    // packed as stored (ff::IndexBits(dp) bits each, LSB first)
  std::vector<std::uint8_t> signs;   // packed as stored (bits, LSB first; set: -1)
  std::vector<float> phase;          // phase form only
};

// Block b from stream kFastfoodStream + b: d' sign bits, a Fisher-Yates permutation, d' normals
// for G, then d' chi(d') norms (each the root of d' squared normals).
void DrawBlock(std::uint32_t b, std::uint64_t seed, FastfoodUnitDraws* u) {
  const std::uint32_t dp = u->dp, w = ff::IndexBits(dp);
  const std::size_t o = std::size_t{b} * dp;
  RandomStream rs(seed, kFastfoodStream + b);
  for (std::uint32_t i = 0; i < dp; ++i)
    if (rs.Bits() & 1u) u->signs[(o + i) / 8] |= static_cast<std::uint8_t>(1u << ((o + i) % 8));
  std::vector<std::uint32_t> perm(dp);
  for (std::uint32_t i = 0; i < dp; ++i) perm[i] = i;
  for (std::uint32_t i = dp; i > 1; --i) {  // Fisher-Yates: position i-1 takes one of [0, i)
    const auto k = static_cast<std::uint32_t>(((rs.Bits() >> 32) * i) >> 32);
    std::swap(perm[i - 1], perm[k]);
  }
  // Index o + i at bits [(o + i) w, (o + i) w + w), LSB first. A block starts on a byte when d' >= 8
  // (d' w is then a multiple of 8): blocks drawn on different threads share no byte.
  for (std::uint32_t i = 0; i < dp; ++i)
    for (std::uint32_t k = 0; k < w; ++k) {
      const std::size_t bit = (o + i) * w + k;
      if ((perm[i] >> k) & 1u) u->perm[bit / 8] |= static_cast<std::uint8_t>(1u << (bit % 8));
    }
  double g2 = 0.0;
  for (std::uint32_t i = 0; i < dp; ++i) {
    u->G[o + i] = static_cast<float>(rs.Normal());
    g2 += double(u->G[o + i]) * u->G[o + i];
  }
  const double norm = std::sqrt(g2 * dp);  // the norm of every row of H G Pi H B
  for (std::uint32_t i = 0; i < dp; ++i) {
    double chi2 = 0.0;
    for (std::uint32_t k = 0; k < dp; ++k) {
      const double g = rs.Normal();
      chi2 += g * g;
    }
    u->S[o + i] = std::sqrt(chi2) / norm;
  }
}

// G or S as the device reads it back from `storage` (format::fastfood: blocks of dp entries, one
// int8 scale per block): StoredRow's rounding per block, then WeightAt's widening (scale * q), so
// features computed from it are the stored model's bit for bit. f32: v itself.
std::vector<float> AsStored(format::Storage storage, std::vector<float> v, std::uint32_t dp) {
  if (storage == format::Storage::kF32) return v;
  for (std::size_t o = 0; o < v.size(); o += dp) {
    float scale = 1.0f;
    StoredRow(storage, v.data() + o, dp, &scale);
    if (format::HasRowScales(storage))
      for (std::size_t k = o; k < o + dp; ++k) v[k] = scale * v[k];
  }
  return v;
}

class FastfoodMap final : public FourierMap {
 public:
  // Quantization-aware (p.w_storage f16 or int8): the features are computed from G and S as the
  // model stores them (AsStored); Describe still gives the f32 values, which the model's writer
  // rounds to exactly those (RequantizeModel, the same rule).
  FastfoodMap(const FourierMapParams& p, const FastfoodUnitDraws& u, double gamma)
      : p_(p), u_(u), gamma_(gamma), S_(u.S.size()) {
    const float g = static_cast<float>(gamma);  // the model stores gamma as f32: use that value
    const double factor = std::sqrt(2.0 * static_cast<double>(g));
    for (std::size_t i = 0; i < S_.size(); ++i) S_[i] = static_cast<float>(factor * u.S[i]);
    G_used_ = AsStored(p.w_storage, u.G, u.dp);
    S_used_ = AsStored(p.w_storage, S_, u.dp);
    scale_ = p.pairs ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.F)))
                     : static_cast<float>(std::sqrt(2.0 / p.F));
  }
  std::uint32_t features() const override { return p_.pairs ? 2 * p_.F : p_.F; }
  double gamma() const override { return gamma_; }

  bool Compute(const InputRows& in, const std::uint32_t* rows, std::size_t R, float* Z,
               MapWorkspace* ws) const override {
    const std::uint32_t d = p_.d, D = features();
    ws->x.resize(R * d);
    const FastfoodArrays a = Arrays();
    ws->work.resize(FastfoodWorkFloats(a, p_.F));
    LoadRows(in, rows, R, ws->x.data());
    const float* phase = p_.pairs ? nullptr : u_.phase.data();
    bool finite = true;
    for (std::size_t r = 0; r < R; ++r) {
      float* z = Z + r * D;
      FastfoodFeatures(a, ws->x.data() + r * d, d, p_.F, phase, scale_, ws->work.data(), z, ScalarKernels());
      for (std::uint32_t j = 0; j < D; ++j) finite &= std::isfinite(z[j]);
    }
    return finite;
  }

  void Describe(ModelSpec* spec) const override {
    DescribeMap(p_, gamma_, scale_, spec);
    spec->layout = format::Layout::kRowMajor;  // no W: the fastfood section's arrays are by block
    spec->projection.clear();
    spec->phase = u_.phase;
    spec->fastfood_dim = u_.dp;
    spec->fastfood_g = u_.G;
    spec->fastfood_s = S_;
    spec->fastfood_perm = u_.perm;
    spec->fastfood_signs = u_.signs;
  }

 private:
  FastfoodArrays Arrays() const {
    return FastfoodArrays{u_.dp, static_cast<std::uint32_t>(u_.G.size() / u_.dp), ff::IndexBits(u_.dp),
                          WeightType::kF32, G_used_.data(), S_used_.data(), u_.perm.data(), u_.signs.data()};
  }

  FourierMapParams p_;
  FastfoodUnitDraws u_;  // a copy: a map may outlive its draws (RandomFeatureSpec)
  double gamma_;
  std::vector<float> S_;
  std::vector<float> G_used_, S_used_;  // G and S as stored (AsStored): what the features use
  float scale_;
};

}  // namespace

std::unique_ptr<FourierDraws> DrawFastfood(const FourierMapParams& p) {
  RequireKernelFits(p);
  FastfoodUnitDraws u;
  u.dp = ff::PaddedDim(p.d);
  if (u.dp > ff::kMaxPaddedDim)
    throw TrainError(std::string("--map ") + MapName(p.map) + " takes at most " +
                     std::to_string(ff::kMaxPaddedDim) + " input columns; the data have " +
                     std::to_string(p.d));
  const std::uint32_t blocks = (p.F + u.dp - 1) / u.dp;
  const std::size_t N = std::size_t{blocks} * u.dp;
  u.G.assign(N, 0.0f);
  u.S.assign(N, 0.0);
  u.perm.assign(ff::PermBytes(u.dp, static_cast<std::uint32_t>(N)), 0);
  u.signs.assign((N + 7) / 8, 0);
  // Blocks write disjoint bytes of signs and perm only when d' >= 8; smaller ones are drawn on one thread.
  const unsigned threads = u.dp >= 8 ? p.threads : 1;
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t b = t; b < blocks; b += threads) DrawBlock(b, p.seed, &u);
  });
  if (!p.pairs) u.phase = DrawPhases(p.F, p.seed);
  return std::make_unique<UnitScaleDraws<FastfoodMap, FastfoodUnitDraws>>(p, std::move(u));
}

// The draws (G, S as double, indices, bits) and a map's S: about 24 bytes per frequency, plus a
// block's scratch per thread; the model's copy is as large. Never the F x d of a dense map.
double FastfoodMapBytes(double F, double d) { return 48.0 * (F + 2.0 * d); }

}  // namespace rfk::host
