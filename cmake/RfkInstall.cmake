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
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rfkConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rfkConfig.cmake ${PROJECT_BINARY_DIR}/rfkConfigVersion.cmake
        DESTINATION ${RFK_INSTALL_CMAKEDIR} COMPONENT dev)

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
