// Host-only: quantizing weights to the format's storages (docs/FORMAT.md, "Quantized storage") and
// re-quantizing a whole model blob without retraining (`rfk train --storage`, `rfk convert`).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/model.hpp"

namespace rfk::host {

// A value that does not fit a storage (an f32 weight beyond f16's range, a non-finite weight).
class QuantizeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// f32 -> IEEE binary16 bits, rounded to nearest, ties to even (subnormal halves included).
// Throws QuantizeError for a non-finite v or one whose rounding exceeds 65504 (f16's largest).
std::uint16_t FloatToHalf(float v);

// Row `row` of an int8 matrix: scale = max_c |w_c| / 127 (in f32; 1 for an all-zero row), q_c =
// w_c / scale rounded half away from zero, clamped to [-127, 127].
float Int8Scale(const float* w, std::size_t n);
std::int8_t Int8Quantize(float w, float scale);

// The stored bytes (format::QuantMatrixBytes) of a rows x cols matrix given row-major in `w`, its
// element (j, c) placed at index(j, c) of the stored element order (W's panels; identity for the
// head), int8 scales per row j. f32 stores the floats unchanged.
std::vector<std::uint8_t> EncodeMatrix(format::Storage storage, const std::vector<float>& w, std::uint64_t rows,
                                       std::uint64_t cols, std::uint64_t (*index)(std::uint64_t j, std::uint64_t c,
                                                                                  std::uint64_t cols));

// A copy of an opened model whose map weights -- W (projection) of a dense Fourier map, or G and S
// of a Fastfood map (one int8 scale per block of d') -- are stored in `w_storage` and whose head
// is stored in `head_storage`; every other section is copied byte for byte (unknown optional ones
// too), in the same order. The weights are widened from the source's storage and quantized again.
// Throws QuantizeError when a target storage is wider than the source's (precision lost earlier is
// not restored: convert from the f32 model instead), or a value does not fit. A model without a
// Fourier map ignores w_storage.
std::vector<std::uint8_t> RequantizeModel(const Model& m, format::Storage w_storage, format::Storage head_storage);

// "f32", "f16", "int8" -> the storage; throws std::invalid_argument naming the choices otherwise.
format::Storage ParseStorage(const std::string& name);

}  // namespace rfk::host
