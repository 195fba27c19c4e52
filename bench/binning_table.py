#!/usr/bin/python3
"""Random binning features (the paper's Algorithm 2) against Fourier features: the table in
docs/PERFORMANCE.md ("Random binning features").

a9a (../shared/datasets/adult_a9a, LIBSVM, its own test file): binning with P = 30 grids, exact and
hashed (B = 1024), rfk's default gamma and lambda. The Forest Cover subset
(bench/covtype_split.sh: 80,000 training rows, 20,000 test rows, 7 classes): binning with P = 50
grids at lambda = 1e-6; its gamma is chosen on the training rows alone (fit on four fifths, scored on
the other fifth -- every fifth training row -- over --gammas), then refitted on all 80,000 rows and
scored once on the test rows; beside it the same map at gamma = 0.5 exact and hashed (B = 2048,
16384), and Fourier features at D = 5000 with the gamma and lambda that `--gamma auto --lambda
auto` chooses at D = 1000. Each row: `rfk train --seed 1 --threads T`, then `rfk eval` on the test
file; train time is rfk's `seconds.train` (selection + fit, reading excluded); bins are `rfk inspect`'s
columns (exact mode: the bins seen in training).

Prints a Markdown table headed by the machine, commit, date and command.

usage: bench/binning_table.py [--rfk build/release/bin/rfk] [--work DIR] [--threads N]
                              [--gammas 0.25 0.5 1 2] [--out PAGE]
--out PAGE writes the table into PAGE between its `binning_table.py` markers instead
(bench/paper/blocks.py).
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile

import provenance

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def train(a, data, model, args, label=None):
    cmd = [a.rfk, "train", "--train", data, "-o", model, "--seed", "1", "--threads", str(a.threads), "--json"]
    cmd += (["--label-col", str(label)] if label is not None else []) + args
    return json.loads(run(cmd))


def error(a, model, test, label=None):
    cmd = [a.rfk, "eval", "-m", model, test, "--json"] + (["--label-col", str(label)] if label is not None else [])
    return 100 * json.loads(run(cmd))["error_rate"]


def row(a, data, test, model, args, label=None):
    t = train(a, data, model, args, label)
    info = json.loads(run([a.rfk, "inspect", model, "--json"]))
    return dict(error=error(a, model, test, label), seconds=t["seconds"]["train"], bytes=os.path.getsize(model),
                gamma=t["gamma"], lam=t["lambda"], bins=(info.get("binning") or {}).get("columns"))


def split_training(src, fit, val):
    """Every fifth row of the training file to val, the rest to fit (gzip'd CSV)."""
    with gzip.open(src, "rt") as f, gzip.open(fit, "wt") as fo, gzip.open(val, "wt") as vo:
        for i, line in enumerate(f):
            (vo if i % 5 == 4 else fo).write(line)


def size(n):
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 2**10:.1f} KiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build/release/bin/rfk"))
    ap.add_argument("--work", help="the split and the models (default: a temporary directory)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--gammas", nargs="+", default=["0.25", "0.5", "1", "2"])
    ap.add_argument("--out", help="the page to write the table into, between its binning_table.py markers "
                    "(docs/PERFORMANCE.md); without it the table is printed")
    a = ap.parse_args()
    a9a = os.path.join(ROOT, "../shared/datasets/adult_a9a")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        w = a.work or tmp
        os.makedirs(w, exist_ok=True)
        m = os.path.join(w, "m.rfk")
        train_a9a, test_a9a = os.path.join(a9a, "a9a.gz"), os.path.join(a9a, "a9a.t.gz")
        for label, args in [("binning P = 30, exact", ["--map", "binning", "-P", "30"]),
                            ("binning P = 30, hashed B = 1024", ["--map", "binning", "-P", "30", "-B", "1024"])]:
            r = row(a, train_a9a, test_a9a, m, args)
            rows.append(("a9a", f"{label}, default γ and λ (γ = {r['gamma']:g}, λ = {r['lam']:g})", r))
        run(["bash", os.path.join(ROOT, "bench/covtype_split.sh"), w])
        tr, te = os.path.join(w, "covtype.train.csv.gz"), os.path.join(w, "covtype.test.csv.gz")
        fit, val = os.path.join(w, "covtype.fit.csv.gz"), os.path.join(w, "covtype.val.csv.gz")
        split_training(tr, fit, val)
        binning = ["--map", "binning", "-P", "50", "--lambda", "1e-6"]
        validation = {g: row(a, fit, val, m, binning + ["--gamma", g], 0)["error"] for g in a.gammas}
        best = min(a.gammas, key=lambda g: validation[g])
        chosen = ", ".join(f"{g}: {e:.2f} %" for g, e in validation.items())
        rows.append(("Forest Cover subset, 80/20", f"**binning P = 50, exact, γ = {best}** chosen on a validation split "
                     f"of the training rows ({chosen}), λ = 1e-6", row(a, tr, te, m, binning + ["--gamma", best], 0)))
        for label, extra in [("exact", []), ("hashed B = 2048", ["-B", "2048"]), ("hashed B = 16384", ["-B", "16384"])]:
            rows.append(("Forest Cover subset", f"binning P = 50, {label}, γ = 0.5, λ = 1e-6",
                         row(a, tr, te, m, binning + ["--gamma", "0.5"] + extra, 0)))
        auto = train(a, tr, m, ["-D", "1000", "--gamma", "auto", "--lambda", "auto"], 0)
        g, lam = repr(auto["gamma"]), repr(auto["lambda"])
        rows.append(("Forest Cover subset", f"Fourier D = 5000, γ = {auto['gamma']:.4g}, λ = {auto['lambda']:g} (chosen "
                     "by `--gamma auto --lambda auto` at D = 1000)",
                     row(a, tr, te, m, ["-D", "5000", "--gamma", g, "--lambda", lam], 0)))
    with blocks.output(a.out, "binning_table.py"):
        print(provenance.line(f"bench/binning_table.py --threads {a.threads}") + "\n")
        print("| data | model | bins | test error | train time | model size |")
        print("|---|---|---|---|---|---|")
        for data, label, r in rows:
            bins = f"{r['bins']:,}" if r["bins"] else "-"
            print(f"| {data} | {label} | {bins} | {r['error']:.2f} % | {r['seconds']:.2f} s | {size(r['bytes'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
