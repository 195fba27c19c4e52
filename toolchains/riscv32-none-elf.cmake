# Bare-metal 32-bit RISC-V (RV32IMC, no FPU: soft float) with Debian's gcc-riscv64-unknown-elf and
# picolibc (picolibc-riscv64-unknown-elf), semihosting I/O and exit. Firmware tests run under
# `qemu-system-riscv32 -M virt -bios none` (qemu-system-misc): code at 0x80000000 ("flash",
# 4 MiB here, as on the MPS2 boards), RAM at 0x80400000 (4 MiB), both in the board's 128 MiB DRAM. RFK_RISCV_ARCH / RFK_RISCV_ABI override the ISA
# (e.g. rv32imac / ilp32, rv32imafc / ilp32f); the C library is picolibc's closest multilib
# (rv32imc links rv32im's). Nothing here is needed to *use* rfk_core in RISC-V firmware: it builds
# with any RISC-V toolchain's flags (docs/EMBEDDED.md).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_CXX_COMPILER riscv64-unknown-elf-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(RFK_RISCV_ARCH rv32imc CACHE STRING "RISC-V -march (e.g. rv32imc, rv32imac, rv32imafc)")
set(RFK_RISCV_ABI ilp32 CACHE STRING "RISC-V -mabi (ilp32 for soft float, ilp32f with the F extension)")
set(RFK_MCU ${RFK_RISCV_ARCH})  # the budgets' key (targets/riscv/budgets.cmake)
set(_rfk_flags "-march=${RFK_RISCV_ARCH} -mabi=${RFK_RISCV_ABI} --specs=picolibc.specs")
# Debian ships no libstdc++ for riscv64-unknown-elf, and so none of the C++ library's headers. The
# core needs only <cstddef>, <cstdint>, <cstring> and <new> (placement new, std::launder), which
# toolchains/freestanding-cxx/ supplies as thin wrappers over picolibc's C headers. A toolchain
# with a C++ library finds its own first: the wrappers come last on the include path.
set(_rfk_flags "${_rfk_flags} -idirafter ${CMAKE_CURRENT_LIST_DIR}/freestanding-cxx")
set(CMAKE_C_FLAGS_INIT "${_rfk_flags} -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${_rfk_flags} -ffunction-sections -fdata-sections")
# picolibc's linker script places the image from these symbols; crt0-semihost's exit() reaches qemu
# (semihosting SYS_EXIT_EXTENDED), so main()'s return value is qemu's exit code and CTest's verdict.
set(RFK_MEMORY 0x80000000 4M 0x80400000 4M)
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "--oslib=semihost --crt0=semihost -Wl,--gc-sections -Wl,--defsym=__flash=0x80000000,--defsym=__flash_size=4M,--defsym=__ram=0x80400000,--defsym=__ram_size=4M")
set(RFK_QEMU_BOARD virt)
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-system-riscv32;-M;virt;-bios;none;-nographic;-monitor;none;-semihosting-config;enable=on,target=native;-kernel)
set(RFK_BARE_METAL ON)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
