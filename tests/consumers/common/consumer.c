/* A consumer of the installed rfk core, in C through the C API (rfk/rfk.h): the program every
 * consumer test (tests/consumers) builds its own way -- CMake find_package, pkg-config and a plain
 * Makefile, add_subdirectory, FetchContent, gcc alone, and bare-metal Cortex-M firmware. It opens
 * an embedded model in place (RFK_CONSUMER_FIXTURE names a header made by `rfk export --vectors`),
 * predicts every test vector with the scalar kernels and checks that the outputs equal the
 * host's, bit for bit; where other kernel tables exist it also predicts with the default one and
 * checks agreement within 1e-4. Prints one line and returns 0 on success. Nothing is allocated. */
#include <stdio.h>
#include <string.h>

#include "rfk/rfk.h"

#ifndef RFK_CONSUMER_FIXTURE
#error "define RFK_CONSUMER_FIXTURE (the fixture's name, e.g. house_pair) and RFK_CONSUMER_HEADER"
#endif
#include RFK_CONSUMER_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FIX RFK_CONSUMER_FIXTURE
#define MODEL FIX
#define INPUTS CAT(FIX, _inputs)
#define OUTPUTS CAT(FIX, _outputs)

static rfk_model model;
static uint8_t scratch[4096] RFK_ALIGNED;

/* 0 when every output of every vector matches: exactly (tolerance 0) or within tol * max(1, |want|). */
static int Check(uint32_t dim, uint32_t k, uint32_t count, float tol) {
  uint32_t i, j;
  float out[16];
  if (k > 16 || rfk_scratch_bytes(&model) > sizeof scratch) return 2;
  for (i = 0; i < count; ++i) {
    rfk_status s = rfk_predict(&model, INPUTS + (size_t)i * dim, dim, scratch, sizeof scratch, out, k);
    if (s != RFK_OK) {
      printf("vector %u: %s\n", (unsigned)i, rfk_status_message(s));
      return 1;
    }
    for (j = 0; j < k; ++j) {
      const float want = OUTPUTS[(size_t)i * k + j], got = out[j];
      const float diff = got > want ? got - want : want - got;
      const float scale = want > 1.0f ? want : want < -1.0f ? -want : 1.0f;
      if (tol == 0.0f ? memcmp(&got, &want, sizeof got) != 0 : diff > tol * scale) {
        uint32_t g, w; /* bit patterns: no float printf needed (newlib-nano has none by default) */
        memcpy(&g, &got, sizeof g);
        memcpy(&w, &want, sizeof w);
        printf("vector %u output %u: got 0x%08lx, host 0x%08lx\n", (unsigned)i, (unsigned)j,
               (unsigned long)g, (unsigned long)w);
        return 1;
      }
    }
  }
  return 0;
}

int main(void) {
  rfk_model_error err;
  const uint32_t floats = (uint32_t)(sizeof(INPUTS) / sizeof(INPUTS[0]));
  uint32_t dim, k;
  int rc;
  if (rfk_open(&model, MODEL, sizeof(MODEL), &err) != RFK_OK) {
    printf("rfk_open: %s at '%s'\n", rfk_status_message(err.status), err.field);
    return 1;
  }
  dim = rfk_input_dim(&model);
  k = rfk_num_outputs(&model);
  if (!rfk_select_kernels("scalar")) return 3;
  rc = Check(dim, k, floats / dim, 0.0f);
  if (rc == 0 && rfk_kernel_table_count() > 1) {
    rfk_select_kernels(rfk_kernel_table_backend(0));
    rc = Check(dim, k, floats / dim, 1e-4f);
  }
  printf("consumer %s: %u vectors, scalar outputs %s the host's; default table %s-%s\n",
         rc == 0 ? "ok" : "FAILED", (unsigned)(floats / dim), rc == 0 ? "equal" : "differ from",
         rfk_kernel_table_backend(0), rfk_active_target());
  return rc;
}
