// Validation of the fixed section (format::fixed_params; docs/FORMAT.md, "fixed"): its counts
// against the model's, its size, then every array's range. Checks on floats are made on their bits
// (no float compare: a soft-float call on cores without an FPU). The ranges checked here are what
// PredictFixed's overflow bounds assume (lib/core/fixed_predict.cc).
#include "fp_contract.h"  // first, as in every core source
#include "fixed_open.h"

#include "bytes.h"
#include "core_config.h"
#include "fixed_fastfood.h"
#include "rfk/fixed.hpp"

namespace rfk::core {
namespace {

namespace f = format;
namespace fp = format::fixed_params;

// A finite f32 (bits), and with `positive` also > 0 (not -0, not +0, not negative).
bool FiniteBits(std::uint32_t bits, bool positive) {
  if ((bits & 0x7F800000u) == 0x7F800000u) return false;
  return !positive || ((bits >> 31) == 0 && bits != 0);
}

// Header: the map is one the integer path computes, the counts are the model's, u and the input
// width are valid. (The helpers stay out of line: inlined, their frames would add up under OpenModel's.)
[[gnu::noinline]] Status CheckFixedHeader(const FixedReader& r, std::uint32_t size, std::uint32_t entry, const Model& m) {
  // Dense Fourier maps (built with kFixedDense), Fastfood (kFixedFastfood), binning (kFixedBinning),
  // or a dense map with binning; not Fastfood beside binning.
  const bool ff_map = f::IsFastfood(m.map), grids = m.num_grids != 0, dense = !ff_map && m.fourier_features != 0;
  if ((ff_map && (!kFixedFastfood || grids)) || (dense && !kFixedDense) || (grids && !kFixedBinning) ||
      (m.fourier_features == 0 && !grids))
    return r.Fail(Status::kUnsupportedMap, "fixed", entry);
  if (size < fp::kHeaderBytes) return r.Fail(Status::kBadSectionSize, "fixed.size", entry + f::entry::kSize);
  if (r.U32(fp::kInputDim) != m.input_dim) return r.Fail(Status::kBadValue, "fixed.input_dim", r.at + fp::kInputDim);
  if (r.U32(fp::kNumFrequencies) != m.num_frequencies)
    return r.Fail(Status::kBadValue, "fixed.num_frequencies", r.at + fp::kNumFrequencies);
  if (r.U32(fp::kNumOutputs) != m.num_outputs)
    return r.Fail(Status::kBadValue, "fixed.num_outputs", r.at + fp::kNumOutputs);
  if (r.U32(fp::kNumFeatures) != m.num_features)
    return r.Fail(Status::kBadValue, "fixed.num_features", r.at + fp::kNumFeatures);
  if (!FiniteBits(r.U32(fp::kOutputScale), true))
    return r.Fail(Status::kBadValue, "fixed.output_scale", r.at + fp::kOutputScale);
  if (r.U32(fp::kInputBits) != 16)
    return r.Fail(r.U32(fp::kInputBits) == 8 ? Status::kUnsupportedStorage : Status::kBadValue, "fixed.input_bits",
                  r.at + fp::kInputBits);
  return Status::kOk;
}

// The input quantization (offsets finite, scales finite and > 0) and W's shifts (<= 31; a Fastfood
// map has none: `dense` false).
[[gnu::noinline]] Status CheckFixedMap(const FixedReader& r, const fp::Layout& l, const Model& m, bool dense) {
  for (std::uint32_t c = 0; c < m.input_dim; ++c) {
    if (!FiniteBits(r.U32(l.offset + 4 * c), false))
      return r.Fail(Status::kBadValue, "fixed.input_offset", r.at + l.offset + 4 * c);
    if (!FiniteBits(r.U32(l.scale + 4 * c), true))
      return r.Fail(Status::kBadValue, "fixed.input_scale", r.at + l.scale + 4 * c);
  }
  for (std::uint32_t j = 0; (!kFixedFastfood || dense) && j < m.num_frequencies; ++j)
    if (r.b[r.at + l.shift + j] > 31) return r.Fail(Status::kBadValue, "fixed.shift", r.at + l.shift + j);
  return Status::kOk;
}

// The head: q in [-127, 127], mult <= 2^15, rshift <= 62, |bias| <= 2^30, and the output bound
// |bias| + (mult * 32767 * sum_j |q_kj| + 2^(rshift-1)) >> rshift <= 2^31 - 1, which makes every
// int32 output PredictFixed can compute representable (its proof: lib/core/fixed_predict.cc).
[[gnu::noinline]] Status CheckFixedHead(const FixedReader& r, const fp::Layout& l, const Model& m) {
  const std::uint32_t D = m.num_features;
  for (std::uint32_t k = 0; k < m.num_outputs; ++k) {
    const std::uint32_t row = l.head + k * D;  // within the section: size == l.bytes < 2^32
    const auto* q = reinterpret_cast<const std::int8_t*>(r.b + r.at + row);
    std::uint32_t sum = 0;  // <= 127 * 2^24 < 2^31
    for (std::uint32_t j = 0; j < D; ++j) {
      if (q[j] == -128) return r.Fail(Status::kBadValue, "fixed.head", r.at + row + j);
      sum += static_cast<std::uint32_t>(q[j] < 0 ? -q[j] : q[j]);
    }
    const std::uint32_t mult = r.U32(l.mult + 4 * k), rshift = r.U32(l.rshift + 4 * k);
    const auto bias = static_cast<std::int32_t>(r.U32(l.bias + 4 * k));
    if (mult > fp::kMaxMult) return r.Fail(Status::kBadValue, "fixed.mult", r.at + l.mult + 4 * k);
    if (rshift > fp::kMaxRshift) return r.Fail(Status::kBadValue, "fixed.rshift", r.at + l.rshift + 4 * k);
    if (bias > fp::kMaxBias || bias < -fp::kMaxBias) return r.Fail(Status::kBadValue, "fixed.bias", r.at + l.bias + 4 * k);
    // sum * 32767 * mult < 2^31 * 2^15 * 2^15 = 2^61: no u64 overflow.
    const std::uint64_t half = rshift == 0 ? 0 : std::uint64_t{1} << (rshift - 1);
    const std::uint64_t term = (std::uint64_t{sum} * 32767u * mult + half) >> rshift;
    const std::uint64_t magnitude = term + static_cast<std::uint64_t>(bias < 0 ? -std::int64_t{bias} : bias);
    if (magnitude > 0x7FFFFFFFu) return r.Fail(Status::kBadValue, "fixed.mult", r.at + l.mult + 4 * k);
  }
  return Status::kOk;
}

}  // namespace

Status CheckFixedSection(const std::uint8_t* blob, std::uint32_t offset, std::uint32_t size, std::uint32_t entry,
                         Model& m, ModelError* err) {
  const FixedReader r{blob, offset, err};
  Status s = CheckFixedHeader(r, size, entry, m);
  if (s != Status::kOk) return s;
  const bool ff = kFixedFastfood && f::IsFastfood(m.map);
  const bool bins = kFixedBinning && m.num_grids != 0;  // a binning tail after bias[K] (never beside Fastfood)
  const fp::Layout l = fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features, !ff);
  std::uint64_t bytes = bins ? fp::binning::LayoutOf(l.bytes, m.num_grids, m.input_dim).bytes : l.bytes;
  if constexpr (kFixedFastfood) {
    if (ff) bytes = FixedFastfoodBytes(l.bytes, m.input_dim, m.num_frequencies);
    if (bytes == 0) return r.Fail(Status::kBadValue, "fixed.input_dim", r.at + fp::kInputDim);  // d' > 2^15
  }
  if (size != bytes) return r.Fail(Status::kBadSectionSize, "fixed.size", entry + f::entry::kSize);
  // From here the section's size (< 2^32) is the layout's: every offset fits in 32 bits.
  s = CheckFixedMap(r, l, m, !ff);
  if (s == Status::kOk) s = CheckFixedHead(r, l, m);
  if constexpr (kFixedFastfood)
    if (s == Status::kOk && ff)
      s = CheckFixedFastfood(blob, offset, static_cast<std::uint32_t>(l.bytes), m.input_dim, m.num_frequencies, err);
  if (bins && s == Status::kOk) s = CheckFixedBinning(r, m);
  if (s == Status::kOk) Put(m.fixed_offset, offset);
  return s;
}

}  // namespace rfk::core
