#!/usr/bin/python3
"""rfk's defaults on small tables: training time and test error at 100, 300 and 1,000 rows.

For each Table 1 dataset with a dense CSV or LIBSVM file (CPU, Census, Adult, Forest) and each
size, convert.py's uniform subsample (its hash order) of that many training rows and 2,000 test
rows; then `rfk train` with no tuning options (the defaults: D = 1000, gamma and lambda
cross-validated) and with `--gamma auto --lambda auto` at the same D, each scored by `rfk eval` on
the test rows. Prints a Markdown table with the machine, commit, date and command in its header:
the training seconds are `rfk train`'s own report (reading excluded), the error is the test
error in % (regression: RMSE / rms(y)). Standard library only.

With --sklearn, the peer a data scientist would run on such a table beside it: scikit-learn's
StandardScaler + SVC (SVR for regression) in GridSearchCV, C in {0.1, 1, 10, 100} and gamma in
{'scale', 0.01, 0.1, 1}, 3-fold, refitted on all rows, with n_jobs 1 and n_jobs = --threads; the
fit's seconds (reading excluded) and its test error (run it with Debian's /usr/bin/python3, which
has scikit-learn).

usage: small_tables.py --rfk PATH --work DIR [--threads N] [--sizes 100 300 1000] [--sklearn]
                       [--out PAGE]
--out PAGE writes the table into PAGE between its `small_tables.py` markers instead
(bench/paper/blocks.py).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)
import provenance  # noqa: E402

DATASETS = ["cpu", "census", "adult", "forest"]
REGRESSION = {"cpu", "census"}
RUNS = [("default", []), ("auto", ["--gamma", "auto", "--lambda", "auto"])]


def train_eval(a, ds, files, extra, model):
    cmd = [a.rfk, "train", "--train", files["train"], "-o", model, "--threads", str(a.threads), "--seed", "1"]
    if ds in REGRESSION:
        cmd += ["--task", "regression"]
    out = subprocess.run(cmd + extra, check=True, capture_output=True, text=True).stdout
    r = {"train_s": float(re.search(r"train ([\d.]+) s\)", out).group(1)),
         "dual": "(in the dual" in out}
    ev = json.loads(subprocess.run([a.rfk, "eval", "--decision", "raw", "-m", model, files["test"], "--json"], check=True,
                                   capture_output=True, text=True).stdout)
    r["error"] = 100 * (ev["rel_rmse"] if ds in REGRESSION else ev["error_rate"])
    return r


def load(path):
    """X, y of a convert.py file: CSV with the label last, or LIBSVM (dense)."""
    if path.endswith(".svm.gz"):
        from sklearn.datasets import load_svmlight_file
        X, y = load_svmlight_file(path, n_features=123)  # Adult's a9a columns
        return X.toarray(), y
    import numpy as np
    data = np.loadtxt(path, delimiter=",")
    return data[:, :-1], data[:, -1]


def sklearn_peer(ds, files, threads):
    """Fit seconds at n_jobs 1 and n_jobs threads, and the test error in %, of an SVC/SVR grid search."""
    import numpy as np
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC, SVR
    X, y = load(files["train"])
    Xt, yt = load(files["test"])
    step = "svr" if ds in REGRESSION else "svc"  # make_pipeline's name for the estimator
    grid = {f"{step}__C": [0.1, 1, 10, 100], f"{step}__gamma": ["scale", 0.01, 0.1, 1]}
    out = {}
    for jobs in (1, threads):
        est = make_pipeline(StandardScaler(), SVR() if ds in REGRESSION else SVC())
        search = GridSearchCV(est, grid, cv=3, n_jobs=jobs)
        t0 = time.perf_counter()
        search.fit(X, y)
        out[jobs] = time.perf_counter() - t0
    pred = search.predict(Xt)
    if ds in REGRESSION:
        err = 100 * float(np.sqrt(np.mean((pred - yt) ** 2)) / np.sqrt(np.mean(yt ** 2)))
    else:
        err = 100 * float(np.mean(pred != yt))
    return {"s1": out[1], "sn": out[threads], "error": err}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000])
    ap.add_argument("--out", help="the page to write the table into, between its small_tables.py markers; "
                    "without it the table is printed")
    ap.add_argument("--sklearn", action="store_true", help="add scikit-learn's SVC/SVR grid search beside rfk")
    a = ap.parse_args()
    rows = []
    for n in a.sizes:
        out = os.path.join(a.work, f"n{n}")
        os.makedirs(out, exist_ok=True)
        info = json.loads(subprocess.run([sys.executable, os.path.join(HERE, "convert.py"), "--out", out,
                                          "--max-train", str(n), "--max-test", "2000", *DATASETS],
                                         check=True, capture_output=True, text=True).stdout)
        for ds in DATASETS:
            res = {name: train_eval(a, ds, info[ds]["files"], extra, os.path.join(out, f"{ds}-{name}.rfk"))
                   for name, extra in RUNS}
            if a.sklearn:
                res["sklearn"] = sklearn_peer(ds, info[ds]["files"], a.threads)
            rows.append((ds, n, res))
            print(f"{ds} n={n}: " + ", ".join(f"{k} {v.get('train_s', v.get('s1', 0)):.2f} s {v['error']:.2f} %"
                                               for k, v in res.items()), file=sys.stderr)
    with blocks.output(a.out, "small_tables.py"):
        print(provenance.line(f"bench/paper/small_tables.py --rfk {a.rfk} --threads {a.threads}"
                              f"{' --sklearn' if a.sklearn else ''}") + "\n")
        peer = ["scikit-learn SVC grid: fit s, 1 job", f"{a.threads} jobs", "test error %"] if a.sklearn else []
        print("| dataset | training rows | default: train s | default: test error % | auto: train s | "
              "auto: test error % | selection in the dual |" + "".join(f" {h} |" for h in peer))
        print("|---|---:|---:|---:|---:|---:|---|" + "---:|" * len(peer))
        for ds, n, res in rows:
            d, u = res["default"], res["auto"]
            extra = (f" {res['sklearn']['s1']:.2f} | {res['sklearn']['sn']:.2f} | {res['sklearn']['error']:.2f} |"
                     if a.sklearn else "")
            print(f"| {ds} | {n} | {d['train_s']:.2f} | {d['error']:.2f} | {u['train_s']:.2f} | {u['error']:.2f} | "
                  f"{'yes' if d['dual'] else 'no'} |" + extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
