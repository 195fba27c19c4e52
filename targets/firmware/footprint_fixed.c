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

/* A pinned core's sizes are compile-time constants, as in footprint_core.c. */
#ifdef RFK_PIN_ARRAY
#define INPUT_DIM(m) RFK_PIN_INPUT_DIM
#define SCRATCH_BYTES(m) RFK_PIN_FIXED_SCRATCH_BYTES
#define OUTPUTS(m) RFK_PIN_OUTPUTS
#else
#define INPUT_DIM(m) rfk_input_dim(m)
#define SCRATCH_BYTES(m) rfk_fixed_scratch_bytes(m)
#define OUTPUTS(m) rfk_num_outputs(m)
#endif

int main(void) {
  static rfk_model model; /* the handle is the application's; counted, it is sizeof(rfk_model) */
  rfk_status s = rfk_open(&model, rfk_model_flash, 0x100000u, 0);
  if (s != RFK_OK) return (int)s;
  s = rfk_predict_fixed(&model, rfk_input_ram, INPUT_DIM(&model), rfk_scratch_ram, SCRATCH_BYTES(&model),
                        rfk_output_ram, OUTPUTS(&model));
  if (s != RFK_OK) return (int)s;
  return (int)rfk_decide_class_fixed(&model, rfk_output_ram);
}
