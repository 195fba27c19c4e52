# The host half of every build's device tests: the rfk CLI built for this machine (Release,
# scalar kernels: it only trains and exports) and the embedded-model fixtures it makes
# (tests/embedded/fixtures). One copy serves every preset, cross or native, so the sanitizer and
# debug presets do not train with slow binaries and a cross build needs no emulator to train.
# Provides: target rfk_host_tools; RFK_FIXTURE_INCLUDES, the include directories of the generated
# <name>.h headers and of fixtures.h, which includes this build's device fixtures and lists them
# as RFK_FIXTURE_LIST: all of them, or RFK_SMALL_BOARD_FIXTURES on a board with 16 KiB of RAM.
include(ExternalProject)
include(${PROJECT_SOURCE_DIR}/tests/embedded/fixtures.cmake)
set(RFK_HOST_TOOLS_DIR ${PROJECT_SOURCE_DIR}/build/host-tools CACHE PATH
    "Build directory of the host tools (rfk CLI) and the embedded-model fixtures")
set(RFK_FIXTURE_DIR ${RFK_HOST_TOOLS_DIR}/tests/embedded/fixtures)
set(_byproducts)
foreach(name IN LISTS RFK_FIXTURES RFK_FIXED_FIXTURES)
  list(APPEND _byproducts ${RFK_FIXTURE_DIR}/${name}.h)
endforeach()
foreach(name IN LISTS RFK_PINNED_FIXTURES)
  list(APPEND _byproducts ${RFK_FIXTURE_DIR}/${name}_pin.h)
endforeach()
find_program(RFK_HOST_CXX NAMES c++ g++ REQUIRED NO_CMAKE_FIND_ROOT_PATH)
find_program(RFK_HOST_CC NAMES cc gcc REQUIRED NO_CMAKE_FIND_ROOT_PATH)
ExternalProject_Add(rfk_host_tools
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${RFK_HOST_TOOLS_DIR}
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DRFK_HOST_TOOLS_ONLY=ON "-DRFK_BACKENDS="
             -DRFK_WERROR=${RFK_WERROR} -DCMAKE_C_COMPILER=${RFK_HOST_CC}
             -DCMAKE_CXX_COMPILER=${RFK_HOST_CXX}
  # MAKEFLAGS cleared: under Makefiles the outer make's jobserver is not passed through
  # ExternalProject.
  BUILD_COMMAND ${CMAKE_COMMAND} -E env MAKEFLAGS= ${CMAKE_COMMAND} --build <BINARY_DIR> --target rfk_fixtures -j 2
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${_byproducts})

# fixtures.h for the device programs (tests/embedded, targets/cortex-m).
set(RFK_DEVICE_FIXTURES ${RFK_FIXTURES})
set(RFK_SMALL_BOARD OFF)  # a board with 16 KiB of RAM and 256 KiB of flash (the micro:bit)
if(RFK_MEMORY)
  list(GET RFK_MEMORY 3 _ram)
  if(_ram STREQUAL "16K")
    set(RFK_DEVICE_FIXTURES ${RFK_SMALL_BOARD_FIXTURES})
    set(RFK_SMALL_BOARD ON)
  endif()
endif()
set(_includes "")
set(_list "")
foreach(name IN LISTS RFK_DEVICE_FIXTURES)
  set(spec ${RFK_FIXTURE_${name}})
  list(GET spec 0 classes)
  list(GET spec 1 binning)
  string(TOUPPER ${name} NAME)
  set(classes_expr NULL)
  set(keys_expr NULL)
  if(classes)
    set(classes_expr ${name}_classes)
  endif()
  if(binning)
    set(keys_expr ${name}_keys)
  endif()
  string(APPEND _includes "#include \"${name}.h\"\n")
  string(APPEND _list " \\\n  X(${name}, ${NAME}, ${classes_expr}, ${keys_expr})")
endforeach()
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/fixtures/fixtures.h CONTENT
"/* Generated from tests/embedded/fixtures.cmake: the embedded models and their test vectors. */
#ifndef RFK_FIXTURES_H_
#define RFK_FIXTURES_H_
#include <stddef.h>
${_includes}
/* X(name, NAME, classes array or NULL, bin keys array or NULL) */
#define RFK_FIXTURE_LIST(X)${_list}
#endif
" @ONLY)

set(RFK_FIXTURE_INCLUDES ${CMAKE_BINARY_DIR}/fixtures ${RFK_FIXTURE_DIR})
