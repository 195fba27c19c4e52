// The host's float -> int16 input conversion of a fixed-point model (contract: rfk/fixed.hpp,
// QuantizeInput). Float arithmetic, so it is a separate translation unit: firmware that receives
// integer inputs and calls only PredictFixed links none of it.
#include "fp_contract.h"  // first: (x - offset) * scale is two roundings on every target
#include "bytes.h"
#include "core_config.h"
#include "rfk/fixed.hpp"

namespace rfk {
namespace {

// round(v) half away from zero, clamped to [-32767, 32767]; *clamped set when the rounded value
// was outside (|v| >= 32767.5).
std::int16_t RoundClamp(float v, bool* clamped) {
  *clamped = !(v < 32767.5f && v > -32767.5f);
  if (*clamped) return v > 0 ? std::int16_t{32767} : std::int16_t{-32767};
  const auto t = static_cast<std::int32_t>(v);      // towards zero, |t| <= 32767
  const float frac = v - static_cast<float>(t);     // exact: |v| < 2^15, frac in (-1, 1)
  const std::int32_t r = t + (frac >= 0.5f ? 1 : frac <= -0.5f ? -1 : 0);
  return static_cast<std::int16_t>(r);
}

Status QuantizeOf(const Model& m, const float* x, std::size_t x_len, std::int16_t* xq, std::size_t xq_len,
                  std::uint32_t* saturated) {
  if (FixedSection(m) == nullptr) return Status::kUnsupportedStorage;
  if (x == nullptr || xq == nullptr) return Status::kNullArgument;
  if (x_len != m.input_dim) return Status::kInputDimMismatch;
  if (xq_len < m.input_dim) return Status::kOutputTooSmall;
  const format::fixed_params::Layout l = format::fixed_params::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs,
                                                                        m.num_features);
  const std::uint8_t* sec = FixedSection(m);
  std::uint32_t count = 0;
  for (std::uint32_t c = 0; c < m.input_dim; ++c) {
    float v = x[c];
    if (core::IsNaN(v) && m.impute != nullptr) v = m.impute[c];
    if (!core::IsFinite(v)) return Status::kNonFiniteInput;
    bool clamped = false;
    xq[c] = RoundClamp((v - core::LoadF32(sec + l.offset + 4 * c)) * core::LoadF32(sec + l.scale + 4 * c),
                       &clamped);
    count += clamped ? 1u : 0u;
  }
  if (saturated != nullptr) *saturated = count;
  return Status::kOk;
}

}  // namespace

Status QuantizeInput(const Model& model, const float* x, std::size_t x_len, std::int16_t* xq, std::size_t xq_len,
                     std::uint32_t* saturated) noexcept {
  if (core::kPinned && model.bytes == nullptr) return Status::kUnsupportedStorage;  // as FixedSection says
  return QuantizeOf(core::ModelOf(model), x, x_len, xq, xq_len, saturated);
}

#ifdef RFK_PIN_MODEL
Status core::pinned::QuantizeInput(const float* x, std::size_t x_len, std::int16_t* xq, std::size_t xq_len,
                                   std::uint32_t* saturated) noexcept {
  return QuantizeOf(kPinnedModel, x, x_len, xq, xq_len, saturated);
}
#endif

}  // namespace rfk
