#!/usr/bin/env python3
"""Stored weights in cache and from DRAM (docs/PERFORMANCE.md, "Bound by memory bandwidth"):
bench_kernels' `storage/predict` (the (784, 4000) dense-pairs model predicting one sample at a
time, one model, so its weights stay in whichever cache holds them) beside `storage/cold` (enough
copies of the same model to exceed twice the last-level cache, predicted in turn, so each
prediction reads its weights from DRAM), for f32, f16 and int8 on the table dispatch picks, in one
run. Prints the machine line, the cache sizes this CPU reports and the table: medians of CPU time, µs per
sample, and each storage's speed-up over f32 in either case.

    /usr/bin/python3 bench/storage_bandwidth.py [--bench build/release/bin/bench_kernels]
        [--repetitions 3] [--out docs/PERFORMANCE.md]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "paper"))
import blocks  # noqa: E402
import provenance  # noqa: E402

STORAGES = ("f32", "f16", "int8")


def caches():
    """"L2 1 MiB, L3 508 MiB": the cache sizes this CPU reports (getconf: glibc's sysconf, which
    bench_kernels' cold benchmark reads for the last level)."""
    sizes = []
    for level in (2, 3):
        got = subprocess.run(["getconf", f"LEVEL{level}_CACHE_SIZE"], capture_output=True, text=True).stdout.strip()
        n = int(got) if got.isdigit() else 0
        if n > 0:
            sizes.append(f"L{level} {n / 2**20:,.0f} MiB" if n >= 2**20 else f"L{level} {n // 1024} KiB")
    return ", ".join(sizes) or "cache sizes unknown"


def run(bench, flags):
    """{(case, storage): (median CPU µs, the benchmark's JSON)} of one bench_kernels run, case
    predict or cold."""
    out = subprocess.run([bench] + flags + ["--benchmark_format=json"], capture_output=True, text=True,
                         check=True).stdout
    result = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        _, case, storage, _table, _shape = b["run_name"].split("/")
        scale = {"ns": 1e-3, "us": 1, "ms": 1e3}[b["time_unit"]]
        result[(case, storage)] = (b["cpu_time"] * scale, b)
    return result


def speedup(rows, case, storage):
    """f32's time over this storage's, "" for f32 itself."""
    return "" if storage == "f32" else f"{rows[(case, 'f32')][0] / rows[(case, storage)][0]:.2f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=os.path.join(provenance.ROOT, "build", "release", "bin", "bench_kernels"))
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--out", help="write the table into this page's block storage_bandwidth.py")
    a = ap.parse_args()
    # storage/cold runs on the table dispatch picks alone; storage/predict on it and on the scalar
    # one: the cold benchmarks' names say which table to time.
    listed = subprocess.run([a.bench, "--benchmark_list_tests=true", "--benchmark_filter=storage/cold/f32/"],
                            capture_output=True, text=True, check=True).stdout.split()
    if not listed:
        sys.exit(f"storage_bandwidth.py: {a.bench} lists no storage/cold benchmark")
    table = listed[0].split("/")[3]
    flags = [f"--benchmark_filter=storage/(cold|predict)/(f32|f16|int8)/{table}/784:4000",
             f"--benchmark_repetitions={a.repetitions}", "--benchmark_report_aggregates_only=true",
             "--benchmark_min_time=0.5"]
    rows = run(a.bench, flags)
    cmd = "/usr/bin/python3 bench/storage_bandwidth.py" + (f" --out {a.out}" if a.out else "")
    with blocks.output(a.out, "storage_bandwidth.py"):
        print(provenance.line(cmd) + f"; bench_kernels {' '.join(flags)}; medians of {a.repetitions}, CPU time, "
              f"µs per sample, table {table}; {caches()}.")
        print()
        print("| storage | model bytes | in cache | f32 / this | from DRAM (copies) | f32 / this |")
        print("|---|---|---|---|---|---|")
        for s in STORAGES:
            warm, cold = rows[("predict", s)][0], rows[("cold", s)][0]
            b = rows[("cold", s)][1]
            print(f"| {s} | {int(b['model_bytes']):,} | {warm:,.1f} | {speedup(rows, 'predict', s)} | "
                  f"{cold:,.1f} ({int(b['copies'])}) | {speedup(rows, 'cold', s)} |")


if __name__ == "__main__":
    main()
