# The bare-metal consumers' firmware (../baremetal, ../firmware): common/consumer.c with the test
# board's startup code, linked against `core` with the C driver (LINKER_LANGUAGE C: the core needs
# no C++ runtime) and rfk's test-firmware linker script configured for BOARD_MEMORY
# ("flash-origin;flash-size;ram-origin;ram-size"). Needs RFK_SOURCE_DIR and RFK_FIXTURE_DIR.
function(consumer_firmware core)
  add_executable(consumer ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/consumer.c
                          ${RFK_SOURCE_DIR}/targets/cortex-m/startup.c)
  target_link_libraries(consumer PRIVATE ${core})
  target_include_directories(consumer PRIVATE ${RFK_FIXTURE_DIR})
  target_compile_definitions(consumer PRIVATE RFK_CONSUMER_FIXTURE=house_pair
                                              RFK_CONSUMER_HEADER="house_pair.h")
  list(GET BOARD_MEMORY 0 RFK_FLASH_ORIGIN)
  list(GET BOARD_MEMORY 1 RFK_FLASH_LENGTH)
  list(GET BOARD_MEMORY 2 RFK_RAM_ORIGIN)
  list(GET BOARD_MEMORY 3 RFK_RAM_LENGTH)
  set(RFK_STACK_LIMIT 4K)
  configure_file(${RFK_SOURCE_DIR}/targets/cortex-m/firmware.ld.in board.ld @ONLY)
  set_target_properties(consumer PROPERTIES SUFFIX .elf LINKER_LANGUAGE C)
  target_link_options(consumer PRIVATE -T${CMAKE_CURRENT_BINARY_DIR}/board.ld --specs=nano.specs
                      --specs=rdimon.specs)
endfunction()
