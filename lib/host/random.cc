#include "random.h"

#include <cmath>

namespace rfk::host {

std::uint64_t RandomBits(std::uint64_t seed, std::uint64_t stream, std::uint64_t counter) {
  auto mix = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  // Distinct golden-ratio increments keep (seed, stream, counter) triples from colliding.
  return mix(mix(seed + 0x9E3779B97F4A7C15ull) ^ mix(stream * 0xD1B54A32D192ED03ull + counter));
}

double RandomStream::Uniform() {
  return (static_cast<double>(Bits() >> 11) + 0.5) * 0x1.0p-53;
}

double RandomStream::Normal() {
  for (;;) {
    const double u = 2.0 * Uniform() - 1.0;
    const double v = 2.0 * Uniform() - 1.0;
    const double s = u * u + v * v;
    if (s >= 1.0 || s == 0.0) continue;
    return u * std::sqrt(-2.0 * PortableLog(s) / s);  // sqrt is correctly rounded by IEEE-754
  }
}

double RandomStream::Cauchy() {
  for (;;) {
    const double a = Normal();
    const double b = Normal();
    if (b != 0.0) return a / b;
  }
}

double RandomStream::Laplace() {
  const std::uint64_t bits = Bits();
  const double u = (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53;
  const double e = -PortableLog(u);  // Exp(1)
  return (bits & 1u) ? e : -e;
}

double PortableLog(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -HUGE_VAL : NAN;
  if (x == HUGE_VAL) return x;
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); frexp/ldexp are exact.
  int e = 0;
  double m = std::frexp(x, &e);  // m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --e;
  }
  // log(m) = 2 atanh(t), t = (m-1)/(m+1), |t| <= 0.1716; 14 odd terms reach 1e-21.
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double sum = 0.0;
  for (int k = 27; k >= 3; k -= 2) sum = (sum + 1.0 / k) * t2;
  const double log_m = 2.0 * t * (1.0 + sum);
  constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;  // ln 2 split so e * kLn2Hi is exact
  constexpr double kLn2Lo = 0x1.ef35793c76730p-45;
  return (e * kLn2Hi + log_m) + e * kLn2Lo;
}

}  // namespace rfk::host
