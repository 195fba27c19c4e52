# Install rules (RFK_INSTALL, on by default when rfk is the top-level project), in GNUInstallDirs
# places, two components:
#   dev: the public headers, librfk_core.a (and librfk_host.a when the host library is built), the
#        CMake package (find_package(rfk CONFIG [COMPONENTS core host]) -> rfk::core, rfk::host),
#        its version file, and the pkg-config files rfk-core.pc (and rfk-host.pc);
#   cli: the rfk command.
# Every usage requirement a consumer needs travels with the targets (C++17, include directory,
# Highway when the core was built with it; zlib, threads and OpenBLAS (BLAS::BLAS) for the host
# library, found again by rfkConfig.cmake); nothing is hidden in presets. A cross build installs
# the core for its target (e.g. a Cortex-M prefix for firmware projects).
include(CMakePackageConfigHelpers)
set(RFK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/rfk CACHE STRING
    "Where the CMake package files are installed, relative to the prefix")
set(RFK_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig CACHE STRING
    "Where the pkg-config files are installed, relative to the prefix")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/rfk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev PATTERN host EXCLUDE)
install(TARGETS rfk_core EXPORT rfkCoreTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(EXPORT rfkCoreTargets NAMESPACE rfk:: DESTINATION ${RFK_INSTALL_CMAKEDIR} COMPONENT dev)
if(TARGET rfk_host)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/rfk/host DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rfk
          COMPONENT dev)
  install(TARGETS rfk_host EXPORT rfkHostTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
  install(EXPORT rfkHostTargets NAMESPACE rfk:: DESTINATION ${RFK_INSTALL_CMAKEDIR} COMPONENT dev)
endif()
if(TARGET rfk)
  install(TARGETS rfk RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()

# The core's one dependency a consumer must find too: Highway, when it is a backend (libhwy is a
# shared library; xsimd is header-only and compiled in).
set(RFK_CONFIG_HWY OFF)
set(RFK_PC_CORE_REQUIRES "")
if("hwy" IN_LIST RFK_BACKENDS AND NOT RFK_CROSS_LINUX)
  set(RFK_CONFIG_HWY ON)
  set(RFK_PC_CORE_REQUIRES "libhwy")
endif()
# The host library's: MPI's C bindings where it was built with them (lib/CMakeLists.txt).
if(NOT RFK_HAVE_MPI)
  set(RFK_HAVE_MPI OFF)
endif()
set(RFK_PC_HOST_MPI "")
if(RFK_HAVE_MPI)
  set(RFK_PC_HOST_MPI ", ompi-c")
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/rfkConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/rfkConfig.cmake
                              INSTALL_DESTINATION ${RFK_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API. ARCH_INDEPENDENT: a host's prefix serves a 32-bit
# firmware build too (COMPONENTS sources); a prebuilt library of another architecture fails at
# its link, as any foreign archive does.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rfkConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/rfkConfig.cmake ${PROJECT_BINARY_DIR}/rfkConfigVersion.cmake
        DESTINATION ${RFK_INSTALL_CMAKEDIR} COMPONENT dev)

# The core's sources, for firmware builds with their own toolchain (docs/EMBEDDED.md, "From the
# installed package"): lib/core's sources and private headers, the freestanding C++ headers for C
# libraries without them, rfk_add_core() for CMake (find_package(rfk CONFIG COMPONENTS sources))
# and rfk.mk for Makefiles. The same files whatever this build's target.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/core/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rfk/core COMPONENT dev
        FILES_MATCHING PATTERN "*.cc" PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/toolchains/freestanding-cxx/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rfk/freestanding-cxx
        COMPONENT dev)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/rfk.mk DESTINATION ${CMAKE_INSTALL_DATADIR}/rfk COMPONENT dev)
# The firmware example project (docs/DEPLOY.md copies it from here).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/firmware DESTINATION ${CMAKE_INSTALL_DATADIR}/rfk/examples COMPONENT dev)
file(RELATIVE_PATH RFK_CMAKE_TO_DATADIR /prefix/${RFK_INSTALL_CMAKEDIR} /prefix/${CMAKE_INSTALL_DATADIR}/rfk)
file(RELATIVE_PATH RFK_CMAKE_TO_INCLUDEDIR /prefix/${RFK_INSTALL_CMAKEDIR} /prefix/${CMAKE_INSTALL_INCLUDEDIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/rfkCoreSources.cmake.in ${PROJECT_BINARY_DIR}/rfkCoreSources.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/rfkCoreSources.cmake DESTINATION ${RFK_INSTALL_CMAKEDIR} COMPONENT dev)

# pkg-config files find their prefix from their own place (${pcfiledir}), so an unpacked or moved
# installation works too.
file(RELATIVE_PATH RFK_PC_TO_PREFIX /prefix/${RFK_INSTALL_PKGCONFIGDIR} /prefix)
string(REGEX REPLACE "/$" "" RFK_PC_TO_PREFIX "${RFK_PC_TO_PREFIX}")
foreach(pc rfk-core rfk-host)
  if(pc STREQUAL "rfk-host" AND NOT TARGET rfk_host)
    continue()
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${RFK_INSTALL_PKGCONFIGDIR} COMPONENT dev)
endforeach()
