// Quantizing weights (f32 -> f16 / int8) and re-quantizing a model blob; see rfk/host/quantize.hpp.
#include "rfk/host/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/kernels.hpp"

namespace rfk::host {
namespace {

namespace f = format;

std::uint32_t Load32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint16_t Load16(const std::uint8_t* p) {
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

std::uint64_t RowMajorIndex(std::uint64_t j, std::uint64_t c, std::uint64_t cols) { return j * cols + c; }
std::uint64_t PanelIndex(std::uint64_t j, std::uint64_t c, std::uint64_t cols) {
  return (j / f::kPanelWidth) * f::kPanelWidth * cols + c * f::kPanelWidth + j % f::kPanelWidth;
}

std::string Name(f::Storage s) { return f::NameOf(s); }

void RefuseWidening(const char* what, f::Storage from, f::Storage to) {
  if (f::ElementBytes(to) > f::ElementBytes(from))
    throw QuantizeError(std::string(what) + " is stored " + Name(from) + "; converting it to the wider " + Name(to) +
                        " would not restore the precision it lost (convert from the f32 model instead)");
}

// The map_params payload with its storage field set to `storage`.
std::vector<std::uint8_t> MapParams(const std::uint8_t* p, std::uint32_t size, f::Storage storage) {
  std::vector<std::uint8_t> out(p, p + size);
  const auto v = static_cast<std::uint32_t>(storage);
  std::memcpy(out.data() + f::map_params::kStorage, &v, 4);
  return out;
}

// W widened to row-major StoredFrequencies x d (the padding rows of panels stay zero), re-encoded.
std::vector<std::uint8_t> Projection(const Model& m, f::Storage storage) {
  const bool panels = m.layout == f::Layout::kPanels;
  const std::uint64_t d = m.input_dim, rows = f::StoredFrequencies(m.layout, m.num_frequencies);
  std::vector<float> w(rows * d, 0.0f);
  for (std::uint64_t j = 0; j < m.num_frequencies; ++j)
    for (std::uint64_t c = 0; c < d; ++c)
      w[j * d + c] = WeightAt(m.projection_weights, panels ? PanelIndex(j, c, d) : RowMajorIndex(j, c, d), j);
  try {
    return EncodeMatrix(storage, w, rows, d, panels ? PanelIndex : RowMajorIndex);
  } catch (const QuantizeError& e) {
    throw QuantizeError(std::string("W (projection): ") + e.what() + "; store W as int8 or f32");
  }
}

// The fastfood section with G and S re-encoded as blocks x d' matrices (int8: one scale per
// block), the header, the permutations and the signs copied.
std::vector<std::uint8_t> FastfoodSection(const Model& m, const std::uint8_t* p, f::Storage storage) {
  const FastfoodArrays& a = m.fastfood;
  const std::uint64_t N = std::uint64_t{a.dp} * a.blocks;
  std::vector<std::uint8_t> out(p, p + f::fastfood::kHeaderBytes);
  for (const void* diag : {a.G, a.S}) {
    const WeightsView w = FastfoodDiagonal(a, diag);
    std::vector<float> v(N);
    for (std::uint64_t k = 0; k < N; ++k) v[k] = WeightAt(w, k, k / a.dp);
    std::vector<std::uint8_t> enc;
    try {
      enc = EncodeMatrix(storage, v, a.blocks, a.dp, RowMajorIndex);
    } catch (const QuantizeError& e) {
      throw QuantizeError(std::string("Fastfood's ") + (diag == a.G ? "G" : "S") + ": " + e.what() +
                          "; store the map as int8 or f32");
    }
    out.insert(out.end(), enc.begin(), enc.end());
  }
  out.insert(out.end(), a.perm, a.perm + f::fastfood::PermBytes(a.dp, static_cast<std::uint32_t>(N)));
  out.insert(out.end(), a.signs, a.signs + (N + 7) / 8);
  return out;
}

// `head`'s int8 weights as the format stores them (format::QuantMatrixBytes).
std::vector<std::uint8_t> EncodeInt8Head(const Int8Head& head, std::uint64_t K, std::uint64_t D) {
  if (head.q.size() != K * D || head.scale.size() != K || head.bias.size() != K)
    throw std::logic_error("an int8 head of the wrong size for the model");
  std::vector<std::uint8_t> out(f::QuantMatrixBytes(f::Storage::kInt8, K, D), 0);
  std::memcpy(out.data(), head.q.data(), K * D);
  std::memcpy(out.data() + f::QuantValuesBytes(f::Storage::kInt8, K, D), head.scale.data(), 4 * K);
  return out;
}

// Whether every weight rounds to a finite binary16 (|w| < 65520; FloatToHalf's range).
bool FitsF16(const std::vector<float>& w) {
  for (float v : w)
    if (!(std::fabs(v) < 65520.0f)) return false;
  return true;
}

// The head: its header with the storage field (0 for f32, as rfk has always written it), the
// weights re-encoded (or `given`'s, with its biases), the biases unchanged. An f16 head with a
// weight beyond f16's range is stored f16-scaled (one power-of-two scale per output, F16Scale).
std::vector<std::uint8_t> Head(const Model& m, const std::uint8_t* p, f::Storage storage, const Int8Head* given) {
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  std::vector<std::uint8_t> out(p, p + f::head::kHeaderBytes);
  const std::uint32_t v = storage == f::Storage::kF32 ? 0u : static_cast<std::uint32_t>(storage);
  std::memcpy(out.data() + f::head::kStorage, &v, 4);
  if (given != nullptr) {
    if (storage != f::Storage::kInt8) throw std::logic_error("an int8 head given for another storage");
    const std::vector<std::uint8_t> enc = EncodeInt8Head(*given, K, D);
    out.insert(out.end(), enc.begin(), enc.end());
    const auto* bias = reinterpret_cast<const std::uint8_t*>(given->bias.data());
    out.insert(out.end(), bias, bias + 4 * K);
    return out;
  }
  std::vector<float> w(K * D);
  for (std::uint64_t k = 0; k < K; ++k)
    for (std::uint64_t j = 0; j < D; ++j) w[k * D + j] = WeightAt(m.head, k * D + j, k);
  if (storage == f::Storage::kF16 && !FitsF16(w)) {
    storage = f::Storage::kF16Scaled;
    const auto scaled = static_cast<std::uint32_t>(storage);
    std::memcpy(out.data() + f::head::kStorage, &scaled, 4);
  }
  std::vector<std::uint8_t> enc;
  try {
    enc = EncodeMatrix(storage, w, K, D, RowMajorIndex);
  } catch (const QuantizeError& e) {
    throw QuantizeError(std::string("the head: ") + e.what() + "; store the head as int8 or f32 (--head-storage)");
  }
  out.insert(out.end(), enc.begin(), enc.end());
  const auto* bias = reinterpret_cast<const std::uint8_t*>(m.head_bias);
  out.insert(out.end(), bias, bias + 4 * K);
  return out;
}

// The standardize section for a model whose map weights go to `w_storage`: f16 (and *storage set)
// when StandardizationStorage chooses it for an f32 section, else the section as it is (an f16
// one included).
std::vector<std::uint8_t> StandardizeSection(const Model& m, const std::uint8_t* p, std::uint32_t size,
                                             f::Storage w_storage, std::uint32_t* storage) {
  const std::uint32_t d = m.input_dim;
  const bool fourier_only = (m.projection_weights.data != nullptr || m.fastfood.dp != 0) && m.num_grids == 0;
  if (m.mean != nullptr) {
    std::vector<float> mean(m.mean, m.mean + d), inv(m.inv_scale, m.inv_scale + d);
    if (StandardizationStorage(w_storage, fourier_only, &mean, &inv) == f::Storage::kF16) {
      mean.insert(mean.end(), inv.begin(), inv.end());
      *storage = static_cast<std::uint32_t>(f::Storage::kF16);
      return EncodeMatrix(f::Storage::kF16, mean, 2, d, RowMajorIndex);
    }
  }
  return std::vector<std::uint8_t>(p, p + size);
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
                                       std::uint64_t (*index)(std::uint64_t, std::uint64_t, std::uint64_t)) {
  const std::uint32_t eb = f::ElementBytes(storage);
  if (eb == 0) throw QuantizeError("storage " + Name(storage) + " cannot be written");
  std::vector<std::uint8_t> out(f::QuantMatrixBytes(storage, rows, cols), 0);
  std::vector<float> scales(f::HasRowScales(storage) ? rows : 0);
  for (std::uint64_t j = 0; j < rows; ++j) {
    const float* row = w.data() + j * cols;
    if (storage == f::Storage::kInt8) scales[j] = Int8Scale(row, cols);
    if (storage == f::Storage::kF16Scaled) scales[j] = F16Scale(row, cols);
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
  const bool has_w = m.projection_weights.data != nullptr, has_ff = m.fastfood.dp != 0;
  if (has_w) RefuseWidening("W (projection)", m.projection_storage, w_storage);
  if (has_ff) RefuseWidening("Fastfood's G and S", m.projection_storage, w_storage);
  RefuseWidening("the head", m.head_storage, head_storage);
  const std::uint8_t* b = m.bytes;
  const std::uint32_t count = Load32(b + f::kOffSectionCount), table = Load32(b + f::kOffSectionTable);
  std::vector<RawSection> sections;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint8_t* e = b + table + i * f::kSectionEntryBytes;
    RawSection s;
    s.type = Load16(e + f::entry::kType);
    s.flags = Load16(e + f::entry::kFlags);
    s.storage = Load32(e + f::entry::kStorage);
    const std::uint8_t* p = b + Load32(e + f::entry::kOffset);
    const std::uint32_t size = Load32(e + f::entry::kSize);
    if ((has_w || has_ff) && s.type == static_cast<std::uint16_t>(f::SectionType::kMapParams))
      s.payload = MapParams(p, size, w_storage);
    else if (has_w && s.type == static_cast<std::uint16_t>(f::SectionType::kProjection))
      s.payload = Projection(m, w_storage);
    else if (has_ff && s.type == static_cast<std::uint16_t>(f::SectionType::kFastfood))
      s.payload = FastfoodSection(m, p, w_storage);
    else if (s.type == static_cast<std::uint16_t>(f::SectionType::kHead))
      s.payload = Head(m, p, head_storage, head);
    else if (s.type == static_cast<std::uint16_t>(f::SectionType::kStandardize))
      s.payload = StandardizeSection(m, p, size, w_storage, &s.storage);
    else
      s.payload.assign(p, p + size);
    sections.push_back(std::move(s));
  }
  return AssembleModel(sections);
}

std::vector<std::uint8_t> StoreQuantized(const std::vector<std::uint8_t>& blob, f::Storage w_storage,
                                         f::Storage head_storage, const Int8Head* head) {
  if (w_storage == f::Storage::kF32 && head_storage == f::Storage::kF32 && head == nullptr) return blob;
  return RequantizeModel(OpenedModel(blob, "the trained model").model(), w_storage, head_storage, head);
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
