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
  bool centred = false;                // some mean is not 0 (else zeros stay zeros)
  // The training columns' mean and standard deviation (population form), d each, whatever the
  // standardisation: the model's input_stats section where the standardisation lacks the means.
  std::vector<float> data_mean, data_sd;
  bool empty() const { return mean.empty(); }
};

// How inputs are scaled before the maps. The default (TrainOptions::standardize < 0) depends on
// the data, not on the file format: data with at least kDenseFraction of its entries non-zero is
// dense and is centred and scaled; sparser data is scaled without centring, which keeps its
// zeros (and the sparse path of the maps). Centring changes nothing for the shift-invariant
// kernels (a shift of x only rotates each [cos, sin] pair or shifts the random phases); what it
// costs is sparsity, hence the threshold: a quarter of non-zeros, where CSR storage is about half
// the dense size. (Fashion-MNIST: 0.50, dense; a9a: 0.11, sparse.)
inline constexpr double kDenseFraction = 0.25;
enum class Standardization {
  kOff,       // none
  kCentred,   // (x - mean) / std per feature (--standardize, and dense data by default)
  kUncentred  // x / std per feature, except 0/1 indicator features, kept as they are (sparse data)
};

// What the standardisation needs of the inputs, gathered chunk by chunk in row order (one pass
// over the data; a chunk may be the whole data): per column the sum, the sum of squares and
// whether every value is 0 or 1, and the count of non-zero entries. O(d) memory.
struct ColumnStats {
  std::size_t rows = 0, cols = 0;
  std::uint64_t nonzeros = 0;
  std::vector<double> s1, s2;
  std::vector<char> indicator;
  void Add(const Dataset& chunk);
};

// The columns' mean and population standard deviation from their sums.
void ColumnMoments(const ColumnStats& stats, std::vector<float>* mean, std::vector<float>* sd);

// The fraction of the n x d entries that are not zero (stored zeros of sparse data included).
double NonZeroFraction(const Dataset& data);
double NonZeroFraction(const ColumnStats& stats);

// The standardisation for TrainOptions::standardize (-1: by NonZeroFraction, 0: off, 1: centred).
Standardization ChooseStandardization(const Dataset& data, int option);
Standardization ChooseStandardization(const ColumnStats& stats, int option);

// Per-feature mean and 1/std (the deviation about the mean) in double, rows in order, stored as
// floats; 1/std is 0 for features constant in training (they carry no information, and unseen
// values at prediction cannot then push cosine arguments or bins out of range). kUncentred stores
// mean 0 and keeps 0/1 indicator features at 1 (dividing a rare indicator by its small deviation
// inflates it: on a9a, all indicators, the test error rose from 15.0 % to 15.6 %); when every
// feature is then left as it is, the result is empty (no standardisation). kOff: empty.
InputScaling ComputeStandardization(const Dataset& data, Standardization how);
InputScaling ComputeStandardization(const ColumnStats& stats, Standardization how);

// 1 / median, over 2,000 row pairs drawn from (seed, kPairStream), of the kernel's distance
// (squared L2 for Gaussian, L1 for Laplacian, L2 for Cauchy) on the scaled inputs; 1 when no pair
// has a positive median (the mean then stands in for a zero median).
double DefaultGamma(const Dataset& data, format::Kernel kernel, const InputScaling& scaling,
                    std::uint64_t seed);
// The rows of n that DefaultGamma's pairs read, ascending and distinct (at most 4,000).
std::vector<std::size_t> GammaSampleRows(std::size_t n, std::uint64_t seed);
// DefaultGamma of n rows from `sample`: the rows GammaSampleRows(n, seed) lists, in its order
// (gathered by a pass over data that is not in memory). The same value as on the whole data.
double DefaultGamma(const Dataset& sample, std::size_t n, format::Kernel kernel,
                    const InputScaling& scaling, std::uint64_t seed);

}  // namespace rfk::host
