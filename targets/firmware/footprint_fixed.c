/* Footprint of the integer path: open a fixed-point model in place and predict one int16 input
 * (rfk_open, rfk_predict_fixed, rfk_decide_class_fixed), as footprint_core.c does for the float
 * core; the same linker-defined addresses hold the model, the input (int16 here), the output (int32)
 * and the scratch. Built, sized and analysed (footprint_fixed); never run. */
#include <stdint.h>

#include "rfk/rfk.h"

extern const uint8_t rfk_model_flash[];
extern const int16_t rfk_input_ram[];
extern int32_t rfk_output_ram[];
extern uint8_t rfk_scratch_ram[];

int main(void) {
  static rfk_model model; /* the handle is the application's; counted, it is sizeof(rfk_model) */
  rfk_status s = rfk_open(&model, rfk_model_flash, 0x100000u, 0);
  if (s != RFK_OK) return (int)s;
  s = rfk_predict_fixed(&model, rfk_input_ram, rfk_input_dim(&model), rfk_scratch_ram,
                        rfk_fixed_scratch_bytes(&model), rfk_output_ram, rfk_num_outputs(&model));
  if (s != RFK_OK) return (int)s;
  return (int)rfk_decide_class_fixed(&model, rfk_output_ram);
}
