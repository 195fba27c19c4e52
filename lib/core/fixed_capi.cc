// The C API of fixed-point models (include/rfk/rfk.h): thin wrappers over rfk/fixed.hpp, in a
// translation unit of their own so that firmware calling only rfk_predict_fixed links no float code
// of capi.cc's wrappers.
#include "fp_contract.h"  // first, as in every core source
#include "rfk/rfk.h"

#include <new>

#include "rfk/fixed.hpp"

namespace {

// The Model rfk_open placed in an rfk_model (capi.cc), or null when the handle is null or the
// open failed (an empty Model has no bytes).
const rfk::Model* Opened(const rfk_model* m) noexcept {
  if (m == nullptr) return nullptr;
  const auto* model = std::launder(static_cast<const rfk::Model*>(static_cast<const void*>(m->opaque)));
  return model->bytes != nullptr ? model : nullptr;
}

}  // namespace

extern "C" {

size_t rfk_fixed_scratch_bytes(const rfk_model* model) {
  const rfk::Model* m = Opened(model);
  return m != nullptr && rfk::FixedSection(*m) != nullptr ? rfk::FixedScratchBytes(*m) : 0;
}

rfk_status rfk_predict_fixed(const rfk_model* model, const int16_t* x, size_t x_len, void* scratch,
                             size_t scratch_bytes, int32_t* out, size_t out_len) {
  const rfk::Model* m = Opened(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return static_cast<rfk_status>(rfk::PredictFixed(*m, x, x_len, scratch, scratch_bytes, out, out_len));
}

uint32_t rfk_decide_class_fixed(const rfk_model* model, const int32_t* outputs) {
  const rfk::Model* m = Opened(model);
  return m != nullptr ? rfk::DecideClassFixed(*m, outputs) : 0;
}

float rfk_fixed_output_scale(const rfk_model* model) {
  const rfk::Model* m = Opened(model);
  return m != nullptr ? rfk::FixedOutputScale(*m) : 0.0f;
}

rfk_status rfk_quantize_input(const rfk_model* model, const float* x, size_t x_len, int16_t* xq,
                              size_t xq_len, uint32_t* saturated) {
  const rfk::Model* m = Opened(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return static_cast<rfk_status>(rfk::QuantizeInput(*m, x, x_len, xq, xq_len, saturated));
}

}  // extern "C"
