/* Per-prediction cost and stack on bare-metal boards, under qemu -icount shift=0 (one instruction
 * per nanosecond of virtual time). Cortex-M: SysTick, clocked by the core, counts virtual time;
 * RISC-V: the minstret CSR, which qemu derives from the same instruction counter. After
 * calibrating the counter against a loop of known length it counts executed instructions exactly
 * (qemu has no cycle model: this is instructions, not cycles; flash wait states and pipeline
 * stalls on real silicon come on top). Stack: the region below the caller's stack pointer is
 * painted, one prediction runs, and the deepest overwritten word is the measured peak.
 * Prints one line per fixture this build compiles in (fixtures.h) and kernel table (a Cortex-M55:
 * Helium, then the scalar core); fails only if a prediction fails. */
#include <stdint.h>
#include <stdio.h>

#include "covtype_ff_fixed.h" /* the integer path's fixtures (tests/embedded/fixtures.cmake) */
#include "covtype_fixed.h"
#include "fixtures.h"
#ifdef RFK_COST_COVTYPE
#include "covtype_phase.h"
#endif
#include "house_fixed.h"
#include "rfk/rfk.h"
#include "stack_paint.h"
#ifdef RFK_COST_FIXED_ONLY
#include "a9a_hashed_fixed.h" /* binning on the integer path: 44 KB, beside the float fixtures too much */
#endif

/* RFK_COST_FIXED_ONLY (the cost_fixed firmware): the fixed fixtures alone, so that the (54, 1024)
 * one fits a 256 KiB board beside them. Otherwise the float fixtures, then house_fixed, and
 * covtype_fixed where the board holds the float (54, 1024) models too. */
#if defined(RFK_COST_FIXED_ONLY) || defined(COVTYPE_PHASE_BYTES)
#define RFK_COST_COVTYPE_FIXED 1
#endif
/* RFK_COST_COVTYPE (the cost_covtype firmware, a micro:bit whose flash qemu enlarges): the f32
 * (54, 1024) model covtype_phase and covtype_fixed, converted from it, alone; fails unless the
 * integer path takes at least 5x fewer instructions (issue 17). */
#ifdef RFK_COST_COVTYPE
#undef RFK_FIXTURE_LIST
#define RFK_FIXTURE_LIST(X) X(covtype_phase, COVTYPE_PHASE, NULL, NULL)
#endif

static union {
#define RFK_FIXTURE_SCRATCH(name, NAME, classes, keys) uint8_t name[NAME##_SCRATCH_BYTES];
  RFK_FIXTURE_LIST(RFK_FIXTURE_SCRATCH)
#undef RFK_FIXTURE_SCRATCH
} scratch RFK_ALIGNED;
#ifndef RFK_COST_FIXED_ONLY
static float out[8];
#endif
static int32_t out_q[8];
static uint64_t last_instructions; /* of the latest Measure or MeasureFixed */

#if defined(__riscv)
static void StartCounter(void) {}
static uint32_t Ticks(void) { /* 32-bit up-counter: wraps after 2^32 instructions */
  uint32_t n;
  /* Zicsr is in every RISC-V core with counters, but -march=rv32imc does not name it. */
  __asm volatile(".option push\n\t.option arch, +zicsr\n\tcsrr %0, minstret\n\t.option pop" : "=r"(n));
  return n;
}
static uint32_t Elapsed(uint32_t from, uint32_t to) { return to - from; }
#define COUNT_DOWN_LOOP(n) __asm volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n))
#define COUNTER_NAME "minstret"
#else
#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)
static void StartCounter(void) {
  SYST_RVR = 0xFFFFFFu;
  SYST_CVR = 0u;
  SYST_CSR = 5u; /* enabled, processor clock, no interrupt */
}
static uint32_t Ticks(void) { return SYST_CVR; } /* 24-bit down-counter */
static uint32_t Elapsed(uint32_t from, uint32_t to) { return (from - to) & 0xFFFFFFu; }
/* Unified syntax: GCC hands Thumb-1 (Armv6-M) inline assembly over in divided syntax, which has no
 * 16-bit `subs rd, rn, #imm`. */
#define COUNT_DOWN_LOOP(n) __asm volatile(".syntax unified\n1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc")
#define COUNTER_NAME "SysTick"
#endif

/* Instructions per 2^16 counter ticks, from a loop of 2 instructions per iteration. */
static uint64_t Calibrate(void) {
  uint32_t n = 500000u;
  const uint32_t a = Ticks();
  COUNT_DOWN_LOOP(n);
  const uint32_t b = Ticks();
  return ((uint64_t)2u * 500000u << 16) / Elapsed(a, b);
}

#ifndef RFK_COST_FIXED_ONLY
static __attribute__((noinline)) uint32_t StackPeak(const rfk_model* m, const float* x, uint32_t d) {
  volatile uint32_t* sp;
  RFK_READ_SP(sp);
  rfk_paint_stack(sp);
  (void)rfk_predict(m, x, d, &scratch, sizeof scratch, out, 8);
  return rfk_painted_bytes(sp);
}

static int Measure(const char* name, const uint8_t* bytes, uint32_t len, const float* inputs,
                   uint32_t count, uint64_t per_tick) {
  rfk_model m;
  uint32_t v, t0, t1, d;
  uint64_t instructions;
  if (rfk_open(&m, bytes, len, NULL) != RFK_OK) return 1;
  d = rfk_input_dim(&m);
  t0 = Ticks();
  for (v = 0; v < count; ++v)
    if (rfk_predict(&m, inputs + v * d, d, &scratch, sizeof scratch, out, 8) != RFK_OK) return 1;
  t1 = Ticks();
  instructions = (uint64_t)Elapsed(t0, t1) * per_tick / count >> 16;
  last_instructions = instructions;
  printf("cost %-14s d=%-4lu features=%-5lu outputs=%-2lu grids=%-3lu instructions/prediction %-8lu stack %lu bytes "
         "scratch %lu bytes\n",
         name, (unsigned long)d, (unsigned long)rfk_num_features(&m), (unsigned long)rfk_num_outputs(&m),
         (unsigned long)rfk_num_grids(&m),
         (unsigned long)instructions, (unsigned long)StackPeak(&m, inputs, d), (unsigned long)rfk_scratch_bytes(&m));
  return 0;
}

#endif

/* The integer path (rfk_predict_fixed on int16 inputs): the same counter and stack paint. */
static __attribute__((noinline)) uint32_t StackPeakFixed(const rfk_model* m, const int16_t* x, uint32_t d) {
  volatile uint32_t* sp;
  RFK_READ_SP(sp);
  rfk_paint_stack(sp);
  (void)rfk_predict_fixed(m, x, d, &scratch, sizeof scratch, out_q, 8);
  return rfk_painted_bytes(sp);
}

static int MeasureFixed(const char* name, const uint8_t* bytes, uint32_t len, const int16_t* inputs,
                        uint32_t count, uint64_t per_tick) {
  rfk_model m;
  uint32_t v, t0, t1, d;
  uint64_t instructions;
  if (rfk_open(&m, bytes, len, NULL) != RFK_OK || rfk_fixed_scratch_bytes(&m) > sizeof scratch) return 1;
  d = rfk_input_dim(&m);
  t0 = Ticks();
  for (v = 0; v < count; ++v)
    if (rfk_predict_fixed(&m, inputs + v * d, d, &scratch, sizeof scratch, out_q, 8) != RFK_OK) return 1;
  t1 = Ticks();
  instructions = (uint64_t)Elapsed(t0, t1) * per_tick / count >> 16;
  last_instructions = instructions;
  printf("cost %-14s d=%-4lu features=%-5lu outputs=%-2lu fixed     instructions/prediction %-8lu stack %lu bytes "
         "scratch %lu bytes\n",
         name, (unsigned long)d, (unsigned long)rfk_num_features(&m), (unsigned long)rfk_num_outputs(&m),
         (unsigned long)instructions,
         (unsigned long)StackPeakFixed(&m, inputs, d), (unsigned long)rfk_fixed_scratch_bytes(&m));
  return 0;
}

int main(void) {
  uint64_t per_tick;
  int failed = 0;
  StartCounter();
  per_tick = Calibrate();
  printf("cost: %lu.%03lu instructions per " COUNTER_NAME " tick\n", (unsigned long)(per_tick >> 16),
         (unsigned long)(((per_tick & 0xFFFFu) * 1000u) >> 16));
#ifndef RFK_COST_FIXED_ONLY
  /* Every kernel table the build has, best first (a Cortex-M55: Helium, then scalar), the scalar
   * one last, so that last_instructions below is the scalar core's. */
  {
    size_t t;
    for (t = 0; t < rfk_kernel_table_count(); ++t) {
      char table[64];
      snprintf(table, sizeof table, "%s-%s", rfk_kernel_table_backend(t), rfk_kernel_table_target(t));
      if (!rfk_select_kernels(table)) return 1;
      printf("cost: kernel table %s\n", table);
#define RFK_FIXTURE_MEASURE(name, NAME, classes, keys) \
  failed |= Measure(#name, name, NAME##_BYTES, name##_inputs, 16, per_tick);
      RFK_FIXTURE_LIST(RFK_FIXTURE_MEASURE)
#undef RFK_FIXTURE_MEASURE
    }
  }
#endif
#ifdef RFK_COST_COVTYPE
  {
    const uint64_t float_instructions = last_instructions;
    failed |= MeasureFixed("covtype_fixed", covtype_fixed, COVTYPE_FIXED_BYTES, covtype_fixed_inputs_q, 16, per_tick);
    printf("cost covtype float/fixed %lu.%02lu (at least 5 required)\n",
           (unsigned long)(float_instructions / last_instructions),
           (unsigned long)(float_instructions * 100u / last_instructions % 100u));
    return failed || float_instructions < 5u * last_instructions;
  }
#endif
  failed |= MeasureFixed("house_fixed", house_fixed, HOUSE_FIXED_BYTES, house_fixed_inputs_q, 16, per_tick);
#ifdef RFK_COST_FIXED_ONLY
  failed |= MeasureFixed("a9a_hashed_fix", a9a_hashed_fixed, A9A_HASHED_FIXED_BYTES, a9a_hashed_fixed_inputs_q, 16,
                         per_tick);
#endif
#ifdef RFK_COST_COVTYPE_FIXED
  failed |= MeasureFixed("covtype_fixed", covtype_fixed, COVTYPE_FIXED_BYTES, covtype_fixed_inputs_q, 16, per_tick);
#endif
#ifdef RFK_COST_FIXED_ONLY /* Fastfood on the integer path: compare with cost's covtype_fastfood_binary line */
  failed |= MeasureFixed("covtype_ff_fixed", covtype_ff_fixed, COVTYPE_FF_FIXED_BYTES, covtype_ff_fixed_inputs_q, 16,
                         per_tick);
#endif
  return failed;
}
