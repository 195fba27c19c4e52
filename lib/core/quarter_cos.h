// The quarter-wave table of the integer path's cosine (CosTurns, SinTurns: fixed_kernels.h), and
// its entries computed rather than read, for a core built for size (RFK_CORE_SMALL): 36 bytes of
// correction bits and a few dozen bytes of code in place of the table's 516 bytes, for ten integer
// multiplies an entry. Both give the same integers: the computed form is checked against the table
// entry by entry when this header compiles (static_assert) and again at run time on every platform
// (tests/embedded/fixed_kernels_check.cc). Integer operations only. Internal to lib/core.
#pragma once

#include <cstdint>

namespace rfk::fixed {

// round(65534 * cos(pi/2 * i / 256)) for i = 0..256: the cosine at twice the output's scale, so
// the table's rounding costs 0.25 LSB of the result instead of 0.5; then a 0 that keeps the
// interpolation's second read in bounds at i = 256 (where the fraction is always 0). Checked entry
// by entry against double-precision cos in tests/device/test_fixed.cc.
inline constexpr std::uint16_t kQuarterCos2[258] = {
    65534, 65533, 65529, 65523, 65514, 65503, 65490, 65474, 65455, 65434, 65411, 65385,
    65356, 65326, 65292, 65257, 65218, 65178, 65135, 65089, 65041, 64991, 64938, 64882,
    64825, 64764, 64702, 64637, 64569, 64499, 64427, 64352, 64275, 64195, 64113, 64029,
    63942, 63852, 63761, 63667, 63570, 63471, 63370, 63266, 63160, 63052, 62941, 62828,
    62712, 62594, 62474, 62351, 62226, 62099, 61969, 61837, 61703, 61567, 61428, 61286,
    61143, 60997, 60849, 60698, 60546, 60391, 60233, 60074, 59912, 59748, 59581, 59413,
    59242, 59069, 58894, 58716, 58537, 58355, 58171, 57984, 57796, 57605, 57412, 57217,
    57020, 56821, 56620, 56416, 56210, 56003, 55793, 55581, 55367, 55150, 54932, 54712,
    54490, 54265, 54039, 53810, 53580, 53347, 53113, 52876, 52637, 52397, 52154, 51910,
    51663, 51415, 51165, 50913, 50658, 50402, 50144, 49885, 49623, 49359, 49094, 48827,
    48557, 48287, 48014, 47739, 47463, 47185, 46905, 46623, 46340, 46054, 45767, 45479,
    45188, 44896, 44603, 44307, 44010, 43711, 43411, 43109, 42805, 42500, 42193, 41884,
    41574, 41263, 40950, 40635, 40319, 40001, 39682, 39361, 39039, 38715, 38390, 38063,
    37735, 37406, 37075, 36742, 36409, 36074, 35737, 35400, 35061, 34720, 34378, 34035,
    33691, 33346, 32999, 32651, 32302, 31951, 31599, 31247, 30893, 30537, 30181, 29823,
    29465, 29105, 28744, 28382, 28019, 27655, 27290, 26924, 26557, 26189, 25820, 25450,
    25079, 24707, 24334, 23960, 23585, 23210, 22833, 22456, 22078, 21699, 21319, 20938,
    20557, 20175, 19792, 19408, 19024, 18638, 18253, 17866, 17479, 17091, 16702, 16313,
    15923, 15533, 15142, 14751, 14359, 13966, 13573, 13179, 12785, 12390, 11995, 11600,
    11204, 10807, 10411, 10013, 9616, 9218, 8820, 8421, 8022, 7623, 7223, 6824,
    6423, 6023, 5623, 5222, 4821, 4420, 4019, 3617, 3216, 2814, 2412, 2010,
    1608, 1206, 804, 402, 0, 0,
};

namespace quarter_cos {

// A fit of the table without its rounding, plus one: 65535 - v (c3 - v (c2 - v (c1 - v c0))) for
// v = (i / 256)^2, a degree-4 polynomial in v (least squares on the 257 points) in units of 2^-6,
// listed innermost first, evaluated in unsigned 32-bit arithmetic: every bracket but the outermost
// is in [0, 2^23) for i <= 257, so no product below reaches 2^32.
inline constexpr std::uint32_t kFit[5] = {3617u, 87320u, 1063879u, 5174355u, 65535u * 64u};
// h * v for v = (i / 256)^2, as two multiplies by i, each product rounded down.
constexpr std::uint32_t TimesV(std::uint32_t h, std::uint32_t i) { return ((h * i) >> 8) * i >> 8; }
// The fit at i rounded down, plus one (which keeps the outermost subtraction from wrapping at
// i = 256, where the fit is about 0): entry i or one more, for i <= 256 (checked below). At i = 257
// it is no entry at all; CosTurns reads that index only with a zero fraction, which multiplies it
// by 0.
constexpr std::uint32_t Fit(std::uint32_t i) {
  std::uint32_t h = 0;
  for (const std::uint32_t c : kFit) h = c - TimesV(h, i);
  return h >> 6;
}
// Fit(i) minus entry i, one bit an entry (bit i % 32 of word i / 32); the words past entry 256 are 0.
struct Bits {
  std::uint32_t word[9];
};
constexpr Bits MakeBits() {
  Bits b{};
  for (std::uint32_t i = 0; i <= 256; ++i) b.word[i >> 5] |= ((Fit(i) - kQuarterCos2[i]) & 1u) << (i & 31u);
  return b;
}
inline constexpr Bits kBits = MakeBits();
constexpr bool WithinOneAbove() {
  for (std::uint32_t i = 0; i <= 256; ++i)
    if (Fit(i) - kQuarterCos2[i] > 1u) return false;  // also false when Fit(i) is below the entry (wraps)
  return true;
}
static_assert(WithinOneAbove(), "rfk core: the quarter-cosine fit is not within one above every table entry");

// Entry i of kQuarterCos2 for i <= 256, computed.
constexpr std::uint32_t Entry(std::uint32_t i) { return Fit(i) - ((kBits.word[i >> 5] >> (i & 31u)) & 1u); }

}  // namespace quarter_cos

}  // namespace rfk::fixed
