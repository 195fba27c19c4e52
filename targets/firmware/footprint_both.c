/* Footprint of a firmware that runs models of either path (an OTA-updated model of unknown kind):
 * open a model in place, predict one float input with rfk_predict, and where the model is
 * fixed-only (RFK_UNSUPPORTED_STORAGE) convert the input with rfk_quantize_input and predict it with
 * rfk_predict_fixed; then the decision on that path. footprint_core.c links the integer path's
 * validator not at all (lib/core/fixed_open.h, RFK_FIXED_ON_USE); this image links it and the
 * integer path's prediction. The same linker-defined addresses as footprint_core.c. Built, sized
 * and analysed (footprint_both, footprint_both_small_nofields); never run. */
#include <stdint.h>

#include "rfk/rfk.h"

extern const uint8_t rfk_model_flash[];
extern const float rfk_input_ram[];
extern float rfk_output_ram[];
extern uint8_t rfk_scratch_ram[];
extern int16_t rfk_input_q_ram[];   /* rfk_input_ram's place (the float input is read first) */
extern int32_t rfk_output_q_ram[];  /* rfk_output_ram's place */

int main(void) {
  static rfk_model model; /* the handle is the application's; counted, it is sizeof(rfk_model) */
  rfk_status s = rfk_open(&model, rfk_model_flash, 0x100000u, 0);
  if (s != RFK_OK) return (int)s;
  const size_t d = rfk_input_dim(&model), k = rfk_num_outputs(&model);
  s = rfk_predict(&model, rfk_input_ram, d, rfk_scratch_ram, rfk_scratch_bytes(&model), rfk_output_ram, k);
  if (s == RFK_OK) return (int)rfk_decide_class(&model, rfk_output_ram);
  if (s != RFK_UNSUPPORTED_STORAGE) return (int)s;
  s = rfk_quantize_input(&model, rfk_input_ram, d, rfk_input_q_ram, d, 0);
  if (s != RFK_OK) return (int)s;
  s = rfk_predict_fixed(&model, rfk_input_q_ram, d, rfk_scratch_ram, rfk_fixed_scratch_bytes(&model), rfk_output_q_ram,
                        k);
  if (s != RFK_OK) return (int)s;
  return (int)rfk_decide_class_fixed(&model, rfk_output_q_ram);
}
