/* The integer path (fixed-point models, docs/EMBEDDED.md "The integer path") on this platform, in
 * C99 through the C API: every vector of each fixed fixture (house_fixed (16, 256),
 * covtype_fixed (54, 1024), covtype_ff_fixed (54, 1024) Fastfood, binary, and random binning on
 * a9a, hashed (P = 30, B = 64) and exact (P = 10), all made by `rfk convert --fixed-only`, then
 * `rfk export --vectors`, which stores the int16 inputs and the host's int32 outputs) goes through
 * rfk_predict_fixed and must give the host's integers exactly, on every target. It calls only
 * rfk_open and the fixed entry points, and prints with puts (printf's float support would link
 * soft-float routines), so its firmware is what the fixed_no_soft_float test inspects. Returns
 * non-zero on any mismatch. Nothing is allocated. */
#include <stdio.h>

#include "covtype_ff_fixed.h"
#if !defined(RFK_SMALL_BOARD)
#include "a9a_exact_fixed.h"
#endif
#include "a9a_hashed_fixed.h"
#include "covtype_fixed.h"
#include "house_fixed.h"
#include "rfk/rfk.h"

typedef struct fixed_fixture {
  const char* name;
  const uint8_t* model;
  uint32_t bytes, count, input_dim, outputs;
  const int16_t* inputs;
  const int32_t* want;
} fixed_fixture;

#define FIXED_FIXTURE(name, NAME) \
  {#name, name, NAME##_BYTES, NAME##_VECTORS, NAME##_INPUT_DIM, NAME##_OUTPUTS, name##_inputs_q, name##_outputs_q}
static const fixed_fixture kFixtures[] = {
    FIXED_FIXTURE(house_fixed, HOUSE_FIXED), FIXED_FIXTURE(covtype_fixed, COVTYPE_FIXED),
    FIXED_FIXTURE(covtype_ff_fixed, COVTYPE_FF_FIXED), FIXED_FIXTURE(a9a_hashed_fixed, A9A_HASHED_FIXED),
#if !defined(RFK_SMALL_BOARD)  /* the micro:bit's 256 KiB of flash: exact-mode binning (17.9 KB) left out */
    FIXED_FIXTURE(a9a_exact_fixed, A9A_EXACT_FIXED)
#endif
};

static rfk_model model;
static uint8_t scratch[COVTYPE_FF_FIXED_FIXED_SCRATCH_BYTES > 64 ? COVTYPE_FF_FIXED_FIXED_SCRATCH_BYTES : 64] RFK_ALIGNED;
static int32_t out[8];

/* puts(prefix, then name, then v in decimal): no printf. */
static void PutNumber(const char* prefix, const char* name, long v) {
  char line[128];
  char digits[24];
  unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
  int n = 0, at = 0;
  do {
    digits[n++] = (char)('0' + (int)(u % 10u));
    u /= 10u;
  } while (u != 0 && n < 23);
  while (*prefix != '\0' && at < 48) line[at++] = *prefix++;
  while (*name != '\0' && at < 80) line[at++] = *name++;
  line[at++] = ' ';
  if (v < 0) line[at++] = '-';
  while (n > 0) line[at++] = digits[--n];
  line[at] = '\0';
  puts(line);
}

/* The mismatches of one fixture (-1 when it does not open). */
static long Check(const fixed_fixture* f) {
  long mismatches = 0;
  uint32_t i, k;
  rfk_status s = rfk_open(&model, f->model, f->bytes, NULL);
  if (s != RFK_OK || rfk_fixed_scratch_bytes(&model) > sizeof scratch || f->outputs > 8) {
    PutNumber("fixed: open failed, status: ", f->name, (long)s);
    return -1;
  }
  for (i = 0; i < f->count; ++i) {
    s = rfk_predict_fixed(&model, f->inputs + i * f->input_dim, f->input_dim, scratch, sizeof scratch, out, 8);
    for (k = 0; k < f->outputs; ++k) {
      if (s == RFK_OK && out[k] == f->want[i * f->outputs + k]) continue;
      ++mismatches;
      PutNumber("fixed: mismatch at vector: ", f->name, (long)i);
    }
  }
  PutNumber("fixed: vectors checked bit for bit: ", f->name, (long)f->count);
  PutNumber("fixed: mismatches: ", f->name, mismatches);
  return mismatches;
}

int main(void) {
  int failed = 0;
  size_t i;
  for (i = 0; i < sizeof kFixtures / sizeof kFixtures[0]; ++i) failed |= Check(&kFixtures[i]) != 0;
  return failed;
}
