# Joins the bench targets to a tilec configure without touching the top-level CMakeLists.txt:
# bench/run.sh passes -DCMAKE_PROJECT_INCLUDE=<this file>, which CMake reads right after
# project(); the deferred include runs once every folder has defined its targets.
if(PROJECT_NAME STREQUAL "tilec" AND CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
  function(tilec_bench_add_deferred)
    get_property(_added GLOBAL PROPERTY TILEC_BENCH_ADDED)
    if(NOT _added)
      include(${CMAKE_SOURCE_DIR}/bench/cmake/bench_targets.cmake)
    endif()
  endfunction()
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL tilec_bench_add_deferred)
endif()
