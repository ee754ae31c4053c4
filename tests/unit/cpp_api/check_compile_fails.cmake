# Compiles SOURCE twice with CXX: with -DTILEC_TYPED_OK it must compile (the set-up is right),
# without it must fail with a message that matches EXPECT (the typed launcher names the
# parameter). Run as `cmake -DCXX=... -DSOURCE=... -DINCLUDES=dir1|dir2 -DEXPECT=regex -P this`.
foreach(v CXX SOURCE INCLUDES EXPECT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_compile_fails: -D${v}= is missing")
  endif()
endforeach()
set(flags -std=c++20 -fsyntax-only)
string(REPLACE "|" ";" INCLUDES "${INCLUDES}")
foreach(d ${INCLUDES})
  list(APPEND flags -I${d})
endforeach()

execute_process(COMMAND ${CXX} ${flags} -DTILEC_TYPED_OK ${SOURCE}
                RESULT_VARIABLE ok_rc OUTPUT_VARIABLE ok_out ERROR_VARIABLE ok_out)
if(NOT ok_rc EQUAL 0)
  message(FATAL_ERROR "the correct call did not compile (rc ${ok_rc}):\n${ok_out}")
endif()

execute_process(COMMAND ${CXX} ${flags} ${SOURCE}
                RESULT_VARIABLE bad_rc OUTPUT_VARIABLE bad_out ERROR_VARIABLE bad_out)
if(bad_rc EQUAL 0)
  message(FATAL_ERROR "the wrong argument type compiled; it must be an error")
endif()
if(NOT bad_out MATCHES "${EXPECT}")
  message(FATAL_ERROR "the compile failed, but its message does not match `${EXPECT}`:\n${bad_out}")
endif()
message(STATUS "the wrong argument type is refused as expected")
