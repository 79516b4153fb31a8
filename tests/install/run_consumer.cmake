# cmake -P script: install, then build and run the consumer both ways.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/cmake-build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-build)
run(${WORK_DIR}/cmake-build/consumer)
message("consumer: cmake ok: ${last_output}")

# pkg-config: link the shared library with the flags the .pc file gives.
file(GLOB_RECURSE pc_file ${prefix}/*/sweep.pc)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run(pkg-config --cflags sweep)
string(STRIP "${last_output}" cflags)
separate_arguments(cflags UNIX_COMMAND "${cflags}")
run(pkg-config --libs sweep)
string(STRIP "${last_output}" libs)
separate_arguments(libs UNIX_COMMAND "${libs}")
get_filename_component(lib_dir ${pc_dir} DIRECTORY)
run(${C_COMPILER} -std=c11 ${cflags} ${SOURCE_DIR}/main.c -o ${WORK_DIR}/pc-consumer ${libs} -lm
    -Wl,-rpath,${lib_dir})
run(${WORK_DIR}/pc-consumer)
message("consumer: pkg-config ok: ${last_output}")
