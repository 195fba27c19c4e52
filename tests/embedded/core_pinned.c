/* The cores pinned to one model (`rfk export --config-header --pin`, lib/core/model_open_pinned.cc),
 * built twice from this file: rfk_core_pinned_house_pair (the f32 model house_pair) and, with
 * RFK_TEST_PINNED_FIXED, rfk_core_pinned_house_fixed (its fixed-point conversion). Each must give
 * the host's outputs for all of its model's test vectors (the integers exactly; the floats exactly
 * on x86-64, where the host's scalar kernels computed them, else within selfcheck's 1e-4), its
 * sizes and decisions through the C API, and refuse at open: another model of the same kind
 * (kOtherModel at header.crc32), a model of another kind, its own bytes one short (kTruncated) and
 * its own bytes with any one byte changed (every byte natively; on the boards the header and every
 * 37th byte). Without the batch kernels (the configuration leaves them out) a batch of the f32
 * model gives rfk_predict's outputs. The C++ entry points (core_pinned_cxx.cc) read the pinned model
 * only once their Model is open. Returns the number of failed checks. */
#include <stdio.h>
#include <string.h>

#include "house_orf.h"
#include "house_phase.h"
#include "rfk/rfk.h"

#if defined(RFK_TEST_PINNED_FIXED)
#include "house_fixed.h"
#include "house_pair.h"
#define PINNED house_fixed
#define PINNED_BYTES HOUSE_FIXED_BYTES
#define OTHER house_pair /* the float model it was converted from: same header size, another CRC */
#define OTHER_BYTES HOUSE_PAIR_BYTES
#else
#include "house_fixed.h"
#include "house_pair.h"
#define PINNED house_pair
#define PINNED_BYTES HOUSE_PAIR_BYTES
#define OTHER house_orf /* the same kind: dense [cos, sin] pairs, f32, (16, 256) */
#define OTHER_BYTES HOUSE_ORF_BYTES
#endif

static rfk_model model;
static uint8_t scratch[HOUSE_PAIR_SCRATCH_BYTES] RFK_ALIGNED;
#if !defined(RFK_SMALL_BOARD) || defined(RFK_TEST_PINNED_FIXED)
static uint8_t copy[PINNED_BYTES] RFK_ALIGNED; /* the pinned bytes, one changed at a time */
#endif
static int failures;

static void check(int ok, const char* what) {
  if (!ok) ++failures;
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
}

static int refused_as(const uint8_t* bytes, uint32_t size, rfk_status want, const char* field) {
  rfk_model_error err;
  return rfk_open(&model, bytes, size, &err) == want && strcmp(err.field, field) == 0;
}

/* Every output of the pinned model's test vectors is the host's. */
static int host_outputs(void) {
  int same = 1;
  for (uint32_t v = 0; v < HOUSE_PAIR_VECTORS; ++v) {
#if defined(RFK_TEST_PINNED_FIXED)
    int32_t out[1];
    same &= rfk_predict_fixed(&model, house_fixed_inputs_q + v * HOUSE_FIXED_INPUT_DIM, HOUSE_FIXED_INPUT_DIM,
                              scratch, sizeof scratch, out, 1) == RFK_OK &&
            out[0] == house_fixed_outputs_q[v];
#else
    float out[1];
    const float want = house_pair_outputs[v];
    same &= rfk_predict(&model, house_pair_inputs + v * HOUSE_PAIR_INPUT_DIM, HOUSE_PAIR_INPUT_DIM, scratch,
                        sizeof scratch, out, 1) == RFK_OK;
#if defined(__x86_64__)
    same &= out[0] == want;
#else
    const float scale = want > 1.0f ? want : want < -1.0f ? -want : 1.0f;
    same &= out[0] - want <= 1e-4f * scale && want - out[0] <= 1e-4f * scale;
#endif
#endif
  }
  return same;
}

/* The pinned bytes with byte i changed are refused, whatever i is (the CRC covers bytes 16 on, the
 * pin the 16 before), and the unchanged copy opens. */
static int changed_bytes_refused(void) {
#if defined(RFK_SMALL_BOARD) && !defined(RFK_TEST_PINNED_FIXED)
  return 1; /* 16 KiB of RAM: no room for a copy of the f32 model; the fixed model's test covers it */
#else
  memcpy(copy, PINNED, PINNED_BYTES);
  int all = rfk_open(&model, copy, PINNED_BYTES, NULL) == RFK_OK;
#if defined(__x86_64__) || defined(__aarch64__)
  const uint32_t stride = 1;
#else
  const uint32_t stride = 37; /* qemu: every byte would take minutes */
#endif
  for (uint32_t i = 0; i < PINNED_BYTES; i += i < 32 ? 1 : stride) {
    copy[i] ^= 0x10;
    all &= rfk_open(&model, copy, PINNED_BYTES, NULL) != RFK_OK;
    copy[i] ^= 0x10;
  }
  return all;
#endif
}

#if !defined(RFK_TEST_PINNED_FIXED) && !defined(RFK_SMALL_BOARD)
/* The pinned configuration leaves the batch kernels out (RFK_BATCH_KERNELS 0): rfk_predict_batch
 * then predicts each row as rfk_predict does, bit for bit. */
static uint8_t batch_scratch[HOUSE_PAIR_BATCH_SCRATCH_BYTES] RFK_ALIGNED;
static int batch_is_row_by_row(void) {
  float batch[4], one[1];
  int same = rfk_predict_batch(&model, house_pair_inputs, 4, 4 * HOUSE_PAIR_INPUT_DIM, batch_scratch,
                               sizeof batch_scratch, batch, 4, NULL) == RFK_OK;
  for (uint32_t v = 0; v < 4; ++v)
    same &= rfk_predict(&model, house_pair_inputs + v * HOUSE_PAIR_INPUT_DIM, HOUSE_PAIR_INPUT_DIM, scratch,
                        sizeof scratch, one, 1) == RFK_OK &&
            one[0] == batch[v];
  return same;
}
#endif

/* A refused open leaves the handle empty: the other calls then fail cleanly. */
static int empty_after_refusal(void) {
  float out[1];
  return rfk_open(&model, OTHER, OTHER_BYTES, NULL) == RFK_OTHER_MODEL && rfk_input_dim(&model) == 0 &&
         rfk_predict(&model, house_pair_inputs, HOUSE_PAIR_INPUT_DIM, scratch, sizeof scratch, out, 1) ==
             RFK_NULL_ARGUMENT;
}

/* The C++ entry points (core_pinned_cxx.cc): on a Model that is not open, and on the one OpenModel
 * fills, whose outputs are the C API's. */
int pinned_cxx_not_open(void);
int pinned_cxx_predict(const void* bytes, size_t size, int fixed, const void* x, size_t d, void* scratch,
                       size_t scratch_bytes, void* out);
static int cxx_outputs(void) {
#if defined(RFK_TEST_PINNED_FIXED)
  int32_t out[1], want[1];
  const int16_t* x = house_fixed_inputs_q;
  if (rfk_predict_fixed(&model, x, HOUSE_FIXED_INPUT_DIM, scratch, sizeof scratch, want, 1) != RFK_OK) return 0;
  return pinned_cxx_predict(PINNED, PINNED_BYTES, 1, x, HOUSE_FIXED_INPUT_DIM, scratch, sizeof scratch, out) == 0 &&
         out[0] == want[0];
#else
  float out[1], want[1];
  const float* x = house_pair_inputs;
  if (rfk_predict(&model, x, HOUSE_PAIR_INPUT_DIM, scratch, sizeof scratch, want, 1) != RFK_OK) return 0;
  return pinned_cxx_predict(PINNED, PINNED_BYTES, 0, x, HOUSE_PAIR_INPUT_DIM, scratch, sizeof scratch, out) == 0 &&
         memcmp(out, want, sizeof out) == 0;
#endif
}

/* An application compiled without the configuration has rfk.h's 264-byte handle and calls the plain
 * rfk_open, which the pinned core defines too: the model's bytes in the same first word. */
#undef rfk_open
rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error);
static int plain_open(void) {
  static union {
    rfk_model pinned;
    unsigned char generic[384];
  } handle;
  return rfk_open(&handle.pinned, PINNED, PINNED_BYTES, NULL) == RFK_OK &&
         rfk_input_dim(&handle.pinned) == HOUSE_PAIR_INPUT_DIM;
}

int main(void) {
  check(sizeof(rfk_model) == sizeof(void*), "pinned core: the handle is one pointer (rfk.h, RFK_PIN_ARRAY)");
  check(rfk_open_pinned(&model, PINNED, PINNED_BYTES, NULL) == RFK_OK, "pinned core: opens its model");
  check(rfk_input_dim(&model) == HOUSE_PAIR_INPUT_DIM && rfk_num_outputs(&model) == 1 && rfk_num_classes(&model) == 0,
        "pinned core: the model's sizes");
#if defined(RFK_TEST_PINNED_FIXED)
  check(RFK_PIN_INPUT_DIM == HOUSE_FIXED_INPUT_DIM && RFK_PIN_OUTPUTS == 1 &&
            RFK_PIN_FIXED_SCRATCH_BYTES == rfk_fixed_scratch_bytes(&model),
        "pinned core: the configuration's sizes (RFK_PIN_*) are the model's");
#else
  check(RFK_PIN_INPUT_DIM == HOUSE_PAIR_INPUT_DIM && RFK_PIN_OUTPUTS == 1 &&
            RFK_PIN_SCRATCH_BYTES == rfk_scratch_bytes(&model) && RFK_PIN_SCRATCH_BYTES == HOUSE_PAIR_SCRATCH_BYTES,
        "pinned core: the configuration's sizes (RFK_PIN_*) are the model's");
#endif
  check(host_outputs(), "pinned core: the host's outputs for every test vector");
  check(rfk_feature_name(&model, 0)[0] == '\0', "pinned core: names are not read (\"\")");
#if !defined(RFK_TEST_PINNED_FIXED) && !defined(RFK_SMALL_BOARD)
  check(batch_is_row_by_row(), "pinned core: rfk_predict_batch without the batch kernels gives rfk_predict's outputs");
#endif
  check(refused_as(OTHER, OTHER_BYTES, RFK_OTHER_MODEL, "header.crc32"),
        "pinned core: another model is refused (kOtherModel, header.crc32)");
  check(refused_as(house_phase, HOUSE_PHASE_BYTES, RFK_OTHER_MODEL, "header.crc32"),
        "pinned core: a model of another kind is refused (kOtherModel, header.crc32)");
  check(refused_as(PINNED, PINNED_BYTES - 1, RFK_TRUNCATED, "header.total_bytes"),
        "pinned core: its model one byte short is refused (kTruncated)");
  check(refused_as(PINNED + 16, PINNED_BYTES - 16, RFK_MISALIGNED_BUFFER, "bytes") ||
            refused_as(PINNED + 16, PINNED_BYTES - 16, RFK_BAD_MAGIC, "header.magic"),
        "pinned core: other bytes are refused");
  check(changed_bytes_refused(), "pinned core: its model with any one byte changed is refused");
  check(empty_after_refusal(), "pinned core: a refused open leaves the handle empty");
  check(plain_open(), "pinned core: rfk_open of an application without the configuration (264-byte handle)");
  check(pinned_cxx_not_open(), "pinned core: the C++ entry points on a Model that is not open");
  check(rfk_open(&model, PINNED, PINNED_BYTES, NULL) == RFK_OK && host_outputs(), "pinned core: opens it again");
  check(cxx_outputs(), "pinned core: the C++ API's Model predicts as the C API does");
  return failures;
}
