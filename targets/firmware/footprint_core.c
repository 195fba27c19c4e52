/* Footprint of the inference core: open a model in place and predict one input, the whole
 * device-side API an application needs (every map kind: Predict dispatches on the model). The
 * model, the input, the output and the scratch are linker-defined addresses outside the image
 * (flash programmed separately, application RAM), so the image holds only code: subtracting
 * footprint_empty.elf leaves the core (plus whatever libgcc/libm routines it pulls in; the
 * footprint test lists them). Built, sized and analysed; never run. */
#include <stdint.h>

#include "rfk/rfk.h"

extern const uint8_t rfk_model_flash[];
extern const float rfk_input_ram[];
extern float rfk_output_ram[];
extern uint8_t rfk_scratch_ram[];

/* A pinned core's application knows its model's sizes at compile time (the configuration's
 * RFK_PIN_* constants, which size its buffers); any other reads them from the open model. */
#ifdef RFK_PIN_ARRAY
#define INPUT_DIM(m) RFK_PIN_INPUT_DIM
#define SCRATCH_BYTES(m) RFK_PIN_SCRATCH_BYTES
#define OUTPUTS(m) RFK_PIN_OUTPUTS
#else
#define INPUT_DIM(m) rfk_input_dim(m)
#define SCRATCH_BYTES(m) rfk_scratch_bytes(m)
#define OUTPUTS(m) rfk_num_outputs(m)
#endif

int main(void) {
  static rfk_model model; /* the handle is the application's; counted, it is sizeof(rfk_model) */
  rfk_status s = rfk_open(&model, rfk_model_flash, 0x100000u, 0);
  if (s != RFK_OK) return (int)s;
  s = rfk_predict(&model, rfk_input_ram, INPUT_DIM(&model), rfk_scratch_ram, SCRATCH_BYTES(&model), rfk_output_ram,
                  OUTPUTS(&model));
  if (s != RFK_OK) return (int)s;
  return (int)rfk_decide_class(&model, rfk_output_ram);
}
