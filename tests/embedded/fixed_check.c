/* The integer path (fixed-point models, docs/EMBEDDED.md "The integer path") on this platform, in
 * C99 through the C API: every vector of each fixed fixture (`rfk convert --fixed`, then
 * `rfk export --vectors`, which stores the int16 inputs and the host's int32 outputs) goes through
 * rfk_predict_fixed and must give the host's integers exactly, on every target. It calls only
 * rfk_open and the fixed entry points, and prints with puts (printf's float support would link
 * soft-float routines), so its firmware is what the fixed_no_soft_float test inspects. Returns
 * non-zero on any mismatch. Nothing is allocated. */
#include <stdio.h>

#include "house_fixed.h"
#include "rfk/rfk.h"

static rfk_model model;
static uint8_t scratch[64] RFK_ALIGNED;

/* puts(prefix followed by v in decimal): no printf. */
static void PutNumber(const char* prefix, long v) {
  char line[96];
  char digits[24];
  unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
  int n = 0, at = 0;
  do {
    digits[n++] = (char)('0' + (int)(u % 10u));
    u /= 10u;
  } while (u != 0 && n < 23);
  while (*prefix != '\0' && at < 64) line[at++] = *prefix++;
  if (v < 0) line[at++] = '-';
  while (n > 0) line[at++] = digits[--n];
  line[at] = '\0';
  puts(line);
}

int main(void) {
  int32_t out[HOUSE_FIXED_OUTPUTS];
  long mismatches = 0;
  uint32_t i, k;
  rfk_status s = rfk_open(&model, house_fixed, HOUSE_FIXED_BYTES, NULL);
  if (s != RFK_OK || rfk_fixed_scratch_bytes(&model) > sizeof scratch) {
    PutNumber("fixed house_fixed: open failed, status ", (long)s);
    return 1;
  }
  for (i = 0; i < HOUSE_FIXED_VECTORS; ++i) {
    s = rfk_predict_fixed(&model, house_fixed_inputs_q + i * HOUSE_FIXED_INPUT_DIM, HOUSE_FIXED_INPUT_DIM, scratch,
                          sizeof scratch, out, HOUSE_FIXED_OUTPUTS);
    for (k = 0; k < HOUSE_FIXED_OUTPUTS; ++k) {
      if (s == RFK_OK && out[k] == house_fixed_outputs_q[i * HOUSE_FIXED_OUTPUTS + k]) continue;
      ++mismatches;
      PutNumber("fixed house_fixed: mismatch at vector ", (long)i);
    }
  }
  PutNumber("fixed house_fixed: vectors checked bit for bit: ", (long)HOUSE_FIXED_VECTORS);
  PutNumber("fixed house_fixed: mismatches: ", mismatches);
  return mismatches != 0;
}
