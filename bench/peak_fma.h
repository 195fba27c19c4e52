#pragma once
#include <cstdint>
namespace rfk_bench {
// Runs the FMA loop; returns the floating-point operations it performed (2 per multiply-add).
double PeakFmaFlops(std::uint64_t iterations, float* sink);
const char* PeakFmaTarget();
}  // namespace rfk_bench
