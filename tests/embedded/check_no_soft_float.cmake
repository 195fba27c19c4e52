# Fails when the linked image ELF defines a soft-float routine: the ARM EABI's __aeabi_f* / __aeabi_d*
# and int <-> float conversions, and libgcc's generic names (__addsf3, __ltdf2, __fixsfsi,
# __floatsisf, __extendsfdf2, ...; RISC-V uses these). Integer helpers (__aeabi_lmul, __aeabi_llsr,
# __aeabi_ldivmod, __aeabi_idiv, ...) are allowed. Usage: cmake -DNM=nm -DELF=image -P this file.
execute_process(COMMAND ${NM} --defined-only ${ELF} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${ELF}")
endif()
set(pattern "(__aeabi_[fd][a-z0-9]*|__aeabi_u?[il]2[fd]|__[a-z]+[sdt]f[23]|__fix(uns)?[sdt]f[sdt]i|__float(un)?[sdt]i[sdt]f|__extend[sdt]f[sdt]f2|__trunc[sdt]f[sdt]f2)$")
string(REGEX MATCHALL "[^\n]*\n" lines "${symbols}")
set(found "")
foreach(line IN LISTS lines)
  string(STRIP "${line}" line)
  string(REGEX REPLACE "^.* " "" name "${line}")
  if(name MATCHES "^${pattern}")
    list(APPEND found ${name})
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "${ELF} links soft-float routines: ${found}")
endif()
message(STATUS "${ELF}: no soft-float routine linked")
