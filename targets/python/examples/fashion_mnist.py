"""Fashion-MNIST with rfk from Python, beside scikit-learn's RBFSampler + RidgeClassifier, and the
model exported for firmware.

    python examples/fashion_mnist.py [--data DIR] [--features D] [--cli build/release/bin/rfk]
                                     [--header fashion.h] [--threads N]

Prints test error, fit time and predict time of both (same D, same gamma: rfk's data-scale
default, which RBFSampler is given after a StandardScaler, as rfk standardises dense inputs). With --cli, also trains the same model with `rfk train` on the
same files (same options, seed 1), checks that the two model files are byte-identical and that
`rfk predict` prints the same classes, and prints the Python/CLI time ratios: fit against the CLI's
own training time (its --json report's train seconds, file reading excluded, as fit() has the
arrays already) and predict against `rfk eval`'s prediction time. Times are wall-clock on the
machine it runs on; nothing here checks them. --threads N gives rfk (n_jobs, the CLI's --threads)
N threads, default all; scikit-learn's BLAS threads follow OPENBLAS_NUM_THREADS. --json prints
the same figures as one JSON object at the end (bench/python_example.py reads it).
"""
import argparse
import gzip
import json
import os
import subprocess
import tempfile
import time

import numpy as np
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import rfk


def read_idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    dims = raw[3]
    shape = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist",
                    help="the idx files (default: Debian's dataset-fashion-mnist package)")
    ap.add_argument("--features", type=int, default=4000)
    ap.add_argument("--alpha", type=float, default=1e-6)
    ap.add_argument("--cli", help="the rfk CLI: also train with it and compare")
    ap.add_argument("--header", help="write the model as a C header (rfk export's header-only form)")
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--threads", type=int, help="rfk's threads (n_jobs and the CLI's --threads; default all)")
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    a = ap.parse_args()
    out = {"features": a.features}
    files = {k: os.path.join(a.data, f"{k}-idx{3 if 'images' in k else 1}-ubyte.gz")
             for k in ("train-images", "train-labels", "t10k-images", "t10k-labels")}
    X = read_idx(files["train-images"]).reshape(60000, -1).astype(np.float32)  # the reader's floats: 0..255
    y = read_idx(files["train-labels"]).astype(np.int64)
    Xt = read_idx(files["t10k-images"]).reshape(10000, -1).astype(np.float32)
    yt = read_idx(files["t10k-labels"]).astype(np.int64)

    clf = rfk.RandomFeatureClassifier(n_features=a.features, alpha=a.alpha, n_jobs=a.threads)
    t0 = time.perf_counter()
    clf.fit(X, y)
    fit_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    pred = clf.predict(Xt)
    predict_s = time.perf_counter() - t0
    out.update(error=float(np.mean(pred != yt)), fit_s=fit_s, predict_s=predict_s)
    print(f"rfk     D={a.features}: test error {np.mean(pred != yt):.4f}  fit {fit_s:.1f} s  "
          f"predict {predict_s:.2f} s ({predict_s / len(Xt) * 1e3:.3f} ms/row)  model {len(clf.to_bytes()) / 2**20:.2f} MiB")

    if not a.skip_sklearn:
        # The same kernel and gamma as the rfk model (its data-scale default, for standardised
        # inputs, as rfk standardises dense data), on the same D.
        gamma = float(clf.model_.gamma)
        sk = make_pipeline(StandardScaler(), RBFSampler(gamma=gamma, n_components=a.features, random_state=1))
        ridge = RidgeClassifier(alpha=a.alpha * len(X))  # rfk's penalty is on the mean squared error
        t0 = time.perf_counter()
        ridge.fit(sk.fit_transform(X), y)
        sk_fit = time.perf_counter() - t0
        t0 = time.perf_counter()
        sk_pred = ridge.predict(sk.transform(Xt))
        sk_predict = time.perf_counter() - t0
        out.update(sklearn_error=float(np.mean(sk_pred != yt)), sklearn_fit_s=sk_fit, sklearn_predict_s=sk_predict)
        print(f"sklearn RBFSampler+RidgeClassifier: test error {np.mean(sk_pred != yt):.4f}  fit {sk_fit:.1f} s  "
              f"predict {sk_predict:.2f} s")

    if a.header:
        with open(a.header, "w") as f:
            f.write(clf.to_c_header("fashion"))
        print(f"wrote {a.header} (FASHION_BYTES = {len(clf.to_bytes())})")

    if a.cli:
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "cli.rfk")
            report = json.loads(subprocess.run(
                [a.cli, "train", "--train", files["train-images"], "-o", model, "-D", str(a.features),
                 "--lambda", repr(a.alpha), "--json"] + (["--threads", str(a.threads)] if a.threads else []), check=True, capture_output=True, text=True).stdout)
            same = open(model, "rb").read() == clf.to_bytes()
            ev = json.loads(subprocess.run([a.cli, "eval", "-m", model, files["t10k-images"], "--json"],
                                           check=True, capture_output=True, text=True).stdout)
            cli_pred = subprocess.run([a.cli, "predict", "-m", model, "-q", files["t10k-images"]], check=True,
                                      capture_output=True, text=True).stdout.split()
        train_s = report["seconds"]["train"]
        cli_predict_s = ev["predict_us_per_sample"] * len(Xt) / 1e6
        same_pred = cli_pred == [str(v) for v in pred]
        out.update(cli_train_s=train_s, cli_predict_s=cli_predict_s, cli_error=1.0 - ev["accuracy"],
                   same_model=same, same_predictions=same_pred)
        print(f"rfk CLI: train {train_s:.1f} s, predict {cli_predict_s:.2f} s; model files byte-identical: {same}; "
              f"predictions equal: {same_pred}")
        print(f"Python / CLI: fit {fit_s / train_s:.3f}, predict {predict_s / cli_predict_s:.3f}")
    if a.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
