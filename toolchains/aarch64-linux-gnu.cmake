# aarch64 Linux (Debian's g++-aarch64-linux-gnu), tests under qemu-aarch64 -cpu max (NEON, SVE,
# SVE2 all present, so Highway's runtime dispatch sees every target it compiled).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The cross libstdc++/libc live in /usr/aarch64-linux-gnu; libhwy:arm64 (multiarch) in
# /usr/lib/aarch64-linux-gnu.
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-aarch64;-cpu;max;-L;/usr/aarch64-linux-gnu;-E;LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu)
set(RFK_CROSS_LINUX ON)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
