/* The C API's contract (rfk/rfk.h), in C99, on every platform (compiled with -std=c99 -Wall
 * -Wextra -Wpedantic -Werror): errors name the field, a failed open leaves an empty model that
 * every call refuses, bad arguments get their own status, batch equals single-sample prediction.
 * Uses the house_pair (regression) and a9a_hashed (binary, binning) fixtures. No allocation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "rfk/rfk.h"

static unsigned failures, checks;
#define CHECK(cond)                                                     \
  do {                                                                  \
    ++checks;                                                           \
    if (!(cond)) {                                                      \
      ++failures;                                                       \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);            \
    }                                                                   \
  } while (0)

/* A model copy to corrupt (OpenErrors) and prediction scratch (the other checks) are never in use
 * together, so they share one buffer: the test fits a 16 KiB board's RAM (micro:bit). */
static union {
  uint8_t copy[HOUSE_PAIR_BYTES + 32];
  uint8_t scratch[HOUSE_PAIR_BATCH_SCRATCH_BYTES + 32];
} ram RFK_ALIGNED;
static float outputs[HOUSE_PAIR_VECTORS * HOUSE_PAIR_OUTPUTS];

static void OpenErrors(void) {
  rfk_model m;
  rfk_model_error e;
  float out[1];
  const float x[HOUSE_PAIR_INPUT_DIM] = {0};
  CHECK(rfk_open(NULL, house_pair, HOUSE_PAIR_BYTES, &e) == RFK_NULL_ARGUMENT);
  CHECK(rfk_open(&m, NULL, HOUSE_PAIR_BYTES, &e) == RFK_NULL_ARGUMENT);
  CHECK(e.field != NULL);

  memcpy(ram.copy, house_pair, HOUSE_PAIR_BYTES);
  CHECK(rfk_open(&m, ram.copy, HOUSE_PAIR_BYTES, &e) == RFK_OK);
  CHECK(e.status == RFK_OK);
  ram.copy[HOUSE_PAIR_BYTES / 2] ^= 0x10; /* one flipped bit in the weights */
  CHECK(rfk_open(&m, ram.copy, HOUSE_PAIR_BYTES, &e) == RFK_BAD_CHECKSUM);
  CHECK(e.status == RFK_BAD_CHECKSUM);
  CHECK(strcmp(e.field, "header.crc32") == 0);
  CHECK(e.offset == 12);
  /* The failed open left an empty model: every call refuses it cleanly. */
  CHECK(rfk_scratch_bytes(&m) == 0);
  CHECK(rfk_input_dim(&m) == 0);
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch, sizeof ram.scratch, out, 1) == RFK_NULL_ARGUMENT);
  CHECK(rfk_decide_class(&m, out) == 0);
  CHECK(strcmp(rfk_class_label(&m, 0), "") == 0);
  CHECK(strcmp(rfk_feature_name(&m, 0), "") == 0);

  CHECK(rfk_open(&m, house_pair, HOUSE_PAIR_BYTES - 1, &e) == RFK_TRUNCATED);
  CHECK(rfk_open(&m, house_pair, 8, &e) == RFK_TRUNCATED);
  memcpy(ram.copy + 4, house_pair, HOUSE_PAIR_BYTES); /* 4 bytes off the required alignment */
  CHECK(rfk_open(&m, ram.copy + 4, HOUSE_PAIR_BYTES, &e) == RFK_MISALIGNED_BUFFER);
  memcpy(ram.copy, house_pair, HOUSE_PAIR_BYTES);
  ram.copy[0] = 'X';
  CHECK(rfk_open(&m, ram.copy, HOUSE_PAIR_BYTES, &e) == RFK_BAD_MAGIC);
  CHECK(e.offset == 0);
  /* A larger region than the model (a flash sector) is fine. */
  memcpy(ram.copy, house_pair, HOUSE_PAIR_BYTES);
  CHECK(rfk_open(&m, ram.copy, sizeof ram.copy, &e) == RFK_OK);
}

static void PredictArguments(void) {
  rfk_model m;
  float x[HOUSE_PAIR_INPUT_DIM];
  float out[2];
  size_t need;
  memcpy(x, house_pair_inputs, sizeof x);
  CHECK(rfk_open(&m, house_pair, HOUSE_PAIR_BYTES, NULL) == RFK_OK);
  need = rfk_scratch_bytes(&m);
  CHECK(need == HOUSE_PAIR_SCRATCH_BYTES);
  CHECK(need % RFK_SCRATCH_ALIGNMENT == 0);
  CHECK(rfk_batch_scratch_bytes(&m) == HOUSE_PAIR_BATCH_SCRATCH_BYTES);
  CHECK(rfk_num_outputs(&m) == 1 && rfk_num_classes(&m) == 0 && rfk_num_grids(&m) == 0);
  /* house_16h has no header: the names are the columns' numbers from 1, the label's "y". */
  CHECK(strcmp(rfk_feature_name(&m, 0), "1") == 0 && strcmp(rfk_feature_name(&m, HOUSE_PAIR_INPUT_DIM), "y") == 0);
  CHECK(strcmp(rfk_feature_name(&m, HOUSE_PAIR_INPUT_DIM + 1), "") == 0);
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch, need, out, 1) == RFK_OK);
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM - 1, ram.scratch, need, out, 1) == RFK_INPUT_DIM_MISMATCH);
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch, need - 1, out, 1) == RFK_SCRATCH_TOO_SMALL);
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch + 4, need, out, 1) == RFK_MISALIGNED_SCRATCH);
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch, need, out, 0) == RFK_OUTPUT_TOO_SMALL);
  CHECK(rfk_predict(&m, NULL, HOUSE_PAIR_INPUT_DIM, ram.scratch, need, out, 1) == RFK_NULL_ARGUMENT);
  x[3] = NAN;
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch, need, out, 1) == RFK_NON_FINITE_INPUT);
  x[3] = INFINITY;
  CHECK(rfk_predict(&m, x, HOUSE_PAIR_INPUT_DIM, ram.scratch, need, out, 1) == RFK_NON_FINITE_INPUT);
}

static void BatchMatchesSingle(void) {
  rfk_model m;
  size_t done = 0, v;
  float one[1];
  CHECK(rfk_open(&m, house_pair, HOUSE_PAIR_BYTES, NULL) == RFK_OK);
  CHECK(rfk_predict_batch(&m, house_pair_inputs, HOUSE_PAIR_VECTORS,
                          HOUSE_PAIR_VECTORS * HOUSE_PAIR_INPUT_DIM, ram.scratch,
                          sizeof ram.scratch, outputs, HOUSE_PAIR_VECTORS, &done) == RFK_OK);
  CHECK(done == HOUSE_PAIR_VECTORS);
  for (v = 0; v < HOUSE_PAIR_VECTORS; ++v) {
    const float want = house_pair_outputs[v];
    const float scale = fabsf(want) > 1.0f ? fabsf(want) : 1.0f;
    CHECK(rfk_predict(&m, house_pair_inputs + v * HOUSE_PAIR_INPUT_DIM, HOUSE_PAIR_INPUT_DIM, ram.scratch,
                      sizeof ram.scratch, one, 1) == RFK_OK);
    CHECK(fabsf(outputs[v] - one[0]) <= 1e-4f * scale);
  }
}

static void Classification(void) {
  rfk_model m;
  uint64_t keys[A9A_HASHED_GRIDS];
  uint32_t columns[A9A_HASHED_GRIDS];
  float out[1];
  uint32_t p, c;
  CHECK(rfk_open(&m, a9a_hashed, A9A_HASHED_BYTES, NULL) == RFK_OK);
  CHECK(rfk_num_classes(&m) == 2);
  CHECK(rfk_num_grids(&m) == A9A_HASHED_GRIDS);
  CHECK(strlen(rfk_class_label(&m, 0)) > 0 && strlen(rfk_class_label(&m, 1)) > 0);
  CHECK(strcmp(rfk_class_label(&m, 2), "") == 0);
  CHECK(rfk_predict(&m, a9a_hashed_inputs, A9A_HASHED_INPUT_DIM, ram.scratch, sizeof ram.scratch, out, 1) == RFK_OK);
  c = rfk_decide_class(&m, out);
  CHECK(c == (out[0] > 0 ? 1u : 0u)); /* no calibration section (binning): the raw decision */
  CHECK(rfk_decide_class_raw(&m, out) == c);
  CHECK(rfk_compute_bins(&m, a9a_hashed_inputs, A9A_HASHED_INPUT_DIM, ram.scratch, sizeof ram.scratch, keys,
                         columns, A9A_HASHED_GRIDS) == RFK_OK);
  for (p = 0; p < A9A_HASHED_GRIDS; ++p) {
    CHECK(keys[p] == ((uint64_t)a9a_hashed_keys[2 * p] << 32 | a9a_hashed_keys[2 * p + 1]));
    CHECK(columns[p] != RFK_NO_COLUMN); /* hashed mode: every bin has a column */
  }
  CHECK(rfk_compute_bins(&m, a9a_hashed_inputs, A9A_HASHED_INPUT_DIM, ram.scratch, sizeof ram.scratch, keys,
                         columns, A9A_HASHED_GRIDS - 1) == RFK_OUTPUT_TOO_SMALL);
}

static void StatusStrings(void) {
  CHECK(strcmp(rfk_status_name(RFK_OK), "kOk") == 0);
  CHECK(strcmp(rfk_status_name(RFK_BAD_CHECKSUM), "kBadChecksum") == 0);
  CHECK(strlen(rfk_status_message(RFK_TRUNCATED)) > 0);
  CHECK(rfk_status_name(RFK_STATUS_COUNT) != NULL);
  CHECK(rfk_status_message(-7) != NULL);
  CHECK(rfk_kernel_table_count() >= 1);
  CHECK(strcmp(rfk_kernel_table_backend(rfk_kernel_table_count() - 1), "scalar") == 0);
  CHECK(rfk_kernel_table_target(rfk_kernel_table_count()) == NULL);
  CHECK(rfk_select_kernels("no-such-table") == 0);
  CHECK(rfk_select_kernels("scalar") == 1);
  CHECK(strcmp(rfk_active_target(), "scalar") == 0);
}

int main(void) {
  OpenErrors();
  PredictArguments();
  BatchMatchesSingle();
  Classification();
  StatusStrings();
  printf("capi_test: %u checks, %u failed\n", checks, failures);
  return failures ? 1 : 0;
}
