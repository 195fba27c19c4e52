// Little helpers shared by the core's model reader and prediction path: unaligned little-endian
// loads, the finiteness test, rounding up. Header-only, internal to lib/core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rfk reads float arrays in place and supports little-endian targets only"
#endif

namespace rfk::core {

// Stores `value` in a member of a Model being filled (the readers of lib/core), or does nothing where
// the member is a constant of the configured layout (rfk/model_layout.h).
template <class T, class V>
inline void Put(T& member, const V& value) noexcept {
  member = value;
}
template <class T, class V>
inline void Put(const T&, const V&) noexcept {}

inline std::uint16_t LoadU16(const std::uint8_t* p) {
  std::uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline std::uint32_t LoadU32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline std::uint64_t LoadU64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline float LoadF32(const std::uint8_t* p) {
  float v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// False for NaN and +-inf: an exponent test on the bits (no <cmath>, no soft-float call).
inline bool IsFinite(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & 0x7f800000u) != 0x7f800000u;
}

// True for NaN only (a missing input), not for +-inf.
inline bool IsNaN(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & 0x7fffffffu) > 0x7f800000u;
}

// v > 0 (+inf included, NaN not), on the bits: no float compare, which is a soft-float call on
// cores without an FPU (the integer path's firmware links none).
inline bool IsPositive(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits != 0 && bits <= 0x7f800000u;
}

constexpr std::size_t RoundUp(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

}  // namespace rfk::core
