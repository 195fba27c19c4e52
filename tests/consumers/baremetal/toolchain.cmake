# A firmware project's own minimal toolchain file: the compiler and the core's -mcpu flags
# (CONSUMER_CPU_FLAGS, e.g. "-mcpu=cortex-m0 -mthumb"), nothing that rfk asks for.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "${CONSUMER_CPU_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${CONSUMER_CPU_FLAGS}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
