/* Minimal Cortex-M startup for the example's boards under qemu-system-arm (on real hardware, use
 * the vendor's startup code and keep main.c): a 16-entry vector table
 * (initial stack pointer, reset, the fault handlers), FPU enable where the core has one, .data
 * copied from flash, then newlib's _start (rdimon.specs: semihosting I/O; it clears .bss and calls
 * main, and exit's status becomes qemu's exit code). A fault prints its name and exits with 128 + the
 * exception number, so a crash fails the test instead of hanging it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern uint32_t __stack;
extern uint32_t __data_start__, __data_end__, __data_load__;
extern void _start(void);

void Reset_Handler(void);
void Fault_Handler(void);

__attribute__((noreturn)) void Reset_Handler(void) {
#if defined(__ARM_FP)
  /* CPACR: full access to coprocessors 10 and 11 (the FPU) before any float instruction. */
  volatile uint32_t* const cpacr = (volatile uint32_t*)0xE000ED88u;
  *cpacr |= 0xFu << 20;
  __asm volatile("dsb\n\tisb" ::: "memory");
#endif
  {
    const uint32_t* src = &__data_load__;
    uint32_t* dst = &__data_start__;
    while (dst < &__data_end__) *dst++ = *src++;
  }
  _start();
  for (;;) {
  }
}

void Fault_Handler(void) {
  uint32_t ipsr;
  __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  printf("FAULT: exception %lu (2 NMI, 3 HardFault, 4 MemManage, 5 BusFault, 6 UsageFault)\n",
         (unsigned long)(ipsr & 0x1FFu));
  exit(128 + (int)(ipsr & 0x1FFu));
}

/* The vector table as words: entry 0 is the initial stack pointer (an object's address), the
 * others are handler addresses (Thumb bit set by the linker). */
#define RFK_VECTOR(f) ((uintptr_t)(f))
__attribute__((section(".vectors"), used)) const uintptr_t rfk_vector_table[16] = {
    (uintptr_t)&__stack,         RFK_VECTOR(Reset_Handler), RFK_VECTOR(Fault_Handler),
    RFK_VECTOR(Fault_Handler),   RFK_VECTOR(Fault_Handler), RFK_VECTOR(Fault_Handler),
    RFK_VECTOR(Fault_Handler),   0, 0, 0, 0,
    RFK_VECTOR(Fault_Handler),   RFK_VECTOR(Fault_Handler), 0,
    RFK_VECTOR(Fault_Handler),   RFK_VECTOR(Fault_Handler),
};
