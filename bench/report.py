#!/usr/bin/python3
"""Turns bench_kernels' JSON (with repetitions) into the kernel benchmark tables of
docs/PERFORMANCE.md: medians only.

usage: report.py BENCH_JSON [DOC]
Replaces the block between `<!-- report.py: begin -->` and `<!-- report.py: end -->` in DOC
(default docs/PERFORMANCE.md; written atomically) and leaves the rest of the page, which other
scripts and people write, as it is. The block's header names the machine, commit, date and command.
"""
import contextlib
import io
import json
import os
import platform
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)
import provenance  # noqa: E402

BEGIN, END = blocks.markers("report.py")
data = json.load(open(sys.argv[1]))
doc_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "PERFORMANCE.md")
page = io.StringIO()
_redirect = contextlib.redirect_stdout(page)  # everything printed below, up to END, is the block
_redirect.__enter__()
ctx = data["context"]
med = {}
for b in data["benchmarks"]:
    if b.get("aggregate_name") == "median":
        med[b["run_name"]] = b

def ns(name):
    return med[name]["real_time"] if name in med else None

def gf(name):
    return med[name].get("GFLOPS") if name in med else None  # counters are already GFLOP/s

peak_pre = float(ctx.get("peak_fma_gflops", "nan"))
peak_bench = med["peak_fma"]["GFLOPS"] if "peak_fma" in med else float("nan")
peak = max(peak_pre, peak_bench)
shapes = ["16:256", "54:1024", "123:500", "784:2000"]
tables = []
for name in med:
    m = re.match(r"predict/phase/(.+)/16:256$", name)
    if m:
        tables.append(m.group(1))
order = {t: i for i, t in enumerate(tables)}

print(BEGIN)
print("## Kernel benchmarks (`bench/run.sh`)")
print()
print("Google Benchmark, 5 repetitions, **medians**; one thread. "
      f"{provenance.line('bench/run.sh')} ({platform.system()} {platform.release()}).")
print()
print(f"- Peak FMA rate of this CPU, measured in the same run (12 independent FMA chains, "
      f"Highway {ctx.get('peak_fma_target')}): **{peak:.0f} GFLOP/s** (the larger of {peak_pre:.0f} "
      f"before the run and {peak_bench:.0f} during it; the VM's clock varies between runs).")
print("- Model shapes (d, D): `phase` = √(2/D)·cos(Wx+b) with F = D frequencies (the same arithmetic as")
print("  the baselines), `pair` = [cos, sin] with F = D/2. K = 1 output.")
print("- GFLOP/s counts the multiply-adds of the projection and the head (2 flops each); sin/cos are not counted.")
print()
print("## Single-sample predict latency (µs, `rfk::Predict`)")
print()
print("| table | " + " | ".join(f"({s.replace(':', ', ')}) phase | pair" for s in shapes) + " |")
print("|---|" + "---|---|" * len(shapes))
for t in tables:
    cells = []
    for s in shapes:
        for form in ("phase", "pair"):
            v = ns(f"predict/{form}/{t}/{s}")
            cells.append(f"{v / 1000:.2f}" if v else "-")
    print(f"| {t} | " + " | ".join(cells) + " |")
for base, label in (("naive", "baseline: plain loops + std::cos"), ("eigen", "baseline: Eigen GEMV + std::cos")):
    cells = []
    for s in shapes:
        v = ns(f"baseline/{base}/{s}")
        cells += [f"{v / 1000:.2f}" if v else "-", ""]
    print(f"| {label} | " + " | ".join(cells) + " |")
print()
best = tables[0] if tables else None
if best:
    print(f"Speed-up of the best table ({best}, phase form) over the baselines, same D:")
    print()
    print("| (d, D) | vs naive | vs Eigen + std::cos |")
    print("|---|---|---|")
    for s in shapes:
        r = ns(f"predict/phase/{best}/{s}")
        n_, e_ = ns(f"baseline/naive/{s}"), ns(f"baseline/eigen/{s}")
        if r and n_ and e_:
            print(f"| ({s.replace(':', ', ')}) | {n_ / r:.1f}x | {e_ / r:.1f}x |")
    print()
print("## Batch predict throughput (`rfk::PredictBatch`, 256 samples)")
print()
print("| table | " + " | ".join(f"({s.replace(':', ', ')}) phase | pair" for s in shapes) + " |")
print("|---|" + "---|---|" * len(shapes))
for t in tables:
    cells = []
    for s in shapes:
        for form in ("phase", "pair"):
            n = f"batch/{form}/{t}/{s}"
            if n in med:
                g = med[n]["GFLOPS"]
                cells.append(f"{med[n]['sec_per_sample'] * 1e6:.3f} µs, {g:.0f} GF/s ({100 * g / peak:.0f}%)")
            else:
                cells.append("-")
    print(f"| {t} | " + " | ".join(cells) + " |")
print()
print("Each cell: time per sample, GFLOP/s, and that as a percentage of the peak FMA rate above.")
print()
print('`PredictBatch` runs the fused batch kernels (`Fourier*HeadBatch`): block by block of W (64')
print('frequencies on AVX-512), each group of 6 samples goes through a 6 x 4 register tile (24')
print('accumulators); then one out-of-line pass turns the group\'s raw projections into features and')
print('adds them straight into the head, never storing them. What is left of the peak goes to sin/cos')
print('(about 13 vector operations per 16 phase features and 19 per 16 pairs, range check included,')
print('against 54 multiply-adds per 16 frequencies at d = 54) and to the tile itself, which reaches')
print('about 0.8 of the peak loop even with everything in L1 on this machine. On this shared VM single')
print('runs vary by 20% or more: compare tables within one run, not across runs. Every SIMD table runs')
print('the same kernel source (`lib/simd/kernels-inl.h`): Highway\'s targets and xsimd\'s architectures of')
print('the same width differ only in how each library spells the vector operations.')
print()
def family_tables(family, first):
    """Tables with a FAMILY/predict/FIRST/TABLE/... benchmark, in the run's order."""
    out = []
    for name in med:
        m = re.match(rf"{family}/predict/{re.escape(first)}/([^/]+)/", name)
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def model_rows(family, shapes, models, tables):
    """One row per shape and model: its bytes, then single and batch µs per table."""
    print("| (d, D) | " + family + " | model bytes | " + " | ".join(f"{t} single | {t} batch" for t in tables) + " |")
    print("|---|---|---|" + "---|---|" * len(tables))
    for s_ in shapes:
        for key, label in models:
            size, cells = None, []
            for t in tables:
                p_, b_ = f"{family}/predict/{key}/{t}/{s_}", f"{family}/batch/{key}/{t}/{s_}"
                if p_ in med:
                    size = med[p_].get("model_bytes", size)
                cells.append(f"{ns(p_) / 1000:.2f}" if p_ in med else "-")
                cells.append(f"{med[b_]['sec_per_sample'] * 1e6:.2f}" if b_ in med else "-")
            print(f"| ({s_.replace(':', ', ')}) | {label} | " + (f"{int(size):,}" if size else "-") + " | "
                  + " | ".join(cells) + " |")
    print()


map_tables = family_tables("map", "fourier")
if map_tables:
    print("## Per map: dense, orthogonal and Fastfood features")
    print()
    print("One output, on the table dispatch picks and on the scalar one; single sample (`rfk::Predict`) and")
    print("per sample of a 256-sample `rfk::PredictBatch`, in µs; model bytes of the whole file. ORF stores")
    print("and computes what dense pairs do (an orthogonal W); Fastfood stores per block of d' = 2^⌈log₂ d⌉")
    print("frequencies a sign bit, a permutation index and two floats (G, S) instead of a W row of d floats.")
    print("Fastfood has no batch kernel: `PredictBatch` runs it sample by sample.")
    print()
    model_rows("map", ["16:256", "54:1024", "784:4000"],
               [("fourier-phase", "dense, phase"), ("fourier", "dense pairs"), ("orf", "ORF pairs"),
                ("fastfood", "Fastfood pairs"), ("fastfood-phase", "Fastfood, phase")], map_tables)
    print("Cortex-M instruction counts of these maps: docs/EMBEDDED.md, \"Cost per prediction\".")
    print()
st_tables = family_tables("storage", "f32")
if st_tables:
    caches = []
    for idx in range(8):
        base = f"/sys/devices/system/cpu/cpu0/cache/index{idx}/"
        try:
            level = open(base + "level").read().strip()
            kind = open(base + "type").read().strip()
            size = open(base + "size").read().strip()
        except OSError:
            continue
        if kind != "Instruction":
            caches.append(f"L{level} {size}")
    print("## Per storage: f32, f16 and int8 weights")
    print()
    print("Dense pairs, one output, W and head stored as f32, f16 or int8 (`rfk convert`'s re-quantization of")
    print("the same random model); single sample and per sample of a 256-sample batch, in µs. f16 and int8")
    print("run the quantized kernels (`FourierQuant`, `LinearHeadQuant`: each weight widened in a register")
    print("as it is loaded); they have no batch kernel, so `PredictBatch` runs them sample by sample, while")
    print("f32 batches go through the register-tiled `Fourier*HeadBatch`. Caches of this CPU (cpu0, data")
    print(f"and unified): {', '.join(caches) or 'unknown'}; a (784, 4000) W is 6.3 MB in f32, 1.6 MB in int8.")
    print()
    model_rows("storage", ["54:1024", "784:4000"], [(k, k) for k in ("f32", "f16", "int8")], st_tables)
print("## Kernels (GFLOP/s; BinKeys and Standardize in ns per call)")
print()
kernels = ["FourierPhase", "FourierPair", "FourierPhaseHeadBatch", "FourierPairHeadBatch", "LinearHead", "Standardize", "BinKeys"]
for s in shapes:
    print(f"### (d, D) = ({s.replace(':', ', ')}), F = D/2 = {int(s.split(':')[1]) // 2}")
    print()
    print("| table | " + " | ".join(kernels) + " |")
    print("|---|" + "---|" * len(kernels))
    for t in tables:
        cells = []
        for k in kernels:
            n = f"kernel/{k}/{t}/{s}"
            if n not in med:
                cells.append("-")
            elif "GFLOPS" in med[n]:
                cells.append(f"{med[n]['GFLOPS']:.1f}")
            else:
                cells.append(f"{med[n]['real_time']:.0f} ns")
        print(f"| {t} | " + " | ".join(cells) + " |")
    print()
print(END)
_redirect.__exit__(None, None, None)
blocks.write_block(doc_path, page.getvalue(), BEGIN, END)
print(f"report.py: wrote the kernel benchmarks into {doc_path}")
