// An opened model read back into a ModelSpec (SpecFromModel, rfk/host/model_writer.hpp).
#include <cstring>
#include <string>

#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/kernels.hpp"

namespace rfk::host {
namespace {

namespace f = format;

std::uint32_t Load32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// n floats stored at p (maybe unaligned).
std::vector<float> Floats(const void* p, std::size_t n) {
  std::vector<float> v(n);
  if (n > 0) std::memcpy(v.data(), p, 4 * n);
  return v;
}

// The Fourier-type map: its parameters and W (widened, row-major F x d) or Fastfood's arrays.
void FourierMap(const Model& m, ModelSpec* s) {
  s->map = m.map;
  s->kernel = m.kernel;
  s->num_frequencies = m.num_frequencies;
  s->gamma = m.gamma;
  s->feature_scale = m.feature_scale;
  s->seed = m.seed;
  s->layout = m.layout;
  s->map_storage = m.projection_storage;
  if (m.phase != nullptr) s->phase = Floats(m.phase, m.num_frequencies);
  const std::uint64_t d = m.input_dim;
  if (m.projection_weights.data != nullptr) {
    if (m.projection_weights.scale != nullptr)
      s->projection_scales = Floats(m.projection_weights.scale, f::StoredFrequencies(m.layout, m.num_frequencies));
    s->projection.resize(m.num_frequencies * d);
    for (std::uint64_t j = 0; j < m.num_frequencies; ++j)
      for (std::uint64_t c = 0; c < d; ++c)
        s->projection[j * d + c] = WeightAt(m.projection_weights, f::WeightIndex(m.layout, j, c, d), j);
  }
  const FastfoodArrays& a = m.fastfood;
  if (a.dp == 0) return;
  const std::uint64_t N = std::uint64_t{a.dp} * a.blocks;
  s->fastfood_dim = a.dp;
  for (const void* diag : {a.G, a.S}) {
    const WeightsView w = FastfoodDiagonal(a, diag);
    std::vector<float>& out = diag == a.G ? s->fastfood_g : s->fastfood_s;
    out.resize(N);
    for (std::uint64_t k = 0; k < N; ++k) out[k] = WeightAt(w, k, k / a.dp);
    if (w.scale != nullptr) s->fastfood_scales.insert(s->fastfood_scales.end(), w.scale, w.scale + a.blocks);
  }
  s->fastfood_perm.assign(a.perm, a.perm + f::fastfood::PermBytes(a.dp, static_cast<std::uint32_t>(N)));
  s->fastfood_signs.assign(a.signs, a.signs + (N + 7) / 8);
}

void BinningMap(const Model& m, ModelSpec* s) {
  const std::uint64_t P = m.num_grids, d = m.input_dim;
  s->num_grids = m.num_grids;
  s->bin_mode = m.bin_mode;
  s->bin_buckets = m.bin_buckets;
  s->bin_gamma = m.bin_gamma;
  s->bin_scale = m.bin_scale;
  s->bin_seed = m.bin_seed;
  if (m.bin_inv_width != nullptr) {
    s->bin_inv_width = Floats(m.bin_inv_width, P * d);
    s->bin_offset = Floats(m.bin_offset, P * d);
  }
  if (m.bin_mode != f::BinMode::kExact) return;
  for (std::uint64_t g = 0; g <= P; ++g) s->bin_grid_start.push_back(Load32(m.bin_grid_start + 4 * g));
  s->bin_keys.resize(m.bin_features);
  if (m.bin_features > 0) std::memcpy(s->bin_keys.data(), m.bin_keys, 8ull * m.bin_features);
}

// The head widened to floats (K x D) with its storage and row scales, and the biases.
void HeadOf(const Model& m, ModelSpec* s) {
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  s->task = m.task;
  s->num_outputs = m.num_outputs;
  s->head_storage = m.head_storage;
  s->head_weights.resize(K * D);
  for (std::uint64_t k = 0; k < K; ++k)
    for (std::uint64_t j = 0; j < D; ++j) s->head_weights[k * D + j] = WeightAt(m.head, k * D + j, k);
  s->head_bias = Floats(m.head_bias, K);
  if (m.head.scale != nullptr) s->head_scales = Floats(m.head.scale, K);
}

// What the model says about its inputs and outputs: standardisation, labels, names, imputation,
// calibration, metadata and the host's input statistics.
void Annotations(const Model& m, ModelSpec* s) {
  const std::uint32_t d = m.input_dim;
  if (const std::uint16_t* h = StandardizeF16Values(m)) {
    for (std::uint32_t c = 0; c < d; ++c) s->mean.push_back(HalfToFloat(h[c]));
    for (std::uint32_t c = 0; c < d; ++c) s->inv_scale.push_back(HalfToFloat(h[d + c]));
  } else if (m.mean != nullptr) {
    s->mean = Floats(m.mean, d);
    s->inv_scale = Floats(m.inv_scale, d);
  }
  for (std::uint32_t i = 0; i < m.num_classes; ++i) s->labels.emplace_back(ClassLabel(m, i));
  if (m.metadata != nullptr) s->metadata.assign(m.metadata, m.metadata_bytes);
  if (m.impute != nullptr) {
    s->impute = Floats(m.impute, d);
    s->impute_method = m.impute_method;
  }
  if (m.num_names > 0) {
    for (std::uint32_t c = 0; c < d; ++c) s->feature_names.emplace_back(FeatureName(m, c));
    s->target_name = FeatureName(m, d);
  }
  s->calibration_method = m.calibration_method;
  if (m.calibration_method != 0)
    s->calibration_params =
        Floats(m.calibration_params, (f::calibration::Bytes(m.calibration_method, m.num_outputs) - 8) / 4);
  InputStats stats;
  if (ReadInputStats(m, &stats)) {
    s->input_mean.assign(stats.mean.begin(), stats.mean.end());  // floats in the section: exact
    s->input_sd.assign(stats.sd.begin(), stats.sd.end());
  }
}

}  // namespace

ModelSpec SpecFromModel(const Model& m) {
  ModelSpec s;
  s.input_dim = m.input_dim;
  // A fixed-only model keeps the maps' parameters but not their float arrays.
  s.float_arrays = !(m.num_frequencies > 0 && m.projection_weights.data == nullptr && m.fastfood.dp == 0) &&
                   !(m.num_grids > 0 && m.bin_inv_width == nullptr);
  if (m.num_frequencies > 0) FourierMap(m, &s);
  if (m.num_grids > 0) BinningMap(m, &s);
  HeadOf(m, &s);
  Annotations(m, &s);
  return s;
}

}  // namespace rfk::host
