# CPack: a Debian package of the installed tree (make package, or cpack -G DEB
# in a build directory).
#
# One package, libsweep-dev, holds everything the install rules install: the
# static and shared library, headers, CMake package, pkg-config file, the
# single header and the sweep program. Named for its main content (section
# libdevel); "sweep" is already a Debian package, an audio editor, which also
# ships /usr/bin/sweep, hence the Conflicts below.
#
# Paths come from GNUInstallDirs at configure time: a build configured with
# CMAKE_INSTALL_PREFIX=/usr (as make package does) puts the libraries in
# /usr/lib/<multiarch>, Debian's layout; the default /usr/local prefix gives
# /usr/lib, which the linker and ld.so search too.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME libsweep-dev)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "sweep developers")
set(CPACK_PACKAGE_CONTACT "sweep developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_PACKAGE_NAME ${CPACK_PACKAGE_NAME})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "sweep developers")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_CONFLICTS sweep)
# The extended description; CPack puts the summary line above it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Static and shared library, headers, CMake package, pkg-config file, the single header share/sweep/sweep.h and the sweep command-line program.")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

execute_process(COMMAND dpkg --print-architecture
  OUTPUT_VARIABLE sweep_deb_arch OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE sweep_deb_rc ERROR_QUIET)
if(NOT sweep_deb_rc EQUAL 0 OR sweep_deb_arch STREQUAL "")
  # Not a Debian system: configure anyway; cpack -G DEB will say what is missing.
  set(sweep_deb_arch unknown)
else()
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${sweep_deb_arch})
endif()
set(CPACK_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}_${PROJECT_VERSION}_${sweep_deb_arch}")

# Depends (libc6, and the runtime packages of jansson, cairo and assimp that
# the sweep program links) is computed by dpkg-shlibdeps (dpkg-dev); CPack
# also needs `file` to find the ELF files. Without them the package would
# have no Depends at all.
find_program(SWEEP_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(SWEEP_FILE_PROGRAM file)
set(sweep_shlibdeps_rc 1)
if(SWEEP_DPKG_SHLIBDEPS AND SWEEP_FILE_PROGRAM)
  execute_process(COMMAND ${SWEEP_DPKG_SHLIBDEPS} --version
    RESULT_VARIABLE sweep_shlibdeps_rc OUTPUT_QUIET ERROR_QUIET)
endif()
if(sweep_shlibdeps_rc EQUAL 0)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "cpack -G DEB: no dpkg-shlibdeps or file, the package gets no Depends")
endif()

include(CPack)
