# Bare-metal Cortex-M (Debian's gcc-arm-none-eabi + newlib). RFK_MCU is any Cortex-M -mcpu value,
# with GCC's feature suffixes (cortex-m0, cortex-m0plus, cortex-m3, cortex-m4, cortex-m7,
# cortex-m23, cortex-m33, cortex-m33+nofp, cortex-m55, ...). Float ABI: hard with the core's own
# FPU (-mfpu=auto) where it has one, soft where it has none or the name says +nofp; RFK_FLOAT_ABI
# overrides. Firmware tests run under qemu-system-arm where a board models the core:
#   cortex-m0   microbit (nRF51: 256 KiB flash, 16 KiB RAM)   cortex-m3  mps2-an385
#   cortex-m4   mps2-an386                                     cortex-m7  mps2-an500
#   cortex-m33  mps2-an505 (code at 0x10000000, RAM at 0x38000000: the secure aliases)
#   cortex-m55  mps3-an547 (Helium; the vector table in the ITCM at 0, where the core boots; code
#               and models in the DDR at 0x70000000, RAM in SRAM 2 at 0x31000000: secure aliases)
# Other cores build (the core library, install) but have no emulator: configure them without
# RFK_BUILD_TESTS (OFF by default; the presets turn it on). Nothing here is needed to *use* rfk_core in firmware: it builds with the
# toolchain's default flags (docs/EMBEDDED.md lists the sources for other build systems).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # no startup code at configure time

set(RFK_MCU cortex-m4 CACHE STRING "Cortex-M core, as GCC's -mcpu (e.g. cortex-m0, cortex-m4, cortex-m33+nofp)")
set(RFK_FLOAT_ABI "" CACHE STRING "soft or hard (default: hard where the core has an FPU)")
if(NOT RFK_MCU MATCHES "^cortex-m[0-9]")
  message(FATAL_ERROR "RFK_MCU='${RFK_MCU}': expected a Cortex-M -mcpu value such as cortex-m0 or cortex-m33")
endif()
string(REGEX MATCH "^cortex-m[0-9a-z]+" _rfk_core "${RFK_MCU}")
set(_rfk_abi "${RFK_FLOAT_ABI}")
if(_rfk_abi STREQUAL "")
  if(_rfk_core MATCHES "^cortex-m(0|0plus|1|3|23)$" OR RFK_MCU MATCHES "\\+nofp")
    set(_rfk_abi soft)
  else()
    set(_rfk_abi hard)
  endif()
endif()
set(_rfk_flags "-mcpu=${RFK_MCU} -mthumb -mfloat-abi=${_rfk_abi}")
if(NOT _rfk_abi STREQUAL "soft")
  set(_rfk_flags "${_rfk_flags} -mfpu=auto")
endif()
if(_rfk_core STREQUAL "cortex-m7")
  set(_rfk_flags "${_rfk_flags} -mfp16-format=ieee")  # Highway's headers want __fp16 defined
endif()

# Board (qemu-system-arm -M) and its memory: code origin/size, RAM origin/size.
set(RFK_QEMU_BOARD "")
if(_rfk_core STREQUAL "cortex-m0")
  set(RFK_QEMU_BOARD microbit)
  set(RFK_MEMORY 0x00000000 256K 0x20000000 16K)
elseif(_rfk_core STREQUAL "cortex-m3")
  set(RFK_QEMU_BOARD mps2-an385)
elseif(_rfk_core STREQUAL "cortex-m4")
  set(RFK_QEMU_BOARD mps2-an386)
elseif(_rfk_core STREQUAL "cortex-m7")
  set(RFK_QEMU_BOARD mps2-an500)
elseif(_rfk_core STREQUAL "cortex-m33")
  set(RFK_QEMU_BOARD mps2-an505)
  set(RFK_MEMORY 0x10000000 4M 0x38000000 4M)
elseif(_rfk_core STREQUAL "cortex-m55")
  set(RFK_QEMU_BOARD mps3-an547)
  set(RFK_MEMORY 0x70000000 4M 0x31000000 4M)
  set(RFK_VECTORS_ORIGIN 0x00000000)  # the ITCM: the AN547's secure vector table (init-svtor) is at 0
endif()
if(NOT RFK_MEMORY)
  set(RFK_MEMORY 0x00000000 4M 0x20000000 4M)  # the MPS2 boards: 4 MiB of code at 0, RAM at 0x20000000
endif()

# Each function and object in its own section so --gc-sections keeps only what predict reaches.
set(CMAKE_C_FLAGS_INIT "${_rfk_flags} -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${_rfk_flags} -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs --specs=rdimon.specs -Wl,--gc-sections")
# qemu's exit code is the firmware's main() return value (semihosting SYS_EXIT), so CTest judges it.
if(RFK_QEMU_BOARD)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      qemu-system-arm;-M;${RFK_QEMU_BOARD};-nographic;-monitor;none;-semihosting-config;enable=on,target=native;-kernel)
endif()
set(RFK_BARE_METAL ON)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
