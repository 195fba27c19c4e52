#!/usr/bin/python3
"""The README's main job stored f32, f16 and int8: model bytes, test accuracy and single-sample
prediction time, side by side in one run (docs/PERFORMANCE.md, "Quantized models on
Fashion-MNIST").

Trains the main job (scripts/main-job.sh's model: Fashion-MNIST's 60,000 training images, Gaussian
kernel, D = 4000, lambda = 1e-6, every thread), converts it with `rfk convert --storage f16` and
`--storage int8` (no data: what a user gets by default), then scores the three with `rfk eval
--decision raw` on the 10,000 test images, --rounds rounds, each round's order rotated so that no
storage always runs first. `predict_us_per_sample` is one sample at a time through the core
(`rfk::Predict`) with the kernel table rfk chooses (`rfk info` names it). The table gives each
storage's model bytes, accuracy (raw decision), per-sample time (min-max and median over the
rounds) and f32's time over its own, per round.

usage: bench/quantized_predict.py [--rfk build/release/bin/rfk] [--work DIR] [--rounds 9] [--out PAGE]
--out PAGE writes the table into PAGE between its `quantized_predict.py` markers instead
(bench/paper/blocks.py).
"""
import argparse
import os
import statistics
import sys
import tempfile

import main_job  # the main job's training, evaluation and command runner
import provenance
from main_job import ROOT, blocks, run

STORAGES = ("f32", "f16", "int8")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build/release/bin/rfk"))
    ap.add_argument("--work", help="the models (default: a temporary directory)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--out", help="the page to write the table into (docs/PERFORMANCE.md); without it it is printed")
    a = ap.parse_args()
    table = main_job.active_table(a.rfk)
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        os.makedirs(work, exist_ok=True)
        model = {s: os.path.join(work, f"fashion-{s}.rfk") for s in STORAGES}
        main_job.train(a, model["f32"], 4000)
        for s in STORAGES[1:]:
            run([a.rfk, "convert", "-m", model["f32"], "--storage", s, "-o", model[s], "-q"])
        us, last = main_job.alternate(a, model, a.rounds, "--decision", "raw")
        accuracy = {s: last[s]["accuracy"] for s in STORAGES}
        size = {s: os.path.getsize(model[s]) for s in STORAGES}
    with blocks.output(a.out, "quantized_predict.py"):
        print(provenance.line(f"bench/quantized_predict.py --rounds {a.rounds}") +
              f"; the {table} kernel table; {a.rounds} rounds, each storage's order rotated\n")
        print("| storage | model bytes | test accuracy (raw decision) | µs per sample (min–max, median) | "
              "f32 / this, per round (min–max, median) |")
        print("|---|---|---|---|---|")
        for s in STORAGES:
            t = us[s]
            ratio = [f / x for f, x in zip(us["f32"], t)]
            cell = "" if s == "f32" else f"{min(ratio):.2f}–{max(ratio):.2f}x, {statistics.median(ratio):.2f}x"
            print(f"| {s} | {size[s]:,} | {100 * accuracy[s]:.2f} % | {min(t):.1f}–{max(t):.1f}, "
                  f"{statistics.median(t):.1f} | {cell} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
