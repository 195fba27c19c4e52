# Fails when the linked image ELF defines a symbol whose (mangled) name matches the regular
# expression FORBID. The pinned cores' images use it for core::kPinnedModel: its fields are folded
# into the code (lib/core/pinned_model.h), and a call that passes its address links the whole
# Model again. Usage: cmake -DNM=nm -DELF=image -DFORBID=regex -P this file.
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
if(found)
  message(FATAL_ERROR "${ELF} defines ${found}")
endif()
message(STATUS "${ELF}: nothing matches ${FORBID}")
