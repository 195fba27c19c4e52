#!/usr/bin/env bash
# The consumer tests (tests/consumers/CMakeLists.txt registers them with CTest, names containing
# "consumer"): each builds a tiny separate project that uses rfk the way a user's project would,
# then runs it (common/consumer.c: an embedded model's outputs equal the host's, bit for bit).
#   run.sh install      BUILD PREFIX          cmake --install of rfk's build into PREFIX
#   run.sh find_package PREFIX FIXTURES WORK  CMake find_package(rfk) against PREFIX
#   run.sh pkg_config   PREFIX FIXTURES WORK  plain Makefile + pkg-config, g++
#   run.sh c_gcc        PREFIX FIXTURES WORK  C compiled and linked by gcc (no C++ runtime)
#   run.sh subproject   fetchcontent SOURCE FIXTURES WORK  FetchContent of the tree at SOURCE
#   run.sh baremetal    MCU SOURCE FIXTURES WORK   core cross-built and installed for MCU, a C
#                                                   firmware project against it, run under qemu
#   run.sh sources      host|cortex-m33 SOURCE FIXTURES WORK  the core's sources in a plain
#                                                   Makefile with the compiler's default flags
#   run.sh export       PREFIX RFK MODEL DATA WORK  `rfk export` in both modes, compiled as C89 and
#                                                   C++98 (-pedantic -Werror), linked and run
#   run.sh deb          BUILD SOURCE FIXTURES WORK  cpack -G DEB, unpack both packages, find_package,
#                                                   and firmware for a Cortex-M0 through rfk.mk
#   run.sh firmware     cmake|make MCU PREFIX SOURCE FIXTURES WORK  firmware for MCU from a host's
#                                             installed prefix (no library for the MCU in it):
#                                             rfk_add_core (CMake) or rfk.mk (Makefile, the core
#                                             configured for the model by rfk export
#                                             --config-header), the C driver linking, run under qemu;
#                                             MCU riscv32 (make only): RV32IMC with picolibc on
#                                             qemu-system-riscv32's virt board
#   run.sh fresh_clone  SOURCE FIXTURES WORK  the source files git knows, copied where no ../shared
#                                             is beside them: a plain configure (no options) must
#                                             pick Release and leave tests and benchmarks out (the
#                                             README's install recipe); then the fetchcontent
#                                             consumer builds the core from that copy
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode=$1
shift
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

fresh() { rm -rf "$1"; mkdir -p "$1"; }
configure_build() {  # SOURCE BUILD [cmake args...]
  local src=$1 bin=$2
  shift 2
  cmake -S "$src" -B "$bin" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >"$bin.configure.log" 2>&1 ||
    { cat "$bin.configure.log"; return 1; }
  cmake --build "$bin" -j2 >"$bin.build.log" 2>&1 || { cat "$bin.build.log"; return 1; }
}

# KIND SOURCE FIXTURES WORK: the consumer project tests/consumers/KIND built against rfk's
# source tree at SOURCE (FetchContent, default options: FetchContent_MakeAvailable adds the tree
# with add_subdirectory, so this is also what `add_subdirectory(path/to/rfk)` builds) and run.
subproject() {
  local kind=$1 source=$2 fixtures=$3 work=$4
  fresh "$work"
  local stamp="$work/stamp" extra written
  touch "$stamp"
  sleep 1  # file times have a one-second resolution on some file systems
  # A Debug build, as a project builds while it is developed: every SIMD backend of the core is
  # compiled all the same, in a third of the Release build's time (15 against 50 CPU-s); the
  # release preset builds those sources optimised, with warnings as errors.
  configure_build "$here/$kind" "$work/build" -DRFK_SOURCE_DIR="$source" -DRFK_FIXTURE_DIR="$fixtures" \
    -DCMAKE_BUILD_TYPE=Debug
  "$work/build/consumer"
  # Only what the consumer links was built: no CLI, tests, benchmarks or fixtures ...
  extra=$(find "$work/build" -type f -perm -u+x \( -name 'rfk' -o -name 'rfk_*' -o -name 'bench_*' \) | head -5)
  [ -z "$extra" ] || { echo "rfk built programs the consumer did not ask for: $extra"; return 1; }
  [ ! -e "$work/build/bin" ] || { echo "rfk wrote into the consumer's bin/: $(ls "$work/build/bin")"; return 1; }
  # ... and nothing was written into rfk's source tree (its own build/ folder aside).
  written=$(find "$source" -path "$source/build" -prune -o -path "$source/.git" -prune -o -newer "$stamp" -print | head -5)
  [ -z "$written" ] || { echo "rfk wrote into its source tree: $written"; return 1; }
  echo "$kind: only rfk_core was built; nothing written into $source"
}

# The qemu board an MCU runs on (its emulator), its memory ("flash-origin;flash-size;ram-origin;
# ram-size": rfk's linker script; none where the C library places the image), the toolchain's
# prefix and the compiler's flags for it: sets emulator, memory, cross and flags.
board_for() {
  cross=arm-none-eabi-
  case "$1" in
    cortex-m0) emulator="qemu-system-arm -M microbit" memory="0x00000000;256K;0x20000000;16K"
               flags="-mcpu=cortex-m0 -mthumb" ;;
    cortex-m33) emulator="qemu-system-arm -M mps2-an505" memory="0x10000000;4M;0x38000000;4M"
                flags="-mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=auto" ;;
    cortex-m33+nofp) emulator="qemu-system-arm -M mps2-an505" memory="0x10000000;4M;0x38000000;4M"
                     flags="-mcpu=cortex-m33+nofp -mthumb" ;;
    riscv32) emulator="qemu-system-riscv32 -M virt -bios none" memory="" cross=riscv64-unknown-elf-
             flags="-march=rv32imc -mabi=ilp32 --specs=picolibc.specs" ;;  # picolibc's crt0 and linker script
    *) echo "run.sh: no board for $1"; exit 2 ;;
  esac
}
# rfk's test-firmware linker script for a board's memory (as board_for sets it), into OUT.
board_ld() {  # SOURCE MEMORY OUT
  local fo fl ro rl
  IFS=';' read -r fo fl ro rl <<<"$2"
  sed -e "s/@RFK_FLASH_ORIGIN@/$fo/; s/@RFK_FLASH_LENGTH@/$fl/; s/@RFK_RAM_ORIGIN@/$ro/" \
      -e "s/@RFK_RAM_LENGTH@/$rl/; s/@RFK_STACK_LIMIT@/4K/; s/@RFK_VECTORS_REGION@//; s/@RFK_VECTORS_SECTION@//" \
      "$1/targets/cortex-m/firmware.ld.in" >"$3"
}
# An image's size, then the image on its board under qemu (semihosting: its exit status is ours).
run_on_board() {  # ELF
  "${cross}size" "$1" | tail -1
  # shellcheck disable=SC2086  # the emulator and its board: words
  timeout 120 $emulator -nographic -monitor none -semihosting-config enable=on,target=native -kernel "$1"
}

case "$mode" in
install)
  build=$1 prefix=$2
  fresh "$prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null
  echo "installed into $prefix: $(cd "$prefix" && find . -type f | wc -l) files"
  ;;
find_package)
  prefix=$1 fixtures=$2 work=$3
  fresh "$work"
  configure_build "$here/find_package" "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DRFK_FIXTURE_DIR="$fixtures"
  "$work/build/consumer"
  [ -x "$work/build/host_consumer" ] || { echo "rfk::host was not found in $prefix"; exit 1; }
  "$work/build/host_consumer"
  ;;
pkg_config | c_gcc)
  prefix=$1 fixtures=$2 work=$3
  fresh "$work"
  pcdir=$(dirname "$(find "$prefix" -name rfk-core.pc | head -1)")
  target=all exe=consumer_cxx
  [ "$mode" = c_gcc ] && target=c exe=consumer_gcc
  PKG_CONFIG_PATH="$pcdir" make -s -C "$here/pkg_config" "$target" FIXTURE_DIR="$fixtures" OUT="$work"
  "$work/$exe"
  ;;
subproject)
  subproject "$@"
  ;;
baremetal)
  mcu=$1 source=$2 fixtures=$3 work=$4
  fresh "$work"
  # The core, cross-built for the MCU with rfk's toolchain file and no tests, then installed.
  configure_build "$source" "$work/rfk" --toolchain "$source/toolchains/arm-none-eabi.cmake" \
    -DRFK_MCU="$mcu" -DRFK_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=MinSizeRel -DRFK_INSTALL=ON
  cmake --install "$work/rfk" --prefix "$work/prefix" >/dev/null
  board_for "$mcu"
  configure_build "$here/baremetal" "$work/build" --toolchain "$here/baremetal/toolchain.cmake" \
    -DCONSUMER_CPU_FLAGS="$flags" -DCMAKE_PREFIX_PATH="$work/prefix" -DRFK_SOURCE_DIR="$source" \
    -DRFK_FIXTURE_DIR="$fixtures" -DBOARD_MEMORY="$memory"
  run_on_board "$work/build/consumer.elf"
  ;;
sources)
  kind=$1 source=$2 fixtures=$3 work=$4
  fresh "$work"
  if [ "$kind" = host ]; then
    make -s -C "$here/sources" host RFK="$source" FIXTURE_DIR="$fixtures" OUT="$work"
    "$work/consumer_host"
  else
    board_for cortex-m33
    board_ld "$source" "$memory" "$work/board.ld"
    make -s -C "$here/sources" cortex-m33 RFK="$source" FIXTURE_DIR="$fixtures" OUT="$work" LD="$work/board.ld"
    echo "fused multiply-adds in the image: $(arm-none-eabi-objdump -d "$work/consumer_m33.elf" | grep -cE '\svf(n?m[as])' || true)"
    run_on_board "$work/consumer_m33.elf"
  fi
  ;;
export)
  prefix=$1 rfk=$2 model=$3 data=$4 work=$5
  fresh "$work"
  pcdir=$(dirname "$(find "$prefix" -name rfk-core.pc | head -1)")
  export PKG_CONFIG_PATH="$pcdir"
  # Header-only (static definitions) and header + source (extern declarations, one definition).
  "$rfk" export -m "$model" --c-header "$work/one.h" --name one_model --vectors "$data" --count 8 2>/dev/null
  "$rfk" export -m "$model" --c-header "$work/two.h" --c-source "$work/two.c" --name two_model \
    --vectors "$data" --count 8 2>/dev/null
  printf '#include "two.h"\nconst uint8_t* second_user(void) { return two_model; }\n' >"$work/second.c"
  for std in "gcc -std=c89" "g++ -x c++ -std=c++98"; do
    for src in two.c second.c; do
      $std -pedantic -Wall -Wextra -Werror -c "$work/$src" -I"$work" -o "$work/${src%.c}.o"
    done
    printf '#include "one.h"\nconst uint8_t* first_user(void) { return one_model; }\n' >"$work/one_user.c"
    $std -pedantic -Wall -Wextra -Werror -Wno-unused-const-variable -fsyntax-only -I"$work" "$work/one_user.c" ||
      { echo "one.h does not compile with $std"; exit 1; }
  done
  # The exported vectors' outputs are the host's exactly: a C89 program checks them bit for bit.
  gcc -std=c89 -pedantic -Wall -Werror -c "$work/two.c" -I"$work" -o "$work/two.o"
  gcc -std=c89 -pedantic -Wall -Werror -DRFK_CONSUMER_FIXTURE=two_model '-DRFK_CONSUMER_HEADER="two.h"' \
    $(pkg-config --cflags rfk-core) -I"$work" "$here/common/consumer.c" "$work/two.o" "$work/second.o" \
    -o "$work/consumer_c89" $(pkg-config --libs rfk-core)
  "$work/consumer_c89"
  [ "$(nm "$work/consumer_c89" | grep -c ' [RrDd] two_model$')" = 1 ] || { echo "two_model is not defined once"; exit 1; }
  echo "export: C89 and C++98 clean in both modes; the model array is defined once"
  ;;
deb)
  build=$1 source=$2 fixtures=$3 work=$4
  fresh "$work"
  (cd "$build" && cpack -G DEB -B "$work/packages" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
  for deb in "$work"/packages/*.deb; do
    echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
    dpkg-deb -x "$deb" "$work/root"
  done
  [ -x "$work/root/usr/bin/rfk" ] || { echo "the rfk package has no /usr/bin/rfk"; exit 1; }
  "$work/root/usr/bin/rfk" --version
  "$0" find_package "$work/root/usr" "$fixtures" "$work/consumer"
  # The same packages build firmware: the core's sources through rfk.mk, for a Cortex-M0.
  if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
    "$0" firmware make cortex-m0 "$work/root/usr" "$source" "$fixtures" "$work/firmware"
  fi
  ;;
firmware)
  kind=$1 mcu=$2 prefix=$3 source=$4 fixtures=$5 work=$6
  fresh "$work"
  board_for "$mcu"
  if [ "$kind" = cmake ]; then
    configure_build "$here/firmware" "$work/build" --toolchain "$here/baremetal/toolchain.cmake" \
      -DCONSUMER_CPU_FLAGS="$flags" -DCMAKE_PREFIX_PATH="$prefix" -DRFK_SOURCE_DIR="$source" \
      -DRFK_FIXTURE_DIR="$fixtures" -DBOARD_MEMORY="$memory"
    elf="$work/build/consumer.elf"
  else
    [ -z "$memory" ] || board_ld "$source" "$memory" "$work/board.ld"
    # The core configured for the model it runs (rfk export --config-header of the installed CLI).
    "$prefix/bin/rfk" export -m "$fixtures/house_pair.rfk" --c-header "$work/model.h" --name house_pair \
      --config-header "$work/rfk_config.h" 2>/dev/null
    grep -q '^#define RFK_CORE_FIXED 0' "$work/rfk_config.h" || { cat "$work/rfk_config.h"; exit 1; }
    make -s -C "$here/firmware" CROSS="$cross" RFK_PREFIX="$prefix" SOURCE="$source" FIXTURE_DIR="$fixtures" \
      OUT="$work" LD="$work/board.ld" CPU_FLAGS="$flags" RFK_CONFIG_HEADER="$work/rfk_config.h" >"$work/make.log" 2>&1 ||
      { cat "$work/make.log"; exit 1; }
    elf="$work/consumer.elf"
  fi
  run_on_board "$elf"
  ;;
fresh_clone)
  source=$1 fixtures=$2 work=$3
  fresh "$work"
  mkdir "$work/src"
  (cd "$source" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) |
    tar -xf - -C "$work/src"
  [ ! -e "$work/shared" ] || { echo "fresh_clone: $work/shared exists"; exit 1; }
  cmake -S "$work/src" -B "$work/build" "${gen[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
  grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$work/build/CMakeCache.txt" ||
    { echo "fresh_clone: the default build type is not Release"; exit 1; }
  grep -q '^RFK_BUILD_TESTS:BOOL=OFF$' "$work/build/CMakeCache.txt" || { echo "fresh_clone: tests are on"; exit 1; }
  targets=$(cmake --build "$work/build" --target help)
  for t in rfk rfk_core rfk_host; do
    grep -qw "$t" <<<"$targets" || { echo "fresh_clone: no target $t"; exit 1; }
  done
  for t in rfk_tests bench_kernels rfk_fixtures; do
    ! grep -qw "$t" <<<"$targets" || { echo "fresh_clone: target $t is built by default"; exit 1; }
  done
  echo "fresh clone: configured without ../shared (Release, no tests or benchmarks)"
  # The core built once, by a project that fetches the fresh copy (FetchContent, default options).
  subproject fetchcontent "$work/src" "$fixtures" "$work/fetchcontent"
  ;;
*)
  echo "run.sh: unknown mode '$mode'" >&2
  exit 2
  ;;
esac
