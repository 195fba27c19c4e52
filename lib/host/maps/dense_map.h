// Dense-W Fourier maps: z(x) = scale * [cos(Wx), sin(Wx)] (pairs, scale = 1/sqrt(F)) or
// scale * cos(Wx + b) (phase form, scale = sqrt(2/F)), with W (F x d) stored whole in the model.
// Random Fourier features draw W's rows i.i.d. from the kernel's spectral density; a map that
// only draws W differently (ORF: orthogonal blocks with chi-distributed norms; QMC: a scrambled
// Sobol sequence through the normal quantile) passes its unit
// draws to MakeDenseDraws and shares everything else.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "maps/fourier_map.h"

namespace rfk::host {

// Unit-scale draws of a dense map: W at gamma is factor * w, factor = sqrt(2 gamma) for the
// Gaussian kernel (w ~ N(0, 1) gives N(0, 2 gamma)) and gamma for the Laplacian (Cauchy) and
// Cauchy (Laplace) kernels, with gamma rounded to the float the model stores.
struct DenseUnitDraws {
  std::vector<double> w;     // F x d, row-major
  std::vector<float> phase;  // F phases in [0, 2 pi) for the phase form; empty for pairs
};

// The draws of a dense map from its unit draws (params.pairs picks the form).
std::unique_ptr<FourierDraws> MakeDenseDraws(const FourierMapParams& params, DenseUnitDraws unit);

// b_j ~ U[0, 2 pi) from stream kPhaseStream + j, j < F: the phases of every dense phase-form map.
std::vector<float> DrawPhases(std::uint32_t F, std::uint64_t seed);

// Registry entries (fourier_map.cc) of random Fourier features: W's rows i.i.d. from the
// kernel's spectral density (Gaussian: normal; Laplacian: Cauchy; Cauchy: Laplace), row j from
// stream j; and the bytes of a dense map (FourierMapType::memory_bytes).
std::unique_ptr<FourierDraws> DrawRandomFourier(const FourierMapParams& params);
double DenseMapBytes(double F, double d);

// Orthogonal random features (orthogonal_map.cc), Gaussian kernel only: the unit-scale W (F x d,
// row-major) in blocks of d rows (the last one truncated), each block the first rows of a
// uniformly random orthogonal matrix, and row j then scaled by an independent chi(d) norm, so
// every row is N(0, I) while the rows of a block are orthogonal. A pure function of the seed
// (block b from stream kOrfBlockStream + b, row j's norm from kOrfNormStream + j), never of
// `threads`. The registry's draw (TrainError for other kernels, naming the valid choices) and
// memory_bytes.
std::vector<double> OrthogonalUnitRows(std::uint32_t F, std::uint32_t d, std::uint64_t seed,
                                       unsigned threads);
std::unique_ptr<FourierDraws> DrawOrthogonal(const FourierMapParams& params);
double OrthogonalMapBytes(double F, double d);

}  // namespace rfk::host
