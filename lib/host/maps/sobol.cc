// rfk's Sobol sequence: primitive polynomials, direction numbers and the search that chose them;
// see sobol.h.
#include "maps/sobol.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "maps/random.h"
#include "maps/streams.h"
#include "parallel.h"

namespace rfk::host {
namespace {

constexpr int kBits = kSobolBits;

// Coordinate c's draw (index into its kSobolCandidates), for c < kSobolChosen: the output of
// `rfk_sobol_choices` (SearchSobolChoices(kSobolChosen, ...)), committed.
constexpr std::uint8_t kChoices[] = {
#include "maps/sobol_choices.inc"
};
static_assert(std::size(kChoices) == kSobolChosen, "sobol_choices.inc holds one draw per chosen coordinate");

// a * b mod p over GF(2), for polynomials of degree < deg(p) = s <= 31 (bit k: the x^k term).
std::uint64_t MulMod(std::uint64_t a, std::uint64_t b, std::uint64_t p, int s) {
  std::uint64_t r = 0;
  for (; b != 0; b >>= 1) {
    if (b & 1) r ^= a;
    a <<= 1;
    if ((a >> s) & 1) a ^= p;
  }
  return r;
}

// x^e mod p.
std::uint64_t PowX(std::uint64_t e, std::uint64_t p, int s) {
  std::uint64_t result = 1, base = s > 1 ? 2 : (2 ^ p);  // x mod p (x + 1 reduces x to 1)
  for (; e != 0; e >>= 1) {
    if (e & 1) result = MulMod(result, base, p, s);
    base = MulMod(base, base, p, s);
  }
  return result;
}

// Whether p (degree s, constant term 1) is primitive: x has order 2^s - 1 modulo p, i.e.
// x^(2^s - 1) = 1 and x^((2^s - 1) / q) != 1 for every prime q dividing 2^s - 1.
bool IsPrimitive(std::uint64_t p, int s) {
  const std::uint64_t order = (std::uint64_t{1} << s) - 1;
  if (PowX(order, p, s) != 1) return false;
  std::uint64_t rest = order;
  for (std::uint64_t q = 2; q * q <= rest; ++q) {
    if (rest % q != 0) continue;
    if (PowX(order / q, p, s) == 1) return false;
    while (rest % q == 0) rest /= q;
  }
  return rest == 1 || rest == order || PowX(order / rest, p, s) != 1;
}

// The first n primitive polynomials over GF(2), by degree and then value (x + 1, x^2 + x + 1,
// x^3 + x + 1, x^3 + x^2 + 1, ...), each with bit s (its degree) and bit 0 set.
std::vector<std::uint64_t> PrimitivePolynomials(std::uint32_t n) {
  std::vector<std::uint64_t> polys;
  for (int s = 1; polys.size() < n && s < kBits; ++s)
    for (std::uint64_t p = (std::uint64_t{1} << s) | 1; p < (std::uint64_t{2} << s) && polys.size() < n; p += 2)
      if (IsPrimitive(p, s)) polys.push_back(p);
  return polys;
}

int Degree(std::uint64_t p) {
  int s = 0;
  while ((p >> (s + 1)) != 0) ++s;
  return s;
}

// Coordinate c >= 1's direction numbers from its polynomial and draw `choice`: the draw's initial
// m_1 .. m_s (odd, m_k < 2^k; words choice * s + k - 1 of stream kSobolInitStream + c), then
// Sobol's recurrence m_k = 2 a_1 m_(k-1) ^ 4 a_2 m_(k-2) ^ ... ^ 2^s m_(k-s) ^ m_(k-s) for the
// polynomial x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1; v_k = m_k 2^(31 - k).
void Directions(std::uint32_t c, std::uint64_t poly, std::uint32_t choice, std::uint32_t* v) {
  const int s = Degree(poly);
  std::uint64_t m[kBits];
  for (int k = 0; k < s; ++k)
    m[k] = RandomBits(0, kSobolInitStream + c, std::uint64_t{choice} * s + k) % (std::uint64_t{1} << k) * 2 + 1;
  for (int k = s; k < kBits; ++k) {
    std::uint64_t x = m[k - s] ^ (m[k - s] << s);
    for (int i = 1; i < s; ++i)
      if ((poly >> (s - i)) & 1) x ^= m[k - i] << i;
    m[k] = x;
  }
  for (int k = 0; k < kBits; ++k) v[k] = static_cast<std::uint32_t>(m[k] << (kBits - 1 - k));
}

void VanDerCorput(std::uint32_t* v) {
  for (int k = 0; k < kBits; ++k) v[k] = std::uint32_t{1} << (kBits - 1 - k);
}

// The search's nets: the first 2^M points, M = kMinNetBits .. kNetBits.
constexpr int kMinNetBits = 5, kNetBits = 10;
using NetRows = std::array<std::uint16_t, kNetBits>;

// Rows r < kNetBits of a coordinate's generating matrix: bit k of row r is bit r (from the top) of
// v_k, so point i's coordinate bit r is the parity of row r & i.
NetRows RowsOf(const std::uint32_t* v) {
  NetRows rows{};
  for (int r = 0; r < kNetBits; ++r)
    for (int k = 0; k < kNetBits; ++k) rows[r] |= static_cast<std::uint16_t>(((v[k] >> (kBits - 1 - r)) & 1u) << k);
  return rows;
}

// The t-value of the first 2^M points (M <= kNetBits) of two coordinates: M - q for the largest q
// such that every elementary box of 2^-a x 2^-(q-a) holds exactly 2^(M-q) of them, i.e. the first
// a rows of A and q - a rows of B, cut to their first M bits, are linearly independent for every a.
int TValue(const NetRows& ra, const NetRows& rb, int M) {
  const auto mask = static_cast<std::uint16_t>((1u << M) - 1);
  for (int q = 1; q <= M; ++q) {
    for (int a = 0; a <= q; ++a) {
      std::uint16_t basis[kNetBits] = {};  // basis[b]: a vector whose highest set bit is b
      bool independent = true;
      for (int r = 0; r < q && independent; ++r) {
        std::uint16_t x = (r < a ? ra[r] : rb[r - a]) & mask;
        for (int b = M - 1; b >= 0 && x != 0; --b) {
          if (((x >> b) & 1) == 0) continue;
          if (basis[b] == 0) {
            basis[b] = x;
            break;
          }
          x ^= basis[b];
        }
        independent = x != 0;
      }
      if (!independent) return M - (q - 1);
    }
  }
  return 0;
}

// A candidate's cost against one earlier coordinate: 8^t summed over the nets (SearchSobolChoices).
std::uint64_t PairCost(const NetRows& ra, const NetRows& rb) {
  std::uint64_t sum = 0;
  for (int M = kMinNetBits; M <= kNetBits; ++M) sum += std::uint64_t{1} << (3 * TValue(ra, rb, M));
  return sum;
}

}  // namespace

std::vector<std::uint32_t> SobolDirections(std::uint32_t dims, const std::vector<std::uint8_t>& choices) {
  std::vector<std::uint32_t> v(std::size_t{dims} * kBits);
  if (dims == 0) return v;
  const std::vector<std::uint64_t> polys = PrimitivePolynomials(dims - 1);
  VanDerCorput(v.data());
  for (std::uint32_t c = 1; c < dims; ++c)
    Directions(c, polys[c - 1], c < choices.size() ? choices[c] : 0, v.data() + std::size_t{c} * kBits);
  return v;
}

std::vector<std::uint32_t> SobolDirections(std::uint32_t dims) {
  return SobolDirections(dims, std::vector<std::uint8_t>(std::begin(kChoices), std::end(kChoices)));
}

std::vector<std::uint8_t> SearchSobolChoices(std::uint32_t dims, unsigned threads) {
  static_assert(kSobolCandidates <= 256, "a choice fits a byte");
  threads = std::max(1u, std::min(threads, kSobolCandidates));
  std::vector<std::uint8_t> choices(dims, 0);
  if (dims == 0) return choices;
  const std::vector<std::uint64_t> polys = PrimitivePolynomials(dims - 1);
  std::vector<NetRows> rows(dims);
  std::uint32_t v[kBits];
  VanDerCorput(v);
  rows[0] = RowsOf(v);
  struct Best {
    std::uint64_t cost = ~std::uint64_t{0};
    std::uint32_t choice = 0;
  };
  for (std::uint32_t c = 1; c < dims; ++c) {
    // Thread t weighs draws t, t + threads, ...; a draw stops once its cost passes the thread's
    // best so far, which is then never the least: the least cost (lowest draw on a tie) does not
    // depend on the thread count.
    std::vector<Best> best(threads);
    const std::uint32_t draws = Degree(polys[c - 1]) == 1 ? 1 : kSobolCandidates;
    Parallel(threads, [&](unsigned t) {
      std::uint32_t w[kBits];
      for (std::uint32_t k = t; k < draws; k += threads) {
        Directions(c, polys[c - 1], k, w);
        const NetRows r = RowsOf(w);
        std::uint64_t cost = 0;
        for (std::uint32_t o = 0; o < c && cost <= best[t].cost; ++o) cost += PairCost(rows[o], r);
        if (cost < best[t].cost) best[t] = {cost, k};
      }
    });
    Best least;
    for (const Best& b : best)
      if (b.cost < least.cost || (b.cost == least.cost && b.choice < least.choice)) least = b;
    choices[c] = static_cast<std::uint8_t>(least.choice);
    Directions(c, polys[c - 1], least.choice, v);
    rows[c] = RowsOf(v);
  }
  return choices;
}

}  // namespace rfk::host
