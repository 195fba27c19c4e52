# 32-bit ARM Linux, hard float, NEON as the baseline (Debian's g++-arm-linux-gnueabihf), tests
# under qemu-arm. Debian's libhwy 1.0.3 never detects NEON at run time on armhf (its HWCAP check
# does not match glibc's names), so NEON is compiled in statically: every armv7 board with
# NEON-VFPv4 (Cortex-A7 and later) runs this build.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
set(CMAKE_C_FLAGS_INIT "-mfpu=neon-vfpv4 -mfloat-abi=hard -mfp16-format=ieee")
# -Wno-psabi: GCC notes, for every std::vector of a 64-bit-aligned type (doctest's streampos
# stack), that such arguments are passed differently from GCC < 7.1 -- an ABI change that matters
# only when linking with code built by those compilers, and noise in every other build log.
set(CMAKE_CXX_FLAGS_INIT "-mfpu=neon-vfpv4 -mfloat-abi=hard -mfp16-format=ieee -Wno-psabi")
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-arm;-cpu;max;-L;/usr/arm-linux-gnueabihf;-E;LD_LIBRARY_PATH=/usr/lib/arm-linux-gnueabihf)
set(RFK_CROSS_LINUX ON)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
