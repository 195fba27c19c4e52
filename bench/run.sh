#!/usr/bin/env bash
# Runs every benchmark (5 repetitions, medians) on this machine and writes their tables into
# docs/PERFORMANCE.md (the block bench/report.py owns; the rest of the page stays as it is).
# usage: bench/run.sh [extra Google Benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
cmake --preset release >/dev/null
cmake --build --preset release --target bench_kernels
out=build/release/bench.json
build/release/bin/bench_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.1 --benchmark_out="$out" --benchmark_out_format=json "$@"
/usr/bin/python3 bench/report.py "$out" docs/PERFORMANCE.md
