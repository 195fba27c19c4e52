/* A core pinned to one model of RFK_PINNED_FIXTURES (tests/embedded/fixtures.cmake) other than
 * core_pinned.c's two (Fastfood with int8 weights on the float path, Fastfood on the integer path),
 * or to any of them in a core built for size (RFK_CORE_SMALL), built once per fixture with PINNED (the model array's name), PINNED_UPPER (its
 * macros' prefix), PINNED_HEADER (its header) and, for a fixed-point model, PINNED_FIXED. The
 * pinned core folds the model's values into its code (lib/core/pinned_model.h), so each kind is a
 * different program: it must give the host's outputs for all of the model's test vectors (the
 * integers exactly; the floats exactly on x86-64, where the host's scalar kernels computed them,
 * else within selfcheck's 1e-4), its sizes (the open model's and the configuration's RFK_PIN_*), refuse another model at open (kOtherModel at
 * header.crc32) and open its own again after that. Returns the number of failed checks. With
 * CONFIGURED, the same for a configured core (`rfk export --config-header`, not pinned:
 * RFK_CONFIGURED_FIXTURES), which refuses another kind instead, and on a board prints the RAM a
 * prediction takes and, for RFK_RAM_BOUND_FIXTURES, holds it to RFK_RAM_BUDGET. */
#include <stdio.h>
#include <string.h>

#include "rfk/rfk.h"
#include PINNED_HEADER

/* The other model it must refuse: house_pair, or the one the build names (OTHER, OTHER_UPPER,
 * OTHER_HEADER) where house_pair is the pinned one or another model shows a switch better; with
 * OTHER_STATUS and OTHER_FIELD, the configured core must refuse it with that status at that field. */
#if !defined(OTHER)
#define OTHER house_pair
#define OTHER_UPPER HOUSE_PAIR
#define OTHER_HEADER "house_pair.h"
#endif
#include OTHER_HEADER
/* A second one (OTHER2, OTHER2_UPPER, OTHER2_HEADER), refused with OTHER2_STATUS at OTHER2_FIELD. */
#if defined(OTHER2)
#include OTHER2_HEADER
#endif

#define RFK_CAT_(a, b) a##b
#define RFK_CAT(a, b) RFK_CAT_(a, b)
#define ARRAY(suffix) RFK_CAT(PINNED, suffix)    /* e.g. covtype_ff_fixed_inputs_q */
#define MACRO(suffix) RFK_CAT(PINNED_UPPER, suffix) /* e.g. COVTYPE_FF_FIXED_INPUT_DIM */
#define DIM MACRO(_INPUT_DIM)
#define OUTPUTS MACRO(_OUTPUTS)
#define OTHER_BYTES RFK_CAT(OTHER_UPPER, _BYTES)

#if defined(PINNED_FIXED)
static uint8_t scratch[MACRO(_FIXED_SCRATCH_BYTES)] RFK_ALIGNED;
#else
static uint8_t scratch[MACRO(_SCRATCH_BYTES)] RFK_ALIGNED;
#endif
static rfk_model model;
static int failures;

static void check(int ok, const char* what) {
  if (!ok) ++failures;
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
}

/* The outputs of test vector v are the host's. */
static int host_outputs(uint32_t v) {
  int same = 1;
#if defined(PINNED_FIXED)
  int32_t out[OUTPUTS];
  same = rfk_predict_fixed(&model, ARRAY(_inputs_q) + v * DIM, DIM, scratch, sizeof scratch, out, OUTPUTS) == RFK_OK;
  for (uint32_t k = 0; k < OUTPUTS; ++k) same &= out[k] == ARRAY(_outputs_q)[v * OUTPUTS + k];
#else
  float out[OUTPUTS];
  same = rfk_predict(&model, ARRAY(_inputs) + v * DIM, DIM, scratch, sizeof scratch, out, OUTPUTS) == RFK_OK;
  for (uint32_t k = 0; k < OUTPUTS; ++k) {
    const float want = ARRAY(_outputs)[v * OUTPUTS + k];
#if defined(__x86_64__)
    same &= out[k] == want;
#else
    const float scale = want > 1.0f ? want : want < -1.0f ? -want : 1.0f;
    same &= out[k] - want <= 1e-4f * scale && want - out[k] <= 1e-4f * scale;
#endif
  }
#endif
  return same;
}

static int all_host_outputs(void) {
  int same = 1;
  for (uint32_t v = 0; v < MACRO(_VECTORS); ++v) same &= host_outputs(v);
  return same;
}

#if defined(CONFIGURED)
#if defined(RFK_MEASURE_RAM)
#include "stack_paint.h"

/* The stack one prediction (test vector 0) takes below this function's frame, painted. */
static __attribute__((noinline)) uint32_t stack_of_one_prediction(void) {
  volatile uint32_t* sp;
  RFK_READ_SP(sp);
  rfk_paint_stack(sp);
#if defined(PINNED_FIXED)
  int32_t out[OUTPUTS];
  (void)rfk_predict_fixed(&model, ARRAY(_inputs_q), DIM, scratch, sizeof scratch, out, OUTPUTS);
#else
  float out[OUTPUTS];
  (void)rfk_predict(&model, ARRAY(_inputs), DIM, scratch, sizeof scratch, out, OUTPUTS);
#endif
  return rfk_painted_bytes(sp);
}
#endif

/* A configured core (not pinned): the Model its configuration stores, in a handle smaller than a
 * generic core's; another kind refused as the configuration says (kUnsupportedMap or
 * kUnsupportedStorage, at the field that names it). On a board (RFK_MEASURE_RAM), the RAM one
 * prediction takes: the handle, the scratch the model asks for and the stack below the caller,
 * painted as targets/firmware/cost.c paints it. */
int main(void) {
  rfk_model_error err;
  printf("configured core: rfk_model is %u bytes (a generic core's: %u)\n", (unsigned)sizeof(rfk_model),
         (unsigned)(30 * sizeof(void*) + 144));
  check(sizeof(rfk_model) < 30 * sizeof(void*) + 144, "configured core: a handle smaller than the generic one");
  check(rfk_open(&model, PINNED, MACRO(_BYTES), NULL) == RFK_OK, "configured core: opens its model");
  check(rfk_input_dim(&model) == DIM && rfk_num_outputs(&model) == OUTPUTS, "configured core: the model's sizes");
  check(all_host_outputs(), "configured core: the host's outputs for every test vector");
#if defined(RFK_MEASURE_RAM)
#if defined(PINNED_FIXED)
  const unsigned long need = (unsigned long)rfk_fixed_scratch_bytes(&model);
#else
  const unsigned long need = (unsigned long)rfk_scratch_bytes(&model);
#endif
  const unsigned long stack = (unsigned long)stack_of_one_prediction();
  const unsigned long ram = (unsigned long)sizeof(rfk_model) + need + stack;
  printf("configured core: RAM per prediction %lu bytes: handle %u + scratch %lu + stack %lu\n", ram,
         (unsigned)sizeof(rfk_model), need, stack);
#if defined(RFK_RAM_BUDGET)
  printf("  budget %lu bytes (tests/embedded/fixtures.cmake, RFK_CONFIGURED_RAM_BUDGET)\n", (unsigned long)RFK_RAM_BUDGET);
  check(ram <= RFK_RAM_BUDGET, "configured core: a prediction's RAM within the budget");
#endif
#endif
  const rfk_status refused = rfk_open(&model, OTHER, OTHER_BYTES, &err);
  check((refused == RFK_UNSUPPORTED_MAP || refused == RFK_UNSUPPORTED_STORAGE) && err.status == refused &&
            err.field[0] != '\0',
        "configured core: a model of another kind is refused (kUnsupportedMap or kUnsupportedStorage, and its field)");
  printf("  refused at %s (%s)\n", err.field, rfk_status_name(refused));
#if defined(OTHER_STATUS)
  check(refused == OTHER_STATUS && strcmp(err.field, OTHER_FIELD) == 0,
        "configured core: refused with the status and at the field its configuration leaves out");
#endif
#if defined(OTHER2)
  check(rfk_open(&model, OTHER2, RFK_CAT(OTHER2_UPPER, _BYTES), &err) == OTHER2_STATUS &&
            strcmp(err.field, OTHER2_FIELD) == 0,
        "configured core: a second model of another kind refused with its status and at its field");
  printf("  refused at %s (%s)\n", err.field, rfk_status_name(err.status));
#endif
  check(rfk_input_dim(&model) == 0, "configured core: a refused open leaves the handle empty");
  check(rfk_open(&model, PINNED, MACRO(_BYTES), NULL) == RFK_OK && host_outputs(0), "configured core: opens it again");
  return failures;
}
#else
int main(void) {
  rfk_model_error err;
  check(rfk_open(&model, PINNED, MACRO(_BYTES), NULL) == RFK_OK, "pinned core: opens its model");
  check(rfk_input_dim(&model) == DIM && rfk_num_outputs(&model) == OUTPUTS, "pinned core: the model's sizes");
#if defined(PINNED_FIXED)
  const int scratch_pinned = rfk_fixed_scratch_bytes(&model) == RFK_PIN_FIXED_SCRATCH_BYTES;
#else
  const int scratch_pinned = rfk_scratch_bytes(&model) == RFK_PIN_SCRATCH_BYTES;
#endif
  check(RFK_PIN_INPUT_DIM == DIM && RFK_PIN_OUTPUTS == OUTPUTS && scratch_pinned,
        "pinned core: the configuration's sizes (RFK_PIN_INPUT_DIM, _OUTPUTS, _SCRATCH_BYTES) are the model's");
  check(all_host_outputs(), "pinned core: the host's outputs for every test vector");
  check(rfk_open(&model, OTHER, OTHER_BYTES, &err) == RFK_OTHER_MODEL && strcmp(err.field, "header.crc32") == 0,
        "pinned core: another model is refused (kOtherModel, header.crc32)");
  check(rfk_input_dim(&model) == 0, "pinned core: a refused open leaves the handle empty");
  check(rfk_open(&model, PINNED, MACRO(_BYTES), NULL) == RFK_OK && host_outputs(0), "pinned core: opens it again");
  return failures;
}
#endif
