# error_fields: the open's reports of the core without field names (NONAMES) against the whole
# core's (NAMED), over the same changed words of MODELS ('|'-separated .rfk paths): each program
# checks its own field rule and exits 0, and both print the same lines (error_fields.cc).
# cmake -DNAMED=<exe> -DNONAMES=<exe> -DMODELS=<a|b|...> -DOUT=<prefix> -P error_fields.cmake
string(REPLACE "|" ";" models "${MODELS}")
foreach(which NAMED NONAMES)
  execute_process(COMMAND ${${which}} ${models} OUTPUT_FILE ${OUT}.${which}.txt RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${${which}} failed (${rc}): ${err}; its lines are in ${OUT}.${which}.txt")
  endif()
endforeach()
file(STRINGS ${OUT}.NAMED.txt named)
file(STRINGS ${OUT}.NONAMES.txt nonames)
list(LENGTH named n)
if(n LESS 1000)
  message(FATAL_ERROR "error_fields: only ${n} changes opened (${OUT}.NAMED.txt)")
endif()
if(NOT named STREQUAL nonames)
  message(FATAL_ERROR "error_fields: the core without names reports otherwise than the whole core: "
                      "diff ${OUT}.NAMED.txt ${OUT}.NONAMES.txt")
endif()
message(STATUS "error_fields: ${n} changed models, the same status and offset from both cores")
