cmake_minimum_required(VERSION 3.18)
# Fails unless every translation unit of the device core and the SIMD backends includes
# lib/core/fp_contract.h before anything else: the core's results must not depend on the build's
# contraction flags (a firmware or vendor-IDE build compiles these sources with its own).
# kernels_xsimd-inl.h is the body of every generated xsimd translation unit (lib/simd/simd.cmake).
file(GLOB_RECURSE sources ${SOURCE_DIR}/lib/core/*.cc ${SOURCE_DIR}/lib/simd/*.cc)
list(APPEND sources ${SOURCE_DIR}/lib/simd/xsimd/kernels_xsimd-inl.h)
set(missing "")
foreach(src IN LISTS sources)
  file(STRINGS ${src} includes REGEX "^#include ")
  list(GET includes 0 first)
  if(NOT first MATCHES "fp_contract\\.h\"")
    list(APPEND missing ${src})
  endif()
endforeach()
list(LENGTH sources count)
message(STATUS "fp_contract.h: ${count} sources checked")
if(missing)
  message(FATAL_ERROR "these sources do not include fp_contract.h first: ${missing}")
endif()
