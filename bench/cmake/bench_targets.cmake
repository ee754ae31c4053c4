# Benchmark targets: CPU throughput (STREAM copy, hand-written loops, tilec kernels through the
# runtime), warm in-process compile latency, and the GPU bandwidth probe (CUDA via dlopen).
set_property(GLOBAL PROPERTY TILEC_BENCH_ADDED TRUE)
set(_bench_dir ${CMAKE_CURRENT_LIST_DIR}/..)

# Hand-written peers are compiled like a user would: -O3 for this machine's vector units.
add_executable(bench_cpu ${_bench_dir}/src/bench_cpu_main.cpp ${_bench_dir}/src/bench_util.cpp
               ${_bench_dir}/src/cpu_loops.cpp ${_bench_dir}/src/tilec_cpu.cpp)
target_compile_options(bench_cpu PRIVATE -O3 -march=native)
target_include_directories(bench_cpu PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(bench_cpu PRIVATE tilec_rt Threads::Threads)
set_target_properties(bench_cpu PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)

# Warm in-process compile latency: needs the compiler facade (compiler/); PTX when the NVPTX
# target library is there too. Without the facade the driver reports "n/a (not available)".
if(TARGET tilec_compiler)
  add_executable(bench_compile ${_bench_dir}/src/bench_compile_main.cpp)
  target_include_directories(bench_compile PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(bench_compile PRIVATE tilec_compiler)
  if(TARGET tilec_nvptx)
    target_link_libraries(bench_compile PRIVATE tilec_nvptx)
    target_compile_definitions(bench_compile PRIVATE TILEC_BENCH_HAVE_NVPTX=1)
  endif()
  set_target_properties(bench_compile PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()

# GPU bandwidth and GEMM (bench/gpu.sh): bench_gpu_prepare compiles tilec's kernels to PTX and
# writes them, and the nvcc references, as signature files; bench_gpu launches both through the
# runtime alone (no LLVM), dlopens cuBLAS for the GEMM rows (never links it), and skips cleanly
# where no CUDA driver or GPU exists.
add_executable(bench_gpu ${_bench_dir}/src/bench_gpu_main.cpp ${_bench_dir}/src/bench_gpu_gemm.cpp
               ${_bench_dir}/src/bench_util.cpp)
target_include_directories(bench_gpu PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(bench_gpu PRIVATE tilec_rt Threads::Threads ${CMAKE_DL_LIBS})
set_target_properties(bench_gpu PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
if(TARGET tilec_compiler AND TARGET tilec_nvptx)
  add_executable(bench_gpu_prepare ${_bench_dir}/src/bench_gpu_prepare.cpp)
  target_include_directories(bench_gpu_prepare PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(bench_gpu_prepare PRIVATE tilec_compiler tilec_nvptx tilec_rt)
  set_target_properties(bench_gpu_prepare PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()
