# Writes OUT: the GNU build ID of the engine at ENGINE (read with READELF), for the shim built
# beside it, which believes only memo entries that engine wrote (shim/shared/memo_format.h).
# Rewritten only when the ID changes, so an unchanged engine rebuilds nothing.
execute_process(COMMAND ${READELF} -n ${ENGINE} OUTPUT_VARIABLE notes RESULT_VARIABLE rc)
string(REGEX MATCH "Build ID: ([0-9a-f]+)" found "${notes}")
if(NOT rc EQUAL 0 OR NOT found)
  message(FATAL_ERROR "${ENGINE} has no GNU build ID (readelf -n): the shim's memo needs one")
endif()
set(text "#pragma once\n#define CUDNN_COMPAT_ENGINE_BUILD \"${CMAKE_MATCH_1}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
