// A fixed-point model's int16 inputs from integer codes by integer arithmetic only (contract:
// rfk/rfk.h, rfk_quantize_codes): what an FPU-less firmware calls instead of QuantizeInput, whose
// float arithmetic links soft-float routines. No model is read: the constants come from
// `rfk export` (rfk::host::InputCodes). A translation unit of its own, so firmware that converts
// its inputs otherwise links none of it.
#include "fp_contract.h"  // first, as in every core source
#include "rfk/rfk.h"

#include <cstdint>

extern "C" rfk_status rfk_quantize_codes(const rfk_input_codes* conv, const int32_t* codes, size_t codes_len,
                                         int16_t* xq, size_t xq_len, uint32_t* saturated) {
  if (conv == nullptr || codes == nullptr || xq == nullptr || conv->center == nullptr || conv->mult == nullptr ||
      conv->bias == nullptr || conv->shift == nullptr)
    return RFK_NULL_ARGUMENT;
  if (codes_len != conv->dim) return RFK_INPUT_DIM_MISMATCH;
  if (xq_len < conv->dim) return RFK_OUTPUT_TOO_SMALL;
  for (uint32_t c = 0; c < conv->dim; ++c)
    if (conv->shift[c] > 62) return RFK_ARGUMENT_OUT_OF_RANGE;
  uint32_t count = 0;
  for (uint32_t c = 0; c < conv->dim; ++c) {
    // |d| <= 2^31 and |mult| < 2^31: |d mult| < 2^62, so the sum and the rounding term stay below
    // 2^63. A larger |d| is clamped first; it saturates either way (|d mult| >= 2^31 2^(shift - 30)
    // for the mults rfk export writes, far beyond 32767 2^shift).
    int64_t d = int64_t{codes[c]} - conv->center[c];
    const int64_t kLimit = int64_t{1} << 31;
    d = d > kLimit ? kLimit : d < -kLimit ? -kLimit : d;
    const int64_t v = d * conv->mult[c] + conv->bias[c];
    const unsigned s = conv->shift[c];
    const int64_t half = s > 0 ? int64_t{1} << (s - 1) : 0;
    const int64_t r = v >= 0 ? (v + half) >> s : -((-v + half) >> s);  // round half away from zero
    const bool clamped = r > 32767 || r < -32767;
    xq[c] = static_cast<int16_t>(clamped ? (r > 0 ? 32767 : -32767) : r);
    count += clamped ? 1u : 0u;
  }
  if (saturated != nullptr) *saturated = count;
  return RFK_OK;
}
