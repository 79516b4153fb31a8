# cmake -P script: install, then build and run the consumer both ways.
include(${CMAKE_CURRENT_LIST_DIR}/build_consumer.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

file(GLOB_RECURSE pc_file ${prefix}/*/sweep.pc)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
build_consumers(${prefix} ${pc_dir} ${WORK_DIR})
