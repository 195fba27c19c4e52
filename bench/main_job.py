#!/usr/bin/python3
"""The README's main-job figures: scripts/main-job.sh's model (Fashion-MNIST's 60,000 training
images, d = 784, Gaussian kernel, D = 4000, lambda = 1e-6, every thread), trained and evaluated on
the 10,000 test images with this checkout's rfk, written into README.md between its `main_job.py`
markers headed by the machine, commit, date and command.

- accuracy: `rfk eval` (the calibrated decision) and `rfk eval --decision raw`;
- model size, and the training time of `rfk train`'s report (reading and the probability
  calibration included, as the main job prints it);
- per-sample prediction latency: `rfk eval`'s predict_us_per_sample (one sample at a time through
  the device core), --runs runs with the kernel table rfk chooses (`rfk info` names it) and two with
  RFK_TARGET=scalar.

With --sweep D1,D2,... it also trains the same job at each of those D and writes
docs/PERFORMANCE.md's table of them (--sweep-out; between its `main_job.py-sweep` markers): test
accuracy (raw and calibrated decisions), `rfk train`'s time, model size, and the median
per-sample latency of --runs evaluations with the chosen kernel table and of two with
RFK_TARGET=scalar.

usage: bench/main_job.py [--rfk build/main/bin/rfk] [--work DIR] [--runs 3] [--out README.md | -]
                         [--sweep 2000,3000,4000 [--sweep-out docs/PERFORMANCE.md | -]]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import provenance

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)

DATA = "/usr/share/datasets/fashion-mnist"
BEGIN, END = blocks.markers("main_job.py")


def run(cmd, env=None):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout


def active_table(rfk):
    """The kernel table `rfk info` says the CLI runs on this machine (e.g. hwy-AVX3)."""
    return re.search(r"^active: (\S+)", run([rfk, "info"]), re.M).group(1)


def evaluate(a, model, *extra, env=None):
    return json.loads(run([a.rfk, "eval", "-m", model, os.path.join(DATA, "t10k-images-idx3-ubyte.gz"), "--json"]
                          + list(extra), env=env))


def spread(values, unit):
    lo, hi = min(values), max(values)
    return f"{lo:.0f} {unit}" if round(lo) == round(hi) else f"{lo:.0f}–{hi:.0f} {unit}"


def train(a, model, D, *extra):
    """`rfk train` of the main job at D features (and `extra` options); its report's total seconds."""
    report = run([a.rfk, "train", "--train", os.path.join(DATA, "train-images-idx3-ubyte.gz"), "-o", model,
                  "--kernel", "gaussian", "-D", str(D), "--lambda", "1e-6", "--json"] + list(extra))
    return json.loads(report)["seconds"]["total"]


def alternate(a, models, rounds, *extra):
    """`rfk eval` (with `extra` options) of each of `models` ({name: path}) in turn, `rounds` times,
    the order rotated each round: ({name: [predict_us_per_sample per round]}, {name: last report})."""
    names = list(models)
    us, last = {n: [] for n in names}, {}
    for r in range(rounds):
        k = r % len(names)
        for n in names[k:] + names[:k]:
            last[n] = evaluate(a, models[n], *extra)
            us[n].append(last[n]["predict_us_per_sample"])
    return us, last


def measure(a, work, D):
    """The job at D features: `rfk train`'s seconds, --runs evaluations with the chosen table, one
    with the raw decision and two with RFK_TARGET=scalar."""
    model = os.path.join(work, f"fashion-mnist-{D}.rfk")
    seconds = train(a, model, D)
    evals = [evaluate(a, model) for _ in range(a.runs)]
    raw = evaluate(a, model, "--decision", "raw")
    scalar = [evaluate(a, model, env=dict(os.environ, RFK_TARGET="scalar")) for _ in range(2)]
    return dict(seconds=seconds, evals=evals, raw=raw, scalar=scalar)


def sweep(a, table, results):
    """The table of the job at each D of --sweep (results: measure's, by D), written between the
    `main_job.py-sweep` markers."""
    rows = []
    us = lambda runs: statistics.median(r["predict_us_per_sample"] for r in runs)
    for D, r in sorted(results.items()):
        e = r["evals"][0]
        rows.append(f"| {D:,} | {100 * r['raw']['accuracy']:.2f} % | {100 * e['accuracy']:.2f} % | {r['seconds']:.1f} s | "
                    f"{e['model_bytes'] / 2**20:.2f} MiB | {us(r['evals']):.1f} µs | {us(r['scalar']):.1f} µs |")
    with blocks.output(None if a.sweep_out == "-" else a.sweep_out, "main_job.py-sweep"):
        print(provenance.line(f"bench/main_job.py --runs {a.runs} --sweep {a.sweep}") +
              " (`scripts/main-job.sh`'s commands at each D: Gaussian, λ = 1e-6, the data-scale γ, every "
              f"thread; per-sample latency: the median of {a.runs} `rfk eval` runs, and of two with "
              "`RFK_TARGET=scalar`)\n")
        print(f"| D | test accuracy, raw decision | calibrated decision (`rfk eval`'s default) | `rfk train` | "
              f"model | predict ({table} kernels) | predict (scalar kernels) |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build/main/bin/rfk"))
    ap.add_argument("--work", help="the model (default: a temporary directory)")
    ap.add_argument("--runs", type=int, default=3, help="evaluations with the chosen kernel table")
    ap.add_argument("--out", default=os.path.join(ROOT, "README.md"), help="README to write the block into; - prints it")
    ap.add_argument("--sweep", help="also the job at each of these D (comma-separated), as a table")
    ap.add_argument("--sweep-out", default=os.path.join(ROOT, "docs", "PERFORMANCE.md"),
                    help="the page to write the sweep's table into; - prints it")
    a = ap.parse_args()
    table = active_table(a.rfk)
    swept = [int(x) for x in a.sweep.split(",")] if a.sweep else []
    with tempfile.TemporaryDirectory() as tmp:  # the main job's D = 4000 serves the sweep too
        results = {D: measure(a, a.work or tmp, D) for D in sorted({4000, *swept})}
    if swept:
        sweep(a, table, {D: results[D] for D in swept})
    seconds, evals, raw, scalar = (results[4000][k] for k in ("seconds", "evals", "raw", "scalar"))
    e = evals[0]
    line = provenance.line(f"bench/main_job.py --runs {a.runs}")
    text = "\n".join([
        BEGIN,
        f"{line} (`scripts/main-job.sh`'s commands: d = 784, D = 4000, every thread): "
        f"**{100 * e['accuracy']:.2f} % test accuracy** ({100 * raw['accuracy']:.2f} % with `rfk eval --decision "
        f"raw`, the uncalibrated decision), {e['model_bytes'] / 2**20:.2f} MiB model, {seconds:.1f} s of `rfk train` "
        f"(reading and the probability calibration included), "
        f"{spread([r['predict_us_per_sample'] for r in evals], 'µs')} per prediction with the {table} kernels "
        f"({a.runs} `rfk eval` runs) and {spread([r['predict_us_per_sample'] for r in scalar], 'µs')} with the "
        "scalar ones (`RFK_TARGET=scalar`, two runs).",
        END]) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        blocks.write_block(a.out, text, BEGIN, END)
        print(f"main_job: wrote {a.out}'s main-job figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
