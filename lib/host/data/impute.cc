// Missing values: the value each column's missing entries (NaN) are replaced with, computed from
// the training rows, and the replacement. The model stores the values (format::impute) and the
// device core substitutes them for NaN inputs the same way.
#include <algorithm>
#include <cmath>

#include "rfk/host/train.hpp"

namespace rfk::host {

namespace {

// Mean or median of `v` (present values only); 0 when empty. Reorders v.
float Summary(std::vector<float>* v, format::ImputeMethod method) {
  if (v->empty()) return 0.0f;
  if (method == format::ImputeMethod::kMean) {
    double sum = 0;
    for (const float x : *v) sum += x;
    return static_cast<float>(sum / static_cast<double>(v->size()));
  }
  const std::size_t mid = v->size() / 2;
  std::nth_element(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(mid), v->end());
  const float hi = (*v)[mid];
  if (v->size() % 2 == 1) return hi;
  const float lo = *std::max_element(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(mid));
  return static_cast<float>((double(lo) + double(hi)) / 2);
}

}  // namespace

std::vector<float> ImputationValues(const Dataset& data, format::ImputeMethod method) {
  const std::size_t n = data.rows, d = data.cols;
  std::vector<float> values(d, 0.0f);
  std::vector<std::vector<float>> present(data.sparse ? d : 0);
  if (data.sparse) {  // absent entries are zeros, not missing
    for (std::size_t t = 0; t < data.col_idx.size(); ++t) present[data.col_idx[t]].push_back(data.values[t]);
    for (std::size_t c = 0; c < d; ++c) {
      present[c].resize(n, 0.0f);
      values[c] = Summary(&present[c], method);
      std::vector<float>().swap(present[c]);
    }
    return values;
  }
  std::vector<float> column;
  column.reserve(n);
  for (std::size_t c = 0; c < d; ++c) {
    column.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const float x = data.dense[i * d + c];
      if (!std::isnan(x)) column.push_back(x);
    }
    values[c] = Summary(&column, method);
  }
  return values;
}

std::uint64_t Impute(const std::vector<float>& values, Dataset* data) {
  if (data->sparse) return 0;
  const std::size_t d = data->cols;
  if (values.size() != d) throw TrainError("Impute: " + std::to_string(values.size()) + " values for " + std::to_string(d) + " columns");
  std::uint64_t filled = 0;
  for (std::size_t i = 0; i < data->dense.size(); ++i)
    if (std::isnan(data->dense[i])) {
      data->dense[i] = values[i % d];
      ++filled;
    }
  data->missing = 0;
  return filled;
}

}  // namespace rfk::host
