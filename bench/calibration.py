#!/usr/bin/env python3
"""Issue 21: are rfk's class probabilities calibrated? For each dataset: `rfk train` twice in the
same run (default, which fits the calibration section, and --no-calibration: the training-time
cost), then `rfk predict --scores --proba` on the held-out test file, and the test set's log loss,
Brier score and ECE of
  raw:        the raw outputs made probabilities without a fit: binary sigmoid(2 s) (ridge's
              targets are +-1, so s = 0 is even odds), multiclass softmax(s) over the OvR scores;
  calibrated: the model's calibration section (rfk predict --proba: platt-cubic for binary,
              softmax-vector for multiclass; docs/FORMAT.md).
Each row's error is its decision's: raw = `rfk predict --decision raw` (the sign / first maximum of
the raw outputs), calibrated = the default (the most probable class, the argmax of --proba); also
the share of rows where the two decisions differ.
The results also go to WORK/rfk.json, from which bench/calibration_peer.py --out writes the
docs' table.
ECE: 15 equal-width bins of the top class's probability on [0, 1], sum_b n_b/n |acc_b - conf_b|
(rfk eval's definition). Brier: binary (p1 - y)^2, multiclass sum_k (p_k - [k = y])^2, means.

usage: bench/calibration.py [--rfk build/release/bin/rfk] [--work /tmp/rfk-cal] [--datasets a9a covtype fashion]
"""
import argparse, gzip, json, math, os, subprocess, sys, time

import provenance

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("RFK_DATASETS", os.path.join(HERE, "..", "..", "shared", "datasets"))
FASHION = "/usr/share/datasets/fashion-mnist"


def sets(work):
    cov = os.path.join(work, "covtype")
    if not os.path.exists(os.path.join(cov, "covtype.test.csv.gz")):
        subprocess.run([os.path.join(HERE, "covtype_split.sh"), cov], check=True, stdout=subprocess.DEVNULL)
    f = FASHION
    return {
        "a9a": (["--train", f"{DATA}/adult_a9a/a9a.gz"], [f"{DATA}/adult_a9a/a9a.t.gz"], ("libsvm", f"{DATA}/adult_a9a/a9a.t.gz")),
        "covtype": (["--train", f"{cov}/covtype.train.csv.gz", "--label-col", "0"],
                    [f"{cov}/covtype.test.csv.gz", "--label-col", "0"], ("csv0", f"{cov}/covtype.test.csv.gz")),
        "fashion": (["--train", f"{f}/train-images-idx3-ubyte.gz", "--idx-labels", f"{f}/train-labels-idx1-ubyte.gz"],
                    [f"{f}/t10k-images-idx3-ubyte.gz", "--idx-labels", f"{f}/t10k-labels-idx1-ubyte.gz"],
                    ("idx", f"{f}/t10k-labels-idx1-ubyte.gz")),
    }


def truth(kind, path):
    if kind == "idx":
        b = gzip.open(path).read()
        return [str(v) for v in b[8:]]
    with gzip.open(path, "rt") as fh:
        return [ln.split(",")[0].strip() if kind == "csv0" else ln.split()[0] for ln in fh if ln.strip()]


def same(a, b):
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


def metrics(P, labels, classes):
    n, ll, br, K = len(P), 0.0, 0.0, len(classes)
    bins = [[0, 0.0, 0.0] for _ in range(15)]
    for p, y in zip(P, labels):
        t = next(k for k in range(K) if same(classes[k], y))
        ll -= math.log(max(p[t], 1e-15))
        br += (p[1] - (t == 1)) ** 2 if K == 2 else sum((p[k] - (k == t)) ** 2 for k in range(K))
        top = max(range(K), key=lambda k: p[k])
        b = bins[min(14, int(p[top] * 15))]
        b[0] += 1; b[1] += p[top]; b[2] += (top == t)
    ece = sum(abs(b[2] - b[1]) for b in bins) / n
    return ll / n, br / n, ece


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rfk", default=os.path.join(HERE, "..", "build", "release", "bin", "rfk"))
    ap.add_argument("--work", default="/tmp/rfk-cal")
    ap.add_argument("--datasets", nargs="+", default=["a9a", "covtype", "fashion"])
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    S = sets(a.work)
    results = {}
    for ds in a.datasets:
        tr, te, (kind, lab) = S[ds]
        secs, report = {}, {}
        for name, extra in (("cal", []), ("nocal", ["--no-calibration"])):
            m = os.path.join(a.work, f"{ds}-{name}.rfk")
            cmd = [a.rfk, "train", *tr, "-o", m, "--json", *extra]
            t0 = time.time()
            report[name] = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            secs[name] = time.time() - t0
            print("$", " ".join(cmd), f"# {secs[name]:.1f} s", flush=True)
        m = os.path.join(a.work, f"{ds}-cal.rfk")
        out = subprocess.run([a.rfk, "predict", "-m", m, *te, "--scores", "--proba", "-q"], check=True,
                             capture_output=True, text=True).stdout.splitlines()
        head = out[0].split("\t")
        classes = [h[2:] for h in head if h.startswith("p ")]
        K = len(classes)
        rows = [list(map(float, ln.split("\t")[1:])) for ln in out[1:]]
        labels = truth(kind, lab)
        assert len(labels) == len(rows), (len(labels), len(rows))
        raw, cal = [], []
        for r in rows:
            s, p = r[:len(r) - K], r[len(r) - K:]
            if K == 2:
                p1 = 1 / (1 + math.exp(-2 * s[0])) if s[0] > -300 else 0.0
                raw.append([1 - p1, p1])
            else:
                mx = max(s); e = [math.exp(v - mx) for v in s]; z = sum(e)
                raw.append([v / z for v in e])
            cal.append(p)
        raw_out = subprocess.run([a.rfk, "predict", "-m", m, *te, "--decision", "raw", "-q"], check=True,
                                 capture_output=True, text=True).stdout.splitlines()
        preds = {"calibrated": [ln.split("\t")[0] for ln in out[1:]], "raw": raw_out}
        assert len(raw_out) == len(labels)
        rec = {"rows": len(labels), "classes": K}
        for name, P in (("raw", raw), ("calibrated", cal)):
            err = sum(1 for v, y in zip(preds[name], labels) if not same(v, y)) / len(labels)
            ll, br, ece = metrics(P, labels, classes)
            rec[name] = {"error": err, "log_loss": ll, "brier": br, "ece": ece}
            print(f"| {ds} | {name} | {len(labels)} | {err:.4f} | {ll:.4f} | {br:.4f} | {ece:.4f} |", flush=True)
        moved = sum(1 for u, v in zip(preds["raw"], preds["calibrated"]) if u != v) / len(labels)
        print(f"| {ds} | rows where the raw and calibrated decisions differ: {moved:.4f} |", flush=True)
        print(f"| {ds} | train seconds: default {secs['cal']:.1f}, --no-calibration {secs['nocal']:.1f}, "
              f"ratio {secs['cal'] / secs['nocal']:.3f} |", flush=True)
        c = report["cal"]
        rec.update(moved=moved, wall=secs, method=c["calibration"]["method"],
                   held_out_rows=c["calibration"]["held_out_rows"], held_out_folds=c["calibration"]["held_out_folds"],
                   folds=c["calibration"]["folds"], calibration_seconds=c["calibration"]["seconds"],
                   train_seconds=c["seconds"]["train"], train_rows=c["data"]["rows"],
                   gamma=c["gamma"], lam=c["lambda"])
        inspect = json.loads(subprocess.run([a.rfk, "inspect", m, "--json"], check=True, capture_output=True,
                                            text=True).stdout)
        rec["features"] = inspect["num_features"]
        results[ds] = rec
    with open(os.path.join(a.work, "rfk.json.tmp"), "w") as f:
        json.dump({"provenance": provenance.line("python3 bench/calibration.py " + " ".join(sys.argv[1:])),
                   "results": results}, f, indent=1)
    os.replace(os.path.join(a.work, "rfk.json.tmp"), os.path.join(a.work, "rfk.json"))


if __name__ == "__main__":
    sys.exit(main())
