#include "maps/dense_map.h"

#include <cmath>
#include <utility>

#include "maps/block_kernels.h"
#include "parallel.h"
#include "maps/random.h"
#include "rfk/host/quantize.hpp"
#include "rfk/kernels.hpp"
#include "maps/streams.h"

namespace rfk::host {

namespace {

using format::Kernel;

class DenseMap final : public FourierMap {
 public:
  DenseMap(const FourierMapParams& p, const DenseUnitDraws& unit, double gamma);
  std::uint32_t features() const override { return p_.pairs ? 2 * p_.F : p_.F; }
  double gamma() const override { return gamma_; }
  bool Compute(const InputRows& in, const std::uint32_t* rows, std::size_t R, float* Z,
               MapWorkspace* ws) const override;
  void Describe(ModelSpec* spec) const override;

 private:
  // z = scale * [cos a, sin a] or scale * cos(a + b) for one row's arguments a; false if not finite.
  bool Features(const float* a, float* z) const;

  FourierMapParams p_;
  double gamma_;
  float scale_;
  std::vector<float> W_;       // F x d, as drawn at gamma (Describe writes it)
  std::vector<float> Wt_;      // d x F: W as stored (StoredRow of p_.w_storage), transposed
  std::vector<float> wscale_;  // int8 W: F row scales (argument j = wscale_[j] * (Wt_'x)_j)
  std::vector<float> phase_;
};

DenseMap::DenseMap(const FourierMapParams& p, const DenseUnitDraws& unit, double gamma)
    : p_(p), gamma_(gamma), W_(unit.w.size()), Wt_(unit.w.size()), phase_(unit.phase) {
  const std::uint32_t F = p.F, d = p.d;
  // Gaussian exp(-g|x|^2): W ~ N(0, 2g). Laplacian exp(-g|x|_1): Cauchy(0, g). Cauchy kernel
  // prod 1/(1 + g^2 x_i^2): Laplace(0, g).
  const float g = static_cast<float>(gamma);  // the model stores gamma as f32: use that value
  const double factor = p.kernel == Kernel::kGaussian ? std::sqrt(2.0 * static_cast<double>(g))
                                                      : static_cast<double>(g);
  scale_ = p.pairs ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(F)))
                   : static_cast<float>(std::sqrt(2.0 / features()));
  if (format::HasRowScales(p.w_storage)) wscale_.resize(F);
  std::vector<float> row(d);
  for (std::uint32_t j = 0; j < F; ++j) {
    for (std::uint32_t c = 0; c < d; ++c) row[c] = W_[std::size_t{j} * d + c] =
        static_cast<float>(factor * unit.w[std::size_t{j} * d + c]);
    // Features from W as the model will store it (quantization-aware): Describe writes W_, which
    // the model's writer rounds to exactly `row` (and wscale_) again.
    StoredRow(p.w_storage, row.data(), d, wscale_.empty() ? nullptr : &wscale_[j]);
    for (std::uint32_t c = 0; c < d; ++c) Wt_[std::size_t{c} * F + j] = row[c];
  }
}

// Sparse rows without centring skip the zeros (ProjectSparse: the same sums), their values scaled
// as the core's StandardizeRef scales them ((x - 0) * s == x * s); every other row is loaded
// dense and projected as the core does.
bool DenseMap::Compute(const InputRows& in, const std::uint32_t* rows, std::size_t R, float* Z,
                       MapWorkspace* ws) const {
  const std::uint32_t d = p_.d, F = p_.F, D = features();
  const Dataset& data = in.data;
  const std::vector<float>& scale = in.scaling.inv_scale;
  ws->work.resize(R * F);
  if (!data.sparse || in.scaling.centred) {
    ws->x.resize(R * d);
    LoadRows(in, rows, R, ws->x.data());
    ProjectDense(ws->x.data(), R, d, Wt_.data(), F, ws->work.data());
  } else {
    for (std::size_t r = 0; r < R; ++r) {
      const std::size_t i = rows[r];
      const std::uint64_t b = data.row_ptr[i], e = data.row_ptr[i + 1];
      const std::uint32_t* cols = data.col_idx.data() + b;
      const float* vals = data.values.data() + b;
      if (!scale.empty()) {
        ws->x.resize(e - b);
        for (std::uint64_t t = 0; t < e - b; ++t) ws->x[t] = vals[t] * scale[cols[t]];
        vals = ws->x.data();
      }
      ProjectSparse(cols, vals, e - b, Wt_.data(), F, ws->work.data() + r * F);
    }
  }
  if (!wscale_.empty())  // int8 W: the core's scale_j * (sum_c float(q_jc) x_c)
    for (std::size_t r = 0; r < R; ++r)
      for (std::uint32_t j = 0; j < F; ++j) ws->work[r * F + j] = wscale_[j] * ws->work[r * F + j];
  bool finite = true;
  for (std::size_t r = 0; r < R; ++r) finite &= Features(ws->work.data() + r * F, Z + r * D);
  return finite;
}

bool DenseMap::Features(const float* a, float* z) const {
  const std::uint32_t F = p_.F, D = features();
  FourierFeatures(a, p_.pairs ? nullptr : phase_.data(), F, scale_, z);
  bool finite = true;
  for (std::uint32_t j = 0; j < D; ++j) finite &= std::isfinite(z[j]);
  return finite;
}

void DenseMap::Describe(ModelSpec* spec) const {
  DescribeMap(p_, gamma_, scale_, spec);
  spec->projection = W_;
  spec->phase = phase_;
}

}  // namespace

std::unique_ptr<FourierDraws> MakeDenseDraws(const FourierMapParams& params, DenseUnitDraws unit) {
  return std::make_unique<UnitScaleDraws<DenseMap, DenseUnitDraws>>(params, std::move(unit));
}

std::vector<float> DrawPhases(std::uint32_t F, std::uint64_t seed) {
  std::vector<float> phase(F);
  for (std::uint32_t j = 0; j < F; ++j) {
    RandomStream rs(seed, kPhaseStream + j);
    phase[j] = static_cast<float>(6.283185307179586 * rs.Uniform());
  }
  return phase;
}

std::unique_ptr<FourierDraws> DrawRandomFourier(const FourierMapParams& p) {
  const std::uint32_t F = p.F, d = p.d;
  const unsigned threads = p.threads;
  DenseUnitDraws unit;
  unit.w.resize(std::size_t{F} * d);
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t j = t; j < F; j += threads) {
      RandomStream rs(p.seed, j);  // one stream per frequency: independent of the thread count
      double* w = unit.w.data() + std::size_t{j} * d;
      for (std::uint32_t c = 0; c < d; ++c) {
        switch (p.kernel) {
          case Kernel::kGaussian: w[c] = rs.Normal(); break;
          case Kernel::kLaplacian: w[c] = rs.Cauchy(); break;
          case Kernel::kCauchy: w[c] = rs.Laplace(); break;
        }
      }
    }
  });
  if (!p.pairs) unit.phase = DrawPhases(F, p.seed);
  return MakeDenseDraws(p, std::move(unit));
}

// The unit draws (double), W and W' (float), the model's copy of W and the blob: 24 bytes per
// element of W.
double DenseMapBytes(double F, double d) { return 24.0 * F * d; }

}  // namespace rfk::host
