#!/usr/bin/env python3
"""Issue 21's yardstick for rfk's class probabilities: scikit-learn's own calibration of the same
kind of model on the same split. For each dataset of bench/calibration.py: StandardScaler (when
rfk standardised), RBFSampler(n_components=1000, gamma = the rfk model's), RidgeClassifier(alpha =
lambda * n) inside CalibratedClassifierCV(cv=3, method='sigmoid' and 'isotonic'), and the test
set's error, log loss, Brier and ECE computed by bench/calibration.py's metrics(). Also the ECE a
perfectly calibrated model would show on the same test set from sampling noise alone: labels drawn
from rfk's own calibrated probabilities (mean over 100 draws, and its 95th percentile).

usage (after bench/calibration.py, whose --work holds the rfk models and predictions):
  /usr/bin/python3 bench/calibration_peer.py [--rfk build/release/bin/rfk] [--work /tmp/rfk-cal] [--datasets ...]
"""
import argparse, gzip, json, os, subprocess, sys, time

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibration as cal  # noqa: E402


def idx(path):
    b = gzip.open(path).read()
    dims = [int.from_bytes(b[4 + 4 * i:8 + 4 * i], "big") for i in range(b[3])]
    return np.frombuffer(b, np.uint8, offset=4 + 4 * len(dims)).reshape(dims[0], -1).astype(np.float64)


def load(ds, work):
    S = cal.sets(work)
    if ds == "a9a":
        Xtr, ytr = load_svmlight_file(S[ds][0][1], n_features=123)
        Xte, yte = load_svmlight_file(S[ds][1][0], n_features=123)
        return Xtr.toarray(), ytr, Xte.toarray(), yte
    if ds == "covtype":
        tr = np.loadtxt(S[ds][0][1], delimiter=",")
        te = np.loadtxt(S[ds][1][0], delimiter=",")
        return tr[:, 1:], tr[:, 0], te[:, 1:], te[:, 0]
    f = cal.FASHION
    lab = lambda p: gzip.open(p).read()[8:]
    return (idx(f"{f}/train-images-idx3-ubyte.gz"), np.frombuffer(lab(f"{f}/train-labels-idx1-ubyte.gz"), np.uint8),
            idx(f"{f}/t10k-images-idx3-ubyte.gz"), np.frombuffer(lab(f"{f}/t10k-labels-idx1-ubyte.gz"), np.uint8))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rfk", default=os.path.join(cal.HERE, "..", "build", "release", "bin", "rfk"))
    ap.add_argument("--work", default="/tmp/rfk-cal")
    ap.add_argument("--datasets", nargs="+", default=["a9a", "covtype", "fashion"])
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    for ds in a.datasets:
        m = os.path.join(a.work, f"{ds}-cal.rfk")
        meta = json.loads(subprocess.run([a.rfk, "inspect", m, "--json"], check=True, capture_output=True,
                                         text=True).stdout)["metadata"]
        kv = dict(line.split("=", 1) for line in meta.splitlines() if "=" in line)
        gamma, lam, std = float(kv["gamma"]), float(kv["lambda"]), kv.get("standardized") == "1"
        Xtr, ytr, Xte, yte = load(ds, a.work)
        classes = np.unique(ytr)
        labels = [cal.truth(*cal.sets(a.work)[ds][2])][0]
        for method in ("sigmoid", "isotonic"):
            steps = ([StandardScaler()] if std else []) + [RBFSampler(n_components=1000, gamma=gamma, random_state=1),
                                                           RidgeClassifier(alpha=lam * len(ytr))]
            clf = CalibratedClassifierCV(make_pipeline(*steps), cv=3, method=method)
            t0 = time.time()
            clf.fit(Xtr, ytr)
            P = clf.predict_proba(Xte)
            secs = time.time() - t0
            err = float(np.mean(classes[P.argmax(1)] != yte))
            ll, br, ece = cal.metrics(P.tolist(), labels, [repr(c) if isinstance(c, float) else str(c) for c in
                                                           (classes.astype(int) if ds != "a9a" else classes.astype(int))])
            print(f"| {ds} | scikit-learn {method} | {len(yte)} | {err:.4f} | {ll:.4f} | {br:.4f} | {ece:.4f} | {secs:.0f} s |",
                  flush=True)
        # the sampling-noise floor of ECE for rfk's own probabilities on this test set
        out = subprocess.run([a.rfk, "predict", "-m", m, *cal.sets(a.work)[ds][1], "--proba", "-q"], check=True,
                             capture_output=True, text=True).stdout.splitlines()
        P = np.array([list(map(float, ln.split("\t")[1:])) for ln in out[1:]])
        cum, draws = P.cumsum(1), []
        names = [h[2:] for h in out[0].split("\t") if h.startswith("p ")]
        for _ in range(100):
            y = np.minimum((rng.random(len(P))[:, None] > cum).sum(1), P.shape[1] - 1)
            draws.append(cal.metrics(P.tolist(), [names[k] for k in y], names)[2])
        print(f"| {ds} | ECE of a calibrated model from sampling alone | {len(P)} | mean {np.mean(draws):.4f}, "
              f"95th percentile {np.percentile(draws, 95):.4f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
