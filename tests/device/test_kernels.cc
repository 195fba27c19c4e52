// Scalar reference kernels and the portable sampler, on whatever platform runs the device tests
// (x86, aarch64 and armhf under qemu): cosine accuracy and range, CRC, and random streams pinned
// bit for bit, so models trained anywhere draw the same W and b.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "maps/random.h"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

namespace {

double SinCosMaxError(double limit, int samples, std::uint64_t seed) {
  rfk::host::RandomStream rs(seed, 0);
  double worst = 0;
  for (int i = 0; i < samples; ++i) {
    const auto x = static_cast<float>((2 * rs.Uniform() - 1) * limit);
    float s, c;
    rfk::SinCosRef(x, &s, &c);
    worst = std::max({worst, std::fabs(s - std::sin(double(x))), std::fabs(c - std::cos(double(x)))});
  }
  return worst;
}

}  // namespace

TEST_CASE("SinCosRef stays within its stated 1.2e-7 over every range up to kSinCosMaxArg") {
  for (double limit : {1.0, 100.0, 1e4, 1.0e5, 1.02e5, 1e6, 1e8, 1e9}) {
    CAPTURE(limit);
    CHECK(SinCosMaxError(limit, 200000, 7) <= 1.2e-7);
  }
  // Exactly at the fast-path boundary and just beyond it (double reduction).
  for (float x : {rfk::kSinCosFastRange, -rfk::kSinCosFastRange, std::nextafter(rfk::kSinCosFastRange, 1e9f),
                  rfk::kSinCosMaxArg, -rfk::kSinCosMaxArg}) {
    float s, c;
    rfk::SinCosRef(x, &s, &c);
    CHECK(std::fabs(c - std::cos(double(x))) <= 1.2e-7);
    CHECK(std::fabs(s - std::sin(double(x))) <= 1.2e-7);
  }
}

TEST_CASE("SinCosRef returns NaN, never garbage, outside its domain") {
  for (float x : {std::nextafter(rfk::kSinCosMaxArg, 3e38f), 1e20f, -3e38f, INFINITY, -INFINITY, NAN}) {
    float s, c;
    rfk::SinCosRef(x, &s, &c);
    CHECK(std::isnan(s));
    CHECK(std::isnan(c));
  }
}

TEST_CASE("PortableLog agrees with std::log to 1e-15 relative") {
  rfk::host::RandomStream rs(3, 0);
  for (int i = 0; i < 100000; ++i) {
    const double x = std::exp((rs.Uniform() - 0.5) * 1400);
    REQUIRE(std::fabs(rfk::host::PortableLog(x) - std::log(x)) <= 1e-15 * std::max(1.0, std::fabs(std::log(x))));
  }
  CHECK(rfk::host::PortableLog(1.0) == 0.0);
}

TEST_CASE("random streams are pure functions of (seed, stream, counter) with the right moments") {
  rfk::host::RandomStream a(11, 5), b(11, 5), c(12, 5);
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.Bits();
    CHECK(x == b.Bits());
    CHECK(x != c.Bits());
  }
  // Pinned values, exact to the bit: any change to the generator or the samplers changes every
  // trained model, and this test on aarch64/armhf (under qemu) shows other platforms draw the same.
  CHECK(rfk::host::RandomBits(1, 2, 3) == 0x8aabef69120fb4eaull);
  rfk::host::RandomStream pinned(7, 3);
  CHECK(pinned.Uniform() == 0x1.8de990985bd8ap-1);
  CHECK(pinned.Normal() == 0x1.4c6a22fbaf032p+1);
  CHECK(pinned.Cauchy() == 0x1.e70ec7d665eb3p-2);
  CHECK(pinned.Laplace() == 0x1.130f70d76f7a4p+1);
  CHECK(rfk::host::PortableLog(3.0) == 0x1.193ea7aad030bp+0);
  rfk::host::RandomStream n(1, 0);
  double m1 = 0, m2 = 0, lap = 0, cau = 0;
  const int N = 400000;
  for (int i = 0; i < N; ++i) {
    const double z = n.Normal();
    m1 += z;
    m2 += z * z;
    lap += std::fabs(n.Laplace());
    cau += std::fabs(n.Cauchy()) < 1.0;
  }
  CHECK(std::fabs(m1 / N) < 0.01);
  CHECK(std::fabs(m2 / N - 1.0) < 0.01);
  CHECK(std::fabs(lap / N - 1.0) < 0.01);        // E|Laplace(0,1)| = 1
  CHECK(std::fabs(cau / N - 0.5) < 0.005);       // P(|Cauchy| < 1) = 1/2
}

TEST_CASE("Crc32 gives the CRC-32 check value, also when chained") {
  CHECK(rfk::Crc32("123456789", 9) == 0xCBF43926u);
  CHECK(rfk::Crc32("56789", 5, rfk::Crc32("1234", 4)) == 0xCBF43926u);
}
