// Integer phase and cosine of the fixed-point path (contract: include/rfk/fixed.hpp). Integer
// operations only: no float, no libgcc float routine, on any target.
#include "fp_contract.h"  // first, as in every core source (there is no float here to contract)
#include "rfk/fixed.hpp"

#include <cstdint>

namespace rfk::fixed {
namespace {

// round(65534 * cos(pi/2 * i / 256)) for i = 0..256: the cosine at twice the output's scale, so
// the table's rounding costs 0.25 LSB of the result instead of 0.5; then a 0 that keeps the
// interpolation's second read in bounds at i = 256 (where the fraction is always 0). Checked entry
// by entry against double-precision cos in tests/test_fixed.cc.
constexpr std::uint16_t kQuarterCos2[258] = {
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

}  // namespace

std::int16_t CosTurns(std::uint32_t phase) {
  const std::uint32_t quadrant = phase >> 30;
  std::uint32_t p = phase & (kQuarterTurn - 1u);  // position in the quadrant, [0, 2^30)
  if (quadrant & 1u) p = kQuarterTurn - p;        // mirrored: (0, 2^30]
  const std::uint32_t i = p >> 22;                // table index, 0..256
  const std::uint32_t frac = (p >> 6) & 0xFFFFu;  // the next 16 bits
  // One rounding for interpolation and scale: v = round((a * 2^16 - (a - b) * frac) / 2^17), in
  // unsigned 32-bit arithmetic, exact: the table decreases (a >= b), a * 2^16 + 2^16 <= 65535 *
  // 2^16 < 2^32, and the numerator is at least b * 2^16 >= 0.
  const std::uint32_t a = kQuarterCos2[i];
  const std::uint32_t drop = a - kQuarterCos2[i + 1];
  const std::uint32_t v = ((a << 16) - drop * frac + 0x10000u) >> 17;
  const std::int32_t s = static_cast<std::int32_t>(v);
  return static_cast<std::int16_t>((quadrant == 1u || quadrant == 2u) ? -s : s);
}

std::uint32_t PhaseTurns(const std::int16_t* w, const std::int16_t* x, std::uint32_t d,
                         std::uint32_t shift, std::uint32_t bias) {
  std::uint32_t sum = 0;
  for (std::uint32_t j = 0; j < d; ++j)
    sum += static_cast<std::uint32_t>(static_cast<std::int32_t>(w[j]) * static_cast<std::int32_t>(x[j]));
  return bias + (sum << shift);
}

}  // namespace rfk::fixed
