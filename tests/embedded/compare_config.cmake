# core_config_house_pair: `rfk export --config-header` of MODEL must write EXPECTED (the
# configuration rfk_core_dense_f32 and the model_dense fuzz target are built with), but for the
# comment line that names the model file. cmake -DRFK=<rfk> -DMODEL=<.rfk> -DEXPECTED=<.h>
# -DOUT=<.h> -P compare_config.cmake
execute_process(COMMAND ${RFK} export -m ${MODEL} --c-header ${OUT}.model.h --name house_pair --config-header ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rfk export failed (${rc}): ${err}")
endif()
file(STRINGS ${OUT} got)
file(STRINGS ${EXPECTED} want)
list(FILTER got EXCLUDE REGEX "^ \\* model: ")
list(FILTER want EXCLUDE REGEX "^ \\* model: ")
if(NOT got STREQUAL want)
  string(REPLACE ";" "\n" got_text "${got}")
  message(FATAL_ERROR "rfk export --config-header of ${MODEL} differs from ${EXPECTED}; it wrote:\n${got_text}\n"
                      "Update ${EXPECTED} if the change is meant (rfk_core_dense_f32 is built with it).")
endif()
