#!/usr/bin/python3
"""rfk train vs scikit-learn's RBFSampler + RidgeClassifier on a9a, side by side in one run.

Both sides get the same data files, D, gamma and an equivalent ridge penalty (rfk's lambda
penalises the *mean* squared error, scikit-learn's alpha the sum: alpha = n * lambda). Timed:
rfk -- the whole `rfk train` process (reading the gzip'd file, features, solve, writing the
model); scikit-learn -- load_svmlight_file + fit_transform + fit (its imports are not counted).
Each side runs --repeats times, alternating; medians are reported.

usage: bench/a9a_vs_sklearn.py [--rfk build/release/bin/rfk] [--features 500] [--repeats 5]
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
DATA = os.path.join(ROOT, "..", "shared", "datasets", "adult_a9a")


def run_rfk(rfk, train, test, features, gamma, lam, model):
    t0 = time.perf_counter()
    subprocess.run([rfk, "train", "--train", train, "-D", str(features), "--gamma", repr(gamma),
                    "--lambda", repr(lam), "-o", model], check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    out = subprocess.run([rfk, "eval", "-m", model, test, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return seconds, json.loads(out)


def run_sklearn(train, test, features, gamma, lam, seed):
    t0 = time.perf_counter()
    X, y = load_svmlight_file(train, n_features=123)
    rbf = RBFSampler(gamma=gamma, n_components=features, random_state=seed)
    Z = rbf.fit_transform(X)
    clf = RidgeClassifier(alpha=lam * X.shape[0]).fit(Z, y)
    seconds = time.perf_counter() - t0
    Xt, yt = load_svmlight_file(test, n_features=123)
    return seconds, 1.0 - clf.score(rbf.transform(Xt), yt)


def blas_name():
    try:
        info = np.__config__.blas_opt_info  # numpy 1.24 (Debian 12)
        return ",".join(info.get("libraries", [])) or "unknown"
    except AttributeError:
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--features", type=int, default=500)
    ap.add_argument("--gamma", type=float, default=0.0625, help="rfk's data-scale default on a9a")
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-4, help="rfk's default")
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    train, test = os.path.join(DATA, "a9a.gz"), os.path.join(DATA, "a9a.t.gz")
    rfk_times, sk_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "a9a.rfk")
        for r in range(a.repeats):
            s, ev = run_rfk(a.rfk, train, test, a.features, a.gamma, a.lam, model)
            rfk_times.append(s)
            s, sk_err = run_sklearn(train, test, a.features, a.gamma, a.lam, seed=r)
            sk_times.append(s)
        model_bytes = os.path.getsize(model)
    rfk_med, sk_med = statistics.median(rfk_times), statistics.median(sk_times)
    print(f"a9a: 32561 train / 16281 test rows, D = {a.features}, gamma = {a.gamma}, lambda = {a.lam} "
          f"(sklearn alpha = {a.lam * 32561:g}); {a.repeats} alternating runs, medians")
    print(f"machine: {os.cpu_count()} CPUs; scikit-learn {sklearn.__version__}, numpy {np.__version__}, BLAS: {blas_name()}")
    print()
    print("| | train time (median) | all runs | test error | model |")
    print("|---|---|---|---|---|")
    print(f"| rfk train | {rfk_med:.3f} s | {', '.join(f'{t:.2f}' for t in rfk_times)} | "
          f"{100 * ev['error_rate']:.2f}% | {model_bytes / 1024:.1f} KiB, {ev['predict_us_per_sample']:.1f} us/sample |")
    print(f"| scikit-learn RBFSampler + RidgeClassifier | {sk_med:.3f} s | {', '.join(f'{t:.2f}' for t in sk_times)} | "
          f"{100 * sk_err:.2f}% (last run) | - |")
    print()
    print(f"rfk / scikit-learn time ratio: {rfk_med / sk_med:.3f} (goal: <= 0.333)")


if __name__ == "__main__":
    sys.exit(main())
