# Debian packages with CPack (`cpack -G DEB` in a top-level build directory; scripts/check-deb.sh
# builds, installs and uses them): two packages from the install components,
#   rfk         the rfk command (runtime dependencies computed by dpkg-shlibdeps);
#   librfk-dev  headers, static libraries, CMake and pkg-config files, and the core's sources with
#               rfk_add_core / rfk.mk for firmware builds (depends on the -dev packages a
#               consumer's link needs: Highway when the core uses it, zlib and OpenBLAS for the
#               host library).
# Install both with `apt install ./rfk_*.deb ./librfk-dev_*.deb`.
set(CPACK_PACKAGE_NAME rfk)
set(CPACK_PACKAGE_VENDOR "rfk")
set(CPACK_PACKAGE_CONTACT "rfk maintainers <rfk@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME rfk)
set(CPACK_DEBIAN_CLI_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_CLI_DESCRIPTION "random-feature kernel machines: the rfk command
 Trains random Fourier and random binning feature models (Rahimi & Recht 2007)
 from LIBSVM, CSV or idx files, evaluates them, and exports them as C for firmware.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME librfk-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "random-feature kernel machines: headers and static libraries
 The allocation-free device core (rfk::core, rfk-core.pc) that predicts from a model
 read in place, and the host library (rfk::host, rfk-host.pc) that trains models.")
set(_rfk_dev_depends "")
if("hwy" IN_LIST RFK_BACKENDS)
  list(APPEND _rfk_dev_depends libhwy-dev)
endif()
if(TARGET rfk_host)
  list(APPEND _rfk_dev_depends zlib1g-dev libopenblas-dev)
endif()
list(JOIN _rfk_dev_depends ", " CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
include(CPack)
