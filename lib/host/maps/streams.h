// The random streams of training, in one list. Every random value training draws is
// RandomBits(seed, stream, counter) (random.h) for one of these streams, so a model is a function
// of the seed alone. Two draws must never share a stream: a new map picks an unused base here
// (the next free one is 1 << 49) and numbers its sub-streams from it.
#pragma once

#include <cstdint>

namespace rfk::host {

// Streams [0, F): frequency j's row of the unit-scale W (one stream per row, so the draw does not
// depend on the thread count).
inline constexpr std::uint64_t kPhaseStream = 1ull << 40;  // + j: the phase of frequency j
inline constexpr std::uint64_t kFoldStream = 1ull << 41;   // counter i: the fold of row i
inline constexpr std::uint64_t kPairStream = 1ull << 42;   // the row pairs of the default gamma
inline constexpr std::uint64_t kGridStream = 1ull << 43;   // + p: grid p of random binning
inline constexpr std::uint64_t kOrfBlockStream = 1ull << 44;  // + b: ORF block b's Gaussian rows
inline constexpr std::uint64_t kOrfNormStream = 1ull << 45;   // + j: ORF frequency j's chi(d) norm
inline constexpr std::uint64_t kFastfoodStream = 1ull << 46;  // + b: Fastfood block b's B, Pi, G, S
// + c: Sobol coordinate c's initial direction numbers, drawn under seed 0 (the same for every model)
inline constexpr std::uint64_t kSobolInitStream = 1ull << 47;
inline constexpr std::uint64_t kSobolScrambleStream = 1ull << 48;  // + c: coordinate c's Owen scrambling

}  // namespace rfk::host
