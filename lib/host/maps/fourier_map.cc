#include "maps/fourier_map.h"

#include <algorithm>
#include <sstream>
#include <string>

#include "maps/dense_map.h"
#include "maps/fastfood_map.h"
#include "parallel.h"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"

namespace rfk::host {

// Quasi-Monte-Carlo features (qmc_map.cc), Gaussian kernel only: the unit-scale W's row j is Phi^-1
// of point j's first d coordinates of ScrambledSobol (maps/sobol.h), and the phase form's phase j
// is 2 pi times its coordinate d.
std::unique_ptr<FourierDraws> DrawQmc(const FourierMapParams& params);
double QmcMapBytes(double F, double d);

namespace {

// The registry: every Fourier-type map training can draw. A new map is a file defining its draw
// function (and its memory_bytes), declared in its header or above, and a row below.
const FourierMapType kFourierMaps[] = {
    {format::MapKind::kFourier, true, DrawRandomFourier, DenseMapBytes,
     "the random frequencies, features x inputs"},
    {format::MapKind::kFourierPhase, false, DrawRandomFourier, DenseMapBytes,
     "the random frequencies, features x inputs"},
    {format::MapKind::kOrthogonal, true, DrawOrthogonal, OrthogonalMapBytes,
     "the orthogonal random frequencies, features x inputs"},
    {format::MapKind::kOrthogonalPhase, false, DrawOrthogonal, OrthogonalMapBytes,
     "the orthogonal random frequencies, features x inputs"},
    {format::MapKind::kQmc, true, DrawQmc, QmcMapBytes, "the quasi-Monte-Carlo frequencies, features x inputs"},
    {format::MapKind::kQmcPhase, false, DrawQmc, QmcMapBytes, "the quasi-Monte-Carlo frequencies, features x inputs"},
    {format::MapKind::kFastfood, true, DrawFastfood, FastfoodMapBytes,
     "the Fastfood diagonals and permutations"},
    {format::MapKind::kFastfoodPhase, false, DrawFastfood, FastfoodMapBytes,
     "the Fastfood diagonals and permutations"},
};

[[noreturn]] void ThrowRange(const Dataset& data, double gamma) {
  std::ostringstream o;
  o << data.source << ": a feature argument |w.x + b| exceeded " << kSinCosMaxArg
    << " with gamma = " << gamma << "; the inputs are unscaled or gamma is far too large"
    << " (keep standardisation on, or lower --gamma)";
  throw TrainError(o.str());
}

}  // namespace

void RequireKernelFits(const FourierMapParams& p) {
  if (format::KernelFitsMap(p.map, p.kernel)) return;
  const std::string kernel = KernelName(p.kernel);
  throw TrainError(std::string("--map ") + MapName(p.map) + " approximates the gaussian kernel only; got --kernel " +
                   kernel + " (use --kernel gaussian, or --map fourier or fourier-phase for the " + kernel +
                   " kernel)");
}

const FourierMapType* FindFourierMap(format::MapKind map) {
  for (const FourierMapType& t : kFourierMaps)
    if (t.map == map) return &t;
  return nullptr;
}

std::unique_ptr<FourierDraws> DrawFourierMap(format::MapKind map, format::Kernel kernel,
                                             std::uint32_t features, std::uint32_t d,
                                             std::uint64_t seed, unsigned threads, format::Storage w_storage) {
  const FourierMapType* type = FindFourierMap(map);
  if (type == nullptr)
    throw TrainError(std::string("map '") + MapName(map) + "' has no Fourier-type feature map to train");
  FourierMapParams p;
  p.map = map;
  p.kernel = kernel;
  p.pairs = type->pairs;
  p.F = FrequenciesOf(*type, features);
  p.d = d;
  p.seed = seed;
  p.w_storage = w_storage;
  p.threads = threads;
  return type->draw(p);
}

void LoadRows(const InputRows& in, const std::uint32_t* rows, std::size_t R, float* X) {
  const auto d = static_cast<std::uint32_t>(in.data.cols);
  for (std::size_t r = 0; r < R; ++r) {
    float* x = X + r * d;
    DenseRow(in.data, rows[r], x, d);
    if (!in.scaling.empty())
      StandardizeRef(x, in.scaling.mean.data(), in.scaling.inv_scale.data(), d, x);
  }
}

void ComputeBlock(const InputRows& in, const FourierMap& map, const std::uint32_t* rows,
                  std::size_t R, float* Z, std::vector<MapWorkspace>* ws, unsigned threads) {
  std::vector<char> ok(threads, 1);
  Parallel(threads, [&](unsigned t) {
    const std::size_t chunk = (R + threads - 1) / threads;
    const std::size_t b = std::min(R, t * chunk), e = std::min(R, b + chunk);
    if (b < e) ok[t] = map.Compute(in, rows + b, e - b, Z + b * map.features(), &(*ws)[t]);
  });
  for (char o : ok)
    if (!o) ThrowRange(in.data, map.gamma());
}

}  // namespace rfk::host
