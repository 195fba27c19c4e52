// Quasi-Monte-Carlo Fourier features (Avron, Sindhwani, Yang, Mahoney, "Quasi-Monte Carlo Feature
// Maps for Shift-Invariant Kernels", JMLR 17, 2016) for the Gaussian kernel: the dense map's W,
// with row j = Phi^-1(u_j) coordinate-wise for u_j the j-th point of a scrambled Sobol sequence
// in [0, 1)^d instead of i.i.d. uniforms. The points fill the cube more evenly than random ones,
// so z(x)'z(y) averages the kernel's Fourier integral with a lower error (most where gamma is
// small against the data's scale); Owen's nested scrambling keeps every row N(0, I), so the
// estimate stays unbiased. The phase form takes its phases from one more Sobol coordinate.
// Stored and predicted exactly as the dense map (dense_map.cc does the rest).
//
// The Sobol sequence is rfk's own, the same for every model: coordinate 0 is van der Corput's;
// coordinate c >= 1 uses the c-th primitive polynomial over GF(2) (in order of degree, then value)
// and initial direction numbers chosen by a small search among draws from a fixed stream
// (DirectionNumbers). Only the scrambling depends on the seed. Integer arithmetic and IEEE
// + - * / sqrt only (NormalQuantile): the same bits on every platform and for any thread count.
#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "maps/dense_map.h"
#include "parallel.h"
#include "maps/random.h"
#include "rfk/host/train.hpp"
#include "maps/streams.h"

namespace rfk::host {

namespace {

constexpr int kBits = 32;  // bits per Sobol coordinate: points i < 2^32

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

// Sobol's recurrence for coordinate bits k >= s: m_k = 2 a_1 m_(k-1) ^ 4 a_2 m_(k-2) ^ ... ^
// 2^s m_(k-s) ^ m_(k-s) for the polynomial x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1, from the initial
// m_1 .. m_s (m[0 .. s)); then v_k = m_k 2^(31 - k).
void Recurrence(std::uint64_t poly, int s, std::uint64_t* m, std::uint32_t* v) {
  for (int k = s; k < kBits; ++k) {
    std::uint64_t x = m[k - s] ^ (m[k - s] << s);
    for (int i = 1; i < s; ++i)
      if ((poly >> (s - i)) & 1) x ^= m[k - i] << i;
    m[k] = x;
  }
  for (int k = 0; k < kBits; ++k) v[k] = static_cast<std::uint32_t>(m[k] << (kBits - 1 - k));
}

// The search for initial direction numbers (DirectionNumbers): it scores the two-dimensional
// projections of the first 2^kNetBits points, kCandidates draws per coordinate against the kWindow
// coordinates before it, for coordinates below kSearched (the others take their first draw). Its
// cost is bounded by these (about 1 s for d = 123, 2.5 s for d >= 256, one core) and paid
// once per process.
constexpr int kNetBits = 10;
constexpr int kCandidates = 32;
constexpr std::uint32_t kWindow = 32;
constexpr std::uint32_t kSearched = 256;

// Rows r < kNetBits of a coordinate's generating matrix: bit k of row r is bit r (from the top) of
// v_k, so point i's coordinate bit r is the parity of row r & i.
std::array<std::uint16_t, kNetBits> NetRows(const std::uint32_t* v) {
  std::array<std::uint16_t, kNetBits> rows{};
  for (int r = 0; r < kNetBits; ++r)
    for (int k = 0; k < kNetBits; ++k) rows[r] |= static_cast<std::uint16_t>(((v[k] >> (kBits - 1 - r)) & 1u) << k);
  return rows;
}

// The t-value of the first 2^M points (M <= kNetBits) of two coordinates: M - q for the largest q
// such that every elementary box of 2^-a x 2^-(q-a) holds exactly 2^(M-q) of them, i.e. the first
// a rows of A and q - a rows of B, cut to their first M bits, are linearly independent for every a.
int TValue(const std::array<std::uint16_t, kNetBits>& ra, const std::array<std::uint16_t, kNetBits>& rb, int M) {
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

// A candidate's score against one earlier coordinate: the sum of the pair's t-values over the
// first 2^M points, M = kNetBits - 3 .. kNetBits (the prefixes of 128 to 1024 points).
int PairScore(const std::array<std::uint16_t, kNetBits>& ra, const std::array<std::uint16_t, kNetBits>& rb) {
  int sum = 0;
  for (int M = kNetBits - 3; M <= kNetBits; ++M) sum += TValue(ra, rb, M);
  return sum;
}

// Direction numbers of coordinates [0, dims), 32 per coordinate: coordinate 0 is van der Corput's
// (m_k = 1); coordinate c >= 1 takes the c-th primitive polynomial and, of kCandidates draws of
// odd m_k < 2^k (k <= s, from kSobolInitStream + c under seed 0), the one whose projections with
// the kWindow coordinates before it have the smallest sum of t-values over 128 to 1024 points
// (PairScore: after Joe and Kuo's criterion, searched greedily). Coordinate c depends on the
// coordinates before it alone, so the sequence never depends on dims; computed once per process.
std::vector<std::uint32_t> DirectionNumbers(std::uint32_t dims) {
  static std::mutex mu;
  static std::vector<std::uint32_t> v;                           // 32 per coordinate
  static std::vector<std::array<std::uint16_t, kNetBits>> rows;  // NetRows per coordinate
  const std::lock_guard<std::mutex> lock(mu);
  const auto have = static_cast<std::uint32_t>(rows.size());
  if (dims > have) {
    const std::vector<std::uint64_t> polys = PrimitivePolynomials(dims - 1);
    v.resize(std::size_t{dims} * kBits);
    for (std::uint32_t c = have; c < dims; ++c) {
      std::uint64_t m[kBits];
      std::uint32_t* vc = v.data() + std::size_t{c} * kBits;
      if (c == 0) {
        for (std::uint64_t& x : m) x = 1;
        Recurrence(0, kBits, m, vc);
      } else {
        const std::uint64_t poly = polys[c - 1];
        const int s = Degree(poly);
        RandomStream init(0, kSobolInitStream + c);
        long best = -1;
        std::uint32_t trial[kBits];
        const int candidates = s == 1 || c >= kSearched ? 1 : kCandidates;
        for (int cand = 0; cand < candidates; ++cand) {
          for (int k = 0; k < s; ++k) m[k] = (init.Bits() % (std::uint64_t{1} << k)) * 2 + 1;
          Recurrence(poly, s, m, trial);
          const auto r = NetRows(trial);
          long score = 0;
          for (std::uint32_t o = c > kWindow ? c - kWindow : 0; o < c && (best < 0 || score < best); ++o)
            score += PairScore(rows[o], r);
          if (best < 0 || score < best) {
            best = score;
            std::copy(trial, trial + kBits, vc);
          }
        }
      }
      rows.push_back(NetRows(vc));
    }
  }
  return std::vector<std::uint32_t>(v.begin(), v.begin() + std::size_t{dims} * kBits);
}

// Owen's nested uniform scrambling of one coordinate: bit b (from the top) flips by a random bit
// keyed on the b bits above it, so points that share a prefix share its flips (the net stays a
// net) and each point is uniform over [0, 1).
std::uint32_t OwenScramble(std::uint32_t x, std::uint64_t seed, std::uint64_t stream) {
  std::uint32_t out = x;
  for (int b = 0; b < kBits; ++b) {
    const std::uint64_t prefix = b == 0 ? 0 : x >> (kBits - b);
    out ^= static_cast<std::uint32_t>(RandomBits(seed, stream, (std::uint64_t{1} << b) | prefix) & 1)
           << (kBits - 1 - b);
  }
  return out;
}

}  // namespace

std::vector<std::uint32_t> ScrambledSobol(std::uint32_t n, std::uint32_t dims, std::uint64_t seed,
                                          unsigned threads) {
  const std::vector<std::uint32_t> v = DirectionNumbers(dims);
  std::vector<std::uint32_t> points(std::size_t{n} * dims);
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t i = t; i < n; i += threads)
      for (std::uint32_t c = 0; c < dims; ++c) {
        std::uint32_t x = 0;
        for (int k = 0; k < kBits; ++k)
          if ((i >> k) & 1) x ^= v[std::size_t{c} * kBits + k];
        points[std::size_t{i} * dims + c] = OwenScramble(x, seed, kSobolScrambleStream + c);
      }
  });
  return points;
}

std::unique_ptr<FourierDraws> DrawQmc(const FourierMapParams& p) {
  RequireKernelFits(p);
  const std::uint32_t dims = p.d + (p.pairs ? 0 : 1);  // the phase form's phases: one more coordinate
  const std::vector<std::uint32_t> u = ScrambledSobol(p.F, dims, p.seed, p.threads);
  auto unit_interval = [](std::uint32_t x) { return (static_cast<double>(x) + 0.5) * 0x1.0p-32; };
  DenseUnitDraws unit;
  unit.w.resize(std::size_t{p.F} * p.d);
  for (std::uint32_t j = 0; j < p.F; ++j)
    for (std::uint32_t c = 0; c < p.d; ++c)
      unit.w[std::size_t{j} * p.d + c] = NormalQuantile(unit_interval(u[std::size_t{j} * dims + c]));
  if (!p.pairs) {
    unit.phase.resize(p.F);
    for (std::uint32_t j = 0; j < p.F; ++j)
      unit.phase[j] = static_cast<float>(6.283185307179586 * unit_interval(u[std::size_t{j} * dims + p.d]));
  }
  return MakeDenseDraws(p, std::move(unit));
}

// The dense map's bytes, plus the points (4 bytes per coordinate).
double QmcMapBytes(double F, double d) { return DenseMapBytes(F, d) + 4.0 * F * (d + 1); }

}  // namespace rfk::host
