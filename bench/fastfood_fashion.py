#!/usr/bin/python3
"""Fastfood against dense pairs on the README's main job (docs/RESULTS.md, after Table 1's maps):
Fashion-MNIST's 60,000 training images, Gaussian kernel, D = 4000, lambda = 1e-6, every thread,
trained with `--map fourier` (scripts/main-job.sh's model) and `--map fastfood`; then `rfk eval
--json` of the two models alternating, --rounds rounds. Prints the machine line and one row per
map: test accuracy (the calibrated decision, `rfk eval`'s default), model bytes, per-sample
latency (min-max, median of the rounds: one sample at a time through the device core, with the
kernel table rfk chooses) and `rfk train`'s time.

usage: bench/fastfood_fashion.py [--rfk build/release/bin/rfk] [--rounds 15] [--work DIR]
                                 [--out docs/RESULTS.md]
"""
import argparse
import os
import statistics
import sys
import tempfile

import main_job  # the main job's training, evaluation and command runner
import provenance
from main_job import ROOT, blocks

MAPS = ("fourier", "fastfood")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build/release/bin/rfk"))
    ap.add_argument("--work", help="the models (default: a temporary directory)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--out", help="the page to write the table into (docs/RESULTS.md); without it it is printed")
    a = ap.parse_args()
    table = main_job.active_table(a.rfk)
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        os.makedirs(work, exist_ok=True)
        model = {m: os.path.join(work, f"fashion-{m}.rfk") for m in MAPS}
        seconds = {m: main_job.train(a, model[m], 4000, "--map", m) for m in MAPS}
        us, ev = main_job.alternate(a, model, a.rounds)
    with blocks.output(a.out, "fastfood_fashion.py"):
        print(provenance.line(f"bench/fastfood_fashion.py --rounds {a.rounds}" + (f" --out {a.out}" if a.out else "")) +
              f"; `rfk train --train train-images-idx3-ubyte.gz --kernel gaussian -D 4000 --lambda 1e-6 --map M`, "
              f"then `rfk eval -m M.rfk t10k-images-idx3-ubyte.gz --json` of the two alternating; the {table} "
              "kernel table\n")
        print("| `--map` | test accuracy | model bytes | `predict_us_per_sample` (min–max, median) | `rfk train` |")
        print("|---|---|---|---|---|")
        dense = ev["fourier"]["model_bytes"]
        for m in MAPS:
            size = ev[m]["model_bytes"]
            smaller = "" if m == "fourier" else f" ({dense / size:.0f}x smaller)"
            print(f"| `{m}` | {100 * ev[m]['accuracy']:.2f} % | {size:,}{smaller} | {min(us[m]):.1f}–{max(us[m]):.1f} µs "
                  f"(median {statistics.median(us[m]):.1f}) | {seconds[m]:.1f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
