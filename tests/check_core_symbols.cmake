cmake_minimum_required(VERSION 3.18)
# Fails if the device core library references a symbol it must never need: heap allocation,
# exceptions, RTTI, iostreams, stdio, the environment, or any other part of the C++ runtime (static
# initialisation guards, atomics library calls, std:: functions): the core links into C programs
# with gcc and into Armv6-M firmware, which has neither libstdc++ nor libatomic. Whole symbol
# names are matched, so a sanitizer build's own hooks (__asan_stack_malloc_*, ...) do not count.
execute_process(COMMAND ${NM} -u -C ${LIB} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${undefined}")
set(forbidden_exact malloc calloc realloc free aligned_alloc posix_memalign getenv secure_getenv
    printf fprintf puts fopen __cxa_throw __cxa_allocate_exception __cxa_begin_catch
    __cxa_guard_acquire __cxa_guard_release __cxa_guard_abort __cxa_pure_virtual __cxa_atexit)
set(found "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^[ \t]*U[ \t]+" "" sym "${line}")
  string(STRIP "${sym}" sym)
  if(sym STREQUAL "")
    continue()
  endif()
  if(sym IN_LIST forbidden_exact OR sym MATCHES "^operator (new|delete)" OR
     sym MATCHES "^typeinfo " OR sym MATCHES "^__gxx_personality" OR sym MATCHES "^std::" OR
     sym MATCHES "^__atomic_" OR sym MATCHES "^__sync_")
    list(APPEND found "${sym}")
  endif()
endforeach()
list(REMOVE_DUPLICATES found)
message(STATUS "rfk_core: ${LIB} checked")
if(found)
  message(FATAL_ERROR "rfk_core references forbidden symbols: ${found}")
endif()
