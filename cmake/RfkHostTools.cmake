# The host half of every build's device tests: the rfk CLI built for this machine (Release,
# scalar kernels: it only trains and exports) and the embedded-model fixtures it makes
# (tests/embedded/fixtures). One copy serves every preset, cross or native, so the sanitizer and
# debug presets do not train with slow binaries and a cross build needs no emulator to train.
# Provides: target rfk_host_tools, RFK_FIXTURE_DIR (the generated <name>.h headers).
include(ExternalProject)
include(${PROJECT_SOURCE_DIR}/tests/embedded/fixtures.cmake)
set(RFK_HOST_TOOLS_DIR ${PROJECT_SOURCE_DIR}/build/host-tools CACHE PATH
    "Build directory of the host tools (rfk CLI) and the embedded-model fixtures")
set(RFK_FIXTURE_DIR ${RFK_HOST_TOOLS_DIR}/tests/embedded/fixtures)
set(_byproducts)
foreach(name IN LISTS RFK_FIXTURES)
  list(APPEND _byproducts ${RFK_FIXTURE_DIR}/${name}.h)
endforeach()
find_program(RFK_HOST_CXX NAMES c++ g++ REQUIRED NO_CMAKE_FIND_ROOT_PATH)
find_program(RFK_HOST_CC NAMES cc gcc REQUIRED NO_CMAKE_FIND_ROOT_PATH)
ExternalProject_Add(rfk_host_tools
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${RFK_HOST_TOOLS_DIR}
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DRFK_HOST_TOOLS_ONLY=ON "-DRFK_BACKENDS="
             -DRFK_WERROR=${RFK_WERROR} -DCMAKE_C_COMPILER=${RFK_HOST_CC}
             -DCMAKE_CXX_COMPILER=${RFK_HOST_CXX}
  # MAKEFLAGS cleared: the outer make's jobserver is not passed through ExternalProject.
  BUILD_COMMAND ${CMAKE_COMMAND} -E env MAKEFLAGS= ${CMAKE_COMMAND} --build <BINARY_DIR> --target rfk_fixtures -j 2
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${_byproducts})
