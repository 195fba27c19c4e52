// Quantizing weights (f32 -> f16 / int8) and re-quantizing a model blob; see rfk/host/quantize.hpp.
#include "rfk/host/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

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
  // Finite w over a finite positive scale is finite: a NaN here is an infinite weight (a widened
  // f16-scaled head can overflow f32), or NaN; converting it to int8 would be undefined.
  if (!(std::fabs(q) <= std::numeric_limits<float>::max()))
    throw QuantizeError("the weight " + std::to_string(w) + " is not finite: int8 cannot hold it");
  return static_cast<std::int8_t>(q > 127.0f ? 127.0f : q < -127.0f ? -127.0f : q);
}

namespace {

// One storage's elements, as the host writes them and the core reads them back (WeightAt without
// the row's scale): its row scale from the row's values (null: the storage has none), a value ->
// its element's bytes at `at` (divided by `scale` first where the storage has one; may throw
// QuantizeError for a value it cannot hold), and the element's bytes -> the element as a float.
struct Codec {
  f::Storage storage;
  float (*row_scale)(const float* row, std::size_t n);
  void (*put)(float v, float scale, std::uint8_t* at);
  float (*get)(const std::uint8_t* at);
};
void PutF32(float v, float, std::uint8_t* at) { std::memcpy(at, &v, 4); }
float GetF32(const std::uint8_t* at) {
  float v;
  std::memcpy(&v, at, 4);
  return v;
}
void PutF16(float v, float, std::uint8_t* at) {
  const std::uint16_t h = FloatToHalf(v);
  std::memcpy(at, &h, 2);
}
// A power-of-two scale (F16Scale) divides exactly (but for f32 subnormals, below f16's reach).
void PutF16Scaled(float v, float scale, std::uint8_t* at) { PutF16(v / scale, 1.0f, at); }
float GetF16(const std::uint8_t* at) {
  std::uint16_t h;
  std::memcpy(&h, at, 2);
  return HalfToFloat(h);
}
void PutInt8(float v, float scale, std::uint8_t* at) {
  const std::int8_t q = Int8Quantize(v, scale);
  std::memcpy(at, &q, 1);
}
float GetInt8(const std::uint8_t* at) {
  std::int8_t q;
  std::memcpy(&q, at, 1);
  return static_cast<float>(q);
}

// Every storage the format supports, in RFK_FORMAT_STORAGES' order: the one place the host knows
// how each is written (a new storage's row goes here; the assertions below fail until it does).
constexpr Codec kCodecs[] = {{f::Storage::kF32, nullptr, PutF32, GetF32},
                             {f::Storage::kF16, nullptr, PutF16, GetF16},
                             {f::Storage::kInt8, Int8Scale, PutInt8, GetInt8},
                             {f::Storage::kF16Scaled, F16Scale, PutF16Scaled, GetF16}};
constexpr bool CodecsMatchTable() {
  std::uint32_t seen = 0;
  for (const Codec& c : kCodecs) {
    if (f::ElementBytes(c.storage) == 0 || f::HasRowScales(c.storage) != (c.row_scale != nullptr)) return false;
    seen |= std::uint32_t{1} << static_cast<std::uint32_t>(c.storage);
  }
  return seen == f::EnumList<f::Storage>::kSupported;
}
static_assert(CodecsMatchTable(), "kCodecs: one row per supported storage, with a row scale where the table says so");

const Codec& CodecOf(f::Storage storage) {
  for (const Codec& c : kCodecs)
    if (c.storage == storage) return c;
  throw QuantizeError("storage " + Name(storage) + " cannot be written");
}

}  // namespace

void StoredRow(f::Storage storage, float* w, std::size_t n, float* scale) {
  if (storage == f::Storage::kF32) return;  // stored as it is
  const Codec& codec = CodecOf(storage);
  const float s = codec.row_scale != nullptr ? codec.row_scale(w, n) : 1.0f;
  if (codec.row_scale != nullptr) *scale = s;
  for (std::size_t c = 0; c < n; ++c) {
    std::uint8_t element[4];
    try {
      codec.put(w[c], s, element);
      w[c] = codec.get(element);
    } catch (const QuantizeError&) {  // left as it is: the writer refuses the model
    }
  }
}

std::vector<std::uint8_t> EncodeMatrix(f::Storage storage, const std::vector<float>& w, std::uint64_t rows,
                                       std::uint64_t cols,
                                       std::uint64_t (*index)(std::uint64_t, std::uint64_t, std::uint64_t),
                                       const float* given) {
  const Codec& codec = CodecOf(storage);
  const std::uint32_t eb = f::ElementBytes(storage);
  std::vector<std::uint8_t> out(f::QuantMatrixBytes(storage, rows, cols), 0);
  std::vector<float> scales(f::HasRowScales(storage) ? rows : 0);
  for (std::uint64_t j = 0; j < rows; ++j) {
    const float* row = w.data() + j * cols;
    if (!scales.empty()) scales[j] = given != nullptr ? given[j] : codec.row_scale(row, cols);
    const float s = scales.empty() ? 1.0f : scales[j];
    for (std::uint64_t c = 0; c < cols; ++c) codec.put(row[c], s, out.data() + index(j, c, cols) * eb);
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

std::vector<f::Storage> UserStorages() {
  std::vector<f::Storage> out;
  for (const f::EnumValue& v : f::EnumList<f::Storage>::kValues)
    if (v.support == f::Support::kSupported && f::StorageFor(static_cast<f::Storage>(v.number), f::kForUser))
      out.push_back(static_cast<f::Storage>(v.number));
  return out;
}

std::string StorageNames() {
  const std::vector<f::Storage> all = UserStorages();
  std::string list;
  for (std::size_t i = 0; i < all.size(); ++i)
    list += std::string(i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + f::NameOf(all[i]);
  return list;
}

f::Storage ParseStorage(const std::string& name) {
  for (const f::Storage s : UserStorages())
    if (name == f::NameOf(s)) return s;
  throw std::invalid_argument("storage must be " + StorageNames() + "; got '" + name + "'");
}

}  // namespace rfk::host
