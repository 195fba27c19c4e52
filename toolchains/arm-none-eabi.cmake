# Bare-metal Cortex-M (Debian's gcc-arm-none-eabi + newlib), firmware run under qemu-system-arm on
# an MPS2 board with semihosting. RFK_MCU picks the core, its FPU and the board:
#   cortex-m4  -mfpu=fpv4-sp-d16 hard float   mps2-an386
#   cortex-m7  -mfpu=fpv5-d16    hard float   mps2-an500
#   cortex-m3  no FPU, soft float             mps2-an385
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # no startup code at configure time

set(RFK_MCU cortex-m4 CACHE STRING "Cortex-M core: cortex-m4, cortex-m7 or cortex-m3")
if(RFK_MCU STREQUAL "cortex-m4")
  set(_rfk_flags "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
  set(_rfk_board mps2-an386)
elseif(RFK_MCU STREQUAL "cortex-m7")
  set(_rfk_flags "-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard -mfp16-format=ieee")
  set(_rfk_board mps2-an500)
elseif(RFK_MCU STREQUAL "cortex-m3")
  set(_rfk_flags "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft")
  set(_rfk_board mps2-an385)
else()
  message(FATAL_ERROR "RFK_MCU='${RFK_MCU}': expected cortex-m4, cortex-m7 or cortex-m3")
endif()
# Each function and object in its own section so --gc-sections keeps only what predict reaches.
set(CMAKE_C_FLAGS_INIT "${_rfk_flags} -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${_rfk_flags} -ffunction-sections -fdata-sections -fno-threadsafe-statics")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs --specs=rdimon.specs -Wl,--gc-sections")
# qemu's exit code is the firmware's main() return value (semihosting SYS_EXIT), so CTest judges it.
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-system-arm;-M;${_rfk_board};-nographic;-monitor;none;-semihosting-config;enable=on,target=native;-kernel)
set(RFK_BARE_METAL ON)
set(RFK_MPS2_BOARD ${_rfk_board})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
