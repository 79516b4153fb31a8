# Included by the cmake -P scripts of install_consumer and package_deb.

# Runs a command, fails the script with its output if it fails; its stdout
# is left in last_output.
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# Builds the consumer in SOURCE_DIR against the sweep installed under
# <prefix> twice, with find_package(sweep) and with the sweep.pc in <pc_dir>,
# in <work_dir>, and runs both. Uses SOURCE_DIR and C_COMPILER.
function(build_consumers prefix pc_dir work_dir)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${work_dir}/cmake-build
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER})
  run(${CMAKE_COMMAND} --build ${work_dir}/cmake-build)
  run(${work_dir}/cmake-build/consumer)
  message("consumer: cmake ok: ${last_output}")

  # pkg-config: link the shared library with the flags the .pc file gives.
  set(ENV{PKG_CONFIG_PATH} ${pc_dir})
  run(pkg-config --cflags sweep)
  string(STRIP "${last_output}" cflags)
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  run(pkg-config --libs sweep)
  string(STRIP "${last_output}" libs)
  separate_arguments(libs UNIX_COMMAND "${libs}")
  get_filename_component(lib_dir ${pc_dir} DIRECTORY)
  run(${C_COMPILER} -std=c11 ${cflags} ${SOURCE_DIR}/main.c -o ${work_dir}/pc-consumer ${libs} -lm
      -Wl,-rpath,${lib_dir})
  run(${work_dir}/pc-consumer)
  message("consumer: pkg-config ok: ${last_output}")
endfunction()
