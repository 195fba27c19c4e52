# Fails when the linked image ELF defines a symbol whose name matches the regular expression FORBID
# (anchored by the caller as it needs); WHAT names what was found in the message (default "symbols
# matching FORBID"). Used by targets/firmware/checks.cmake (the pinned images define no
# core::kPinnedModel: lib/core/pinned_model.h) and tests/embedded/check_no_soft_float.cmake.
# With -DREQUIRE=1 the other way round, for the tests that show a check finds what it looks for:
# fails unless the image defines such a symbol (so a missing image or a failing nm fails too).
# Usage: cmake -DNM=nm -DELF=image -DFORBID=regex [-DWHAT=text] [-DREQUIRE=1] -P this file.
if(NOT DEFINED WHAT)
  set(WHAT "symbols matching ${FORBID}")
endif()
execute_process(COMMAND ${NM} --defined-only ${ELF} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${ELF}")
endif()
string(REGEX MATCHALL "[^\n]*\n" lines "${symbols}")
set(found "")
foreach(line IN LISTS lines)
  string(STRIP "${line}" line)
  string(REGEX REPLACE "^.* " "" name "${line}")
  if(name MATCHES "${FORBID}")
    list(APPEND found ${name})
  endif()
endforeach()
if(REQUIRE)
  if(NOT found)
    message(FATAL_ERROR "${ELF} links no ${WHAT}")
  endif()
  message(STATUS "${ELF} links ${WHAT}: ${found}")
elseif(found)
  message(FATAL_ERROR "${ELF} links ${WHAT}: ${found}")
else()
  message(STATUS "${ELF}: no ${WHAT}")
endif()
