# Cost and footprint checks of the inference core (docs/EMBEDDED.md), for every bare-metal board:
# included by targets/cortex-m and targets/riscv, which provide
#   rfk_bare_image(target)   startup code, linker script and map file for an executable (called
#                            after its LINKER_LANGUAGE is set, which it may override)
#   rfk_firmware(target)     the same plus what the test programs need (float printf)
#   RFK_COST_EMULATOR        the board's qemu command line with its instruction counter on
#   RFK_FOOTPRINT_ADDRESSES  linker options placing the model, input, output and scratch outside
#                            the image
#   RFK_SIZE                 the toolchain's `size`
#   budgets.cmake            in the including directory: RFK_FLASH_BUDGET_<mcu>, RFK_STACK_BUDGET_<mcu>

# Per-prediction instructions and measured stack: the firmware runs under qemu's instruction
# counter (-icount shift=0), so its own command line rather than the toolchain's emulator.
# rfk_cost_test(TEST CORE [DEFINITIONS...]): cost.c linked with CORE, built as rfk_TEST, run as
# the test TEST.
function(rfk_cost_test test core)
  add_executable(rfk_${test} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cost.c)
  target_link_libraries(rfk_${test} PRIVATE ${core})
  target_include_directories(rfk_${test} PRIVATE ${RFK_FIXTURE_INCLUDES})
  target_compile_definitions(rfk_${test} PRIVATE ${ARGN})
  set_target_properties(rfk_${test} PROPERTIES C_STANDARD 99 LINKER_LANGUAGE CXX)
  target_compile_options(rfk_${test} PRIVATE -Wall -Wextra -Werror)
  add_dependencies(rfk_${test} rfk_host_tools)
  rfk_firmware(rfk_${test})
  add_test(NAME ${test} COMMAND ${RFK_COST_EMULATOR} $<TARGET_FILE:rfk_${test}>)
  set_tests_properties(${test} PROPERTIES TIMEOUT 300)
endfunction()
if(NOT RFK_TEST_CORE_VARIANTS)
  message(FATAL_ERROR "RFK_TEST_CORE_VARIANTS=OFF: the firmware checks measure the reduced, small and pinned cores")
endif()
rfk_cost_test(cost rfk::core)
# The same fixtures through 32-feature blocks (what `rfk export --config-header` configures): the
# same outputs, less scratch, a few more kernel calls; side by side with `cost`.
rfk_cost_test(cost_block32 rfk_core_block32)
# The integer path alone (RFK_COST_FIXED_ONLY): the fixed (16, 256) and (54, 1024) fixtures, which
# a 256 KiB board holds only without the float ones.
rfk_cost_test(cost_fixed rfk::core RFK_COST_FIXED_ONLY=1)
# Both again through the core built for size (RFK_CORE_SMALL: plain loops, the integer path's scalar
# kernels and computed cosine table), side by side; the float fixtures only where the float path's
# small form differs from the default (RFK_CORE_SMALL_FLOAT_DIFFERS, lib/CMakeLists.txt).
if(RFK_CORE_SMALL_FLOAT_DIFFERS)
  rfk_cost_test(cost_small rfk_core_small)
endif()
rfk_cost_test(cost_fixed_small rfk_core_small RFK_COST_FIXED_ONLY=1)
# The integer path's scalar loops with the stored table, on cores whose default is the DSP or MVE
# ones: what those replace, side by side.
if(TARGET rfk_core_fixed_scalar)
  rfk_cost_test(cost_fixed_scalar rfk_core_fixed_scalar RFK_COST_FIXED_ONLY=1)
endif()

# Footprint: the same image with and without the core, sized; the core's objects carry GCC's
# call-graph and stack-usage records (-fcallgraph-info=su) for the worst-case predict stack.
target_compile_options(rfk_core PRIVATE -fcallgraph-info=su)
# The reduced cores (lib/core/core_config.h, lib/CMakeLists.txt): what a float-only, a fixed-only
# and a dense f32 (what `rfk export --config-header` configures for such a model) firmware link,
# and the whole core without the open's field names.
foreach(variant float_only fixed_only dense_f32 nofields small small_nofields float_small_nofields)
  target_compile_options(rfk_core_${variant} PRIVATE -fcallgraph-info=su)
endforeach()
# rfk_footprint_<kind>: footprint_<source>.c as a bare image at the linker-defined addresses,
# linked with `core` (none: the empty image).
function(rfk_footprint_image kind source core)
  add_executable(rfk_footprint_${kind} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/footprint_${source}.c)
  set_target_properties(rfk_footprint_${kind} PROPERTIES LINKER_LANGUAGE CXX)
  rfk_bare_image(rfk_footprint_${kind})
  target_link_options(rfk_footprint_${kind} PRIVATE ${RFK_FOOTPRINT_ADDRESSES})
  if(core)
    target_link_libraries(rfk_footprint_${kind} PRIVATE ${core})
  endif()
endfunction()
rfk_footprint_image(empty empty "")
rfk_footprint_image(core core rfk::core)
rfk_footprint_image(float core rfk_core_float_only)
rfk_footprint_image(nofields core rfk_core_nofields)
rfk_footprint_image(small core rfk_core_small)
rfk_footprint_image(small_nofields core rfk_core_small_nofields)
rfk_footprint_image(float_small_nofields core rfk_core_float_small_nofields)
rfk_footprint_image(dense core rfk_core_dense_f32)
# A firmware that runs either path (footprint_both.c), on the whole core and on the one built for
# size without the field names: what an image that also calls rfk_predict_fixed links.
rfk_footprint_image(both both rfk::core)
rfk_footprint_image(both_small_nofields both rfk_core_small_nofields)
rfk_footprint_image(fixed fixed rfk_core_fixed_only)
# The cores pinned to one model (tests/embedded/CMakeLists.txt): house_pair's (f32 dense pairs) and
# house_fixed's (the integer path, dense).
rfk_footprint_image(pinned core rfk_core_pinned_house_pair)
rfk_footprint_image(pinned_fixed fixed rfk_core_pinned_house_fixed)
# They read the model through its array's name (RFK_PIN_ARRAY): that name at the model's address.
target_link_options(rfk_footprint_pinned PRIVATE -Wl,--defsym=house_pair=rfk_model_flash)
target_link_options(rfk_footprint_pinned_fixed PRIVATE -Wl,--defsym=house_fixed=rfk_model_flash)
include(${CMAKE_CURRENT_SOURCE_DIR}/budgets.cmake)
if(NOT DEFINED RFK_FLASH_BUDGET_${RFK_MCU} OR NOT DEFINED RFK_STACK_BUDGET_${RFK_MCU})
  message(FATAL_ERROR "RFK_MCU=${RFK_MCU}: no footprint budget recorded in ${CMAKE_CURRENT_SOURCE_DIR}/budgets.cmake; "
                      "measure it (ctest -R footprint -V prints the figures) and record it there")
endif()
# The reduced cores' budgets, where a preset records them; else the whole core's.
foreach(variant FLOAT FIXED PINNED PINNED_FIXED NOFIELDS SMALL SMALL_NOFIELDS FLOAT_SMALL_NOFIELDS)
  if(NOT DEFINED RFK_${variant}_FLASH_BUDGET_${RFK_MCU})
    set(RFK_${variant}_FLASH_BUDGET_${RFK_MCU} ${RFK_FLASH_BUDGET_${RFK_MCU}})
  endif()
endforeach()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
# Test `name`: rfk_footprint_<kind> against the empty image, the stack from the call-graph records
# in `callgraph` (below the build's top directory) from `entry` and rfk_open, within `flash_budget`.
# Further arguments: more entry points.
function(rfk_footprint_test name kind callgraph entry flash_budget)
  set(entries)
  foreach(more IN LISTS ARGN)
    list(APPEND entries --entry ${more})
  endforeach()
  add_test(NAME ${name}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/footprint.py
                   --size ${RFK_SIZE}
                   --empty $<TARGET_FILE:rfk_footprint_empty> --core $<TARGET_FILE:rfk_footprint_${kind}>
                   --callgraph-dir ${PROJECT_BINARY_DIR}/${callgraph}
                   --entry ${entry} --entry rfk_open ${entries}
                   --flash-budget ${flash_budget}
                   --stack-budget ${RFK_STACK_BUDGET_${RFK_MCU}}
                   --mcu ${RFK_MCU})
endfunction()
rfk_footprint_test(footprint core lib/CMakeFiles/rfk_core.dir/core rfk_predict ${RFK_FLASH_BUDGET_${RFK_MCU}})
# The whole core without the open's field names (RFK_ERROR_FIELDS=0; lib/core/core_config.h).
rfk_footprint_test(footprint_nofields nofields lib/CMakeFiles/rfk_core_nofields.dir rfk_predict
                   ${RFK_NOFIELDS_FLASH_BUDGET_${RFK_MCU}})
# The whole core built for size (RFK_CORE_SMALL), with and without the names, and the float path
# alone built for size without them: the smallest generic cores (every kind of model of their paths).
rfk_footprint_test(footprint_small small lib/CMakeFiles/rfk_core_small.dir rfk_predict ${RFK_SMALL_FLASH_BUDGET_${RFK_MCU}})
rfk_footprint_test(footprint_small_nofields small_nofields lib/CMakeFiles/rfk_core_small_nofields.dir rfk_predict
                   ${RFK_SMALL_NOFIELDS_FLASH_BUDGET_${RFK_MCU}})
rfk_footprint_test(footprint_float_small_nofields float_small_nofields lib/CMakeFiles/rfk_core_float_small_nofields.dir
                   rfk_predict ${RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_${RFK_MCU}})
# A float-only firmware (footprint_core.c on the core built RFK_CORE_FIXED=0: no fixed validator).
rfk_footprint_test(footprint_float float lib/CMakeFiles/rfk_core_float_only.dir rfk_predict ${RFK_FLOAT_FLASH_BUDGET_${RFK_MCU}})
# A firmware of either path (footprint_both.c): its stack from rfk_predict_fixed too. Every preset
# records their budgets (budgets.cmake): the whole core's is not theirs.
rfk_footprint_test(footprint_both both lib/CMakeFiles/rfk_core.dir/core rfk_predict ${RFK_BOTH_FLASH_BUDGET_${RFK_MCU}}
                   rfk_predict_fixed)
rfk_footprint_test(footprint_both_small_nofields both_small_nofields lib/CMakeFiles/rfk_core_small_nofields.dir rfk_predict
                   ${RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_${RFK_MCU}} rfk_predict_fixed)
# The dense f32 configured core (footprint_core.c on rfk_core_dense_f32), on the boards with a budget.
if(DEFINED RFK_DENSE_FLASH_BUDGET_${RFK_MCU})
  rfk_footprint_test(footprint_dense dense lib/CMakeFiles/rfk_core_dense_f32.dir rfk_predict ${RFK_DENSE_FLASH_BUDGET_${RFK_MCU}})
endif()
# The integer path's image (footprint_fixed.c: open, rfk_predict_fixed, the integer decision) on the
# core built RFK_CORE_FLOAT=0: what a firmware for a core without an FPU links instead of the float core.
rfk_footprint_test(footprint_fixed fixed lib/CMakeFiles/rfk_core_fixed_only.dir rfk_predict_fixed
                   ${RFK_FIXED_FLASH_BUDGET_${RFK_MCU}})
# The pinned cores' images: open (the pin and the CRC), predict, decide, for one model each.
rfk_footprint_test(footprint_pinned pinned tests/embedded/CMakeFiles/rfk_core_pinned_house_pair.dir rfk_predict
                   ${RFK_PINNED_FLASH_BUDGET_${RFK_MCU}})
rfk_footprint_test(footprint_pinned_fixed pinned_fixed tests/embedded/CMakeFiles/rfk_core_pinned_house_fixed.dir
                   rfk_predict_fixed ${RFK_PINNED_FIXED_FLASH_BUDGET_${RFK_MCU}})
# rfk_symbol_test(name elf forbid what require): the test `name`, cmake/check_no_symbol.cmake on
# `elf`: no symbol matching `forbid` (`what` in its message), or with `require` 1 at least one.
function(rfk_symbol_test name elf forbid what require)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DELF=${elf} -DFORBID=${forbid} "-DWHAT=${what}"
                                -DREQUIRE=${require} -P ${PROJECT_SOURCE_DIR}/cmake/check_no_symbol.cmake)
endfunction()
# A firmware that never calls rfk_predict_fixed links no fixed-section validator (RFK_FIXED_ON_USE,
# lib/core/core_config.h): footprint_core.c's image has none; footprint_both.c's, which calls it, has it.
rfk_symbol_test(footprint_no_fixed_validator $<TARGET_FILE:rfk_footprint_core> CheckFixedSection
                "the fixed section's validator" 0)
rfk_symbol_test(footprint_no_fixed_validator_detects $<TARGET_FILE:rfk_footprint_both> CheckFixedSection
                "the fixed section's validator" 1)
# Nothing in those images takes the pinned Model's address (lib/core/pinned_model.h), so the Model
# is not linked; the pinned core's test image, whose C++ OpenModel copies it, shows the check finds it.
rfk_symbol_test(footprint_pinned_no_model $<TARGET_FILE:rfk_footprint_pinned> kPinnedModel "the pinned Model" 0)
rfk_symbol_test(footprint_pinned_fixed_no_model $<TARGET_FILE:rfk_footprint_pinned_fixed> kPinnedModel
                "the pinned Model" 0)
rfk_symbol_test(footprint_pinned_no_model_detects $<TARGET_FILE:rfk_core_pinned_test_house_pair> kPinnedModel
                "the pinned Model" 1)
# rfk_pinned_footprint(variant name budget): footprint_core.c or footprint_fixed.c (by the fixture's
# path) on rfk_core_<variant>_<name>, the image rfk_footprint_<variant>_<name>, the test
# footprint_<variant>_<name> within `budget`, and footprint_<variant>_<name>_no_model.
function(rfk_pinned_footprint variant name budget)
  set(source core)
  set(entry rfk_predict)
  if(name IN_LIST RFK_FIXED_FIXTURES)
    set(source fixed)
    set(entry rfk_predict_fixed)
  endif()
  rfk_footprint_image(${variant}_${name} ${source} rfk_core_${variant}_${name})
  target_link_options(rfk_footprint_${variant}_${name} PRIVATE -Wl,--defsym=${name}=rfk_model_flash)
  rfk_footprint_test(footprint_${variant}_${name} ${variant}_${name}
                     tests/embedded/CMakeFiles/rfk_core_${variant}_${name}.dir ${entry} ${budget})
  rfk_symbol_test(footprint_${variant}_${name}_no_model $<TARGET_FILE:rfk_footprint_${variant}_${name}> kPinnedModel
                  "the pinned Model" 0)
endfunction()
# The other pinned kinds (RFK_PINNED_FIXTURES beyond house_pair and house_fixed: Fastfood int8 on
# the float path, Fastfood on the integer path), within RFK_PINNED_<NAME>_FLASH_BUDGET_<mcu>
# (budgets.cmake; the whole core's where none is recorded).
set(RFK_PINNED_KINDS ${RFK_PINNED_FIXTURES})
list(REMOVE_ITEM RFK_PINNED_KINDS house_pair house_fixed)
foreach(name IN LISTS RFK_PINNED_KINDS)
  string(TOUPPER ${name} upper)
  if(NOT DEFINED RFK_PINNED_${upper}_FLASH_BUDGET_${RFK_MCU})
    set(RFK_PINNED_${upper}_FLASH_BUDGET_${RFK_MCU} ${RFK_FLASH_BUDGET_${RFK_MCU}})
  endif()
  rfk_pinned_footprint(pinned ${name} ${RFK_PINNED_${upper}_FLASH_BUDGET_${RFK_MCU}})
endforeach()
# The pinned cores built for size (rfk_core_pinned_small_<fixture>, those of
# RFK_PINNED_SMALL_FIXTURES: where RFK_CORE_SMALL differs from the default), within
# RFK_PINNED_SMALL_<FIXTURE>_FLASH_BUDGET_<mcu> (budgets.cmake).
foreach(name IN LISTS RFK_PINNED_SMALL_FIXTURES)
  string(TOUPPER ${name} upper)
  if(NOT DEFINED RFK_PINNED_SMALL_${upper}_FLASH_BUDGET_${RFK_MCU})
    message(FATAL_ERROR "RFK_MCU=${RFK_MCU}: no budget for the small pinned ${name} core in budgets.cmake; "
                        "measure it (ctest -R footprint_pinned_small -V) and record it there")
  endif()
  rfk_pinned_footprint(pinned_small ${name} ${RFK_PINNED_SMALL_${upper}_FLASH_BUDGET_${RFK_MCU}})
endforeach()
