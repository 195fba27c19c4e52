// Portable, counter-based random numbers for training. Every value is a pure function of
// (seed, stream, counter) and is computed with IEEE-754 +, -, *, / and sqrt only (no libm, no
// std::*_distribution), so the same seed gives bit-identical W and b on every compiler, platform
// and thread count. Requires -ffp-contract=off (set project-wide) so no a*b+c is fused.
#pragma once

#include <cstdint>

namespace rfk::host {

// 64-bit output for position `counter` of `stream` under `seed` (a SplitMix64-style finaliser over
// a counter: statistically strong, trivially parallel).
std::uint64_t RandomBits(std::uint64_t seed, std::uint64_t stream, std::uint64_t counter);

// Draws for one stream: successive calls consume successive counters.
class RandomStream {
 public:
  RandomStream(std::uint64_t seed, std::uint64_t stream) : seed_(seed), stream_(stream) {}
  std::uint64_t Bits() { return RandomBits(seed_, stream_, counter_++); }
  double Uniform();      // (0, 1), 53-bit resolution, never 0 or 1
  double Normal();       // N(0, 1), Marsaglia's polar method
  double Cauchy();       // standard Cauchy, as the ratio of two normals
  double Laplace();      // standard Laplace: density exp(-|x|)/2
 private:
  std::uint64_t seed_, stream_, counter_ = 0;
};

// Natural logarithm using only IEEE basic operations (argument reduction by powers of two and an
// atanh series); accurate to ~1 ulp for x > 0. Deterministic everywhere, unlike std::log.
double PortableLog(double x);

// The standard normal quantile Phi^-1(u) for u in (0, 1), by Acklam's rational approximation
// (relative error below 1.15e-9, far inside a float W's rounding), with PortableLog and sqrt:
// deterministic everywhere. NaN outside (0, 1).
double NormalQuantile(double u);

}  // namespace rfk::host
