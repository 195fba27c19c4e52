#!/usr/bin/env python3
"""Issue 21's yardstick for rfk's class probabilities: scikit-learn's own calibration of the same
kind of model on the same split. For each dataset of bench/calibration.py: StandardScaler (when
rfk standardised), RBFSampler(n_components = the rfk model's D, gamma = its gamma),
RidgeClassifier(alpha = lambda * n) inside CalibratedClassifierCV(cv=3, method='sigmoid' and
'isotonic'), and the test set's error, log loss, Brier and ECE computed by bench/calibration.py's
metrics(). Also the ECE a perfectly calibrated model would show on the same test set from sampling
noise alone: labels drawn from rfk's own calibrated probabilities (mean over 100 draws, and its
95th percentile).

With --out PAGE, the table of rfk's rows (WORK/rfk.json, which bench/calibration.py wrote), these
rows and the floors, with the cost of the calibration, goes into PAGE's block calibration_peer.py
(docs/RESULTS.md, "Calibrated probabilities").

usage (after bench/calibration.py, whose --work holds the rfk models and their results):
  OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 bench/calibration_peer.py [--rfk build/release/bin/rfk]
      [--work /tmp/rfk-cal] [--datasets ...] [--out docs/RESULTS.md]
"""
import argparse, gzip, json, os, subprocess, sys, time

import numpy as np
import sklearn
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "paper"))
import blas_info  # noqa: E402
import blocks  # noqa: E402
import calibration as cal  # noqa: E402
import provenance  # noqa: E402

NAMES = {"a9a": "a9a (binary)", "covtype": "Forest (7 classes)", "fashion": "Fashion-MNIST (10 classes)"}


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


def peer(ds, a, rng):
    """scikit-learn's rows and the ECE floor for one dataset, as dicts."""
    m = os.path.join(a.work, f"{ds}-cal.rfk")
    info = json.loads(subprocess.run([a.rfk, "inspect", m, "--json"], check=True, capture_output=True,
                                     text=True).stdout)
    kv = dict(line.split("=", 1) for line in info["metadata"].splitlines() if "=" in line)
    gamma, lam, std = float(kv["gamma"]), float(kv["lambda"]), kv.get("standardized") == "1"
    Xtr, ytr, Xte, yte = load(ds, a.work)
    classes = np.unique(ytr)
    labels = cal.truth(*cal.sets(a.work)[ds][2])
    rows = {}
    for method in ("sigmoid", "isotonic"):
        steps = ([StandardScaler()] if std else []) + [
            RBFSampler(n_components=info["num_features"], gamma=gamma, random_state=1),
            RidgeClassifier(alpha=lam * len(ytr))]
        clf = CalibratedClassifierCV(make_pipeline(*steps), cv=3, method=method)
        t0 = time.time()
        clf.fit(Xtr, ytr)
        P = clf.predict_proba(Xte)
        secs = time.time() - t0
        err = float(np.mean(classes[P.argmax(1)] != yte))
        ll, br, ece = cal.metrics(P.tolist(), labels, [str(c) for c in classes.astype(int)])
        rows[method] = {"error": err, "log_loss": ll, "brier": br, "ece": ece, "seconds": secs}
        print(f"| {ds} | scikit-learn {method} | {len(yte)} | {err:.4f} | {ll:.4f} | {br:.4f} | {ece:.4f} | "
              f"{secs:.0f} s |", file=sys.stderr, flush=True)
    # the sampling-noise floor of ECE for rfk's own probabilities on this test set
    out = subprocess.run([a.rfk, "predict", "-m", m, *cal.sets(a.work)[ds][1], "--proba", "-q"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    P = np.array([list(map(float, ln.split("\t")[1:])) for ln in out[1:]])
    cum, draws = P.cumsum(1), []
    names = [h[2:] for h in out[0].split("\t") if h.startswith("p ")]
    for _ in range(100):
        y = np.minimum((rng.random(len(P))[:, None] > cum).sum(1), P.shape[1] - 1)
        draws.append(cal.metrics(P.tolist(), [names[k] for k in y], names)[2])
    rows["floor"] = {"mean": float(np.mean(draws)), "p95": float(np.percentile(draws, 95))}
    print(f"| {ds} | ECE of a calibrated model from sampling alone | {len(P)} | mean {rows['floor']['mean']:.4f}, "
          f"95th percentile {rows['floor']['p95']:.4f} |", file=sys.stderr, flush=True)
    return rows


def table(rfk, peers, command):
    """The block's text: provenance, the table, its footnotes and the cost, all from this run."""
    print(f"rfk's rows: {rfk['provenance']}.")
    print()
    print(f"scikit-learn's rows and the floors: {provenance.line(command)}, on the models and outputs of "
          f"that run; scikit-learn {sklearn.__version__} on {blas_info.describe()}.")
    print()
    print("| dataset | probabilities | test rows | error | log loss | Brier | ECE |")
    print("|---|---|---|---|---|---|---|")
    fmt = lambda r: f"{r['log_loss']:.4f} | {r['brier']:.4f}"
    for ds, r in rfk["results"].items():
        n, name = r["rows"], NAMES.get(ds, ds)
        raw, c = r["raw"], r["calibrated"]
        print(f"| {name} | rfk raw | {n:,} | {raw['error']:.4f} | {fmt(raw)} | {raw['ece']:.4f} |")
        print(f"| {name} | **rfk calibrated ({r['method']})** | {n:,} | {c['error']:.4f} ² | {fmt(c)} | "
              f"**{c['ece']:.4f}** ¹ |")
        for method in ("sigmoid", "isotonic"):
            p = peers[ds][method]
            print(f"| {name} | scikit-learn, {method} | {n:,} | {p['error']:.4f} | {fmt(p)} | {p['ece']:.4f} |")
        fl = peers[ds]["floor"]
        print(f"| {name} | floor: a calibrated model, sampling alone | {n:,} | | | | "
              f"{fl['mean']:.4f} (95th pct {fl['p95']:.4f}) |")
    print()
    R = rfk["results"]
    print("Each dataset's model: " + "; ".join(
        f"{NAMES.get(ds, ds).split(' (')[0]} D = {r['features']:,}, γ = {r['gamma']:g}, λ = {r['lam']:g}"
        for ds, r in R.items()) + " (rfk's defaults, and scikit-learn's RBFSampler at the same D and γ).")
    print()
    print("² The calibrated decision's error; the raw rows' errors are the raw decision's. The two decisions "
          "differ on " + ", ".join(f"{100 * r['moved']:.2f} % ({NAMES.get(ds, ds).split(' (')[0]})"
                                    for ds, r in R.items()) + " of the test rows.")
    print()
    print("¹ The calibration holds out the fewest folds whose rows reach 20,000: " + "; ".join(
        f"{r['held_out_folds']} of {r['folds']} on {NAMES.get(ds, ds).split(' (')[0]}'s {r['train_rows']:,} rows "
        f"({r['held_out_rows']:,} held-out rows)" for ds, r in R.items()) + ".")
    below = [NAMES.get(ds, ds).split(" (")[0] for ds in R if R[ds]["calibrated"]["ece"] < peers[ds]["sigmoid"]["ece"]]
    floor = [NAMES.get(ds, ds).split(" (")[0] for ds in R if R[ds]["calibrated"]["ece"] <= peers[ds]["floor"]["p95"]]
    print(f"rfk's calibrated ECE is below scikit-learn's sigmoid calibration on: {', '.join(below) or 'none'}; "
          f"within the sampling floor's 95th percentile on: {', '.join(floor) or 'none'}.")
    print()
    print("**Cost.** `rfk train --json`'s `calibration.seconds` (the solve per held-out fold, the scoring of the "
          "sampled rows and the fit) against `seconds.train`, same run: " + "; ".join(
              f"{NAMES.get(ds, ds).split(' (')[0]} {r['calibration_seconds']:.2f} s of {r['train_seconds']:.2f} s "
              f"({100 * r['calibration_seconds'] / r['train_seconds']:.1f} %)" for ds, r in R.items()) +
          ". Whole `rfk train` processes, default against `--no-calibration`, back to back: " + "; ".join(
              f"{NAMES.get(ds, ds).split(' (')[0]} {r['wall']['cal']:.1f} s against {r['wall']['nocal']:.1f} s "
              f"({r['wall']['cal'] / r['wall']['nocal']:.2f}x)" for ds, r in R.items()) + ".")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rfk", default=os.path.join(cal.HERE, "..", "build", "release", "bin", "rfk"))
    ap.add_argument("--work", default="/tmp/rfk-cal")
    ap.add_argument("--datasets", nargs="+", default=["a9a", "covtype", "fashion"])
    ap.add_argument("--out", help="write the table into this page's block calibration_peer.py")
    a = ap.parse_args()
    with open(os.path.join(a.work, "rfk.json")) as f:
        rfk = json.load(f)
    missing = [ds for ds in a.datasets if ds not in rfk["results"]]
    if missing:
        sys.exit(f"calibration_peer.py: {a.work}/rfk.json has no results for {', '.join(missing)}: "
                 "run bench/calibration.py with those datasets first")
    rfk["results"] = {ds: rfk["results"][ds] for ds in a.datasets}
    rng = np.random.default_rng(0)
    peers = {ds: peer(ds, a, rng) for ds in a.datasets}
    command = "/usr/bin/python3 bench/calibration_peer.py " + " ".join(sys.argv[1:])
    with blocks.output(a.out, "calibration_peer.py"):
        table(rfk, peers, command)


if __name__ == "__main__":
    sys.exit(main())
