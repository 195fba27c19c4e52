#!/usr/bin/env bash
# Runs every benchmark (5 repetitions, medians) on this machine and writes docs/PERFORMANCE.md,
# keeping its side-by-side comparisons (bench/compare.py) at the end.
# usage: bench/run.sh [extra Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake --preset release >/dev/null
cmake --build --preset release --target bench_kernels
out=build/release/bench.json
build/release/bin/bench_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.1 --benchmark_out="$out" --benchmark_out_format=json "$@"
# The sections from the KEEP marker on (side-by-side comparisons, training) are carried over.
/usr/bin/python3 bench/report.py "$out" docs/PERFORMANCE.md > build/release/PERFORMANCE.md
mv build/release/PERFORMANCE.md docs/PERFORMANCE.md
echo "wrote docs/PERFORMANCE.md"
