// Ridge solve with an unpenalised intercept from accumulated sufficient statistics.
#pragma once

#include <cstdint>
#include <vector>

namespace rfk::host {

// Sums over a set of rows: G = Z'Z (upper triangle valid), h = Z'Y, s = Z'1, ysum = Y'1, n.
struct RidgeStats {
  std::uint32_t D = 0, K = 0;
  double n = 0;
  std::vector<double> G;     // D x D row-major
  std::vector<double> h;     // D x K
  std::vector<double> s;     // D
  std::vector<double> ysum;  // K

  RidgeStats() = default;
  RidgeStats(std::uint32_t d, std::uint32_t k)
      : D(d), K(k), G(std::size_t{d} * d), h(std::size_t{d} * k), s(d), ysum(k) {}
  void Add(const RidgeStats& o, double sign);  // this += sign * o, element by element
};

struct RidgeSolution {
  std::vector<double> W;     // D x K
  std::vector<double> bias;  // K
};

// Minimises (1/n) ||Z W + 1 b' - Y||^2 + lambda ||W||^2 over W and b:
// (G/n - mu mu' + lambda I) W = h/n - mu ybar',  b = ybar - W' mu,  mu = s/n, ybar = ysum/n.
// Cholesky (LLT) first, LDLT if the system is not numerically positive definite.
// Deterministic: this translation unit is compiled without vectorisation-dependent reductions.
RidgeSolution SolveRidge(const RidgeStats& stats, double lambda);

}  // namespace rfk::host
