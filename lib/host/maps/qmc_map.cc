// Quasi-Monte-Carlo Fourier features (Avron, Sindhwani, Yang, Mahoney, "Quasi-Monte Carlo Feature
// Maps for Shift-Invariant Kernels", JMLR 17, 2016) for the Gaussian kernel: the dense map's W,
// with row j = Phi^-1(u_j) coordinate-wise for u_j the j-th point of a scrambled Sobol sequence
// in [0, 1)^d instead of i.i.d. uniforms. The points fill the cube more evenly than random ones,
// so z(x)'z(y) averages the kernel's Fourier integral with a lower error (most where gamma is
// small against the data's scale); Owen's nested scrambling keeps every row N(0, I), so the
// estimate stays unbiased. The phase form takes its phases from one more Sobol coordinate.
// Stored and predicted exactly as the dense map (dense_map.cc does the rest).
//
// The Sobol sequence is rfk's own, the same for every model (sobol.h: its direction numbers, and
// the committed search that chose them). Only the scrambling depends on the seed. Integer
// arithmetic and IEEE + - * / sqrt only (NormalQuantile): the same bits on every platform and for
// any thread count.
#include <cstdint>
#include <utility>
#include <vector>

#include "maps/dense_map.h"
#include "parallel.h"
#include "maps/random.h"
#include "maps/sobol.h"
#include "rfk/host/train.hpp"
#include "maps/streams.h"

namespace rfk::host {

namespace {

constexpr int kBits = kSobolBits;

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
  const std::vector<std::uint32_t> v = SobolDirections(dims);
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
