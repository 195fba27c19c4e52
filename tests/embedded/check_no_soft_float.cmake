# Fails when the linked image ELF defines a soft-float routine: the ARM EABI's __aeabi_f* / __aeabi_d*
# and int <-> float conversions, and libgcc's generic names (__addsf3, __ltdf2, __fixsfsi,
# __floatsisf, __extendsfdf2, ...; RISC-V uses these). Integer helpers (__aeabi_lmul, __aeabi_llsr,
# __aeabi_ldivmod, __aeabi_idiv, ...) are allowed. Usage: cmake -DNM=nm -DELF=image -P this file.
set(FORBID "^(__aeabi_[fd][a-z0-9]*|__aeabi_u?[il]2[fd]|__[a-z]+[sdt]f[23]|__fix(uns)?[sdt]f[sdt]i|__float(un)?[sdt]i[sdt]f|__extend[sdt]f[sdt]f2|__trunc[sdt]f[sdt]f2)$")
set(WHAT "soft-float routines")
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/check_no_symbol.cmake)
