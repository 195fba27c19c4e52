#!/usr/bin/env bash
# The test command (README, second command; .ci/run calls exactly this): installs what the build
# needs from Debian's apt, then configures, builds (warnings are errors) and runs the whole
# doctest suite through CTest with the `release` and the `debug` workflow presets (unoptimised
# code catches what inlining hides: an ABI mismatch between target clones broke only -O0), the
# whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer (`asan`), and the
# concurrency tests under ThreadSanitizer (`tsan`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --workflow --preset release
cmake --workflow --preset debug
cmake --workflow --preset asan
cmake --workflow --preset tsan
