/* The smallest board, measured (docs/EMBEDDED.md, "The 16 KB firmware"): a whole firmware
 * image -- the board's startup code and vector table, the C runtime, the core built fixed-only
 * (RFK_CORE_FLOAT=0), the (16, 256) fixed-point model house_fixed in flash and its 32 test vectors
 * -- that opens the model, predicts every vector through rfk_predict_fixed and compares the host's
 * integers. RAM is measured, not estimated: everything from the end of .bss to just below main's
 * frame is painted first, and after the run the deepest overwritten word gives the stack's peak
 * (startup, main and the core together: the distance from the top of RAM). It writes one line,
 * "image ram <data+bss> stack <peak> total <sum> mismatches <n>", through the startup's semihosting
 * call (no C library: targets/cortex-m/startup_min.c), and returns non-zero on any mismatch.
 * image_limits.py checks flash with `size` and the line's total against the limits. */
#include <stdint.h>

#include "house_fixed.h"
#include "rfk/rfk.h"

extern uint32_t __data_start__, __bss_end__, __stack; /* firmware.ld */
void rfk_image_write(const char* line); /* the startup's semihosting output */

#define PAINT 0xA5C3E1F7u

static rfk_model model;
static uint8_t scratch[HOUSE_FIXED_FIXED_SCRATCH_BYTES] RFK_ALIGNED;
static int32_t out[HOUSE_FIXED_OUTPUTS];

/* Paints [from, 64 bytes below its own frame): everything deeper than main's callees go. */
static __attribute__((noinline)) void paint(uint32_t* from) {
  volatile uint32_t mark = 0;
  const uint32_t* to = (const uint32_t*)((uintptr_t)&mark & ~(uintptr_t)3u) - 16;
  for (volatile uint32_t* p = from; p < to; ++p) *p = PAINT;
  (void)mark;
}

static uint32_t peak(const uint32_t* from) { /* bytes from the deepest overwritten word to the top */
  const uint32_t* p = from;
  while (*p == PAINT) ++p;
  return (uint32_t)((uintptr_t)&__stack - (uintptr_t)p);
}

static char* put_u32(char* s, const char* label, uint32_t v) {
  char digits[10];
  int n = 0;
  while (*label) *s++ = *label++;
  do digits[n++] = (char)('0' + v % 10u); while ((v /= 10u) != 0);
  while (n > 0) *s++ = digits[--n];
  return s;
}

static uint32_t run(void) {
  uint32_t bad = 0;
  if (rfk_open(&model, house_fixed, HOUSE_FIXED_BYTES, 0) != RFK_OK) return HOUSE_FIXED_VECTORS + 1u;
  for (uint32_t i = 0; i < HOUSE_FIXED_VECTORS; ++i) {
    const rfk_status s = rfk_predict_fixed(&model, house_fixed_inputs_q + i * HOUSE_FIXED_INPUT_DIM,
                                           HOUSE_FIXED_INPUT_DIM, scratch, sizeof scratch, out, HOUSE_FIXED_OUTPUTS);
    bad += (s != RFK_OK || out[0] != house_fixed_outputs_q[i]) ? 1u : 0u;
  }
  return bad;
}

int main(void) {
  uint32_t* low = &__bss_end__;
  paint(low);
  const uint32_t bad = run();
  const uint32_t stack = peak(low);
  const uint32_t ram = (uint32_t)((uintptr_t)&__bss_end__ - (uintptr_t)&__data_start__);
  char line[96];
  char* s = put_u32(line, "image ram ", ram);
  s = put_u32(s, " stack ", stack);
  s = put_u32(s, " total ", ram + stack);
  s = put_u32(s, " mismatches ", bad);
  *s++ = '\n';
  *s = 0;
  rfk_image_write(line);
  return bad == 0 ? 0 : 1;
}
