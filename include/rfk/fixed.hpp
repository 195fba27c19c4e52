// Integer arithmetic of the fixed-point prediction path (issue 17): phases in turns and a q15
// cosine, with no floating-point operation, so every platform (Cortex-M0, RV32IMC, x86, ...)
// computes the same integers. Allocation-free, exception-free, reentrant; part of rfk_core.
#pragma once

#include <cstdint>

namespace rfk::fixed {

// A phase in turns: 2^32 is one period, so an angle's integer representation wraps for free and
// exactly (unsigned arithmetic is modulo 2^32). kQuarterTurn is pi/2.
inline constexpr std::uint32_t kQuarterTurn = 0x40000000u;

// Full scale of the q15 cosine: CosTurns returns about 32767 * cos(2 pi phase / 2^32), in
// [-32767, 32767] (never -32768, so negating a result cannot overflow).
inline constexpr std::int32_t kCosScale = 32767;

// cos and sin of a phase, from a 257-entry quarter-wave table at twice the output's scale
// (round(65534 cos(pi/2 * i/256)), 516 bytes of flash) with linear interpolation on the next 16
// bits of the phase and one rounding to nearest. Error against the exact value
// 32767 * cos(2 pi phase / 2^32), as an analytic bound: table rounding 0.25 LSB + interpolation
// 32767 (pi/512)^2 / 8 = 0.154 + final rounding 0.5 + the 6 unused phase bits 0.003 = 0.91 LSB,
// under 1: the result is always one of the two integers next to the exact value (faithful).
// tests/test_fixed.cc measures every distinct input. Symmetric: CosTurns(-p) == CosTurns(p),
// CosTurns(p + 2^31) == -CosTurns(p); SinTurns(p) == CosTurns(p - kQuarterTurn).
std::int16_t CosTurns(std::uint32_t phase);
inline std::int16_t SinTurns(std::uint32_t phase) { return CosTurns(phase - kQuarterTurn); }

// The phase bias + (sum_j w[j] * x[j]) * 2^shift, modulo 2^32, for int16 weights and inputs. Every
// product fits in 32 bits and the sum is taken modulo 2^32, which is exactly the phase's own
// modulus, so no intermediate overflow can change the result (shift < 32). A weight w stands for
// w * 2^shift turns per input unit: the converter picks shift per feature so that the row's
// largest weight uses the int16 range.
std::uint32_t PhaseTurns(const std::int16_t* w, const std::int16_t* x, std::uint32_t d,
                         std::uint32_t shift, std::uint32_t bias);

}  // namespace rfk::fixed
