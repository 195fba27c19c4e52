#!/usr/bin/env bash
# Installs everything rfk needs from Debian 12's apt repositories. Idempotent: packages already
# present are skipped without touching the network. Must run as root (or with sudo available).
#
#   scripts/install-deps.sh            build + test dependencies (host; python3 runs the standard-
#                                      library-only paper_fast_subset test and the footprint check)
#   scripts/install-deps.sh --data     also the Fashion-MNIST dataset package (README main job)
#   scripts/install-deps.sh --bench    also numpy, scikit-learn and matplotlib for the side-by-side
#                                      benchmarks and bench/paper/run.py, and libopenblas0-pthread,
#                                      which update-alternatives then puts under numpy in place of
#                                      the reference BLAS (the benchmarks refuse to time on that),
#                                      linux-perf for profiling (HACKING: bench/mpi_perf_rank.sh), and
#                                      pandas and r-cran-mlbench (letter) for bench/paper/defaults_peer.py
#   scripts/install-deps.sh --python   also what the Python package needs to build and test
#                                      (pybind11, the venv module, pytest, numpy, pandas, scipy,
#                                      scikit-learn; scripts/test-python.sh)
#   scripts/install-deps.sh --fuzz     also clang-14 and its sanitizer and libFuzzer runtimes
#                                      (scripts/fuzz.sh)
#   scripts/install-deps.sh --cross    also the ARM and RISC-V cross toolchains (picolibc for RISC-V),
#                                      qemu and Highway for arm64/armhf (xsimd is header-only: the
#                                      host's libxsimd-dev serves them too)
set -euo pipefail

# libopenblas-dev: the BLAS behind training's Gram statistics (lib/host/training/gram.cc). libopenmpi-dev and
# openmpi-bin: distributed training (rfk train --mpi; optional in the build, tested by mpi_train).
# doxygen: the API reference of include/rfk (docs/api; ctest api_reference checks its warnings).
pkgs=(cmake ninja-build g++ make pkg-config dpkg-dev zlib1g-dev libeigen3-dev libcli11-dev doctest-dev libhwy-dev
      libxsimd-dev libbenchmark-dev libopenblas-dev libopenmpi-dev openmpi-bin python3 doxygen)
cross=0
for arg in "$@"; do
  case "$arg" in
    --data)  pkgs+=(dataset-fashion-mnist) ;;
    --bench) pkgs+=(python3-numpy python3-sklearn python3-matplotlib python3-pandas libopenblas0-pthread linux-perf
                    r-cran-mlbench) ;;
    --python) pkgs+=(pybind11-dev python3-pybind11 python3-dev python3-venv python3-pytest python3-numpy python3-pandas
                     python3-scipy python3-sklearn python3-setuptools python3-wheel) ;;
    --fuzz)  pkgs+=(clang-14 libclang-rt-14-dev) ;;
    --cross) cross=1
             pkgs+=(g++-aarch64-linux-gnu g++-arm-linux-gnueabihf gcc-arm-none-eabi
                    libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib qemu-user qemu-system-arm
                    binutils-arm-none-eabi libhwy-dev:arm64 libhwy-dev:armhf
                    gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc) ;;
    *) echo "install-deps.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps.sh: need root to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "install-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if [ "$cross" = 1 ]; then
  # Highway's arm64/armhf libraries come from Debian's multiarch archive (headers are shared).
  $SUDO dpkg --add-architecture arm64
  $SUDO dpkg --add-architecture armhf
fi
# An index that fails to refresh (a mirror mid-sync) must not stop packages that are available.
$SUDO apt-get update -qq || echo "install-deps.sh: apt-get update reported errors; trying to install anyway" >&2
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
