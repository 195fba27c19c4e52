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

InputScaling ComputeStandardization(const Dataset& data) {
  const std::size_t d = data.cols;
  std::vector<double> s1(d, 0.0), s2(d, 0.0);
  if (data.sparse) {
    for (std::size_t t = 0; t < data.col_idx.size(); ++t) {
      s1[data.col_idx[t]] += data.values[t];
      s2[data.col_idx[t]] += double(data.values[t]) * data.values[t];
    }
  } else {
    for (std::size_t i = 0; i < data.rows; ++i)
      for (std::size_t c = 0; c < d; ++c) {
        const double v = data.dense[i * d + c];
        s1[c] += v;
        s2[c] += v * v;
      }
  }
  InputScaling s;
  s.mean.resize(d);
  s.inv_scale.resize(d);
  const double n = static_cast<double>(data.rows);
  for (std::size_t c = 0; c < d; ++c) {
    const double mu = s1[c] / n;
    const double var = std::max(0.0, s2[c] / n - mu * mu);
    s.mean[c] = static_cast<float>(mu);
    const bool constant = !(var > 1e-12 * std::max(mu * mu, 1e-300));  // rounding noise only
    s.inv_scale[c] = constant ? 0.0f : static_cast<float>(1.0 / std::sqrt(var));
  }
  return s;
}

}  // namespace rfk::host
