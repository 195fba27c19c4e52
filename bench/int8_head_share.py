#!/usr/bin/env python3
"""The head's share of an int8 prediction (docs/PERFORMANCE.md, "An int8 head on int8 features:
not built"): bench_kernels' `kernel/LinearHeadQuant` (one output's int8 head) beside
`kernel/FourierQuant` (the int8 projection and its cosines) per shape, and the whole (54, 1024)
single-sample int8 predict (`storage/predict/int8`), on the widest Highway table, in one run.
Prints the machine line and the table: medians of CPU time, ns per call. The most an integer head
could save is its share.

    /usr/bin/python3 bench/int8_head_share.py [--bench build/release/bin/bench_kernels] [--table hwy-AVX3]
        [--out docs/PERFORMANCE.md]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "paper"))
import blocks  # noqa: E402
import f16_scaled_head  # noqa: E402  (medians: one bench_kernels run's medians)
import provenance  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", default=os.path.join(provenance.ROOT, "build", "release", "bin", "bench_kernels"))
    ap.add_argument("--table", default="hwy-AVX3")
    ap.add_argument("--out", help="write the table into this page's block int8_head_share.py")
    a = ap.parse_args()
    pattern = f"kernel/(LinearHeadQuant|FourierQuant)/{a.table}/|storage/predict/int8/{a.table}/54:1024"
    flags = [f"--benchmark_filter={pattern}", "--benchmark_repetitions=5",
             "--benchmark_report_aggregates_only=true", "--benchmark_min_time=0.2"]
    m = f16_scaled_head.medians(a.bench, flags)
    shapes = sorted({s for (k, t, s) in m if k == "LinearHeadQuant"}, key=lambda s: int(s.split(":")[1]))
    with blocks.output(a.out, "int8_head_share.py"):
        print(provenance.line("/usr/bin/python3 bench/int8_head_share.py" + (f" --out {a.out}" if a.out else "")) +
              f"; bench_kernels {' '.join(flags)}; medians of CPU time, ns per call, table {a.table}.")
        print()
        print("| (d, D) | head, one output | projection and cosines | head / (head + projection) |")
        print("|---|---|---|---|")
        for s in shapes:
            head, proj = m[("LinearHeadQuant", a.table, s)], m[("FourierQuant", a.table, s)]
            d, D = s.split(":")
            print(f"| ({d}, {D}) | {head:,.1f} | {proj:,.1f} | {100 * head / (head + proj):.1f} % |")
        whole = m.get(("int8", a.table, "54:1024"))
        if whole:
            head = m[("LinearHeadQuant", a.table, "54:1024")]
            print()
            print(f"The whole (54, 1024) int8 prediction (`storage/predict/int8`): {whole:,.1f} ns, of which the "
                  f"head is {100 * head / whole:.1f} %.")


if __name__ == "__main__":
    main()
