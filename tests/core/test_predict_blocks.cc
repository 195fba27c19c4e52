// Predict's blocks (rfk/model.hpp, kFeatureBlock): the features of BlockFrequencies frequencies at
// a time, each block's part of the head added before the next, so the scratch does not grow with D.
// With the scalar kernels the outputs are the bits of one sequential sum that knows no blocks,
// computed here independently of lib/core from ComputeFeatures' z, for every map, form and storage;
// PredictBatch gives the same bits.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;

// A model of `map` with F frequencies on d inputs, a made-up head of K outputs (weights of both
// signs, none zero) and, for `storage` other than f32, W (or Fastfood's diagonals) and the head
// stored so.
std::vector<std::uint8_t> Model(f::MapKind map, std::uint32_t F, std::uint32_t d, std::uint32_t K,
                                f::Storage storage = f::Storage::kF32, bool standardize = false) {
  const std::uint32_t D = f::IsPhaseForm(map) ? F : 2 * F;
  auto spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, map, D, d, 0.5 / d, 3);
  if (standardize)
    for (std::uint32_t c = 0; c < d; ++c) {
      spec.mean.push_back(0.1f * float(c) - 0.3f);
      spec.inv_scale.push_back(1.0f / (1.0f + 0.37f * float(c)));
    }
  spec.num_outputs = K;
  spec.task = K == 1 ? f::Task::kRegression : f::Task::kMulticlass;
  if (K > 1)
    for (std::uint32_t k = 0; k < K; ++k) spec.labels.push_back(std::string(1, char('a' + k)));
  spec.head_weights.resize(std::size_t{K} * D);
  for (std::size_t j = 0; j < spec.head_weights.size(); ++j)
    spec.head_weights[j] = 0.03f * float(j % 17) - 0.2501f;
  spec.head_bias.assign(K, 0.125f);
  spec.map_storage = spec.head_storage = storage;
  return rfk::host::SerializeModel(spec);
}

// An input of d values, different for each i.
std::vector<float> Input(std::uint32_t d, std::uint32_t i) {
  std::vector<float> x(d);
  for (std::uint32_t c = 0; c < d; ++c) x[c] = std::sin(0.7f * float(c + 1) + 1.3f * float(i));
  return x;
}

// Row k of the head, widened as Predict reads it (WeightAt: int8 as scale_k * q).
float HeadAt(const rfk::Model& m, std::uint32_t k, std::uint32_t j) {
  return rfk::WeightAt(m.head, std::uint64_t{k} * m.num_features + j, k);
}

// The head over z in the scalar kernels' order, written out: one accumulator from the bias over
// the features in frequency order, each pair's sine right after its cosine, every weight widened
// as WeightAt gives it. No block size appears: Predict's blocks must not change a bit.
std::vector<float> SequentialHead(const rfk::Model& m, const std::vector<float>& z) {
  const std::uint32_t F = m.num_frequencies, K = m.num_outputs;
  const bool pair = m.fourier_features != F;
  std::vector<float> out(m.head_bias, m.head_bias + K);
  for (std::uint32_t k = 0; k < K; ++k)
    for (std::uint32_t j = 0; j < F; ++j) {
      out[k] += HeadAt(m, k, j) * z[j];
      if (pair) out[k] += HeadAt(m, k, F + j) * z[F + j];
    }
  return out;
}

struct Kind {
  const char* name;
  f::MapKind map;
  std::uint32_t F, d, K;
  f::Storage storage;
};

}  // namespace

TEST_CASE("Predict adds the head block by block: the scalar kernels give a blockless sum's bits for every map") {
  REQUIRE(rfk::SelectKernels("scalar"));
  const Kind kinds[] = {
      {"pairs, 150 frequencies: two whole blocks and a part", f::MapKind::kFourier, 150, 5, 3, f::Storage::kF32},
      {"pairs, 40 frequencies: one block", f::MapKind::kFourier, 40, 5, 4, f::Storage::kF32},
      {"phases, 150 frequencies", f::MapKind::kFourierPhase, 150, 7, 1, f::Storage::kF32},
      {"orthogonal phases, 128 frequencies: exactly one block", f::MapKind::kOrthogonalPhase, 128, 7, 1, f::Storage::kF32},
      {"pairs, int8 W and head", f::MapKind::kFourier, 150, 5, 3, f::Storage::kInt8},
      {"phases, f16 W and head", f::MapKind::kFourierPhase, 150, 5, 1, f::Storage::kF16},
      {"Fastfood pairs, d' = 8: eight Fastfood blocks per feature block", f::MapKind::kFastfood, 150, 5, 3, f::Storage::kF32},
      {"Fastfood phases, d' = 256: two feature blocks per Fastfood block", f::MapKind::kFastfoodPhase, 600, 200, 1,
       f::Storage::kF32},
      {"Fastfood pairs, int8 diagonals and head", f::MapKind::kFastfood, 150, 20, 1, f::Storage::kInt8},
  };
  for (const Kind& kind : kinds) {
    const std::string name = kind.name;
    CAPTURE(name);
    const rfk::host::OpenedModel opened(Model(kind.map, kind.F, kind.d, kind.K, kind.storage), "test model");
    const rfk::Model& m = opened.model();
    REQUIRE(m.num_frequencies == kind.F);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    for (std::uint32_t i = 0; i < 6; ++i) {
      const std::vector<float> x = Input(kind.d, i);
      std::vector<float> z(m.num_features), out(m.num_outputs);
      REQUIRE(rfk::ComputeFeatures(m, x.data(), x.size(), scratch.data(), scratch.size(), z.data(), z.size()) ==
              Status::kOk);
      REQUIRE(rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size(), out.data(), out.size()) ==
              Status::kOk);
      const std::vector<float> want = SequentialHead(m, z);
      CHECK(std::memcmp(out.data(), want.data(), out.size() * sizeof(float)) == 0);
      // PredictBatch (the batch kernels on dense f32 panels, else row by row) gives the same bits.
      rfk::host::AlignedBytes batch_scratch(rfk::BatchScratchBytes(m));
      std::vector<float> batch(m.num_outputs);
      REQUIRE(rfk::PredictBatch(m, x.data(), 1, x.size(), batch_scratch.data(), batch_scratch.size(), batch.data(),
                                batch.size()) == Status::kOk);
      CHECK(std::memcmp(batch.data(), want.data(), out.size() * sizeof(float)) == 0);
      // The whole-z sum (bias + one sum over all D) differs only in rounding.
      for (std::uint32_t k = 0; k < m.num_outputs; ++k) {
        double whole = m.head_bias[k], mass = 1.0;
        for (std::uint32_t j = 0; j < m.num_features; ++j) {
          whole += double(HeadAt(m, k, j)) * z[j];
          mass += std::fabs(double(HeadAt(m, k, j)) * z[j]);
        }
        CHECK(std::fabs(out[k] - whole) <= 1e-6 * mass);
      }
    }
  }
  REQUIRE(rfk::SelectKernels(rfk::KernelTableAt(0)->target));
}

TEST_CASE("Predict's scratch does not grow with the number of features, and holds only what it uses") {
  // One block of features (128: 64 pairs or 128 phases, 512 B; 32: 128 B), d floats of standardised
  // input where the core copies x (standardised models; with 32-feature blocks a Fastfood map
  // standardises into its transform's buffer instead), and for Fastfood its buffers of d' and
  // max(d', frequencies per block) floats, the block itself inside the first where it fits (d' = 32).
  const struct {
    f::MapKind map;
    std::uint32_t d;
    bool standardized;
    std::size_t bytes, bytes32;  // ScratchBytes with 128- and 32-feature blocks
  } cases[] = {{f::MapKind::kFourier, 5, false, 512, 128},
               {f::MapKind::kFourierPhase, 5, false, 512, 128},
               {f::MapKind::kFourier, 5, true, 32 + 512, 32 + 128},
               {f::MapKind::kFastfood, 5, false, 512 + 288, 128 + 96},
               {f::MapKind::kFastfoodPhase, 5, false, 512 + 544, 128 + 160},
               {f::MapKind::kFastfood, 5, true, 32 + 512 + 288, 128 + 96},
               {f::MapKind::kFastfood, 20, true, 80 + 512 + 384, 256},
               {f::MapKind::kFastfoodPhase, 20, true, 80 + 512 + 640, 256}};
  for (const auto& c : cases) {
    for (std::uint32_t F : {128u, 1000u, 4096u}) {
      const rfk::host::OpenedModel opened(Model(c.map, F, c.d, 3, f::Storage::kF32, c.standardized), "test model");
      CAPTURE(F);
      CAPTURE(static_cast<int>(c.map));
      CAPTURE(c.d);
      CAPTURE(c.standardized);
      CHECK(rfk::ScratchBytes(opened.model()) == c.bytes);
      CHECK(rfk::ScratchBytes(opened.model(), 32) == c.bytes32);
      CHECK(rfk::ScratchBytes(opened.model(), 48) == 0);  // not a multiple of 32
      // and Predict needs no more: every byte of it, not one less
      rfk::host::AlignedBytes scratch(c.bytes);
      const std::vector<float> x = Input(c.d, 1);
      float out[3];
      CHECK(rfk::Predict(opened.model(), x.data(), c.d, scratch.data(), c.bytes, out, 3) == Status::kOk);
      CHECK(rfk::Predict(opened.model(), x.data(), c.d, scratch.data(), c.bytes - 16, out, 3) ==
            Status::kScratchTooSmall);
    }
  }
}

TEST_CASE("A standardised model's outputs are its unstandardised twin's on the standardised input, bit for bit") {
  // x is standardised into a copy (or, in a core with 32-feature blocks, a Fastfood map's into each
  // block's transform buffer: the selfcheck_block32 test) with StandardizeRef's operations, so the
  // bits of standardising first and predicting after.
  REQUIRE(rfk::SelectKernels("scalar"));
  for (f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFourierPhase, f::MapKind::kFastfood, f::MapKind::kFastfoodPhase}) {
    CAPTURE(static_cast<int>(map));
    const std::uint32_t d = 20, F = 300, K = 3;
    const rfk::host::OpenedModel with(Model(map, F, d, K, f::Storage::kF32, true), "standardised");
    const rfk::host::OpenedModel without(Model(map, F, d, K, f::Storage::kF32, false), "plain");
    const rfk::Model& a = with.model();
    rfk::host::AlignedBytes sa(rfk::ScratchBytes(a)), sb(rfk::ScratchBytes(without.model()));
    for (std::uint32_t i = 0; i < 5; ++i) {
      const std::vector<float> x = Input(d, i);
      std::vector<float> xs(d), oa(K), ob(K);
      rfk::StandardizeRef(x.data(), a.mean, a.inv_scale, d, xs.data());
      REQUIRE(rfk::Predict(a, x.data(), d, sa.data(), sa.size(), oa.data(), K) == Status::kOk);
      REQUIRE(rfk::Predict(without.model(), xs.data(), d, sb.data(), sb.size(), ob.data(), K) == Status::kOk);
      CHECK(std::memcmp(oa.data(), ob.data(), K * sizeof(float)) == 0);
    }
  }
  REQUIRE(rfk::SelectKernels(rfk::KernelTableAt(0)->target));
}
