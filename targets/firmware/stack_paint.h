/* The stack one call takes on a bare-metal board, painted (targets/firmware/cost.c,
 * tests/embedded/pinned_outputs.c): in a function of its own (noinline), RFK_READ_SP reads the stack
 * pointer, rfk_paint_stack fills the RFK_PAINT_WORDS words below it with RFK_PAINT, the call runs,
 * and rfk_painted_bytes gives the bytes from that pointer down to the deepest word the call wrote
 * (a word it wrote with RFK_PAINT's own value would go uncounted). Both helpers are always inlined:
 * a frame of their own would lie in the painted region. RFK_PAINT_WORDS (2 KiB) fits below the
 * caller on every board the presets use, a 16 KiB micro:bit's 4 KiB stack included. */
#ifndef RFK_STACK_PAINT_H_
#define RFK_STACK_PAINT_H_
#include <stdint.h>

#define RFK_PAINT 0xA5C3E1F0u
#define RFK_PAINT_WORDS 512u

#if defined(__riscv)
#define RFK_READ_SP(sp) __asm volatile("mv %0, sp" : "=r"(sp))
#else
#define RFK_READ_SP(sp) __asm volatile("mov %0, sp" : "=r"(sp))
#endif

static inline __attribute__((always_inline)) void rfk_paint_stack(volatile uint32_t* sp) {
  uint32_t i;
  for (i = 1; i <= RFK_PAINT_WORDS; ++i) sp[-(int32_t)i] = RFK_PAINT;
}

static inline __attribute__((always_inline)) uint32_t rfk_painted_bytes(volatile uint32_t* sp) {
  uint32_t i;
  for (i = RFK_PAINT_WORDS; i >= 1; --i)
    if (sp[-(int32_t)i] != RFK_PAINT) return i * 4u;
  return 0;
}

#endif
