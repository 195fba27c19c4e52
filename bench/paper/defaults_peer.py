#!/usr/bin/python3
"""rfk's defaults against a tuned scikit-learn peer and against rfk's own search at D = 4000.

For each table, side by side in one run, each scored on the table's test file:
  default   `rfk train` with no option but the label column (D, gamma and lambda its own defaults:
            rfk/host/train.hpp); its D, and the report's `more D:` figures (the held-out error on
            half the frequencies against the chosen point's)
  auto4000  `rfk train -D 4000 --gamma auto --lambda auto` (--auto4000 names the tables; the
            many-class ones by default)
  peer      scikit-learn: StandardScaler + RBFSampler(n_components=2000, random_state=0) +
            RidgeClassifierCV / RidgeCV (cv=None: leave-one-out by the SVD, alpha = n x lambda for
            lambda in 1e-8 .. 1e-1), gamma = 2^k / d for k = -6 .. 4, the gamma whose best
            leave-one-out score is highest (their default: the mean squared error of the
            leave-one-out outputs, against the +-1 one-vs-rest targets for classes; scikit-learn
            1.2's scoring="accuracy" here gave 1.0 at every gamma on Forest, so ties, the smallest
            gamma, and 20 % test error); gamma chosen on a uniform sample of --peer-search-rows
            rows (20,000), then alpha on every training row (at most --peer-rows, 100,000, a
            uniform sample: the SVD holds several copies of the features) at that gamma
Errors: test misclassification rate, or relative RMSE (RMSE / RMS of the test targets, rfk eval's
rel_rmse) for regression.

Tables: the paper's Table 1 sets (convert.py: cpu, census, adult, forest, kdd); forest7 (the same
80,000 / 20,000 Forest rows, all 7 classes: bench/covtype_split.sh); fashion10k (Debian's
dataset-fashion-mnist: the first 10,000 training images, the 10,000 test images); letter (mlbench's
LetterRecognition, 16,000 / 4,000 rows in its order, 26 classes, through Rscript and
r-cran-mlbench, which `scripts/install-deps.sh --bench` installs: a table kept aside, not used to
choose the defaults).

usage: defaults_peer.py [--rfk PATH] [--work DIR] [--threads N] [--tables T ...] [--auto4000 T ...]
                        [--peer-rows N] [--peer-search-rows N] [--write] [--resume [--retime T ...]]
  --write: put the table into docs/RESULTS.md (between this script's markers)
"""
import argparse
import gzip
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import blocks  # noqa: E402
import convert  # noqa: E402

BEGIN, END = blocks.markers("defaults_peer.py")
TABLE1 = ["cpu", "census", "adult", "forest", "kdd"]
MANY = ["forest7", "fashion10k", "letter"]
REGRESSION = {"cpu", "census"}
TITLES = {"cpu": "CPU", "census": "Census (house_16H)", "adult": "Adult (a9a)", "forest": "Forest (binary)",
          "kdd": "KDDCUP99 (10 %)", "forest7": "Forest, 7 classes", "fashion10k": "Fashion-MNIST, 10k",
          "letter": "letter (kept aside)"}
FASHION = "/usr/share/datasets/fashion-mnist"


def prepare(name, work):
    """{train, test, label_args}: the table's files and the label options rfk needs."""
    if name in TABLE1:
        os.makedirs(os.path.join(work, "data"), exist_ok=True)
        files = getattr(convert, name)(os.path.join(work, "data"), 2007, None, None)["files"]
        return {"train": files["train"], "test": files["test"], "label": []}
    d = os.path.join(work, "many")
    os.makedirs(d, exist_ok=True)
    if name == "forest7":
        if not os.path.exists(os.path.join(d, "covtype.test.csv.gz")):
            subprocess.run([os.path.join(ROOT, "bench", "covtype_split.sh"), d], check=True, stdout=subprocess.DEVNULL)
        return {"train": os.path.join(d, "covtype.train.csv.gz"), "test": os.path.join(d, "covtype.test.csv.gz"),
                "label": ["--label-col", "0"]}
    if name == "fashion10k":
        out = {"train": os.path.join(d, "fashion10k.train.csv"), "test": os.path.join(d, "fashion.test.csv"),
               "label": ["--label-col", "0"]}
        for path, images, labels, n in ((out["train"], "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", 10000),
                                        (out["test"], "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", 10000)):
            if os.path.exists(path):
                continue
            with gzip.open(os.path.join(FASHION, images)) as f:
                px = f.read()[16:]
            with gzip.open(os.path.join(FASHION, labels)) as f:
                lab = f.read()[8:]
            with open(path + ".tmp", "w") as f:
                for i in range(n):
                    f.write(str(lab[i]) + "," + ",".join(map(str, px[784 * i:784 * (i + 1)])) + "\n")
            os.replace(path + ".tmp", path)
        return out
    if name == "letter":
        out = {"train": os.path.join(d, "letter.train.csv"), "test": os.path.join(d, "letter.test.csv"),
               "label": ["--label-col", "lettr"]}
        if not os.path.exists(out["test"]):
            r = ("library(mlbench); data(LetterRecognition); d <- LetterRecognition; "
                 f"write.csv(d[1:16000,], '{out['train']}', row.names=FALSE); "
                 f"write.csv(d[16001:20000,], '{out['test']}', row.names=FALSE)")
            subprocess.run(["Rscript", "-e", r], check=True, capture_output=True)
        return out
    raise SystemExit(f"unknown table {name}")


def rfk_run(a, name, files, extra, model):
    cmd = [a.rfk, "train", "--train", files["train"], "-o", model, "--threads", str(a.threads), "--seed", "1"]
    cmd += files["label"] + (["--task", "regression"] if name in REGRESSION else [])
    if name == "kdd":
        cmd += ["--standardize"]
    out = subprocess.run(cmd + extra, check=True, capture_output=True, text=True).stdout
    r = {"train_s": float(re.search(r"train ([\d.]+) s\)", out).group(1)),
         "D": int(re.search(r"D = (\d+)", out).group(1))}
    m = re.search(r"^more D:\s+held-out \S+ ([\d.]+) at D = (\d+) .*?, ([\d.]+) at D = \d+", out, re.M)
    if m:
        r["half_error"], r["half_D"], r["cv_error"] = 100 * float(m.group(1)), int(m.group(2)), 100 * float(m.group(3))
    ev = json.loads(subprocess.run([a.rfk, "eval", "-m", model, files["test"], "--json"] + files["label"],
                                   check=True, capture_output=True, text=True).stdout)
    r["test_error"] = 100 * (ev["rel_rmse"] if name in REGRESSION else ev["error_rate"])
    return r


def load(path, label, n_features=None):
    """X (float32) and y of a LIBSVM file (n_features columns: a test file's highest index may be
    lower than training's), or of a CSV file (a header exactly when the label is named; else the
    label column's index, the last by default)."""
    import numpy as np
    import pandas as pd
    from sklearn.datasets import load_svmlight_file
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        first = f.readline().split()
    if len(first) > 1 and ":" in first[1]:
        X, y = load_svmlight_file(path, n_features=n_features)
        return X.toarray().astype(np.float32), y
    named = bool(label) and not label[1].lstrip("-").isdigit()
    df = pd.read_csv(path, header=0 if named else None)
    col = label[1] if named else df.columns[int(label[1]) if label else -1]
    y = df.pop(col).to_numpy()
    return df.to_numpy(np.float32), y


PEER = r"""
import json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
import defaults_peer as dp
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeClassifierCV, RidgeCV
from sklearn.preprocessing import StandardScaler
cfg = json.loads(sys.argv[2])
t0 = time.time()
X, y = dp.load(cfg["train"], cfg["label"]); Xt, yt = dp.load(cfg["test"], cfg["label"], X.shape[1])
reg = cfg["regression"]
if not reg:
    y, yt = y.astype(str), yt.astype(str)
else:
    y, yt = y.astype(float), yt.astype(float)
rng = np.random.default_rng(0)
if len(y) > cfg["rows"]:
    keep = np.sort(rng.choice(len(y), cfg["rows"], replace=False)); X, y = X[keep], y[keep]
sc = StandardScaler().fit(X); X, Xt = sc.transform(X), sc.transform(Xt)
def fit(g, X, y):
    f = RBFSampler(gamma=g, n_components=2000, random_state=0).fit(X)
    alphas = len(y) * np.logspace(-8, -1, 8)
    return f, (RidgeCV(alphas=alphas) if reg else RidgeClassifierCV(alphas=alphas)).fit(f.transform(X), y)
# gamma on a sample of at most search_rows rows, then alpha on every row at that gamma
s = np.sort(rng.choice(len(y), cfg["search_rows"], replace=False)) if len(y) > cfg["search_rows"] else slice(None)
best = None
for k in range(-6, 5):
    g = 2.0 ** k / X.shape[1]
    score = fit(g, X[s], y[s])[1].best_score_
    if best is None or score > best[0]:
        best = (score, g)
g = best[1]
f, m = fit(g, X, y)
p = m.predict(f.transform(Xt))
err = np.sqrt(np.mean((p - yt) ** 2)) / np.sqrt(np.mean(yt ** 2)) if reg else np.mean(p != yt)
print(json.dumps({"test_error": 100 * float(err), "gamma": g, "alpha": float(m.alpha_), "rows": len(y),
                  "seconds": time.time() - t0}))
"""


def peer(a, name, files):
    cfg = {"train": files["train"], "test": files["test"], "label": files["label"], "regression": name in REGRESSION,
           "rows": a.peer_rows, "search_rows": a.peer_search_rows}
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(a.threads), OMP_NUM_THREADS=str(a.threads))
    out = subprocess.run([sys.executable, "-c", PEER, HERE, json.dumps(cfg)], check=True, capture_output=True,
                         text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(res, a):
    L = [BEGIN, "", "## Defaults against a tuned scikit-learn peer and against D = 4000", "",
         "Generated by `/usr/bin/python3 bench/paper/defaults_peer.py" + "".join(" " + x for x in sys.argv[1:]) +
         "` on " + time.strftime("%Y-%m-%d %H:%M") + f" ({platform.machine()}, {os.cpu_count()} CPUs, shared), "
         f"{a.threads} threads. *default*: `rfk train` with no option but the label column; *half*: its report's "
         "held-out error on the first half of the frequencies (`more D:`), against *CV*, the chosen point's; "
         "*D = 4000 auto*: `-D 4000 --gamma auto --lambda auto`; *peer*: StandardScaler + RBFSampler(2000) + "
         "RidgeClassifierCV / RidgeCV, gamma = 2^k / d (k = -6 .. 4) and alpha = n x (1e-8 .. 1e-1) by "
         f"leave-one-out (the mean squared error of its outputs; gamma on a sample of {a.peer_search_rows:,} rows, then alpha on "
         f"every row at it), on at most {a.peer_rows:,} training rows. Test error (%; regression: relative RMSE, %).",
         "", "| table | default D | default error | half / CV (held-out) | default time | D = 4000 auto | "
         "its time | peer (D = 2000) | peer's rows | default - peer |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in res.items():
        d, au, p = r["default"], r.get("auto4000"), r["peer"]
        half = f"{d['half_error']:.2f} / {d['cv_error']:.2f}" if "half_error" in d else "-"
        L.append(f"| {TITLES[name]} | {d['D']} | {d['test_error']:.2f} | {half} | {d['train_s']:.1f} s | "
                 + (f"{au['test_error']:.2f} | {au['train_s']:.1f} s" if au else "- | -")
                 + f" | {p['test_error']:.2f} | {p['rows']:,} | {d['test_error'] - p['test_error']:+.2f} |")
    return "\n".join(L + ["", END]) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "paper"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tables", nargs="+", default=TABLE1 + MANY)
    ap.add_argument("--auto4000", nargs="*", default=MANY)
    ap.add_argument("--peer-rows", type=int, default=100000)
    ap.add_argument("--peer-search-rows", type=int, default=20000)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--resume", action="store_true", help="keep the tables the work directory's json has")
    ap.add_argument("--retime", nargs="*", default=[],
                    help="with --resume: run these kept tables' rfk default again (a quiet machine's times)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    saved = os.path.join(a.work, "defaults_peer.json")
    res = {}
    if a.resume and os.path.exists(saved):
        res = {k: v for k, v in json.load(open(saved)).items() if k in a.tables}
    for name in a.retime:
        if name in res:
            files = prepare(name, a.work)
            print(f"[{time.strftime('%H:%M:%S')}] {name} default, again", file=sys.stderr, flush=True)
            res[name]["default"] = rfk_run(a, name, files, [], os.path.join(a.work, f"defaults_peer.{name}.rfk"))
            with open(saved + ".tmp", "w") as f:
                json.dump(res, f, indent=1)
            os.replace(saved + ".tmp", saved)
    for name in a.tables:
        if name in res:
            continue
        files = prepare(name, a.work)
        model = os.path.join(a.work, f"defaults_peer.{name}.rfk")
        r = res[name] = {}
        for key, extra in (("default", []), ("auto4000", ["-D", "4000", "--gamma", "auto", "--lambda", "auto"])):
            if key == "auto4000" and name not in a.auto4000:
                continue
            print(f"[{time.strftime('%H:%M:%S')}] {name} {key}", file=sys.stderr, flush=True)
            r[key] = rfk_run(a, name, files, extra, model)
        print(f"[{time.strftime('%H:%M:%S')}] {name} peer", file=sys.stderr, flush=True)
        r["peer"] = peer(a, name, files)
        print(json.dumps({name: r}), flush=True)
        with open(saved + ".tmp", "w") as f:
            json.dump(res, f, indent=1)
        os.replace(saved + ".tmp", saved)
    res = {k: res[k] for k in a.tables}
    text = table(res, a)
    print(text)
    if a.write:
        blocks.write_block(os.path.join(ROOT, "docs", "RESULTS.md"), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
