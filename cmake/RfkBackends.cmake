# Which SIMD backends rfk_core gets (lib/CMakeLists.txt builds them): sets RFK_BACKENDS for every
# directory of the build.
# "auto" (the default): every backend whose package is installed, said in a STATUS line; a list
# names the backends to build and fails when one is missing (the presets name "hwy;xsimd").
set(RFK_BACKENDS "auto" CACHE STRING "SIMD backends to build: auto, or a list of hwy and xsimd (empty: scalar only)")
if(RFK_BARE_METAL)
  set(RFK_BACKENDS "" CACHE STRING "" FORCE)  # Cortex-M: the scalar core (no Helium target exists)
elseif(RFK_BACKENDS STREQUAL "auto")
  set(RFK_BACKENDS "")
  if(RFK_CROSS_LINUX)  # Debian's multiarch libhwy-dev:<arch>; xsimd is the host's header-only copy
    find_library(RFK_HWY_LIBRARY hwy PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE} NO_DEFAULT_PATH)
    if(RFK_HWY_LIBRARY)
      list(APPEND RFK_BACKENDS hwy)
    endif()
    if(EXISTS /usr/include/xsimd/xsimd.hpp)
      list(APPEND RFK_BACKENDS xsimd)
    endif()
  else()
    find_package(hwy QUIET)
    if(hwy_FOUND)
      list(APPEND RFK_BACKENDS hwy)
    endif()
    find_package(xsimd QUIET)
    if(xsimd_FOUND)
      list(APPEND RFK_BACKENDS xsimd)
    endif()
  endif()
  message(STATUS "rfk: SIMD backends: ${RFK_BACKENDS} (RFK_BACKENDS=auto; the scalar kernels are always built)")
endif()
