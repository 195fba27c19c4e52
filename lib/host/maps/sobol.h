// rfk's Sobol sequence (sobol.cc): the direction numbers of its coordinates. Host only.
//
// Coordinate 0 is van der Corput's; coordinate c >= 1 takes the c-th primitive polynomial over
// GF(2) (by degree, then value) and one of kSobolCandidates draws of initial direction numbers
// (odd m_k < 2^k, k <= its degree, from stream kSobolInitStream + c under seed 0). Which draw is
// the sequence's definition: for c < kSobolChosen it is the committed table sobol_choices.inc,
// the output of SearchSobolChoices; past it, draw 0. Integer arithmetic only: the same numbers on
// every platform.
#pragma once

#include <cstdint>
#include <vector>

namespace rfk::host {

inline constexpr int kSobolBits = 32;              // bits per coordinate: points i < 2^32
inline constexpr std::uint32_t kSobolCandidates = 64;  // draws the search weighs per coordinate
inline constexpr std::uint32_t kSobolChosen = 1024;    // coordinates sobol_choices.inc covers

// Direction numbers v_k (k < kSobolBits) of coordinates [0, dims), dims x kSobolBits row-major:
// point i's coordinate c is the XOR of v_k over the set bits k of i. Allocates; O(dims) time.
std::vector<std::uint32_t> SobolDirections(std::uint32_t dims);
// The same with coordinate c taking draw choices[c] (c < choices.size(), else draw 0): the
// sequence SearchSobolChoices's output defines (choices[c] < kSobolCandidates).
std::vector<std::uint32_t> SobolDirections(std::uint32_t dims, const std::vector<std::uint8_t>& choices);

// Points i < n of the sequence in `dims` coordinates, each coordinate Owen-scrambled under `seed`
// (qmc_map.cc; n x dims, row-major; coordinate x stands for (x + 1/2) / 2^32). Every point is
// uniform on the cube, and for n = 2^m the points are a (t, m, dims)-net: each coordinate alone has
// exactly one point in every [k / n, (k + 1) / n). A pure function of (n, dims, seed), never of
// `threads`.
std::vector<std::uint32_t> ScrambledSobol(std::uint32_t n, std::uint32_t dims, std::uint64_t seed,
                                          unsigned threads);

// The search that chose sobol_choices.inc, greedily coordinate by coordinate: for c in [1, dims),
// the draw whose two-dimensional projections with every coordinate before it are the best
// nets over the first 2^M points, M = 5 .. 10 (32 to 1024 points): the smallest sum of 8^t over
// the pairs and M, t the pair's t-value. The steep weight makes one near-dependent pair (t close
// to M: two coordinates that move together) outweigh many pairs one step from perfect; a plain
// sum of t-values (rfk's first search, over 32 draws and the 32 coordinates before) accepted such
// pairs, and its QMC features were barely better than random ones on 54 to 123 inputs. Entry c is coordinate c's draw (entry 0
// is 0). Pure function of dims (threads only share the work); O(dims^2 kSobolCandidates) pair
// checks: ~2 s for 123 coordinates, minutes for kSobolChosen.
std::vector<std::uint8_t> SearchSobolChoices(std::uint32_t dims, unsigned threads);

}  // namespace rfk::host
