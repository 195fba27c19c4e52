// Integer phase and cosine of the fixed-point path (contract: include/rfk/fixed.hpp). Integer
// operations only: no float, no libgcc float routine, on any target.
#include "fp_contract.h"  // first, as in every core source (there is no float here to contract)
#include "rfk/fixed.hpp"

#include "fixed_kernels.h"

#include <cstdint>

namespace rfk::fixed {

#if RFK_CORE_SMALL
std::uint32_t QuarterCosEntry(std::uint32_t i) { return quarter_cos::Entry(i); }
#endif

std::int16_t CosTurns(std::uint32_t phase) { return CosTurnsInline(phase); }

std::uint32_t PhaseTurns(const std::int16_t* w, const std::int16_t* x, std::uint32_t d,
                         std::uint32_t shift, std::uint32_t bias) {
  return bias + (kernels::PhaseSum(w, x, d) << shift);
}

}  // namespace rfk::fixed
