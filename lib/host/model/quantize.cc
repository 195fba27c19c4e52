// Quantizing weights (f32 -> f16 / int8) and re-quantizing a model blob; see rfk/host/quantize.hpp.
#include "rfk/host/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

#include "rfk/host/model_writer.hpp"
#include "rfk/kernels.hpp"

namespace rfk::host {
namespace {

namespace f = format;

std::string Name(f::Storage s) { return f::NameOf(s); }

void RefuseWidening(const char* what, f::Storage from, f::Storage to) {
  if (f::ElementBytes(to) > f::ElementBytes(from))
    throw QuantizeError(std::string(what) + " is stored " + Name(from) + "; converting it to the wider " + Name(to) +
                        " would not restore the precision it lost (convert from the f32 model instead)");
}

// The sections whose bytes a map or head storage changes.
bool StorageSection(std::uint16_t type) {
  for (const f::SectionType t : {f::SectionType::kMapParams, f::SectionType::kProjection, f::SectionType::kFastfood,
                                 f::SectionType::kStandardize, f::SectionType::kHead})
    if (type == static_cast<std::uint16_t>(t)) return true;
  return false;
}

}  // namespace

f::Storage StandardizationStorage(f::Storage w_storage, bool fourier_only, std::vector<float>* mean,
                                  std::vector<float>* inv_scale) {
  if (w_storage == f::Storage::kF32 || !fourier_only || mean->empty()) return f::Storage::kF32;
  auto round = [](float v, float* out) {
    if (!(std::fabs(v) <= 65504.0f)) return false;  // beyond f16's largest value (or NaN)
    const float r = HalfToFloat(FloatToHalf(v));
    *out = r;
    return r == 0.0f || std::fabs(r) >= 0.00006103515625f;  // 0, or normal (>= 2^-14)
  };
  const std::size_t d = mean->size();
  std::vector<float> m(d), s(d);
  for (std::size_t c = 0; c < d; ++c)
    if (!round((*mean)[c], &m[c]) || !round((*inv_scale)[c], &s[c]) ||
        !(std::fabs(m[c]) * std::fabs(s[c]) <= kStandardizeF16MaxOffset))
      return f::Storage::kF32;
  *mean = std::move(m);
  *inv_scale = std::move(s);
  return f::Storage::kF16;
}

std::uint16_t FloatToHalf(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t a = bits & 0x7FFFFFFFu;
  // 0x477FF000 = 65520: from there on, the rounded value is infinite.
  if (a >= 0x477FF000u)
    throw QuantizeError("the weight " + std::to_string(v) + " is outside f16's range (|w| <= 65504)");
  if (a < 0x38800000u) {  // below 2^-14: an f16 subnormal (or zero), in units of 2^-24
    float mag;
    std::memcpy(&mag, &a, 4);
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(mag * 16777216.0f)));
  }
  const std::uint32_t r = a - 0x38000000u;  // rebias the exponent (127 - 15) << 23
  return static_cast<std::uint16_t>(sign | ((r + 0xFFFu + ((r >> 13) & 1u)) >> 13));
}

float F16Scale(const float* w, std::size_t n) {
  float mx = 0.0f;
  for (std::size_t i = 0; i < n; ++i) mx = std::fabs(w[i]) > mx ? std::fabs(w[i]) : mx;
  if (!(mx > 0.0f)) return 1.0f;
  int e = 0;
  std::frexp(mx, &e);  // mx = m 2^e, m in [0.5, 1): mx / 2^(e - 16) in [32768, 65536)
  int s = e - 16;
  if (std::ldexp(mx, -s) >= 65520.0f) ++s;  // would round to infinity: one binade lower
  return std::ldexp(1.0f, s < -126 ? -126 : s);  // a normal f32
}

float Int8Scale(const float* w, std::size_t n) {
  float mx = 0.0f;
  for (std::size_t i = 0; i < n; ++i) mx = std::fabs(w[i]) > mx ? std::fabs(w[i]) : mx;
  const float scale = mx / 127.0f;
  return scale > 0.0f ? scale : 1.0f;
}

std::int8_t Int8Quantize(float w, float scale) {
  const float q = std::round(w / scale);
  return static_cast<std::int8_t>(q > 127.0f ? 127.0f : q < -127.0f ? -127.0f : q);
}

void StoredRow(f::Storage storage, float* w, std::size_t n, float* scale) {
  if (storage == f::Storage::kF16) {
    for (std::size_t c = 0; c < n; ++c) {
      try {
        w[c] = HalfToFloat(FloatToHalf(w[c]));
      } catch (const QuantizeError&) {  // left as it is: the writer refuses the model
      }
    }
  } else if (storage == f::Storage::kInt8) {
    *scale = Int8Scale(w, n);
    for (std::size_t c = 0; c < n; ++c) w[c] = static_cast<float>(Int8Quantize(w[c], *scale));
  }
}

std::vector<std::uint8_t> EncodeMatrix(f::Storage storage, const std::vector<float>& w, std::uint64_t rows,
                                       std::uint64_t cols,
                                       std::uint64_t (*index)(std::uint64_t, std::uint64_t, std::uint64_t),
                                       const float* given) {
  const std::uint32_t eb = f::ElementBytes(storage);
  if (eb == 0) throw QuantizeError("storage " + Name(storage) + " cannot be written");
  std::vector<std::uint8_t> out(f::QuantMatrixBytes(storage, rows, cols), 0);
  std::vector<float> scales(f::HasRowScales(storage) ? rows : 0);
  for (std::uint64_t j = 0; j < rows; ++j) {
    const float* row = w.data() + j * cols;
    if (storage == f::Storage::kInt8) scales[j] = given != nullptr ? given[j] : Int8Scale(row, cols);
    if (storage == f::Storage::kF16Scaled) scales[j] = given != nullptr ? given[j] : F16Scale(row, cols);
    for (std::uint64_t c = 0; c < cols; ++c) {
      std::uint8_t* at = out.data() + index(j, c, cols) * eb;
      if (storage == f::Storage::kF32) {
        std::memcpy(at, &row[c], 4);
      } else if (storage == f::Storage::kF16 || storage == f::Storage::kF16Scaled) {
        // A power-of-two scale divides exactly (but for f32 subnormals, below f16's reach).
        const std::uint16_t h = FloatToHalf(storage == f::Storage::kF16 ? row[c] : row[c] / scales[j]);
        std::memcpy(at, &h, 2);
      } else {
        const std::int8_t q = Int8Quantize(row[c], scales[j]);
        std::memcpy(at, &q, 1);
      }
    }
  }
  if (!scales.empty())
    std::memcpy(out.data() + f::QuantValuesBytes(storage, rows, cols), scales.data(), 4 * rows);
  return out;
}

std::vector<std::uint8_t> RequantizeModel(const Model& m, f::Storage w_storage, f::Storage head_storage,
                                          const Int8Head* head) {
  const bool has_map = m.projection_weights.data != nullptr || m.fastfood.dp != 0;  // float arrays to re-store
  if (m.projection_weights.data != nullptr) RefuseWidening("W (projection)", m.projection_storage, w_storage);
  if (m.fastfood.dp != 0) RefuseWidening("Fastfood's G and S", m.projection_storage, w_storage);
  RefuseWidening("the head", m.head_storage, head_storage);
  ModelSpec spec = SpecFromModel(m);
  if (has_map && w_storage != spec.map_storage) {
    spec.map_storage = w_storage;
    spec.projection_scales.clear();
    spec.fastfood_scales.clear();
  }
  if (head_storage != spec.head_storage) {
    spec.head_storage = head_storage;
    spec.head_scales.clear();
  }
  if (head != nullptr) SetInt8Head(*head, &spec);
  std::vector<RawSection> sections = SectionsOf(m);
  try {
    for (RawSection& section : sections)
      if (StorageSection(section.type) && !EncodeSection(spec, section.type, &section))
        throw std::invalid_argument("its section " + std::to_string(section.type) + " has no writer");
  } catch (const std::invalid_argument& e) {  // a model OpenModel accepts but rfk does not write
    throw QuantizeError(std::string("this model's sections cannot be re-stored (") + e.what() + ")");
  }
  return AssembleModel(sections);
}

void SetInt8Head(const Int8Head& head, ModelSpec* spec) {
  const std::uint64_t K = spec->num_outputs, D = spec->NumFeatures();
  if (head.q.size() != K * D || head.scale.size() != K || head.bias.size() != K)
    throw std::logic_error("an int8 head of the wrong size for the model");
  spec->head_storage = f::Storage::kInt8;
  spec->head_weights.resize(K * D);
  for (std::uint64_t k = 0; k < K; ++k)
    for (std::uint64_t j = 0; j < D; ++j)  // as the core widens it (WeightAt)
      spec->head_weights[k * D + j] = head.scale[k] * static_cast<float>(head.q[k * D + j]);
  spec->head_scales = head.scale;
  spec->head_bias = head.bias;
}

std::string StorageNames() {
  std::string list;
  const std::size_t n = std::size(kUserStorages);
  for (std::size_t i = 0; i < n; ++i)
    list += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + f::NameOf(kUserStorages[i]);
  return list;
}

f::Storage ParseStorage(const std::string& name) {
  for (const f::Storage s : kUserStorages)
    if (name == f::NameOf(s)) return s;
  throw std::invalid_argument("storage must be " + StorageNames() + "; got '" + name + "'");
}

}  // namespace rfk::host
