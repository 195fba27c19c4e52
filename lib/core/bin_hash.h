// The random-binning index and hash steps shared by every backend's BinKeys (scalar, Highway,
// xsimd), so their keys cannot drift apart. All functions have internal linkage: each
// translation unit, compiled for its own instruction set, keeps its own copy.
#pragma once

#include <cstdint>

namespace rfk {
namespace bin_hash {

constexpr float kClamp = 1073741824.0f;  // 2^30: exactly representable, fits int32

// floor(v) as an int32, with NaN (inf * 0 from an extreme input) as bin 0 and |v| clamped to 2^30.
static inline std::int32_t Index(float v) {
  if (v != v) v = 0.0f;
  v = v < -kClamp ? -kClamp : (v > kClamp ? kClamp : v);
  auto b = static_cast<std::int32_t>(v);  // truncates toward zero ...
  if (static_cast<float>(b) > v) --b;     // ... so step down for negatives: floor
  return b;
}

static inline std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline std::uint64_t Seed(std::uint64_t seed, std::uint32_t grid) {
  return Mix(seed ^ (0x9E3779B97F4A7C15ull * (grid + 1ull)));
}

static inline std::uint64_t Step(std::uint64_t h, std::int32_t bin) {
  h = (h ^ static_cast<std::uint32_t>(bin)) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

static inline std::uint64_t Final(std::uint64_t h) { return Mix(h); }

}  // namespace bin_hash
}  // namespace rfk
