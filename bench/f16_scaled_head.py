#!/usr/bin/env python3
"""The f16-scaled head's cost (docs/PERFORMANCE.md, "f16-scaled heads: the scale's cost"):
bench_kernels' `head/f16` and `head/f16-scaled` (one output of D = 2F halves, the second with its
f32 scale) side by side on every table and shape, in one run. Prints the machine line, the range of
the ratio over every (table, shape) pair, and the ratio on the two larger shapes of the widest
tables and the scalar one: medians of CPU time per call (ns), so that a loaded machine's ratios
still compare.

    /usr/bin/python3 bench/f16_scaled_head.py [--bench build/release/bin/bench_kernels] [--out docs/PERFORMANCE.md]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "paper"))
import blocks  # noqa: E402
import provenance  # noqa: E402

FLAGS = ["--benchmark_filter=^head/", "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
         "--benchmark_min_time=0.2"]
SHOWN_SHAPES = ("54:1024", "784:2000")


def medians(bench, flags=FLAGS):
    """{(kind, table, shape): median CPU ns} of one bench_kernels run with `flags` (repetitions and
    aggregates on), a benchmark's last three name parts, e.g. head/f16/hwy-AVX3/54:1024 ->
    (f16, hwy-AVX3, 54:1024). Also bench/int8_head_share.py's."""
    out = subprocess.run([bench] + list(flags) + ["--benchmark_format=json"], capture_output=True, text=True,
                         check=True).stdout
    result = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        kind, table, shape = b["run_name"].split("/")[-3:]
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        result[(kind, table, shape)] = b["cpu_time"] * scale
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=os.path.join(provenance.ROOT, "build", "release", "bin", "bench_kernels"))
    ap.add_argument("--out", help="write the table into this page's block f16_scaled_head.py")
    a = ap.parse_args()
    m = medians(a.bench)
    pairs = sorted({(t, s) for (_, t, s) in m if ("f16", t, s) in m and ("f16-scaled", t, s) in m})
    ratios = {p: m[("f16-scaled",) + p] / m[("f16",) + p] for p in pairs}
    tables = []
    for t, _ in pairs:
        if t not in tables:
            tables.append(t)
    shown = [t for t in tables if t.startswith(("hwy-AVX3", "hwy-AVX2", "xsimd-AVX512")) or t.startswith("scalar")]
    with blocks.output(a.out, "f16_scaled_head.py"):
        print(provenance.line("/usr/bin/python3 bench/f16_scaled_head.py" + (f" --out {a.out}" if a.out else "")) +
              f"; bench_kernels {' '.join(FLAGS)}; medians of CPU time, ns per call.")
        print()
        print(f"Over all {len(pairs)} table × shape pairs the ratio f16-scaled / f16 is "
              f"{min(ratios.values()):.2f}–{max(ratios.values()):.2f}.")
        print()
        print("| table | (d, D) | f16 | f16-scaled | ratio |")
        print("|---|---|---|---|---|")
        for t in shown:
            for s in SHOWN_SHAPES:
                if (t, s) in ratios:
                    d, D = s.split(":")
                    print(f"| {t} | ({d}, {D}) | {m[('f16', t, s)]:.1f} | {m[('f16-scaled', t, s)]:.1f} | "
                          f"{ratios[(t, s)]:.3f} |")


if __name__ == "__main__":
    main()
