#!/usr/bin/env bash
# The test command (README, second command; .ci/run calls exactly this): installs what the build
# needs from Debian's apt, then configures, builds (warnings are errors) and runs the whole doctest
# suite through CTest with the `release` workflow preset, the whole suite again (but the reduced,
# small and pinned cores' tests and two statistical sweeps) under AddressSanitizer + UndefinedBehaviorSanitizer with
# assertions on and the device core and its kernels unoptimised (`asan`: unoptimised code catches
# what inlining hides, an ABI mismatch between target clones broke only -O0; the host code runs
# at -O1 there, and the `debug` preset stays for work by hand), and the concurrency tests under ThreadSanitizer (`tsan`); then the cross builds,
# each running its device tests under emulation: aarch64 and armhf Linux (qemu-user) and Cortex-M4F,
# M7, M3, M0, M33 (with and without FPU) and M55 firmware (qemu-system-arm: MPS2 and MPS3 boards,
# micro:bit) and RV32IMC firmware (qemu-system-riscv32 -M virt) with the footprint budgets; last, a short bounded
# run of every libFuzzer target (15 s each; scripts/fuzz.sh, whose clang-14 the first step installs with the rest). After
# the release suite (whose consumer tests use rfk from other projects), scripts/check-deb.sh
# installs the Debian packages with apt, builds consumers against them and removes them again; then
# scripts/test-python.sh installs the Python package into a venv (pip install .) and runs its pytest
# suite against it and the release CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's wall time, printed as it ends and once more at the end: where CI's time goes.
times=()
phase() {  # NAME COMMAND...
  local name=$1 start=$SECONDS
  shift
  "$@"
  times+=("$(printf '%6d s  %s' $((SECONDS - start)) "$name")")
  echo "[test.sh] $name: $((SECONDS - start)) s"
}
phase deps scripts/install-deps.sh --cross --python --fuzz
phase release cmake --workflow --preset release
phase deb scripts/check-deb.sh build/release
phase python scripts/test-python.sh
for preset in asan tsan aarch64 armhf cortex-m4 cortex-m7 cortex-m3 cortex-m0 cortex-m33 cortex-m33-nofp cortex-m55 riscv32; do
  phase "$preset" cmake --workflow --preset "$preset"
done
phase fuzz scripts/fuzz.sh 15
printf '[test.sh] wall time by phase (total %d s):\n' "$SECONDS"
printf '%s\n' "${times[@]}"
