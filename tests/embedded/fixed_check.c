/* The integer path (fixed-point models, docs/EMBEDDED.md "The integer path") on this platform, in
 * C99 through the C API: every vector of each fixed fixture (house_fixed (16, 256),
 * covtype_fixed (54, 1024), covtype_ff_fixed (54, 1024) Fastfood, binary, and random binning on
 * a9a, hashed (P = 30, B = 64) and exact (P = 10), all made by `rfk convert --fixed-only`, then
 * `rfk export --vectors`, which stores the int16 inputs and the host's int32 outputs) goes through
 * rfk_predict_fixed and must give the host's integers exactly, on every target. It calls only
 * rfk_open and the fixed entry points, and prints with puts (printf's float support would link
 * soft-float routines), so its firmware is what the fixed_no_soft_float test inspects; it also
 * converts the covtype fixtures' integer inputs itself (rfk_quantize_codes). Returns
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

/* Integer inputs end to end (rfk_quantize_codes with the constants rfk export wrote): a fixture
 * whose vectors are integer codes must convert them to the host's integers exactly, within one
 * step of rfk_quantize_input's, and where a vector converts to rfk_quantize_input's integers, predict
 * the host's outputs from them. The mismatches. */
static long CheckCodes(const fixed_fixture* f, const rfk_input_codes* conv, const int32_t* codes,
                       const int16_t* codes_q) {
  long mismatches = 0;
  uint32_t i, c, k;
  int16_t xq[64];
  if (f->input_dim > 64 || rfk_open(&model, f->model, f->bytes, NULL) != RFK_OK) return 1;
  for (i = 0; i < f->count; ++i) {
    int same = 1;
    const uint32_t at = i * f->input_dim;
    if (rfk_quantize_codes(conv, codes + at, f->input_dim, xq, 64, NULL) != RFK_OK) return 1;
    for (c = 0; c < f->input_dim; ++c) {
      const int diff = xq[c] - f->inputs[at + c];
      mismatches += xq[c] != codes_q[at + c] || diff > 1 || diff < -1;
      same &= diff == 0;
    }
    if (!same) continue;
    if (rfk_predict_fixed(&model, xq, f->input_dim, scratch, sizeof scratch, out, 8) != RFK_OK) return 1;
    for (k = 0; k < f->outputs; ++k) mismatches += out[k] != f->want[i * f->outputs + k];
  }
  PutNumber("fixed: code vectors checked: ", f->name, (long)f->count);
  PutNumber("fixed: code mismatches: ", f->name, mismatches);
  return mismatches;
}

int main(void) {
  int failed = 0;
  size_t i;
  for (i = 0; i < sizeof kFixtures / sizeof kFixtures[0]; ++i) failed |= Check(&kFixtures[i]) != 0;
#if defined(COVTYPE_FIXED_CODE_VECTORS) && defined(COVTYPE_FF_FIXED_CODE_VECTORS)
  {
    static const rfk_input_codes dense = COVTYPE_FIXED_INPUT_CODES, fastfood = COVTYPE_FF_FIXED_INPUT_CODES;
    failed |= CheckCodes(&kFixtures[1], &dense, covtype_fixed_codes, covtype_fixed_codes_q) != 0;
    failed |= CheckCodes(&kFixtures[2], &fastfood, covtype_ff_fixed_codes, covtype_ff_fixed_codes_q) != 0;
  }
#else
#error "the covtype fixtures' vectors are integer codes: rfk export should have written their code vectors"
#endif
  return failed;
}
