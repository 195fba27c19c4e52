#!/usr/bin/python3
"""rfk train vs scikit-learn (StandardScaler + RBFSampler + RidgeClassifier, float32, on NumPy's
BLAS) on Fashion-MNIST, side by side in one run, at one thread and at every thread of the machine.

Both sides: the 60,000 training images of Debian's dataset-fashion-mnist (`scripts/install-deps.sh
--data`), D = 4000 Gaussian random features, the same gamma (rfk's data-scale default unless
--gamma is given; both standardise the pixels first) and the same ridge penalty (rfk's lambda
penalises the *mean* squared error, scikit-learn's alpha the sum: alpha = n * lambda), one-vs-rest
ridge on +-1 targets with an unpenalised intercept on both sides.

Timed, per side, as whole processes from spawn to the fitted model:
  rfk          -- the whole `rfk train --threads T` process: reading the .gz files, standardisation,
                  features, Z'Z, the solve, the calibration (class probabilities from held-out
                  outputs: at 60,000 rows one of 3 folds is held out, so one more solve, and its
                  20,000 rows scored), the training-error sample and writing the model;
  rfk --no-calibration -- the same without the calibration: the work RidgeClassifier does (it
                  gives no probabilities), the like-for-like figure (--no-like-for-like leaves it out);
  scikit-learn -- a fresh python3 process with OPENBLAS_NUM_THREADS = OMP_NUM_THREADS = T: start-up,
                  imports, reading the .gz files, fit (the child reports when its fit returned).
The test accuracy is measured afterwards and not timed (rfk eval; the child's own predict).
Runs alternate rfk / scikit-learn, thread count by thread count, --repeats times; medians are
reported, with every run and the load average before it (the machine may be shared).

usage: bench/fashion_vs_sklearn.py [--rfk build/release/bin/rfk] [--repeats 5] [--threads 1,2]
                                   [--features 4000] [--lambda 1e-6] [--gamma G] [--json out.json]
                                   [--no-like-for-like] [--out docs/PERFORMANCE.md]
--out writes the table into that page between its `fashion_vs_sklearn.py` markers, headed by the
machine, commit, date and command (bench/provenance.py); without it the table is printed.
--readme README.md also rewrites the README's figures row that starts "| training against
scikit-learn" with the default's ratios.
Needs OpenBLAS under NumPy for an honest peer: `scripts/install-deps.sh --bench`.
"""
import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)
import provenance  # noqa: E402

DATA = "/usr/share/datasets/fashion-mnist"


def read_idx(images, labels):
    import numpy as np
    with gzip.open(images, "rb") as f:
        raw = f.read()
    n, rows, cols = (int.from_bytes(raw[4 * i:4 * i + 4], "big") for i in (1, 2, 3))
    X = np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(n, rows * cols).astype(np.float32)
    with gzip.open(labels, "rb") as f:
        y = np.frombuffer(f.read(), dtype=np.uint8, offset=8).astype(np.int64)
    return X, y


def child(a):
    """One scikit-learn fit in this (fresh) process; prints JSON on stdout."""
    import numpy as np
    from sklearn.kernel_approximation import RBFSampler
    from sklearn.linear_model import RidgeClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    sys.path.insert(0, HERE)
    import blas_info
    t_load = time.time()
    X, y = read_idx(os.path.join(a.data, "train-images-idx3-ubyte.gz"),
                    os.path.join(a.data, "train-labels-idx1-ubyte.gz"))
    t_fit = time.time()
    pipe = make_pipeline(StandardScaler(), RBFSampler(gamma=a.gamma, n_components=a.features, random_state=a.seed),
                         RidgeClassifier(alpha=a.lam * X.shape[0]))
    pipe.fit(X, y)
    t_done = time.time()
    Xt, yt = read_idx(os.path.join(a.data, "t10k-images-idx3-ubyte.gz"),
                      os.path.join(a.data, "t10k-labels-idx1-ubyte.gz"))
    acc = float(np.mean(pipe.predict(Xt) == yt))
    print(json.dumps(dict(done=t_done, load_s=t_fit - t_load, fit_s=t_done - t_fit, accuracy=acc,
                          dtype=str(pipe[-1].coef_.dtype), blas=blas_info.describe())))


def run_sklearn(a, threads, seed):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--gamma", repr(a.gamma), "--features",
           str(a.features), "--lambda", repr(a.lam), "--seed", str(seed), "--data", a.data]
    t0 = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    r = json.loads(out.strip().splitlines()[-1])
    r["seconds"] = r["done"] - t0
    return r


def rfk_cmd(a, threads, model, gamma=None, calibrate=True):
    cmd = [a.rfk, "train", "--train", os.path.join(a.data, "train-images-idx3-ubyte.gz"), "-o", model,
           "--kernel", "gaussian", "-D", str(a.features), "--lambda", repr(a.lam), "--threads", str(threads)]
    return cmd + (["--gamma", repr(gamma)] if gamma else []) + ([] if calibrate else ["--no-calibration"])


def run_rfk(a, threads, model, calibrate=True):
    cmd = rfk_cmd(a, threads, model, a.gamma, calibrate)
    t0 = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    seconds = time.time() - t0
    ev = subprocess.run([a.rfk, "eval", "--decision", "raw", "-m", model, os.path.join(a.data, "t10k-images-idx3-ubyte.gz"), "--json"],
                        check=True, capture_output=True, text=True).stdout
    m = re.search(r"^time:\s+([\d.]+) s total \(read ([\d.]+) s, train ([\d.]+) s\)", out, re.M)
    return dict(seconds=seconds, read_s=float(m.group(2)), train_s=float(m.group(3)),
                accuracy=json.loads(ev)["accuracy"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--features", type=int, default=4000)
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-6, help="the main job's (scripts/main-job.sh)")
    ap.add_argument("--gamma", type=float, default=0.0, help="default: rfk's data-scale default")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", default=f"1,{os.cpu_count()}")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write every run here")
    ap.add_argument("--no-like-for-like", dest="like", action="store_false",
                    help="leave out the rfk --no-calibration runs")
    ap.add_argument("--out", help="the page to write the table into (between its fashion_vs_sklearn.py markers)")
    ap.add_argument("--readme", help="also rewrite this README's row of these figures")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a)
    threads = sorted({int(t) for t in a.threads.split(",")})
    sides = ("rfk", "rfk-nocal", "sklearn") if a.like else ("rfk", "sklearn")
    runs = {(side, t): [] for side in sides for t in threads}
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "fashion.rfk")
        if not a.gamma:  # rfk's data-scale default, from a first (untimed, cache-warming) run
            out = subprocess.run(rfk_cmd(a, max(threads), model), check=True, capture_output=True, text=True).stdout
            a.gamma = float(re.search(r"^gamma:\s+([-\d.e+]+)", out, re.M).group(1))
        for r in range(a.repeats):
            for t in threads:
                for side in sides[r % len(sides):] + sides[:r % len(sides)]:  # each side first in turn
                    load = os.getloadavg()[0]
                    res = (run_sklearn(a, t, a.seed + r) if side == "sklearn"
                           else run_rfk(a, t, model, calibrate=side == "rfk"))
                    res["load_before"] = load
                    runs[(side, t)].append(res)
                    print(f"# repeat {r + 1}, {t} thread(s), {side}: {res['seconds']:.2f} s, accuracy "
                          f"{100 * res['accuracy']:.2f} %, load {load:.2f}", file=sys.stderr, flush=True)
    with blocks.output(a.out, "fashion_vs_sklearn.py"):
        print(report(a, threads, runs, " ".join(["bench/fashion_vs_sklearn.py"] + sys.argv[1:])))
    if a.readme:
        readme_row(a, threads, runs)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({f"{s}/{t}": v for (s, t), v in runs.items()}, f, indent=1)


def report(a, threads, runs, command):
    """The table in Markdown, headed by provenance and the run's settings."""
    sk = runs[("sklearn", threads[0])][0]
    loads = [x["load_before"] for v in runs.values() for x in v]
    rfk = " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT + os.sep) else c
                   for c in rfk_cmd(a, "T", "fashion.rfk", a.gamma))
    out = [provenance.line(command) + f"; load average before the runs {min(loads):.2f}-{max(loads):.2f}", "",
           f"Fashion-MNIST: 60,000 training / 10,000 test images, d = 784, D = {a.features}, γ = {a.gamma:.6g}, "
           f"λ = {a.lam:g} (scikit-learn's α = {a.lam * 60000:g}); {a.repeats} alternating runs per thread count, "
           f"medians; scikit-learn's BLAS: {sk['blas']}, coefficients {sk['dtype']}; rfk: `{rfk}`", ""]
    like = any(side == "rfk-nocal" for side, _ in runs)
    head = "| threads | rfk train (whole process) | "
    head += "rfk --no-calibration | " if like else ""
    head += "scikit-learn (whole process) | of which fit | rfk / scikit-learn | "
    head += "rfk --no-calibration / scikit-learn | " if like else ""
    head += "test accuracy rfk / scikit-learn | all runs rfk / scikit-learn (s) |"
    out += [head, "|---" * (head.count("|") - 1) + "|"]
    med = lambda v, key="seconds": statistics.median(x[key] for x in v)
    for t in threads:
        r, s = runs[("rfk", t)], runs[("sklearn", t)]
        n = runs.get(("rfk-nocal", t))
        rm, sm = med(r), med(s)
        row = f"| {t} | {rm:.2f} s | " + (f"{med(n):.2f} s | " if n else "")
        row += f"{sm:.2f} s | {med(s, 'fit_s'):.2f} s | {rm / sm:.2f} | " + (f"{med(n) / sm:.2f} | " if n else "")
        row += (f"{100 * med(r, 'accuracy'):.2f} % / {100 * med(s, 'accuracy'):.2f} % | "
                f"{', '.join(f'{x:.1f}' for x in (v['seconds'] for v in r))} / "
                f"{', '.join(f'{x:.1f}' for x in (v['seconds'] for v in s))} |")
        out.append(row)
    return "\n".join(out)


def readme_row(a, threads, runs):
    """Rewrites the README's row "| training against scikit-learn ..." with the default's ratios."""
    med = lambda side, t: statistics.median(x["seconds"] for x in runs[(side, t)])
    ratios = ", ".join(f"{med('rfk', t) / med('sklearn', t):.2f}x{' its time' if i == 0 else ''} at {t} "
                       f"thread{'s' if t > 1 else ''}" for i, t in enumerate(threads))
    acc = lambda side: 100 * statistics.median(x["accuracy"] for x in runs[(side, threads[0])])
    row = (f"| training against scikit-learn on OpenBLAS (Fashion-MNIST, D = {a.features}) | {ratios}; "
           f"{acc('rfk'):.2f} % against {acc('sklearn'):.2f} % test accuracy | "
           "[docs/PERFORMANCE.md](docs/PERFORMANCE.md#headline-figures) |")
    doc = open(a.readme).read()
    new, n = re.subn(r"^\| training against scikit-learn.*$", lambda m: row, doc, count=1, flags=re.M)
    if n != 1:
        raise SystemExit(f"fashion_vs_sklearn: no row '| training against scikit-learn' in {a.readme}")
    blocks.write_atomic(a.readme, new)


if __name__ == "__main__":
    sys.exit(main())
