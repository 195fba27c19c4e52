// A classifier's decision and class probabilities from its K raw outputs, through the model's
// calibration section (format::calibration). The calibrated logits are computed once here, for
// both: DecideClass takes their maximum (a few multiply-adds: no exp, no division, which cost a
// soft-float core 1.5 KB of flash), Probabilities their sigmoid / softmax. No allocation, no libm.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include <cstring>

#include "bytes.h"
#include "core_config.h"
#include "rfk/model.hpp"

namespace rfk {
namespace {

using M = format::CalibrationMethod;

// e^x for x <= 0 (callers subtract a maximum first): relative error below 1e-6 down to x = -87;
// 0 below -87 (no denormals), for -inf and for NaN. IEEE + - x / and bit manipulation only: the
// same bits on every target and backend, and no libm (flash on Cortex-M).
float ExpNonPositive(float x) {
  if (!(x > -87.0f)) return 0.0f;
  const float kLog2e = 1.44269504f, kLn2Hi = 0.693145752f, kLn2Lo = 1.42860677e-6f;
  const float t = x * kLog2e - 0.5f;  // n = round(x log2 e), x <= 0: truncate t toward zero - 1
  int n = static_cast<int>(t);
  if (static_cast<float>(n) > t) --n;  // floor
  ++n;
  const float nf = static_cast<float>(n);
  const float r = (x - nf * kLn2Hi) - nf * kLn2Lo;  // |r| <= ln2/2 (+ rounding)
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;  // e^r, truncation error r^8/8! < 1e-8
  // 2^n, n in [-126, 0]
  const std::uint32_t bits = static_cast<std::uint32_t>(n + 127) << 23;
  float scale;
  static_assert(sizeof scale == sizeof bits, "binary32");
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

bool IsBinaryMethod(std::uint32_t method) {
  return method == static_cast<std::uint32_t>(M::kPlatt) || method == static_cast<std::uint32_t>(M::kPlattCubic);
}

// Binary: t = A s + B (+ C s^3), p(class 1) = 1/(1 + e^t). For finite s, t is never NaN: an
// infinite t (s^3 or A s overflowing) has one sign, since A s and C s^3 have the same sign in
// platt-cubic (A, C <= 0), and C s^3 is NaN only as 0 * inf, which is left out (C = 0).
float BinaryLogit(const Model& m, float s) {
  const std::uint8_t* c = m.calibration_params;
  float t = core::LoadF32(c) * s + core::LoadF32(c + 4);
  if (m.calibration_method == static_cast<std::uint32_t>(M::kPlattCubic)) {
    const float c3 = core::LoadF32(c + 8) * (s * s * s);
    if (c3 == c3) t += c3;
  }
  return t;
}

// proba[1] = p = 1/(1 + e^t), proba[0] = 1 - p, with e^-|t| only: no overflow for any finite s;
// an infinite t gives p = 0 or 1.
void BinaryProbabilities(const Model& m, float s, float* proba) {
  const float t = BinaryLogit(m, s);
  const float e = ExpNonPositive(t > 0.0f ? -t : t);
  const float small = e / (1.0f + e);  // the smaller of p and 1 - p
  proba[1] = t > 0.0f ? small : 1.0f - small;
  proba[0] = t > 0.0f ? 1.0f - small : small;
}

// Multi-class: class k's calibrated logit z_k = A s_k (softmax-temperature) or a_k s_k + b_k
// (softmax-vector: a[K] then b[K]).
float Logit(const Model& m, const float* outputs, std::uint32_t k) {
  const std::uint8_t* c = m.calibration_params;
  const std::uint32_t K = m.num_outputs;
  return m.calibration_method == static_cast<std::uint32_t>(M::kSoftmaxVector)
             ? core::LoadF32(c + 4 * k) * outputs[k] + core::LoadF32(c + 4 * (K + k))
             : core::LoadF32(c) * outputs[k];
}

// The largest logit and the softmax's denominator sum_k e^(z_k - top), summed in class order.
// The sum is below 1 only where a logit overflowed (the maximum's own term is e^0 = 1).
void SoftmaxSum(const Model& m, const float* outputs, float* top, float* sum) {
  *top = Logit(m, outputs, 0);
  for (std::uint32_t k = 1; k < m.num_outputs; ++k) {
    const float z = Logit(m, outputs, k);
    *top = z > *top ? z : *top;
  }
  *sum = 0.0f;
  for (std::uint32_t k = 0; k < m.num_outputs; ++k) *sum += ExpNonPositive(Logit(m, outputs, k) - *top);
}

bool AllFinite(const Model& m, const float* outputs) {
  for (std::uint32_t k = 0; k < m.num_outputs; ++k)
    if (!core::IsFinite(outputs[k])) return false;
  return true;
}

std::uint32_t DecideRawOf(const Model& model, const float* outputs) {
  switch (model.task) {
    case format::Task::kBinary:
      return outputs[0] > 0.0f ? 1u : 0u;
    case format::Task::kMulticlass: {
      std::uint32_t best = 0;
      for (std::uint32_t k = 1; k < model.num_outputs; ++k)
        if (outputs[k] > outputs[best]) best = k;
      return best;
    }
    default:
      return 0;
  }
}

std::uint32_t DecideOf(const Model& model, const float* outputs) {
  // Without the section: the raw rule. A NaN output (which Probabilities refuses) decides as in
  // the raw rule, by comparisons that are false: class 0 (binary), or a class before it.
  if (!core::kReadCalibration || model.calibration_method == 0 || model.task == format::Task::kRegression)
    return DecideRawOf(model, outputs);
  if (IsBinaryMethod(model.calibration_method)) return BinaryLogit(model, outputs[0]) < 0.0f ? 1u : 0u;
  std::uint32_t best = 0;
  float best_z = Logit(model, outputs, 0);
  for (std::uint32_t k = 1; k < model.num_outputs; ++k) {
    const float z = Logit(model, outputs, k);
    if (z > best_z) best = k, best_z = z;
  }
  return best;
}

Status ProbabilitiesOf(const Model& model, const float* outputs, std::size_t out_len, float* proba,
                       std::size_t proba_len) {
  if (outputs == nullptr || proba == nullptr) return Status::kNullArgument;
  if (!core::kReadCalibration || model.calibration_method == 0) return Status::kNoCalibration;
  if (out_len < model.num_outputs) return Status::kInputDimMismatch;
  if (proba_len < NumClasses(model)) return Status::kOutputTooSmall;
  if (!AllFinite(model, outputs)) return Status::kNonFiniteInput;
  if (IsBinaryMethod(model.calibration_method)) {
    BinaryProbabilities(model, outputs[0], proba);
    return Status::kOk;
  }
  float top, sum;
  SoftmaxSum(model, outputs, &top, &sum);
  if (!(sum >= 1.0f)) return Status::kArgumentOutOfRange;  // a logit overflowed
  const float inv = 1.0f / sum;
  for (std::uint32_t k = 0; k < model.num_outputs; ++k) proba[k] = ExpNonPositive(Logit(model, outputs, k) - top) * inv;
  return Status::kOk;
}

}  // namespace

// The entry points. A pinned core checks here that the Model is open, then reads kPinnedModel
// (pinned_model.h, ModelOf); a Model that is not open gets what an empty one gets from the bodies.
std::uint32_t DecideClassRaw(const Model& model, const float* outputs) noexcept {
  return model.bytes != nullptr ? DecideRawOf(core::ModelOf(model), outputs) : 0;
}
std::uint32_t DecideClass(const Model& model, const float* outputs) noexcept {
  return model.bytes != nullptr ? DecideOf(core::ModelOf(model), outputs) : 0;
}
Status Probabilities(const Model& model, const float* outputs, std::size_t out_len, float* proba,
                     std::size_t proba_len) noexcept {
  if (core::kPinned && model.bytes == nullptr)
    return outputs == nullptr || proba == nullptr ? Status::kNullArgument : Status::kNoCalibration;
  return ProbabilitiesOf(core::ModelOf(model), outputs, out_len, proba, proba_len);
}

#ifdef RFK_PIN_MODEL
// The C API's calls in a pinned core: the model is open (the handle said so), and is kPinnedModel.
// Flattened, as pinned::Predict: the model's task and calibration fold into the decision.
namespace core::pinned {
[[gnu::flatten]] std::uint32_t DecideClassRaw(const float* outputs) noexcept { return DecideRawOf(kPinnedModel, outputs); }
[[gnu::flatten]] std::uint32_t DecideClass(const float* outputs) noexcept { return DecideOf(kPinnedModel, outputs); }
Status Probabilities(const float* outputs, std::size_t out_len, float* proba, std::size_t proba_len) noexcept {
  return ProbabilitiesOf(kPinnedModel, outputs, out_len, proba, proba_len);
}
}  // namespace core::pinned
#endif

}  // namespace rfk
