# rfk's device core for a Makefile project (firmware or host): `include <prefix>/share/rfk/rfk.mk`
# compiles the installed core sources with the project's own $(CXX), $(CPPFLAGS) and $(CXXFLAGS)
# (a firmware's -mcpu, float ABI and optimisation) into $(RFK_CORE_LIB), a static library that a C
# application links with the C driver: the core is built without exceptions, RTTI or thread-safe
# statics, so it needs no C++ runtime. Set before the include, or leave the defaults:
#   RFK_BUILD_DIR     where the objects and the library go (default: rfk-core)
#   RFK_CONFIG_HEADER the configuration `rfk export --config-header` wrote for a model: the core
#                     compiles what that model needs and refuses other kinds at open
#   RFK_CORE_DEFINES  core_config.h's switches, e.g. -DRFK_CORE_FLOAT=0 for a fixed-point-only core
#   RFK_SMALL         1: the core built for size (RFK_CORE_SMALL): the same outputs from its
#                     plainest loops, smaller and slower where the MCU has an FPU or DSP extension
# Define the project's default goal before the include (its first rule is the library's).
# Then: CPPFLAGS += $(RFK_CPPFLAGS) for the application's sources (the headers: rfk/rfk.h, and
# RFK_CONFIG_HEADER, which rfk.h reads too: a pinned configuration's handle is one pointer), and
# link $(RFK_CORE_LIB). Where the compiler's C library has no C++ headers (picolibc on RISC-V),
# rfk's freestanding <cstddef>, <cstdint>, <cstring> and <new> are searched after the compiler's.
RFK_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
RFK_PREFIX ?= $(abspath $(RFK_MK_DIR)/../..)
RFK_BUILD_DIR ?= rfk-core
RFK_CPPFLAGS := -I$(RFK_PREFIX)/include \
                $(if $(RFK_CONFIG_HEADER),'-DRFK_CONFIG_HEADER="$(abspath $(RFK_CONFIG_HEADER))"')
RFK_CORE_SOURCES := $(wildcard $(RFK_MK_DIR)/core/*.cc)
RFK_CORE_OBJECTS := $(patsubst $(RFK_MK_DIR)/core/%.cc,$(RFK_BUILD_DIR)/%.o,$(RFK_CORE_SOURCES))
RFK_CORE_LIB := $(RFK_BUILD_DIR)/librfk_core.a
RFK_CORE_CXXFLAGS := -std=c++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics \
                     -idirafter $(RFK_MK_DIR)/freestanding-cxx $(RFK_CORE_DEFINES) \
                     $(if $(filter 1,$(RFK_SMALL)),-DRFK_CORE_SMALL=1)

$(RFK_BUILD_DIR)/%.o: $(RFK_MK_DIR)/core/%.cc $(RFK_CONFIG_HEADER)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(RFK_CPPFLAGS) $(CXXFLAGS) $(RFK_CORE_CXXFLAGS) -c $< -o $@

$(RFK_CORE_LIB): $(RFK_CORE_OBJECTS)
	$(AR) rcs $@ $^
