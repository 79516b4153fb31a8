# cmake -P script: cpack -G DEB, unpack the .deb into a scratch root, check
# its files, Depends and ELF dynamic sections, run its sweep program, and
# build and run the consumer against the root both ways.
include(${CMAKE_CURRENT_LIST_DIR}/../install/build_consumer.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(root ${WORK_DIR}/root)

find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  message(FATAL_ERROR "package_deb: dpkg-deb not found; install the Debian package dpkg")
endif()
find_program(READELF readelf)
if(NOT READELF)
  message(FATAL_ERROR "package_deb: readelf not found; install the Debian package binutils")
endif()

run(${CPACK_COMMAND} -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR}/cpack)
file(GLOB deb ${WORK_DIR}/cpack/*.deb)
list(LENGTH deb n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "package_deb: expected one .deb in ${WORK_DIR}/cpack, found ${n}: ${deb}")
endif()
run(${DPKG_DEB} -x ${deb} ${root})

# ---- files -----------------------------------------------------------------
set(lib ${root}/usr/${LIBDIR})
set(expected
  ${lib}/libsweep.a
  ${lib}/libsweep.so
  ${lib}/libsweep.so.${VERSION}
  ${lib}/cmake/sweep/sweepConfig.cmake
  ${lib}/cmake/sweep/sweepConfigVersion.cmake
  ${lib}/cmake/sweep/sweepTargets.cmake
  ${lib}/pkgconfig/sweep.pc
  ${root}/usr/include/sweep/sweep.h)
if(HAS_SINGLE_HEADER)
  list(APPEND expected ${root}/usr/share/sweep/sweep.h)
endif()
if(HAS_PROGRAM)
  list(APPEND expected ${root}/usr/bin/sweep)
endif()
foreach(f IN LISTS expected)
  # EXISTS follows symlinks: libsweep.so must point at a packaged file.
  if(NOT EXISTS ${f})
    run(${DPKG_DEB} -c ${deb})
    message(FATAL_ERROR "package_deb: ${f} is not in ${deb}; the package holds:\n${last_output}")
  endif()
endforeach()
file(GLOB outside LIST_DIRECTORIES true RELATIVE ${root} ${root}/*)
if(NOT outside STREQUAL "usr")
  message(FATAL_ERROR "package_deb: files outside /usr: ${outside}")
endif()
list(LENGTH expected n)
message("package: files ok: ${n} checked")

# ---- control fields --------------------------------------------------------
run(${DPKG_DEB} -f ${deb} Version)
string(STRIP "${last_output}" version)
if(NOT version STREQUAL VERSION)
  message(FATAL_ERROR "package_deb: Version is '${version}', the project's is ${VERSION}")
endif()
# dpkg-shlibdeps fills Depends: the sweep program's libraries must be there,
# or installing the package leaves a program that does not start.
run(${DPKG_DEB} -f ${deb} Depends)
string(STRIP "${last_output}" depends)
set(needed libc6)
if(HAS_PROGRAM)
  list(APPEND needed libjansson libcairo libassimp)
endif()
foreach(p IN LISTS needed)
  if(NOT depends MATCHES "(^|, )${p}[0-9a-z.+-]*( |,|$)")
    message(FATAL_ERROR "package_deb: Depends lacks ${p}: '${depends}' "
      "(CPack fills it with dpkg-shlibdeps from dpkg-dev, and needs the file program)")
  endif()
endforeach()
message("package: depends ok: ${depends}")

# ---- ELF: no RPATH (Debian's loader paths only) ----------------------------
set(elves ${lib}/libsweep.so.${VERSION})
if(HAS_PROGRAM)
  list(APPEND elves ${root}/usr/bin/sweep)
endif()
foreach(f IN LISTS elves)
  run(${READELF} -d ${f})
  if(last_output MATCHES "\\((RPATH|RUNPATH)\\)[^\n]*")
    message(FATAL_ERROR "package_deb: ${f} has ${CMAKE_MATCH_0}")
  endif()
endforeach()

# ---- the program -----------------------------------------------------------
if(HAS_PROGRAM)
  # It links the static library: it must start with Debian's libraries
  # alone, without LD_LIBRARY_PATH.
  run(${READELF} -d ${root}/usr/bin/sweep)
  if(last_output MATCHES "libsweep")
    message(FATAL_ERROR "package_deb: usr/bin/sweep needs libsweep.so:\n${last_output}")
  endif()
  run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${root}/usr/bin/sweep --version)
  string(STRIP "${last_output}" out)
  if(NOT out MATCHES "${VERSION}")
    message(FATAL_ERROR "package_deb: sweep --version printed '${out}', not ${VERSION}")
  endif()
  message("package: program ok: ${out}")
else()
  message("package: program ok: not built (SWEEP_BUILD_TOOLS=OFF)")
endif()

# ---- consumers -------------------------------------------------------------
build_consumers(${root}/usr ${lib}/pkgconfig ${WORK_DIR})

file(SIZE ${deb} size)
get_filename_component(name ${deb} NAME)
message("package: deb ok: ${name}, ${size} bytes")
