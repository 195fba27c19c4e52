// Orthogonal random features (Yu, Suresh, Choromanski, Holtmann-Rice, Kumar, "Orthogonal Random
// Features", NIPS 2016) for the Gaussian kernel: the dense map's W, drawn so that the rows of each
// block of d are orthogonal. Each row keeps the N(0, I) distribution of random Fourier features
// (a uniformly random direction times an independent chi(d) norm), so z(x)'z(y) stays unbiased,
// while the orthogonality within a block lowers its variance. Stored and predicted exactly as the
// dense map (dense_map.cc does the rest).
#include <cmath>
#include <utility>

#include "maps/dense_map.h"
#include "parallel.h"
#include "maps/random.h"
#include "maps/streams.h"

namespace rfk::host {

namespace {

// Modified Gram-Schmidt on the m rows of Q (m x d, m <= d, row-major), in place: row r loses its
// components along rows 0 .. r-1, one at a time, and is normalised. For rows of i.i.d. normals
// this is the QR factorisation whose triangular factor has a positive diagonal, so the rows are
// those of a uniformly (Haar) distributed orthogonal matrix: no sign correction is left to do.
// IEEE + - * / sqrt only, in a fixed order: the same bits on every platform.
void OrthonormaliseRows(double* Q, std::uint32_t m, std::uint32_t d) {
  for (std::uint32_t r = 0; r < m; ++r) {
    double* v = Q + std::size_t{r} * d;
    for (std::uint32_t q = 0; q < r; ++q) {
      const double* u = Q + std::size_t{q} * d;
      double dot = 0.0;
      for (std::uint32_t c = 0; c < d; ++c) dot += v[c] * u[c];
      for (std::uint32_t c = 0; c < d; ++c) v[c] -= dot * u[c];
    }
    double norm2 = 0.0;
    for (std::uint32_t c = 0; c < d; ++c) norm2 += v[c] * v[c];
    const double inv = 1.0 / std::sqrt(norm2);  // > 0 with probability 1 for Gaussian rows
    for (std::uint32_t c = 0; c < d; ++c) v[c] *= inv;
  }
}

// Block b: rows [b d, min(F, b d + d)) of w, Gaussian from stream kOrfBlockStream + b,
// orthonormalised, then row j scaled by sqrt(sum of d squared normals) from kOrfNormStream + j.
void DrawBlock(std::uint32_t b, std::uint32_t F, std::uint32_t d, std::uint64_t seed, double* w) {
  const std::uint32_t j0 = b * d, m = F - j0 < d ? F - j0 : d;
  double* Q = w + std::size_t{j0} * d;
  RandomStream gauss(seed, kOrfBlockStream + b);
  for (std::size_t i = 0; i < std::size_t{m} * d; ++i) Q[i] = gauss.Normal();
  OrthonormaliseRows(Q, m, d);
  for (std::uint32_t r = 0; r < m; ++r) {
    RandomStream rs(seed, kOrfNormStream + j0 + r);
    double chi2 = 0.0;
    for (std::uint32_t c = 0; c < d; ++c) {
      const double g = rs.Normal();
      chi2 += g * g;
    }
    const double norm = std::sqrt(chi2);
    for (std::uint32_t c = 0; c < d; ++c) Q[std::size_t{r} * d + c] *= norm;
  }
}

}  // namespace

std::vector<double> OrthogonalUnitRows(std::uint32_t F, std::uint32_t d, std::uint64_t seed,
                                       unsigned threads) {
  std::vector<double> w(std::size_t{F} * d);
  const std::uint32_t blocks = (F + d - 1) / d;
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t b = t; b < blocks; b += threads) DrawBlock(b, F, d, seed, w.data());
  });
  return w;
}

std::unique_ptr<FourierDraws> DrawOrthogonal(const FourierMapParams& p) {
  RequireKernelFits(p);
  DenseUnitDraws unit;
  unit.w = OrthogonalUnitRows(p.F, p.d, p.seed, p.threads);
  if (!p.pairs) unit.phase = DrawPhases(p.F, p.seed);
  return MakeDenseDraws(p, std::move(unit));
}

// The dense map's bytes, plus a block per thread in flight (counted once: per-thread extras are
// left out of the estimate).
double OrthogonalMapBytes(double F, double d) { return DenseMapBytes(F, d) + 8.0 * d * d; }

}  // namespace rfk::host
