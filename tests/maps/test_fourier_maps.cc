// The contract of the host's Fourier-type feature maps (lib/host/maps/fourier_map.h), checked for
// every map in the registry, so a new map is tested by being registered:
//   (a) a block of feature rows computed on the host is the device core's z(x), bit for bit, on
//       the host kernels' unfused path (block_kernels.h), and within the float summation bound
//       of it on a fused one;
//   (b) a gamma only rescales the unit-scale draws, and the draws do not depend on the threads;
//   (c) the map's part of the ModelSpec makes a model the core opens, with the map's features.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "maps/fourier_map.h"
#include "host_path.h"
#include "maps/random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace f = rfk::format;
using rfk::host::FourierMap;

namespace {

constexpr std::uint32_t kD = 7;  // inputs
constexpr std::uint32_t kF = 11;  // frequencies: not a multiple of any panel or vector width

std::vector<f::MapKind> RegisteredMaps() {
  std::vector<f::MapKind> maps;
  for (std::uint32_t v = 0; v < 16; ++v)
    if (rfk::host::FindFourierMap(static_cast<f::MapKind>(v))) maps.push_back(static_cast<f::MapKind>(v));
  return maps;
}

std::uint32_t Features(f::MapKind map) {
  return rfk::host::FindFourierMap(map)->pairs ? 2 * kF : kF;
}

// n rows of d inputs, a third of them zero, as dense or CSR data.
rfk::host::Dataset Inputs(std::size_t n, bool sparse, std::uint64_t seed) {
  rfk::host::Dataset ds;
  ds.source = "inputs";
  ds.rows = n;
  ds.cols = kD;
  ds.sparse = sparse;
  ds.row_ptr.push_back(0);
  rfk::host::RandomStream rs(seed, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::uint32_t c = 0; c < kD; ++c) {
      const float v = rs.Bits() % 3 == 0 ? 0.0f : static_cast<float>(2.0 * rs.Normal());
      if (!sparse) {
        ds.dense.push_back(v);
      } else if (v != 0.0f) {
        ds.col_idx.push_back(c);
        ds.values.push_back(v);
      }
    }
    ds.row_ptr.push_back(ds.col_idx.size());
    ds.labels.push_back("0");
    ds.lines.push_back(i + 1);
  }
  if (!sparse) ds.row_ptr.clear();
  return ds;
}

rfk::host::ModelSpec Spec(const FourierMap& map, const rfk::host::InputScaling& scaling) {
  rfk::host::ModelSpec spec;
  spec.input_dim = kD;
  map.Describe(&spec);
  spec.mean = scaling.mean;
  spec.inv_scale = scaling.inv_scale;
  spec.head_weights.assign(map.features(), 0.0f);
  spec.head_bias.assign(1, 0.0f);
  return spec;
}

// Selects the scalar kernel table (the reference the host matches) while alive.
class ScalarKernels {
 public:
  ScalarKernels()
      : active_(std::string(rfk::ActiveKernels().backend) + "-" + rfk::ActiveKernels().target) {
    REQUIRE(rfk::SelectKernels("scalar"));
  }
  ~ScalarKernels() { rfk::SelectKernels(active_.c_str()); }

 private:
  std::string active_;
};

// z(x) of every data row through the core's ComputeFeatures on `spec`'s model, with W re-stored
// in `w_storage` by the model writer as `rfk train --storage` stores it.
std::vector<float> CoreFeatures(const rfk::host::ModelSpec& spec, const rfk::host::Dataset& data,
                                f::Storage w_storage = f::Storage::kF32) {
  rfk::host::ModelSpec stored = spec;
  stored.map_storage = w_storage;
  rfk_test::Blob blob(rfk::host::SerializeModel(stored));
  rfk::Model m;
  REQUIRE(blob.Open(&m) == rfk::Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::vector<float> x(kD), z(data.rows * m.num_features);
  for (std::size_t i = 0; i < data.rows; ++i) {
    rfk::host::DenseRow(data, i, x.data(), kD);
    REQUIRE(rfk::ComputeFeatures(m, x.data(), kD, scratch.data(), scratch.size(),
                                 z.data() + i * m.num_features, m.num_features) == rfk::Status::kOk);
  }
  return z;
}

// The host's block for all rows, in a scrambled row order, on 3 threads; unscrambled.
std::vector<float> HostFeatures(const FourierMap& map, const rfk::host::Dataset& data,
                                const rfk::host::InputScaling& scaling) {
  std::vector<std::uint32_t> rows;
  for (std::uint32_t i = 0; i < data.rows; ++i)
    rows.push_back(static_cast<std::uint32_t>((i * 7 + 3) % data.rows));
  const std::uint32_t D = map.features();
  std::vector<float> block(rows.size() * D), z(rows.size() * D);
  std::vector<rfk::host::MapWorkspace> ws(3);
  rfk::host::ComputeBlock({data, scaling}, map, rows.data(), rows.size(), block.data(), &ws, 3);
  for (std::size_t r = 0; r < rows.size(); ++r)
    std::memcpy(&z[std::size_t{rows[r]} * D], &block[r * D], D * sizeof(float));
  return z;
}

bool Same(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("fourier maps: the registry holds every map kind the format supports, in its form") {
  const std::vector<f::MapKind> maps = RegisteredMaps();
  CHECK(std::count(maps.begin(), maps.end(), f::MapKind::kFourier) == 1);
  CHECK(std::count(maps.begin(), maps.end(), f::MapKind::kFourierPhase) == 1);
  for (const f::EnumValue& v : f::EnumList<f::MapKind>::kValues) {
    CAPTURE(v.name);
    const auto* type = rfk::host::FindFourierMap(static_cast<f::MapKind>(v.number));
    CHECK((type != nullptr) == (v.support == f::Support::kSupported));
    if (type) CHECK(type->pairs == !f::IsPhaseForm(type->map));
  }
  CHECK(rfk::host::FindFourierMap(f::MapKind::kBinning) == nullptr);
  CHECK_THROWS_AS(rfk::host::DrawFourierMap(f::MapKind::kBinning, f::Kernel::kGaussian, 8, kD, 1, 1),
                  rfk::host::TrainError);
  // The name list of help texts and messages: every registered map's name, in the table's order,
  // each parsed back to its kind.
  std::string names;
  for (f::MapKind map : maps) names += (names.empty() ? "" : ", ") + std::string(rfk::host::MapName(map));
  CHECK(rfk::host::FourierMapNames() == names);
  for (f::MapKind map : maps) CHECK(rfk::host::ParseMap(rfk::host::MapName(map)) == map);
}

TEST_CASE("fourier maps (a) and (c): every registered map computes the core's features bit for bit from its own spec") {
  const ScalarKernels scalar;
  const rfk_test::HostPathScope unfused(rfk::host::KernelPath::kSeparate);
  REQUIRE(unfused.ok());
  const std::size_t n = 37;  // blocks split unevenly over 3 threads
  for (f::MapKind map : RegisteredMaps()) {
    for (f::Kernel kernel : {f::Kernel::kGaussian, f::Kernel::kLaplacian, f::Kernel::kCauchy}) {
      if (!f::KernelFitsMap(map, kernel)) {  // refused by name (the map's own tests check the message)
        CHECK_THROWS_AS(rfk::host::DrawFourierMap(map, kernel, Features(map), kD, 5, 2), rfk::host::TrainError);
        continue;
      }
      const auto draws = rfk::host::DrawFourierMap(map, kernel, Features(map), kD, 5, 2);
      const std::unique_ptr<FourierMap> m = draws->At(0.37);
      REQUIRE(m->features() == Features(map));
      for (bool sparse : {false, true}) {
        const rfk::host::Dataset data = Inputs(n, sparse, 9);
        for (const auto standardize : {rfk::host::Standardization::kOff, rfk::host::Standardization::kCentred,
                                       rfk::host::Standardization::kUncentred}) {
          const rfk::host::InputScaling scaling = rfk::host::ComputeStandardization(data, standardize);
          CHECK(scaling.empty() == (standardize == rfk::host::Standardization::kOff));
          const rfk::host::ModelSpec spec = Spec(*m, scaling);
          CAPTURE(static_cast<int>(map));
          CAPTURE(static_cast<int>(kernel));
          CAPTURE(sparse);
          CAPTURE(static_cast<int>(standardize));
          CHECK(spec.map == map);
          CHECK(spec.kernel == kernel);
          CHECK(spec.gamma == 0.37f);
          CHECK(Same(HostFeatures(*m, data, scaling), CoreFeatures(spec, data)));
        }
      }
    }
  }
}

TEST_CASE("fourier maps (a), quantization-aware: a map drawn for an f16 or int8 W computes the core's features of the stored W bit for bit") {
  const ScalarKernels scalar;
  const rfk_test::HostPathScope unfused(rfk::host::KernelPath::kSeparate);
  REQUIRE(unfused.ok());
  for (f::MapKind map : RegisteredMaps()) {
    for (const f::Storage storage : {f::Storage::kF16, f::Storage::kInt8}) {
      const f::Kernel kernel = f::KernelFitsMap(map, f::Kernel::kLaplacian) ? f::Kernel::kLaplacian : f::Kernel::kGaussian;
      const std::unique_ptr<FourierMap> m = rfk::host::DrawFourierMap(map, kernel, Features(map), kD, 5, 2, storage)->At(0.37);
      const std::unique_ptr<FourierMap> m32 = rfk::host::DrawFourierMap(map, kernel, Features(map), kD, 5, 2)->At(0.37);
      for (bool sparse : {false, true}) {
        const rfk::host::Dataset data = Inputs(37, sparse, 9);
        for (const auto standardize : {rfk::host::Standardization::kOff, rfk::host::Standardization::kCentred,
                                       rfk::host::Standardization::kUncentred}) {
          rfk::host::InputScaling scaling = rfk::host::ComputeStandardization(data, standardize);
          // Rounded to f16 where the model stores it so, as the trainer does (DescribeData).
          rfk::host::StandardizationStorage(storage, true, &scaling.mean, &scaling.inv_scale);
          CAPTURE(static_cast<int>(map));
          CAPTURE(static_cast<int>(storage));
          CAPTURE(sparse);
          CAPTURE(static_cast<int>(standardize));
          const std::vector<float> host = HostFeatures(*m, data, scaling);
          CHECK(Same(host, CoreFeatures(Spec(*m, scaling), data, storage)));
          // Every map stores its weights (W, or Fastfood's G and S) rounded: other features than
          // the f32 map's.
          CHECK_FALSE(Same(host, HostFeatures(*m32, data, scaling)));
        }
      }
    }
  }
}

TEST_CASE("fourier maps (a), fused: on a CPU whose host kernels fuse, every map is within rounding of the core's features") {
  // Fusing changes each projection by at most 2 d u sum_c |x_c w_c| (block_kernels.h); with
  // kD = 7 inputs and arguments of a few units that is below 1e-5, and the features' cosines move
  // by no more than their arguments (times the scale).
  const ScalarKernels scalar;
  const rfk_test::HostPathScope best(rfk::host::KernelPath::kBest);
  REQUIRE(best.ok());
  if (!rfk::host::HostFused()) return;  // then (a) above is what this CPU computes
  int differ = 0;
  for (f::MapKind map : RegisteredMaps()) {
    const std::unique_ptr<FourierMap> m =
        rfk::host::DrawFourierMap(map, f::Kernel::kGaussian, Features(map), kD, 5, 2)->At(0.37);
    for (bool sparse : {false, true}) {
      const rfk::host::Dataset data = Inputs(37, sparse, 9);
      const rfk::host::InputScaling scaling = rfk::host::ComputeStandardization(data, rfk::host::Standardization::kCentred);
      const rfk::host::ModelSpec spec = Spec(*m, scaling);
      const std::vector<float> host = HostFeatures(*m, data, scaling), core = CoreFeatures(spec, data);
      REQUIRE(host.size() == core.size());
      CAPTURE(static_cast<int>(map));
      CAPTURE(sparse);
      const float scale = std::sqrt(2.0f / static_cast<float>(m->features()));
      for (std::size_t i = 0; i < host.size(); ++i) {
        CHECK(std::fabs(host[i] - core[i]) <= 1e-5f * scale);
        differ += host[i] != core[i];
      }
    }
  }
  MESSAGE("features that differ in their last bits from the core's: " << differ);
}

TEST_CASE("fourier maps (b): a gamma only rescales the unit draws and they do not depend on the thread count") {
  const rfk::host::Dataset data = Inputs(16, false, 3);
  rfk::host::Dataset doubled = data;
  for (float& v : doubled.dense) v *= 2.0f;
  const rfk::host::InputScaling none;
  for (f::MapKind map : RegisteredMaps()) {
    for (f::Kernel kernel : {f::Kernel::kGaussian, f::Kernel::kLaplacian, f::Kernel::kCauchy}) {
      CAPTURE(static_cast<int>(map));
      CAPTURE(static_cast<int>(kernel));
      if (!f::KernelFitsMap(map, kernel)) continue;
      const auto one = rfk::host::DrawFourierMap(map, kernel, Features(map), kD, 11, 1);
      const auto four = rfk::host::DrawFourierMap(map, kernel, Features(map), kD, 11, 4);
      // One draw serves every gamma: At() leaves the draws as they were.
      const double g = 0.21;
      const std::vector<float> first = HostFeatures(*one->At(g), data, none);
      (void)one->At(8 * g);
      CHECK(Same(HostFeatures(*one->At(g), data, none), first));
      CHECK(Same(HostFeatures(*four->At(g), data, none), first));
      // Built from the gamma the model stores (a float), not from the double asked for.
      CHECK(Same(HostFeatures(*one->At(static_cast<float>(g)), data, none), first));
      // The scale of the frequencies is sqrt(2 gamma) (Gaussian) or gamma: scaling it by 2 is
      // scaling the inputs by 2, exactly.
      const double up = kernel == f::Kernel::kGaussian ? 4 * g : 2 * g;
      CHECK(Same(HostFeatures(*one->At(up), data, none), HostFeatures(*one->At(g), doubled, none)));
    }
  }
}
