#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (-fsanitize=fuzzer,address,undefined) and runs each
# for a bounded time on a seed corpus of real models made by the rfk CLI.
#   scripts/fuzz.sh [seconds per target, default 60]
# Crashes are written to build/fuzz/artifacts/; turn each into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
scripts/install-deps.sh
if ! command -v clang++-14 >/dev/null || ! dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq clang-14 libclang-rt-14-dev >/dev/null
fi
out=build/fuzz
mkdir -p "$out/corpus/model" "$out/artifacts"
cmake --preset release >/dev/null && cmake --build --preset release --target rfk >/dev/null
rfk=build/release/bin/rfk
# Seeds: one small model of every kind.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { srand(7); for (i = 0; i < 120; i++) { a = rand() * 4; b = rand() * 4;
  printf "%.4f,%.4f,%s\n", a, b, (int(a) + int(b)) % 2 ? "odd" : "even" } }' > "$tmp/c.csv"
awk 'BEGIN { srand(8); for (i = 0; i < 120; i++) { a = rand(); printf "%.4f,%.4f,%d\n", a, rand(), i % 3 } }' > "$tmp/m.csv"
awk 'BEGIN { srand(9); for (i = 0; i < 120; i++) { a = rand(); printf "%.4f,%.4f\n", a, a * a } }' > "$tmp/r.csv"
i=0
for args in "-D 16" "-D 16 --map fourier-phase" "--map binning -P 4" "--map binning -P 4 -B 8" \
            "--map fourier+binning -D 8 -P 3" "-D 8 --kernel laplacian --no-standardize"; do
  for data in c m r; do
    "$rfk" train --train "$tmp/$data.csv" $args -o "$out/corpus/model/seed$i.rfk" >/dev/null
    i=$((i + 1))
  done
done
clang++-14 -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -ffp-contract=off -Iinclude tests/fuzz/fuzz_model.cc lib/core/status.cc lib/core/kernels_scalar.cc \
  lib/core/dispatch.cc lib/core/model.cc -o "$out/fuzz_model"
"$out/fuzz_model" -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$out/artifacts/" "$out/corpus/model" 2>&1 | grep -E "DONE|ERROR|SUMMARY|stat::"
