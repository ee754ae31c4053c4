# Installs the runtime into a fresh prefix and builds examples/host_cpp against it as a separate
# CMake project (find_package(tilec)). With -DRUN_ONLY=ON it instead compiles the gather kernel
# with TILEC_EXE to a kernels.so and checks the program's output, printing TILEC_SKIP when that
# compiler step is not available yet.
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "host_example.cmake needs -D${v}=...")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

if(NOT RUN_ONLY)
  file(REMOVE_RECURSE ${WORK_DIR})
  file(MAKE_DIRECTORY ${WORK_DIR})
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --component tilec_runtime --prefix ${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/host_cpp -B ${WORK_DIR}/build -G ${GENERATOR}
      -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  message(STATUS "installed runtime and built examples/host_cpp against it")
  return()
endif()

if(NOT TILEC_EXE OR NOT EXISTS "${TILEC_EXE}")
  message(STATUS "TILEC_SKIP: no tilec executable to compile the gather kernel")
  return()
endif()
execute_process(COMMAND ${TILEC_EXE} compile --target=host -o ${WORK_DIR}/kernels.so
                ${SOURCE_DIR}/examples/host_cpp/gather_even_rows.tile
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK_DIR}/kernels.so)
  message(STATUS "TILEC_SKIP: `tilec compile --target=host -o kernels.so` is not available (${rc}): ${err}")
  return()
endif()
run(${WORK_DIR}/build/gather_host ${WORK_DIR}/kernels.so)
set(expected "[[ 1.  2.  3.  4.]\n [ 9. 10. 11. 12.]]\n[[ 5. 10. -1.]\n [ 0.  0. -1.]\n [ 0.  0.  0.]\n [ 2.  4. -1.]]\n")
if(NOT run_output STREQUAL expected)
  message(FATAL_ERROR "gather_host printed\n${run_output}\nexpected\n${expected}")
endif()
message(STATUS "gather_host output matches the page")
