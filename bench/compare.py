#!/usr/bin/python3
"""Side-by-side timing of two bench_kernels binaries (before and after a change), made for a noisy
shared machine. The benchmarks are split into groups (one per kernel table); each round runs every
group with both binaries back to back (which one goes first alternates), pinned to one CPU, so a
before and an after sample of a benchmark are always seconds apart. The speed-up of a benchmark is
the median over rounds of before time / after time within a round (> 1: the change is faster);
a drift of the machine's speed between rounds cancels. Prints a markdown table on stdout.

usage: bench/compare.py BEFORE AFTER [--rounds 8] [--cpu 1] [--filter REGEX] [--reps 1]
                        [--min-time 0.05] [--out DIR | --from DIR] [--wide]

Before and after columns: the median time per call over all rounds (ns or µs) and, for kernels
that count flops, the GFLOP/s that time gives. The speed-up column also gives the spread of the
per-round ratios (their 25th and 75th percentiles). A benchmark only one binary has (a table that
exists on one side) is listed with '-' on the other.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict


def run(binary, args, flt, out_json):
    cmd = ["taskset", "-c", str(args.cpu), binary, f"--benchmark_filter={flt}",
           f"--benchmark_repetitions={args.reps}", "--benchmark_enable_random_interleaving=true",
           f"--benchmark_min_time={args.min_time}", f"--benchmark_out={out_json}",
           "--benchmark_out_format=json"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out_json) as f:
        return json.load(f)


def collect(data, flops):
    """Median time per call (ns) of each benchmark in one run; flops per call where counted."""
    times = defaultdict(list)
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        unit = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        times[b["run_name"]].append(b["real_time"] * unit)
        if "GFLOPS" in b:  # a rate over CPU time: back to flops per call
            flops[b["run_name"]] = b["GFLOPS"] * b["cpu_time"] * unit
    return {n: statistics.median(t) for n, t in times.items()}


def listed(binary, flt):
    return subprocess.run([binary, f"--benchmark_filter={flt}", "--benchmark_list_tests"],
                          check=True, capture_output=True, text=True).stdout.split()


def cell(ns, gf):
    t = f"{ns / 1000:.2f} µs" if ns >= 10000 else f"{ns:.0f} ns" if ns >= 100 else f"{ns:.1f} ns"
    return f"{t}, {gf:.1f} GF/s" if gf is not None else t


def quartiles(v):
    if len(v) < 2:
        return v[0], v[0]
    q = statistics.quantiles(v, n=4)
    return q[0], q[2]


def measure(args, names, parts, rank, out):
    """Runs the rounds (or, with --from, reads a previous run's JSON): times, ratios, flops."""
    binaries = {"before": args.before, "after": args.after}
    # One group per table, as an exact list of names (only [A-Za-z0-9_:/-]: literal in a regex).
    groups = ["^(" + "|".join(n for n in names if parts[n][2] == t) + ")$" for t in rank[2]]
    times = {k: defaultdict(list) for k in binaries}
    ratios = defaultdict(list)
    flops = {}
    for r in range(args.rounds):
        for g, flt in enumerate(groups):
            order = ["before", "after"] if (r + g) % 2 == 0 else ["after", "before"]
            med = {}
            for s in order:
                path = os.path.join(out, f"{s}-{r}-{g}.json")
                if args.from_dir:
                    with open(path) as f:
                        med[s] = collect(json.load(f), flops)
                else:
                    med[s] = collect(run(binaries[s], args, flt, path), flops)
                for n, t in med[s].items():
                    times[s][n].append(t)
            for n in med["before"].keys() & med["after"].keys():
                ratios[n].append(med["before"][n] / med["after"][n])
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    return times, ratios, flops


def summary(n, times, ratios, flops, short=False):
    """Before and after cells and the speed-up of benchmark n."""
    cells = []
    for side in ("before", "after"):
        if not times[side][n]:
            cells.append("-")
            continue
        m = statistics.median(times[side][n])
        gf = flops[n] / m if n in flops else None
        plain = f"{gf:.1f}" if gf is not None else f"{m:.1f}" if m < 100 else f"{m:.0f}"
        cells.append(plain if short else cell(m, gf))
    if not ratios[n]:
        return cells, "-"
    lo, hi = quartiles(ratios[n])
    med = statistics.median(ratios[n])
    return cells, f"{med:.2f}" if short else f"{med:.2f} ({lo:.2f}-{hi:.2f})"


def print_long(names, parts, res):
    shape = None
    for n in names:
        kind, what, table, sh = parts[n]
        if sh != shape:
            shape = sh
            print(f"\n### {sh}\n" if sh else "")
            print("| table | benchmark | before | after | speed-up (quartiles) |")
            print("|---|---|---|---|---|")
        cells, ratio = summary(n, *res)
        label = what if kind == "kernel" else f"{kind} {what}"
        print(f"| {table} | {label} | {cells[0]} | {cells[1]} | {ratio} |")


def print_wide(names, parts, res):
    """Per shape, a table of tables x benchmarks; cells 'before -> after (speed-up)'."""
    for sh in dict.fromkeys(parts[n][3] for n in names):
        here = [n for n in names if parts[n][3] == sh]
        cols = list(dict.fromkeys(tuple(parts[n][:2]) for n in here))
        print(f"\n#### (d, D) = ({sh.replace(':', ', ')})\n")
        print("| table | " + " | ".join(w if k == "kernel" else f"{k} {w}" for k, w in cols) + " |")
        print("|---|" + "---|" * len(cols))
        for t in dict.fromkeys(parts[n][2] for n in here):
            row = []
            for k, w in cols:
                n = f"{k}/{w}/{t}/{sh}"
                if n not in parts:
                    row.append("-")
                    continue
                (b, a), r = summary(n, *res, short=True)
                row.append(f"{b} → {a} ({r})")
            print(f"| {t} | " + " | ".join(row) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--filter", default="^kernel/")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--min-time", default="0.05")
    ap.add_argument("--out", default=None, help="folder for each run's JSON (default: a temporary one)")
    ap.add_argument("--from", dest="from_dir", default=None,
                    help="re-read the JSON an earlier run left in this folder instead of running")
    ap.add_argument("--wide", action="store_true",
                    help="one table per shape (GF/s, or ns where no flops are counted)")
    args = ap.parse_args()
    out = args.from_dir or args.out or tempfile.mkdtemp(prefix="rfk-compare-")
    os.makedirs(out, exist_ok=True)
    # Shapes, tables and kernels in the after binary's registration order (then what only before has).
    names = list(dict.fromkeys(listed(args.after, args.filter) + listed(args.before, args.filter)))
    parts = {n: (n.split("/") + ["", "", "", ""])[:4] for n in names}
    rank = [{}, {}, {}, {}]
    for n in names:
        for i, p in enumerate(parts[n]):
            rank[i].setdefault(p, len(rank[i]))
    names.sort(key=lambda n: tuple(rank[i][parts[n][i]] for i in (3, 2, 0, 1)))  # shape, table, kind
    res = measure(args, names, parts, rank, out)
    (print_wide if args.wide else print_long)(names, parts, res)
    print(f"\n(per-run JSON in {out})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
