#!/usr/bin/python3
"""rfk's default standardisation on dense data stored in LIBSVM format, against scikit-learn's
StandardScaler + RBFSampler + Ridge/RidgeClassifier at equal D.

bench/paper/convert.py makes the fixed train/test splits of cpu_act, house_16H and the covtype
subset (../shared/datasets); this script rewrites each as LIBSVM (zeros omitted, so rfk's reader
stores it sparse), then trains rfk with its defaults (D, gamma from the data, lambda), with
--standardize and with --no-standardize (what rfk did by default for LIBSVM files before the
density rule), and scikit-learn (StandardScaler, RBFSampler(gamma = rfk's gamma with
--standardize, n_components = D), alpha = n lambda) for three RBFSampler seeds. Test error:
relative RMSE in % (regression), misclassified % (forest: class 2 vs rest).

usage: bench/standardize_vs_sklearn.py [--rfk build/release/bin/rfk] [--work DIR] [-D 1000]
                                       [--lambda 1e-4] [cpu census forest] [--out PAGE]
--out PAGE writes the table into PAGE between its `standardize_vs_sklearn.py` markers instead
(bench/paper/blocks.py).
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

import provenance

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)


def to_libsvm(work, name, part, classify):
    import numpy as np
    M = np.loadtxt(os.path.join(work, f"{name}.{part}.csv.gz"), delimiter=",")
    with gzip.open(os.path.join(work, f"{name}.{part}.svm.gz"), "wt") as f:
        for r in M:
            f.write(("+1" if r[-1] > 0 else "-1") if classify else repr(float(r[-1])))
            f.write("".join(f" {j + 1}:{v:.10g}" for j, v in enumerate(r[:-1]) if v != 0) + "\n")
    return M[:, :-1], M[:, -1]


def rfk(a, work, name, extra, classify):
    model = os.path.join(work, "m.rfk")
    out = subprocess.run([a.rfk, "train", "--train", os.path.join(work, f"{name}.train.svm.gz"), "-D", str(a.D),
                          "--lambda", repr(a.lam), "-o", model] + extra, check=True, capture_output=True, text=True).stdout
    ev = json.loads(subprocess.run([a.rfk, "eval", "--decision", "raw", "-m", model, os.path.join(work, f"{name}.test.svm.gz"), "--json"],
                                   check=True, capture_output=True, text=True).stdout)
    return dict(error=100 * (ev["error_rate"] if classify else ev["rel_rmse"]),
                gamma=float(re.search(r"^gamma:\s+([-\d.e+]+)", out, re.M).group(1)),
                standardize=re.search(r"standardize ([^\n]*)", out).group(1))


def sklearn(a, X, y, Xt, yt, gamma, classify, seed):
    import numpy as np
    from sklearn.kernel_approximation import RBFSampler
    from sklearn.linear_model import Ridge, RidgeClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    pipe = make_pipeline(StandardScaler(), RBFSampler(gamma=gamma, n_components=a.D, random_state=seed),
                         (RidgeClassifier if classify else Ridge)(alpha=a.lam * X.shape[0]))
    p = pipe.fit(X, y).predict(Xt)
    return float(100 * (np.mean(p != yt) if classify else np.sqrt(np.mean((p - yt) ** 2) / np.mean(yt ** 2))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--work", help="where the converted files go (default: a temporary directory)")
    ap.add_argument("-D", type=int, default=1000)
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-4, help="rfk's default")
    ap.add_argument("--out", help="the page to write the table into, between its "
                    "standardize_vs_sklearn.py markers; "
                    "without it the table is printed")
    ap.add_argument("names", nargs="*", default=["cpu", "census", "forest"])
    a = ap.parse_args()
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        subprocess.run([sys.executable, os.path.join(HERE, "paper", "convert.py"), "--out", work] + a.names,
                       check=True, stdout=subprocess.DEVNULL)
        import sklearn as sk_module
        with blocks.output(a.out, "standardize_vs_sklearn.py"):
            print(provenance.line(f"bench/standardize_vs_sklearn.py {' '.join(a.names)}")
                  + f"; D = {a.D}, lambda = {a.lam}; scikit-learn {sk_module.__version__}; "
                  "errors in % (relative RMSE or misclassified)")
            print()
            print("| data (LIBSVM) | non-zeros | rfk default | rfk --standardize | rfk --no-standardize | "
                  "scikit-learn StandardScaler (3 seeds) |")
            print("|---|---|---|---|---|---|")
            for name in a.names:
                classify = name == "forest"
                X, y = to_libsvm(work, name, "train", classify)
                Xt, yt = to_libsvm(work, name, "test", classify)
                r = {k: rfk(a, work, name, extra, classify)
                     for k, extra in (("default", []), ("on", ["--standardize"]), ("off", ["--no-standardize"]))}
                sk = [sklearn(a, X, y, Xt, yt, r["on"]["gamma"], classify, s) for s in range(3)]
                print(f"| {name} {X.shape[0]} x {X.shape[1]} | {100 * np.mean(X != 0):.1f} % | "
                      f"{r['default']['error']:.2f} ({r['default']['standardize']}) | {r['on']['error']:.2f} | "
                      f"{r['off']['error']:.2f} | {', '.join(f'{e:.2f}' for e in sk)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
