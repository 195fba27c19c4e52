// The fixed-point path's integer arithmetic (include/rfk/fixed.hpp) on every platform that runs the
// device tests (x86, and aarch64 and armhf under qemu): the q15 cosine's error over every distinct
// input, its symmetries, and a checksum of all its outputs that must be the same integers
// everywhere; the phase accumulation's wrap-around against 64-bit arithmetic.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "maps/random.h"
#include "rfk/fixed.hpp"

namespace {

using rfk::fixed::CosTurns;
using rfk::fixed::SinTurns;

constexpr std::uint32_t kCosTurnsChecksum = 2593116078u;  // see the checksum test

constexpr double kTwoPi = 6.283185307179586476925286766559;

// The exact value CosTurns approximates, in LSB.
double ExactCos(std::uint32_t phase) { return 32767.0 * std::cos(kTwoPi * (phase / 4294967296.0)); }

}  // namespace

TEST_CASE("CosTurns at the table's points is its entry halved and rounded") {
  // The entries are round(65534 cos(pi/2 * i/256)); at a table point the fraction is 0, so the
  // result is (entry + 1) >> 1. A mistyped entry shows here.
  for (std::uint32_t i = 0; i <= 256; ++i) {
    const auto entry = static_cast<std::uint32_t>(std::lround(65534.0 * std::cos(kTwoPi / 4 * (i / 256.0))));
    CHECK(CosTurns(i << 22) == static_cast<std::int16_t>((entry + 1) >> 1));
  }
}

TEST_CASE("CosTurns stays within 0.91 LSB (faithful) of 32767 cos over every distinct input") {
  // The output depends on the top 26 bits of the phase only (2 quadrant, 8 index, 16 fraction);
  // every one of the 2^26 values is measured (a stride of 61 under emulation, where double cos
  // is slow), at the bottom of its 64-phase step, where the 6 ignored bits add nothing.
#if RFK_TEST_UNDER_EMULATION
  const std::uint32_t stride = 61;
#else
  const std::uint32_t stride = 1;
#endif
  double worst = 0;
  std::uint32_t worst_phase = 0;
  for (std::uint32_t k = 0; k < (1u << 26); k += stride) {
    const std::uint32_t phase = k << 6;
    const double err = std::fabs(CosTurns(phase) - ExactCos(phase));
    if (err > worst) worst = err, worst_phase = phase;
  }
  MESSAGE("CosTurns worst error " << worst << " LSB at phase " << worst_phase);
  CHECK(worst <= 0.91);
  // The ignored low bits: the top of each step is within the bound too.
  double worst_top = 0;
  for (std::uint32_t k = 0; k < (1u << 26); k += 1021) {
    const std::uint32_t phase = (k << 6) | 63u;
    worst_top = std::fmax(worst_top, std::fabs(CosTurns(phase) - ExactCos(phase)));
  }
  CHECK(worst_top <= 0.91);
}

TEST_CASE("CosTurns is even, odd about a half turn, and SinTurns is a quarter turn behind") {
  rfk::host::RandomStream rs(17, 0);
  for (int n = 0; n < 200000; ++n) {
    const auto p = static_cast<std::uint32_t>(rs.Bits());
    CHECK(CosTurns(0u - p) == CosTurns(p));
    CHECK(CosTurns(p + 0x80000000u) == -CosTurns(p));
    CHECK(SinTurns(p) == CosTurns(p - rfk::fixed::kQuarterTurn));
    CHECK(CosTurns(p) >= -32767);
  }
  CHECK(CosTurns(0) == 32767);
  CHECK(CosTurns(0x40000000u) == 0);
  CHECK(CosTurns(0x80000000u) == -32767);
  CHECK(SinTurns(0x40000000u) == 32767);
}

TEST_CASE("CosTurns gives the same integers on every platform (checksum of all 2^26 outputs)") {
  // FNV-1a over the outputs of every distinct input, in order. The value was computed by this
  // test on x86-64; aarch64 and armhf (qemu-user) must reproduce it bit for bit, since the
  // function uses integer operations only.
  std::uint32_t h = 2166136261u;
  for (std::uint32_t k = 0; k < (1u << 26); ++k) {
    const auto v = static_cast<std::uint16_t>(CosTurns(k << 6));
    h = (h ^ (v & 0xFFu)) * 16777619u;
    h = (h ^ (v >> 8)) * 16777619u;
  }
  MESSAGE("CosTurns checksum " << h);
  CHECK(h == kCosTurnsChecksum);
}

TEST_CASE("PhaseTurns equals the 64-bit sum modulo 2^32, at the int16 extremes too") {
  rfk::host::RandomStream rs(23, 0);
  std::int16_t w[512], x[512];
  for (int trial = 0; trial < 2000; ++trial) {
    const auto d = static_cast<std::uint32_t>(1 + rs.Bits() % 512);
    const bool extreme = trial % 4 == 0;  // every product at +-2^30: the sum wraps many times
    for (std::uint32_t j = 0; j < d; ++j) {
      w[j] = extreme ? std::numeric_limits<std::int16_t>::min() : static_cast<std::int16_t>(rs.Bits());
      x[j] = extreme ? std::numeric_limits<std::int16_t>::min() : static_cast<std::int16_t>(rs.Bits());
    }
    const auto shift = static_cast<std::uint32_t>(rs.Bits() % 32);
    const auto bias = static_cast<std::uint32_t>(rs.Bits());
    std::int64_t sum = 0;
    for (std::uint32_t j = 0; j < d; ++j) sum += std::int64_t{w[j]} * x[j];
    const std::uint64_t want = (static_cast<std::uint64_t>(sum) << shift) + bias;
    CHECK(rfk::fixed::PhaseTurns(w, x, d, shift, bias) == static_cast<std::uint32_t>(want));
  }
}
