/* The startup of a production-like Cortex-M image (fixed_image_limits; rfk_minimal_image): no C
 * library runtime. A vector table of the 16 system entries and 32 interrupt lines (the nRF51's
 * table, 192 bytes), .data copied from flash, .bss cleared, main called; then the exit status and
 * one line of output leave through ARM semihosting directly (bkpt 0xAB: SYS_WRITE0 and SYS_EXIT),
 * the only part a shipped firmware would not have (about 40 bytes). A fault exits with failure. */
#include <stdint.h>

extern uint32_t __stack;
extern uint32_t __data_start__, __data_end__, __data_load__, __bss_start__, __bss_end__;
int main(void);

void Reset_Handler(void);
void Fault_Handler(void);
void rfk_image_write(const char* line);

static uint32_t semihost(uint32_t op, const void* arg) {
  register uint32_t r0 __asm("r0") = op;
  register const void* r1 __asm("r1") = arg;
  __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void rfk_image_write(const char* line) { (void)semihost(0x04u, line); } /* SYS_WRITE0 */

static __attribute__((noreturn)) void exit_with(int status) {
  /* SYS_EXIT: ADP_Stopped_ApplicationExit is exit status 0, any other reason a failure. */
  (void)semihost(0x18u, (const void*)(uintptr_t)(status == 0 ? 0x20026u : 0x20024u));
  for (;;) {
  }
}

__attribute__((noreturn)) void Reset_Handler(void) {
  const uint32_t* src = &__data_load__;
  for (uint32_t* dst = &__data_start__; dst < &__data_end__;) *dst++ = *src++;
  for (uint32_t* dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;
  exit_with(main());
}

void Fault_Handler(void) { exit_with(1); }

#define RFK_VECTOR(f) ((uintptr_t)(f))
#define RFK_FAULT RFK_VECTOR(Fault_Handler)
#define RFK_FAULT8 RFK_FAULT, RFK_FAULT, RFK_FAULT, RFK_FAULT, RFK_FAULT, RFK_FAULT, RFK_FAULT, RFK_FAULT
__attribute__((section(".vectors"), used)) const uintptr_t rfk_vector_table[48] = {
    (uintptr_t)&__stack, RFK_VECTOR(Reset_Handler), RFK_FAULT, RFK_FAULT, 0, 0, 0, 0, 0, 0, 0,
    RFK_FAULT, 0, 0, RFK_FAULT, RFK_FAULT, RFK_FAULT8, RFK_FAULT8, RFK_FAULT8, RFK_FAULT8,
};
