// Statistics of the training inputs that the pipeline computes before any map: the per-feature
// standardisation the model applies first, and the data-scale default gamma of a kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/host/data.hpp"

namespace rfk::host {

// x -> (x - mean) * inv_scale per input feature, as the model's standardisation section holds it
// (both empty: none).
struct InputScaling {
  std::vector<float> mean, inv_scale;  // d each, or empty
  bool empty() const { return mean.empty(); }
};

// Per-feature mean and 1/std in double, rows in order, stored as floats; 1/std is 0 for features
// constant in training (they carry no information, and unseen values at prediction cannot then
// push cosine arguments or bins out of range).
InputScaling ComputeStandardization(const Dataset& data);

// 1 / median, over 2,000 row pairs drawn from (seed, kPairStream), of the kernel's distance
// (squared L2 for Gaussian, L1 for Laplacian, L2 for Cauchy) on the scaled inputs; 1 when no pair
// has a positive median (the mean then stands in for a zero median).
double DefaultGamma(const Dataset& data, format::Kernel kernel, const InputScaling& scaling,
                    std::uint64_t seed);

}  // namespace rfk::host
