#!/usr/bin/python3
"""Reproduces Rahimi & Recht (NIPS 2007) on real data with rfk, side by side with scikit-learn.

One command (after `cmake --workflow --preset release`):

    /usr/bin/python3 bench/paper/run.py

writes docs/RESULTS.md, the plots docs/paper/*.png and the raw measurements build/paper/results.json.
Blocks other scripts wrote into the report between their markers (`<!-- NAME: begin -->` ...
`<!-- NAME: end -->`, e.g. defaults.py's and storage.py's) are kept, at the end, in their order.
Converted data go to build/paper/data (never into the repository); see convert.py for the splits.

Per dataset and map (the paper's D and P):
  1. `rfk train --gamma auto --lambda auto` on the training file only (k-fold CV inside rfk), then
     `rfk eval` on the test file: the test error, the model size, and the time of selection + fit.
  2. `rfk train` again at the chosen (gamma, lambda): the time of one fit ("fit time").
  3. Fourier only: scikit-learn's StandardScaler (when rfk standardised) + RBFSampler(gamma, D) +
     Ridge / RidgeClassifier(alpha = n * lambda: rfk's lambda penalises the mean squared error) on
     the same files, timed from the loaded arrays (fit_transform + fit), right after step 2.
Then Claim 1 (rfk_kernel_approx) and Figure 3 (Forest, binning: error vs training rows, error and
fit time vs P, at the gamma and lambda selected on the full training set).

Times are wall-clock seconds on this machine, measured in this run; rfk's times are its own
`train` figure (reading and writing the files excluded, as scikit-learn's loading is).
"""
import argparse
import datetime
import gzip
import hashlib
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
import convert  # noqa: E402
from report import PAPER, plots, report  # noqa: E402

sys.path.insert(0, os.path.dirname(HERE))
import blas_info  # noqa: E402  (standard library only; numpy is imported where scikit-learn runs)

REGRESSION = {"cpu", "census"}
FAST = dict(max_train=3000, max_test=1500)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ rfk

def parse_train(out):
    r = {}
    m = re.search(r"time:\s+([\d.]+) s total \(read ([\d.]+) s, train ([\d.]+) s\)", out)
    r["total_s"], r["read_s"], r["train_s"] = map(float, m.groups())
    m = re.search(r"^gamma:\s+([-\d.e+]+)", out, re.M)
    if m:
        r["gamma"] = float(m.group(1))
    m = re.search(r"^bin gamma:\s+([-\d.e+]+)", out, re.M)
    if m:
        r["bin_gamma"] = float(m.group(1))
    r["lambda"] = float(re.search(r"^lambda:\s+([-\d.e+]+)", out, re.M).group(1))
    m = re.search(r"(\d+)-fold cross-validation over (\d+) points", out)
    if m:
        r["cv_points"] = int(m.group(2))
    m = re.search(r"occupied:\s+(\d+) bins", out)
    if m:
        r["bins"] = int(m.group(1))
    m = re.search(r"solver:\s+conjugate gradients, (\d+) iterations", out)
    if m:
        r["cg_iterations"] = int(m.group(1))
    r["edge_notes"] = re.findall(r"^note:\s+(.*)$", out, re.M)
    return r


def rfk_train(a, ds, files, extra, model, threads=None):
    cmd = [a.rfk, "train", "--train", files["train"], "-o", model, "--threads", str(threads or a.threads),
           "--seed", "1"] + extra
    if ds in REGRESSION:
        cmd += ["--task", "regression"]
    if ds == "kdd":
        cmd += ["--standardize"]  # sparse LIBSVM input; standardise the raw counts and byte sizes
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r = parse_train(out)
    r["model_bytes"] = os.path.getsize(model)
    r["command"] = " ".join(os.path.relpath(c, ROOT) if os.path.isabs(c) else c for c in cmd)
    ev = json.loads(subprocess.run([a.rfk, "eval", "--decision", "raw", "-m", model, files["test"], "--json"], check=True,
                                   capture_output=True, text=True).stdout)
    r["test_error"] = 100 * (ev["rel_rmse"] if ds in REGRESSION else ev["error_rate"])
    if ds in REGRESSION:
        r["test_rmse"] = ev["rmse"]
    r["predict_us"] = ev["predict_us_per_sample"]
    return r


# ------------------------------------------------------------------ scikit-learn

def load(ds, path, dims):
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    if path.endswith(".svm.gz") or ds == "adult":
        X, y = load_svmlight_file(path, n_features=dims)
        return X, y
    M = np.loadtxt(path, delimiter=",", dtype=np.float64)
    return M[:, :-1], M[:, -1]


def sklearn_fit(ds, data, D, gamma, lam, standardize, seed, threads, dtype="float64"):
    """Fit time (from loaded arrays) with OpenBLAS at `threads` threads, test error in %, what was run.
    dtype: the inputs' (and so the features' and the solve's) precision: float64, NumPy's default, or
    float32, about twice as fast through BLAS."""
    import numpy as np
    from sklearn.kernel_approximation import RBFSampler
    from sklearn.linear_model import Ridge, RidgeClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    (X, y), (Xt, yt) = data
    X, Xt = X.astype(dtype), Xt.astype(dtype)
    n = X.shape[0]
    # The default solver (Cholesky on Z'Z through NumPy's BLAS, OpenBLAS: main refuses others).
    solver = "auto"
    blas_info.set_threads(threads)
    head = (Ridge if ds in REGRESSION else RidgeClassifier)(alpha=lam * n, solver=solver)
    steps = ([StandardScaler(with_mean=not hasattr(X, "tocsr"))] if standardize else [])
    if standardize and hasattr(X, "tocsr"):
        X, Xt = X.toarray(), Xt.toarray()  # rfk centres sparse inputs too: do the same densely
        steps = [StandardScaler()]
    pipe = make_pipeline(*steps, RBFSampler(gamma=gamma, n_components=D, random_state=seed), head)
    t0 = time.perf_counter()
    pipe.fit(X, y)
    secs = time.perf_counter() - t0
    pred = pipe.predict(Xt)
    if ds in REGRESSION:
        err = 100 * np.sqrt(np.mean((pred - yt) ** 2)) / np.sqrt(np.mean(yt ** 2))
    else:
        err = 100 * np.mean(pred != yt)
    return dict(fit_s=secs, test_error=float(err), solver=solver, alpha=lam * n, dtype=dtype)


def sklearn_best(*args, **kw):
    """sklearn_fit in float64 and in float32: the faster is the peer (its time and error), the other is kept."""
    runs = [sklearn_fit(*args, **kw, dtype=t) for t in ("float64", "float32")]
    best = dict(min(runs, key=lambda r: r["fit_s"]))
    best["runs"] = runs
    return best


def reference_models(ds, data):
    """Regression sets: what the mean predicts and what a strong non-kernel model reaches."""
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingRegressor
    (X, y), (Xt, yt) = data
    rms = np.sqrt(np.mean(yt ** 2))
    mean_err = 100 * np.sqrt(np.mean((y.mean() - yt) ** 2)) / rms
    gb = HistGradientBoostingRegressor(random_state=0).fit(X, y)
    gb_err = 100 * np.sqrt(np.mean((gb.predict(Xt) - yt) ** 2)) / rms
    return dict(mean_predictor=float(mean_err), hist_gradient_boosting=float(gb_err),
                y_mean=float(y.mean()), y_rms=float(np.sqrt(np.mean(y ** 2))), y_std=float(y.std()))


# ------------------------------------------------------------------ experiments

def table1(a, info):
    res = {}
    for ds in a.datasets:
        files, p = info[ds]["files"], PAPER[ds]
        D, P = (FAST_D[ds], FAST_P[ds]) if a.fast else (p["D"], p["P"])
        res[ds] = row = {"D": D, "P": P}
        data = None
        if not a.no_sklearn:
            data = (load(ds, files["train"], info[ds]["dims"]), load(ds, files["test"], info[ds]["dims"]))
        maps = [("fourier", ["-D", str(D)]), ("binning", ["--map", "binning", "-P", str(P)])]
        if ds in REGRESSION:
            maps.append(("fourier_laplacian", ["-D", str(D), "--kernel", "laplacian"]))
        for name, extra in maps:
            model = os.path.join(a.work, f"{ds}.{name}.rfk")
            log(f"{ds}: rfk {name}, auto selection")
            auto = rfk_train(a, ds, files, extra + ["--gamma", "auto", "--lambda", "auto"], model)
            g = auto.get("bin_gamma") if name == "binning" else auto["gamma"]
            log(f"{ds}: rfk {name} fit at gamma {g:g}, lambda {auto['lambda']:g}")
            at = extra + ["--gamma", repr(g), "--lambda", repr(auto["lambda"])]
            row[name] = {"auto": auto}
            # Each rfk fit beside scikit-learn's at the same thread count, back to back: all threads, then one.
            for t, key in [(a.threads, "")] + ([(1, "1")] if a.threads > 1 else []):
                row[name]["fit" + key] = rfk_train(a, ds, files, at, model, threads=t)
                if name == "fourier" and data is not None:
                    log(f"{ds}: scikit-learn RBFSampler D = {D}, {t} thread(s)")
                    row["sklearn" + key] = sklearn_best(ds, data, D, auto["gamma"], auto["lambda"],
                                                        standardize=(ds != "adult"), seed=1, threads=t)
        if data is not None and ds in REGRESSION:
            row["reference"] = reference_models(ds, data)
        if ds == "kdd":
            row["duplicates"] = kdd_duplicates(files)
    return res


def kdd_duplicates(files):
    """Fraction of test rows whose features occur verbatim among the training rows."""
    def feats(path):
        with gzip.open(path, "rt") as f:
            return [line.split(" ", 1)[1] if " " in line else "" for line in f]
    train = set(feats(files["train"]))
    test = feats(files["test"])
    return dict(test_rows=len(test), in_train=sum(t in train for t in test),
                distinct_train=len(train))


def subset_file(src, dst, n, seed=2007):
    with gzip.open(src, "rt") as f:
        lines = f.readlines()
    order = sorted(range(len(lines)), key=lambda i: hashlib.sha256(f"fig3:{seed}:{i}".encode()).digest())
    keep = sorted(order[:n])
    convert.write_atomic(dst, (lines[i].rstrip("\n") for i in keep))


def figure3(a, info, t1):
    files = info["forest"]["files"]
    auto = t1["forest"]["binning"]["auto"]
    g, lam = auto["bin_gamma"], auto["lambda"]
    P0 = t1["forest"]["P"]
    out = {"gamma": g, "lambda": lam, "P": P0, "sizes": [], "grids": [], "fourier_sizes": [],
           "D": t1["forest"]["D"], "fourier_gamma": t1["forest"]["fourier"]["auto"]["gamma"],
           "fourier_lambda": t1["forest"]["fourier"]["auto"]["lambda"]}
    total = info["forest"]["train_rows"]
    sizes = [s for s in ([1000, 2000, 4000] if a.fast else [5000, 10000, 20000, 40000]) if s < total] + [total]
    for n in sizes:
        f = dict(files)
        if n < total:
            f["train"] = os.path.join(a.work, f"forest.train.{n}.csv.gz")
            subset_file(files["train"], f["train"], n)
        log(f"figure 3: {n} training rows")
        r = rfk_train(a, "forest", f, ["--map", "binning", "-P", str(P0), "--gamma", repr(g),
                                       "--lambda", repr(lam)], os.path.join(a.work, "fig3.rfk"))
        out["sizes"].append(dict(rows=n, test_error=r["test_error"], train_s=r["train_s"], bins=r.get("bins"),
                                 cg_iterations=r.get("cg_iterations")))
        if n < total:  # Fourier at the paper's D and the gamma, lambda chosen on all rows
            fa = t1["forest"]["fourier"]["auto"]
            log(f"figure 3: {n} training rows, Fourier D = {t1['forest']['D']}")
            r = rfk_train(a, "forest", f, ["-D", str(t1["forest"]["D"]), "--gamma", repr(fa["gamma"]),
                                           "--lambda", repr(fa["lambda"])], os.path.join(a.work, "fig3.rfk"))
        else:  # all rows: Table 1's fit at the chosen point
            r = t1["forest"]["fourier"]["fit"]
        out["fourier_sizes"].append(dict(rows=n, test_error=r["test_error"], train_s=r["train_s"]))
    for P in ([1, 2, 5, 10, 20] if a.fast else [1, 2, 5, 10, 20, 50, 100]):
        log(f"figure 3: P = {P}")
        r = rfk_train(a, "forest", files, ["--map", "binning", "-P", str(P), "--gamma", repr(g),
                                           "--lambda", repr(lam)], os.path.join(a.work, "fig3.rfk"))
        out["grids"].append(dict(P=P, test_error=r["test_error"], train_s=r["train_s"],
                                 model_bytes=r["model_bytes"], bins=r.get("bins"),
                                 cg_iterations=r.get("cg_iterations")))
    return out


def claim1(a, info):
    res = {}
    for ds in ("cpu", "forest", "adult"):
        if ds not in info:
            continue
        cmd = [a.kernel_approx, info[ds]["files"]["train"], "--points", "300", "--seeds", "3",
               "--features", "8,32,128,512,2048,8192", "--grids", "4,16,64,256,1024,4096"]
        if a.fast:
            cmd[3:] = ["100", "--seeds", "1", "--features", "8,64,512", "--grids", "4,32,256"]
        log(f"claim 1: {ds}")
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        res[ds] = [json.loads(l) for l in out.splitlines() if l.strip()]
    return res


# ------------------------------------------------------------------ plots and report


FAST_D = {"cpu": 100, "census": 100, "adult": 100, "forest": 200, "kdd": 20}
FAST_P = {"cpu": 30, "census": 10, "adult": 10, "forest": 10, "kdd": 5}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--kernel-approx", default=os.path.join(ROOT, "build", "release", "bin", "rfk_kernel_approx"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "paper"))
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "RESULTS.md"))
    ap.add_argument("--plots", default=os.path.join(ROOT, "docs", "paper"))
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="rfk's and OpenBLAS's (all CPUs)")
    ap.add_argument("--any-blas", action="store_true", help="run scikit-learn on a BLAS other than OpenBLAS")
    ap.add_argument("--fast", action="store_true", help="subsampled data, small D and P (minutes)")
    ap.add_argument("--no-sklearn", action="store_true")
    ap.add_argument("--datasets", nargs="*", default=convert.NAMES)
    ap.add_argument("--figure3-only", action="store_true",
                    help="re-measure Figure 3 only, with Table 1 (and its chosen gamma, lambda) from results.json")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite the report and plots from the last run's results.json")
    a = ap.parse_args()
    a.json = os.path.join(a.work, "results-fast.json" if a.fast else "results.json")
    if a.fast and a.results == os.path.join(ROOT, "docs", "RESULTS.md"):
        a.results = os.path.join(a.work, "RESULTS-fast.md")
        a.plots = os.path.join(a.work, "plots-fast")
    for exe in (a.rfk, a.kernel_approx):
        if not os.access(exe, os.X_OK):
            print(f"run.py: error: {exe} not found; build first (cmake --workflow --preset release)", file=sys.stderr)
            return 1
    if a.report_only or a.figure3_only:
        with open(a.json) as f:
            res = json.load(f)
        if a.figure3_only:
            t0 = time.time()
            res["figure3"] = figure3(a, res["info"], res["table1"])
            res["env"]["figure3_rerun"] = dict(date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
                                               wall_s=time.time() - t0)
            with open(a.json + ".tmp", "w") as f:
                json.dump(res, f, indent=1)
            os.replace(a.json + ".tmp", a.json)
        report(a, res["info"], res, plots(a, res), res["env"])
        return 0
    if not a.no_sklearn:
        __import__("numpy")  # loads NumPy's BLAS for blas_info
        if not blas_info.is_openblas() and not a.any_blas:
            print(f"run.py: error: numpy runs on {blas_info.describe()}, not OpenBLAS: scikit-learn would be timed on "
                  "a slow BLAS (scripts/install-deps.sh --bench installs libopenblas0-pthread; or --any-blas, or "
                  "--no-sklearn)", file=sys.stderr)
            return 1
    t_start = time.time()
    data_dir = os.path.join(a.work, "data-fast" if a.fast else "data")
    os.makedirs(data_dir, exist_ok=True)
    info = {}
    for ds in a.datasets:
        log(f"converting {ds}")
        fn = getattr(convert, ds)
        info[ds] = fn(data_dir, 2007, FAST["max_train"] if a.fast else 0, FAST["max_test"] if a.fast else 0)
    res = {"table1": table1(a, info)}
    if "forest" in a.datasets:
        res["figure3"] = figure3(a, info, res["table1"])
    res["claim1"] = claim1(a, info)
    import numpy
    import sklearn
    env = dict(command="/usr/bin/python3 bench/paper/run.py" + (" --fast" if a.fast else ""),
               date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
               machine=f"{platform.machine()}, {os.cpu_count()} CPUs, {cpu_model()}", threads=a.threads,
               sklearn=sklearn.__version__, numpy=numpy.__version__, blas=re.sub(r", \d+ thread\(s\)", "", blas_info.describe().split(", /")[0]),
               wall_s=time.time() - t_start)
    res["env"] = env
    res["info"] = info
    with open(a.json + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(a.json + ".tmp", a.json)
    paths = plots(a, res)
    report(a, info, res, paths, env)
    log(f"done in {time.time() - t_start:.0f} s: {a.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
