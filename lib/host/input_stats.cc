#include "input_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "random.h"
#include "streams.h"

namespace rfk::host {

namespace {
constexpr std::size_t kGammaPairs = 2000;
}  // namespace

double DefaultGamma(const Dataset& data, format::Kernel kernel, const InputScaling& scaling,
                    std::uint64_t seed) {
  const std::vector<float>& mean = scaling.mean;
  const std::vector<float>& inv_scale = scaling.inv_scale;
  const std::size_t n = data.rows, d = data.cols;
  std::vector<float> row(d);
  std::vector<double> a(d), b(d), dist;
  auto fetch = [&](std::size_t i, std::vector<double>& x) {
    DenseRow(data, i, row.data(), d);
    for (std::size_t c = 0; c < d; ++c)
      x[c] = mean.empty() ? row[c] : (double(row[c]) - mean[c]) * inv_scale[c];
  };
  RandomStream rs(seed, kPairStream);
  for (std::size_t p = 0; p < kGammaPairs && n > 1; ++p) {
    const std::size_t i = rs.Bits() % n, j = rs.Bits() % n;
    if (i == j) continue;
    fetch(i, a);
    fetch(j, b);
    double acc = 0;
    for (std::size_t c = 0; c < d; ++c) {
      const double delta = a[c] - b[c];
      acc += kernel == format::Kernel::kLaplacian ? std::fabs(delta) : delta * delta;
    }
    if (kernel == format::Kernel::kCauchy) acc = std::sqrt(acc);
    dist.push_back(acc);
  }
  if (dist.empty()) return 1.0;
  std::sort(dist.begin(), dist.end());
  double med = dist[dist.size() / 2];
  if (!(med > 0)) med = std::accumulate(dist.begin(), dist.end(), 0.0) / static_cast<double>(dist.size());
  return med > 0 ? 1.0 / med : 1.0;
}

double NonZeroFraction(const Dataset& data) {
  const double entries = static_cast<double>(data.rows) * static_cast<double>(data.cols);
  if (!(entries > 0)) return 0.0;
  std::size_t nnz = 0;
  if (data.sparse) {
    for (float v : data.values) nnz += v != 0.0f;
  } else {
    for (float v : data.dense) nnz += v != 0.0f;
  }
  return static_cast<double>(nnz) / entries;
}

Standardization ChooseStandardization(const Dataset& data, int option) {
  if (option == 0) return Standardization::kOff;
  if (option > 0) return Standardization::kCentred;
  return NonZeroFraction(data) >= kDenseFraction ? Standardization::kCentred : Standardization::kUncentred;
}

namespace {

// Per column: the sum, the sum of squares and whether every value is 0 or 1, rows in order.
struct ColumnSums {
  std::vector<double> s1, s2;
  std::vector<char> indicator;
};

ColumnSums SumColumns(const Dataset& data) {
  const std::size_t d = data.cols;
  ColumnSums c{std::vector<double>(d, 0.0), std::vector<double>(d, 0.0), std::vector<char>(d, 1)};
  auto add = [&c](std::size_t col, double v) {
    c.s1[col] += v;
    c.s2[col] += v * v;
    if (v != 0.0 && v != 1.0) c.indicator[col] = 0;
  };
  if (data.sparse) {
    for (std::size_t t = 0; t < data.col_idx.size(); ++t) add(data.col_idx[t], data.values[t]);
  } else {
    for (std::size_t i = 0; i < data.rows; ++i)
      for (std::size_t col = 0; col < d; ++col) add(col, data.dense[i * d + col]);
  }
  return c;
}

}  // namespace

InputScaling ComputeStandardization(const Dataset& data, Standardization how) {
  InputScaling s;
  if (how == Standardization::kOff) return s;
  const std::size_t d = data.cols;
  const ColumnSums c = SumColumns(data);
  s.mean.resize(d);
  s.inv_scale.resize(d);
  const double n = static_cast<double>(data.rows);
  const bool centre = how == Standardization::kCentred;
  bool identity = true;
  for (std::size_t col = 0; col < d; ++col) {
    const double mu = c.s1[col] / n;
    const double var = std::max(0.0, c.s2[col] / n - mu * mu);
    const bool constant = !(var > 1e-12 * std::max(mu * mu, 1e-300));  // rounding noise only
    s.mean[col] = centre ? static_cast<float>(mu) : 0.0f;
    s.inv_scale[col] = constant ? 0.0f : static_cast<float>(1.0 / std::sqrt(var));
    if (!centre && c.indicator[col]) s.inv_scale[col] = 1.0f;
    identity &= s.mean[col] == 0.0f && s.inv_scale[col] == 1.0f;
    s.centred |= s.mean[col] != 0.0f;
  }
  if (!centre && identity) return InputScaling{};
  return s;
}

}  // namespace rfk::host
