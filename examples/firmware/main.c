/* rfk's firmware example: the model `rfk export --vectors` wrote into model.h, opened in place
 * from flash, predicted on each test vector the export holds (rows of the training file with the
 * host's outputs). Prints each vector's class (or output) next to the host's and returns 0 when
 * every one agrees -- under qemu with semihosting, that is qemu's exit status. No heap: the model
 * stays in flash, the scratch is a static buffer of MODEL_SCRATCH_BYTES. */
#include <stdio.h>
#include <string.h>

#include "model.h"  /* model[], MODEL_BYTES, MODEL_INPUT_DIM, MODEL_OUTPUTS, MODEL_SCRATCH_BYTES, ... */
#include "rfk/rfk.h"

#ifndef MODEL_VECTORS
#error "export the model with test vectors: rfk export ... --name model --vectors FILE"
#endif

static rfk_model net;
static uint8_t scratch[MODEL_SCRATCH_BYTES] RFK_ALIGNED;

/* |got - want| within 1e-4 of max(1, |want|): the same core on another CPU (the M4F's FPU, the
 * M0's soft float) rounds like the host's scalar kernels, but a firmware built with other flags
 * (-ffast-math) need not. */
static int Close(float got, float want) {
  const float diff = got > want ? got - want : want - got;
  const float scale = want > 1.0f ? want : want < -1.0f ? -want : 1.0f;
  return diff <= 1e-4f * scale;
}

int main(void) {
  rfk_model_error where;
  float out[MODEL_OUTPUTS];
  unsigned i, k, agree = 0;
  rfk_status s = rfk_open(&net, model, MODEL_BYTES, &where);
  if (s != RFK_OK) {
    printf("model does not open: %s at %s, byte %lu\n", rfk_status_message(s), where.field,
           (unsigned long)where.offset);
    return 1;
  }
  printf("model: %u bytes, %u inputs, %u outputs, %u bytes of scratch\n", (unsigned)MODEL_BYTES,
         (unsigned)MODEL_INPUT_DIM, (unsigned)MODEL_OUTPUTS, (unsigned)sizeof scratch);
  for (i = 0; i < MODEL_VECTORS; ++i) {
    int same = 1;
    s = rfk_predict(&net, model_inputs + i * MODEL_INPUT_DIM, MODEL_INPUT_DIM, scratch, sizeof scratch, out,
                    MODEL_OUTPUTS);
    if (s != RFK_OK) {
      printf("vector %u: %s\n", i, rfk_status_message(s));
      return 1;
    }
    for (k = 0; k < MODEL_OUTPUTS; ++k) same &= Close(out[k], model_outputs[i * MODEL_OUTPUTS + k]);
#if MODEL_CLASSES > 0
    {
      const uint32_t c = rfk_decide_class(&net, out);
      same &= c == model_classes[i];
      printf("vector %2u: class %lu (host: %lu)%s\n", i, (unsigned long)c, (unsigned long)model_classes[i],
             same ? "" : "  <- differs");
    }
#else
    printf("vector %2u: output %ld/1000 (host: %ld/1000)%s\n", i, (long)(out[0] * 1000.0f),
           (long)(model_outputs[i * MODEL_OUTPUTS] * 1000.0f), same ? "" : "  <- differs");
#endif
    agree += (unsigned)same;
  }
  printf("%u of %u vectors agree with the host\n", agree, (unsigned)MODEL_VECTORS);
  return agree == MODEL_VECTORS ? 0 : 1;
}
