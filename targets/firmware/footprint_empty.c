/* Footprint baseline: the same startup, libc and I/O pattern as footprint_core.c, without rfk.
 * `arm-none-eabi-size` of the two, subtracted, is the inference core's flash and RAM. */
#include <stdint.h>

extern const float rfk_input_ram[];  /* linker-defined addresses (see CMakeLists.txt) */
extern float rfk_output_ram[];

int main(void) {
  rfk_output_ram[0] = rfk_input_ram[0];
  return 0;
}
