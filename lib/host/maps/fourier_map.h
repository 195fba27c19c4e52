// The host side of the Fourier-type feature maps -- the seam a new map plugs into.
//
// A Fourier-type map is z(x) = scale * trig(V x [+ b]) for a random frequency matrix V (F x d)
// drawn from the kernel's spectral density at gamma: dense i.i.d. W today (dense_map.cc); the
// same dense W drawn in orthogonal blocks (ORF), or V applied by a fast transform and stored as
// diagonals, a permutation and a seed (Fastfood), next. The training designs (design.h) use a map
// only through the three jobs below, so a new map is one file that implements them plus one row
// in the registry (kFourierMaps in fourier_map.cc: the map's draw function and its row); nothing
// else in training branches on the kind:
//   (a) FourierMap::Compute: a block of feature rows, bit-identical to the device core on the
//       unfused host kernels, within the float summation bound of it on fused ones (HostFused);
//   (b) FourierDraws::At: the map at a gamma, rebuilt from unit-scale draws fixed for the run;
//   (c) FourierMap::Describe: the map's part of the ModelSpec.
// tests/maps/test_fourier_maps.cc checks (a) to (c) for every registered map. The format side (the
// map's sections, the core's kernels, ModelSpec::FourierFeatures) and the --map name (ParseMap)
// are not training's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "data/input_stats.h"
#include "rfk/format.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"

namespace rfk::host {

// The rows a map reads: the data and the standardisation the model applies before the map.
struct InputRows {
  const Dataset& data;
  const InputScaling& scaling;
};

// Per-thread buffers for FourierMap::Compute: the map sizes them as it needs (they only grow, so
// a workspace reused across blocks stops allocating after the first).
struct MapWorkspace {
  std::vector<float> x;     // e.g. the block's standardised inputs
  std::vector<float> work;  // e.g. the block's cosine arguments
};

// A Fourier-type map at one gamma. Immutable once built: Compute may run on many threads at once.
class FourierMap {
 public:
  virtual ~FourierMap() = default;
  // D_F: the length of z(x) (2F for [cos, sin] pairs, F for one feature per frequency).
  virtual std::uint32_t features() const = 0;
  // The gamma the map was built at (messages name it).
  virtual double gamma() const = 0;
  // (a) Z[r][0 .. D_F) = z(x) of data row rows[r], r < R (Z: R x D_F floats, row-major), with
  // exactly the IEEE operations of rfk::ComputeFeatures on the model Describe writes: the same
  // bits, on every host and for any thread count (block_kernels.h keeps the host kernels to
  // that). Applies in.scaling first. Returns false if a feature is not finite (a cosine argument
  // beyond kSinCosMaxArg); Z then holds the NaNs. Allocates only by growing *ws.
  virtual bool Compute(const InputRows& in, const std::uint32_t* rows, std::size_t R, float* Z,
                       MapWorkspace* ws) const = 0;
  // (c) Writes the map's part of the model: map, kernel, num_frequencies, gamma (as the float the
  // model stores; the map must be built from that float), feature_scale, seed and the map's
  // arrays (projection, phase, ...). Leaves input_dim, standardisation, binning, head and
  // metadata to the pipeline.
  virtual void Describe(ModelSpec* spec) const = 0;
};

// (b) A map's unit-scale draws, drawn once per training run: a gamma only rescales them, so one
// draw serves every gamma the selection tries, and the final map is the selected one exactly.
class FourierDraws {
 public:
  virtual ~FourierDraws() = default;
  // The map at `gamma` (> 0, within float range). Deterministic; costs O(size of the map), not a
  // pass over the data.
  virtual std::unique_ptr<FourierMap> At(double gamma) const = 0;
};

// What a map's draw gets.
struct FourierMapParams {
  format::MapKind map = format::MapKind::kFourier;
  format::Kernel kernel = format::Kernel::kGaussian;
  bool pairs = true;  // [cos, sin] pairs (D_F = 2F), else one feature per frequency
  std::uint32_t F = 0, d = 0;
  std::uint64_t seed = 0;
  unsigned threads = 1;  // may draw on this many threads; the draw must not depend on it
  // The storage the model will keep W in (dense and orthogonal maps): Compute then computes the
  // features the device computes from the stored W (quantization-aware training; to the fused
  // projection's rounding where the host fuses, block_kernels.h); Describe still
  // writes W unrounded, and the model's writer (RequantizeModel) rounds it to exactly that W.
  format::Storage w_storage = format::Storage::kF32;
};

// The fields every Fourier-type map writes the same way into its ModelSpec (map, kernel, F, gamma,
// feature scale, seed); Describe adds the map's own arrays.
inline void DescribeMap(const FourierMapParams& p, double gamma, float feature_scale, ModelSpec* spec) {
  spec->map = p.map;
  spec->kernel = p.kernel;
  spec->num_frequencies = p.F;
  spec->gamma = static_cast<float>(gamma);
  spec->feature_scale = feature_scale;
  spec->seed = p.seed;
}

// The usual FourierDraws: unit-scale draws U kept for the run; At() builds a map M from them as
// M(params, const U&, gamma). A map copies what it keeps of U: it may outlive the draws
// (RandomFeatureSpec uses the map after the draws are gone).
template <class M, class U>
class UnitScaleDraws final : public FourierDraws {
 public:
  UnitScaleDraws(const FourierMapParams& p, U unit) : p_(p), unit_(std::move(unit)) {}
  std::unique_ptr<FourierMap> At(double gamma) const override {
    return std::make_unique<M>(p_, unit_, gamma);
  }

 private:
  FourierMapParams p_;
  U unit_;
};

// Throws TrainError unless format::KernelFitsMap(params.map, params.kernel), naming the valid
// choices (for maps drawn for the Gaussian kernel only).
void RequireKernelFits(const FourierMapParams& params);

// One row of the registry: a map kind with a host implementation.
struct FourierMapType {
  format::MapKind map;
  bool pairs;  // see FourierMapParams::pairs
  // Draws the unit-scale map, a pure function of the params (never of params.threads), from
  // streams of its own (streams.h). May throw TrainError for settings the map cannot take (a
  // kernel it cannot approximate, a size), naming the option.
  std::unique_ptr<FourierDraws> (*draw)(const FourierMapParams& params);
  // Peak bytes of the draws, one map at a gamma, the model's copy and its blob, for F frequencies
  // and d inputs (EstimateTrainingMemory); `memory_part` names them in the guard's message.
  double (*memory_bytes)(double F, double d);
  const char* memory_part;
};

// The registry's row for `map`; nullptr if the kind has no host implementation.
const FourierMapType* FindFourierMap(format::MapKind map);

// Draws the map of `map` for D_F = `features`. Throws TrainError if the kind has no host map.
std::unique_ptr<FourierDraws> DrawFourierMap(format::MapKind map, format::Kernel kernel,
                                             std::uint32_t features, std::uint32_t d,
                                             std::uint64_t seed, unsigned threads,
                                             format::Storage w_storage = format::Storage::kF32);

// F for D_F = `features` of a map of type `t` (D_F is even for pair forms: options validation).
inline std::uint32_t FrequenciesOf(const FourierMapType& t, std::uint32_t features) {
  return t.pairs ? features / 2 : features;
}

// X[r] = the scaled input of data row rows[r], r < R (X: R x d floats): DenseRow, then
// StandardizeRef when in.scaling is not empty -- the core's first step, for maps that need dense
// inputs.
void LoadRows(const InputRows& in, const std::uint32_t* rows, std::size_t R, float* X);

// FourierMap::Compute for a block on `threads` threads (contiguous chunks of rows, one workspace
// each; ws->size() >= threads). Throws TrainError, naming the data and the gamma, if a feature is
// not finite.
void ComputeBlock(const InputRows& in, const FourierMap& map, const std::uint32_t* rows,
                  std::size_t R, float* Z, std::vector<MapWorkspace>* ws, unsigned threads);

}  // namespace rfk::host
