// The C API of fixed-point models (include/rfk/rfk.h): thin wrappers over rfk/fixed.hpp, in a
// translation unit of their own so that firmware calling only rfk_predict_fixed links no float code
// of capi.cc's wrappers.
#include "fp_contract.h"  // first, as in every core source
#include "capi_handle.h"

#include "rfk/fixed.hpp"

namespace {

using rfk::core::OpenedModel;

}  // namespace

extern "C" {

size_t rfk_fixed_scratch_bytes(const rfk_model* model) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr && rfk::FixedSection(*m) != nullptr ? RFK_ON_MODEL0(m, FixedScratchBytes) : 0;
}

rfk_status rfk_predict_fixed(const rfk_model* model, const int16_t* x, size_t x_len, void* scratch,
                             size_t scratch_bytes, int32_t* out, size_t out_len) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return static_cast<rfk_status>(RFK_ON_MODEL(m, PredictFixed, x, x_len, scratch, scratch_bytes, out, out_len));
}

uint32_t rfk_decide_class_fixed(const rfk_model* model, const int32_t* outputs) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? RFK_ON_MODEL(m, DecideClassFixed, outputs) : 0;
}

float rfk_fixed_output_scale(const rfk_model* model) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? RFK_ON_MODEL0(m, FixedOutputScale) : 0.0f;
}

rfk_status rfk_quantize_input(const rfk_model* model, const float* x, size_t x_len, int16_t* xq,
                              size_t xq_len, uint32_t* saturated) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return static_cast<rfk_status>(RFK_ON_MODEL(m, QuantizeInput, x, x_len, xq, xq_len, saturated));
}

}  // extern "C"
