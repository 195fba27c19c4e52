#include "maps/random.h"

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

double NormalQuantile(double u) {
  if (!(u > 0.0 && u < 1.0)) return NAN;
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01, -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  if (u < kLow || u > 1.0 - kLow) {  // the tails, by symmetry from the lower one
    const double q = std::sqrt(-2.0 * PortableLog(u < kLow ? u : 1.0 - u));
    const double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                     ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    return u < kLow ? x : -x;
  }
  const double q = u - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

}  // namespace rfk::host
