#!/usr/bin/python3
"""rfk train vs scikit-learn's RBFSampler + RidgeClassifier on a9a, side by side in one run, at
one thread and at every thread of the machine.

Both sides get the same data files, D, gamma and an equivalent ridge penalty (rfk's lambda
penalises the *mean* squared error, scikit-learn's alpha the sum: alpha = n * lambda). Timed:
rfk -- the whole `rfk train --threads T` process (reading the gzip'd file, features, solve,
writing the model); scikit-learn -- load_svmlight_file + fit_transform + fit with OpenBLAS at T
threads (its imports are not counted). Each side runs --repeats times per thread count,
alternating; medians are reported.

scikit-learn's speed depends on the BLAS under NumPy: Debian's default is the reference BLAS
(libblas3), several times slower than OpenBLAS. The honest peer is OpenBLAS
(`scripts/install-deps.sh --bench` installs libopenblas0-pthread); the script refuses to run on
another BLAS unless --any-blas is given, and prints which one it measured (bench/blas_info.py).

usage: bench/a9a_vs_sklearn.py [--rfk build/release/bin/rfk] [--features 500] [--repeats 5]
                               [--threads 1,N] [--any-blas] [--out docs/PERFORMANCE.md]
--out writes the table into that page between its `a9a_vs_sklearn.py` markers, headed by the
machine, commit, date and command (bench/provenance.py); without it the table is printed.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import sklearn
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blas_info  # noqa: E402
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)
import provenance  # noqa: E402

DATA = os.path.join(ROOT, "..", "shared", "datasets", "adult_a9a")


def run_rfk(rfk, train, test, features, gamma, lam, model, threads):
    t0 = time.perf_counter()
    subprocess.run([rfk, "train", "--train", train, "-D", str(features), "--gamma", repr(gamma),
                    "--lambda", repr(lam), "--threads", str(threads), "-o", model], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    out = subprocess.run([rfk, "eval", "--decision", "raw", "-m", model, test, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return seconds, json.loads(out)


def run_sklearn(train, test, features, gamma, lam, seed, threads):
    blas_info.set_threads(threads)
    t0 = time.perf_counter()
    X, y = load_svmlight_file(train, n_features=123)
    rbf = RBFSampler(gamma=gamma, n_components=features, random_state=seed)
    Z = rbf.fit_transform(X)
    clf = RidgeClassifier(alpha=lam * X.shape[0]).fit(Z, y)
    seconds = time.perf_counter() - t0
    Xt, yt = load_svmlight_file(test, n_features=123)
    return seconds, 1.0 - clf.score(rbf.transform(Xt), yt)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--features", type=int, default=500)
    ap.add_argument("--gamma", type=float, default=0.0625, help="rfk's data-scale default on a9a")
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-4, help="rfk's default")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", default=f"1,{os.cpu_count()}")
    ap.add_argument("--any-blas", action="store_true", help="measure scikit-learn on a BLAS other than OpenBLAS")
    ap.add_argument("--out", help="the page to write the table into (between its a9a_vs_sklearn.py markers)")
    a = ap.parse_args()
    blas = blas_info.describe()
    if not blas.startswith("OpenBLAS") and not a.any_blas:
        print(f"a9a_vs_sklearn.py: numpy runs on {blas}, not OpenBLAS: not an honest peer "
              "(scripts/install-deps.sh --bench; or --any-blas)", file=sys.stderr)
        return 1
    threads = sorted({int(t) for t in a.threads.split(",")})
    train, test = os.path.join(DATA, "a9a.gz"), os.path.join(DATA, "a9a.t.gz")
    times = {(side, t): [] for side in ("rfk", "sklearn") for t in threads}
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "a9a.rfk")
        for r in range(a.repeats):
            for t in threads:
                for side in ("rfk", "sklearn") if r % 2 == 0 else ("sklearn", "rfk"):
                    if side == "rfk":
                        s, ev = run_rfk(a.rfk, train, test, a.features, a.gamma, a.lam, model, t)
                    else:
                        s, sk_err = run_sklearn(train, test, a.features, a.gamma, a.lam, r, t)
                    times[(side, t)].append(s)
        model_bytes = os.path.getsize(model)
    out = [provenance.line(" ".join(["bench/a9a_vs_sklearn.py"] + sys.argv[1:])), "",
           f"a9a: 32,561 training / 16,281 test rows, D = {a.features}, γ = {a.gamma}, λ = {a.lam} (scikit-learn's "
           f"α = {a.lam * 32561:g}); {a.repeats} alternating runs per thread count, medians; scikit-learn "
           f"{sklearn.__version__}, NumPy {np.__version__}, BLAS: {blas.split(' (')[0]}; rfk: test error "
           f"{100 * ev['error_rate']:.2f} %, model {model_bytes / 1024:.1f} KiB, {ev['predict_us_per_sample']:.1f} µs "
           f"per prediction; scikit-learn: test error {100 * sk_err:.2f} % (last run)", "",
           "| threads | rfk train (whole process) | scikit-learn load + fit | rfk / scikit-learn | all runs rfk / "
           "scikit-learn (s) |", "|---|---|---|---|---|"]
    for t in threads:
        r, k = times[("rfk", t)], times[("sklearn", t)]
        rm, km = statistics.median(r), statistics.median(k)
        out.append(f"| {t} | {rm:.3f} s | {km:.3f} s | {rm / km:.2f} | {', '.join(f'{x:.2f}' for x in r)} / "
                   f"{', '.join(f'{x:.2f}' for x in k)} |")
    with blocks.output(a.out, "a9a_vs_sklearn.py"):
        print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
