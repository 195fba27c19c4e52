// The kernel error of a map, for tests that compare maps: mean squared error of z(x)'z(y), from
// the core's features of a model drawn by RandomFeatureSpec, against exp(-gamma |x - y|^2).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "maps/random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace rfk_test {

// Mean squared error of z(x)'z(y) against exp(-gamma |x - y|^2) over fixed pairs at
// gamma-scaled distances spread over (0, 2], averaged over `seeds` maps of D features.
inline double GaussianMse(rfk::format::MapKind map, std::uint32_t D, std::uint32_t d, int seeds) {
  const double gamma = 0.5;
  rfk::host::RandomStream rs(77, 3);
  double total = 0;
  int count = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    const auto bytes =
        rfk::host::SerializeModel(rfk::host::RandomFeatureSpec(rfk::format::Kernel::kGaussian, map, D, d, gamma, seed));
    rfk_test::Blob blob(bytes);
    rfk::Model m;
    REQUIRE(blob.Open(&m) == rfk::Status::kOk);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    std::vector<float> x(d), y(d), zx(D), zy(D);
    for (int p = 0; p < 32; ++p) {
      const double spread = (p % 8 + 1) / 8.0 / std::sqrt(gamma * d);  // gamma |x - y|^2 ~ spread^2 d
      double l2 = 0;
      for (std::uint32_t c = 0; c < d; ++c) {
        x[c] = static_cast<float>(rs.Normal());
        y[c] = static_cast<float>(x[c] + spread * rs.Normal());
        l2 += (double(x[c]) - y[c]) * (double(x[c]) - y[c]);
      }
      REQUIRE(rfk::ComputeFeatures(m, x.data(), d, scratch.data(), scratch.size(), zx.data(), D) == rfk::Status::kOk);
      REQUIRE(rfk::ComputeFeatures(m, y.data(), d, scratch.data(), scratch.size(), zy.data(), D) == rfk::Status::kOk);
      double dot = 0;
      for (std::uint32_t j = 0; j < D; ++j) dot += double(zx[j]) * zy[j];
      const double e = dot - std::exp(-gamma * l2);
      total += e * e;
      ++count;
    }
  }
  return total / count;
}

}  // namespace rfk_test
