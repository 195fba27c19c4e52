#include "data/input_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "maps/random.h"
#include "maps/streams.h"

namespace rfk::host {

namespace {
constexpr std::size_t kGammaPairs = 2000;
}  // namespace

std::vector<std::size_t> GammaSampleRows(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> rows;
  RandomStream rs(seed, kPairStream);
  for (std::size_t p = 0; p < kGammaPairs && n > 1; ++p) {
    const std::size_t i = rs.Bits() % n, j = rs.Bits() % n;
    if (i == j) continue;
    rows.push_back(i);
    rows.push_back(j);
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

double DefaultGamma(const Dataset& data, format::Kernel kernel, const InputScaling& scaling,
                    std::uint64_t seed) {
  const std::vector<std::size_t> rows = GammaSampleRows(data.rows, seed);
  Dataset sample;
  sample.rows = rows.size();
  sample.cols = data.cols;
  sample.dense.resize(rows.size() * data.cols);
  for (std::size_t q = 0; q < rows.size(); ++q) DenseRow(data, rows[q], sample.dense.data() + q * data.cols, data.cols);
  return DefaultGamma(sample, data.rows, kernel, scaling, seed);
}

double DefaultGamma(const Dataset& sample, std::size_t n, format::Kernel kernel, const InputScaling& scaling,
                    std::uint64_t seed) {
  const std::vector<float>& mean = scaling.mean;
  const std::vector<float>& inv_scale = scaling.inv_scale;
  const std::size_t d = sample.cols;
  const std::vector<std::size_t> rows = GammaSampleRows(n, seed);
  std::vector<float> row(d);
  std::vector<double> a(d), b(d), dist;
  auto fetch = [&](std::size_t i, std::vector<double>& x) {
    const auto q = static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), i) - rows.begin());
    DenseRow(sample, q, row.data(), d);
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

void ColumnStats::Add(const Dataset& chunk) {
  const std::size_t d = std::max(cols, chunk.cols);
  cols = d;
  s1.resize(d, 0.0);
  s2.resize(d, 0.0);
  indicator.resize(d, 1);
  auto add = [this](std::size_t col, double v) {
    s1[col] += v;
    s2[col] += v * v;
    if (v != 0.0 && v != 1.0) indicator[col] = 0;
    nonzeros += v != 0.0;
  };
  if (chunk.sparse) {
    for (std::size_t t = 0; t < chunk.col_idx.size(); ++t) add(chunk.col_idx[t], chunk.values[t]);
  } else {
    for (std::size_t i = 0; i < chunk.rows; ++i)
      for (std::size_t col = 0; col < chunk.cols; ++col) add(col, chunk.dense[i * chunk.cols + col]);
  }
  rows += chunk.rows;
}

namespace {
// Column col's mean and population variance from its sums (rows > 0).
void Moments(const ColumnStats& c, std::size_t col, double* mu, double* var) {
  const double n = static_cast<double>(c.rows);
  *mu = c.s1[col] / n;
  *var = std::max(0.0, c.s2[col] / n - *mu * *mu);
}

ColumnStats StatsOf(const Dataset& data) {
  ColumnStats c;
  c.Add(data);
  c.cols = data.cols;  // LIBSVM: min_cols beyond the highest index
  c.s1.resize(c.cols, 0.0);
  c.s2.resize(c.cols, 0.0);
  c.indicator.resize(c.cols, 1);
  return c;
}
}  // namespace

double NonZeroFraction(const ColumnStats& stats) {
  const double entries = static_cast<double>(stats.rows) * static_cast<double>(stats.cols);
  return entries > 0 ? static_cast<double>(stats.nonzeros) / entries : 0.0;
}

double NonZeroFraction(const Dataset& data) { return NonZeroFraction(StatsOf(data)); }

Standardization ChooseStandardization(const ColumnStats& stats, int option) {
  if (option == 0) return Standardization::kOff;
  if (option > 0) return Standardization::kCentred;
  return NonZeroFraction(stats) >= kDenseFraction ? Standardization::kCentred : Standardization::kUncentred;
}

Standardization ChooseStandardization(const Dataset& data, int option) {
  return ChooseStandardization(StatsOf(data), option);
}

InputScaling ComputeStandardization(const Dataset& data, Standardization how) {
  return ComputeStandardization(StatsOf(data), how);
}

void ColumnMoments(const ColumnStats& c, std::vector<float>* mean, std::vector<float>* sd) {
  mean->assign(c.cols, 0.0f);
  sd->assign(c.cols, 0.0f);
  if (c.rows == 0) return;
  for (std::size_t col = 0; col < c.cols; ++col) {
    double mu, var;
    Moments(c, col, &mu, &var);
    (*mean)[col] = static_cast<float>(mu);
    (*sd)[col] = static_cast<float>(std::sqrt(var));
  }
}

InputScaling ComputeStandardization(const ColumnStats& c, Standardization how) {
  InputScaling s;
  if (how == Standardization::kOff) return s;
  const std::size_t d = c.cols;
  s.mean.resize(d);
  s.inv_scale.resize(d);
  const bool centre = how == Standardization::kCentred;
  bool identity = true;
  for (std::size_t col = 0; col < d; ++col) {
    double mu, var;
    Moments(c, col, &mu, &var);
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
