#!/usr/bin/python3
"""Fast subset of the paper reproduction (bench/paper/run.py) with an error ceiling per dataset.

Standard library only. Each of the paper's five datasets is converted with convert.py and
subsampled (uniformly, in convert.py's hash order) to at most 3,000 training and 1,500 test rows;
rfk then trains Fourier features and random binning with small D and P, hyper-parameters chosen by
`--gamma auto --lambda auto` on the training rows, and `rfk eval` scores the test rows. The test
fails if any test error (classification: % misclassified; regression: RMSE / rms(y), %) exceeds
its ceiling below, or if any step fails. Ceilings sit a little above the errors measured when they
were set (in parentheses), so that a real loss of accuracy fails while another seed would not.

usage: fast_check.py --rfk PATH --work DIR [--threads N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import convert  # noqa: E402

MAX_TRAIN, MAX_TEST = 3000, 1500
# dataset: (extra rfk options, [(map name, map options, ceiling %)])
CASES = {
    "cpu": (["--task", "regression"], [("fourier", ["-D", "100"], 9.0),  # (7.59)
                                       ("binning", ["--map", "binning", "-P", "30"], 5.0)]),  # (3.95)
    "census": (["--task", "regression"], [("fourier", ["-D", "100"], 60.0),  # (55.50)
                                          ("binning", ["--map", "binning", "-P", "10"], 58.0)]),  # (53.29)
    "adult": ([], [("fourier", ["-D", "100"], 18.0),  # (16.33)
                   ("binning", ["--map", "binning", "-P", "10"], 19.5)]),  # (17.93)
    "forest": ([], [("fourier", ["-D", "200"], 27.5),  # (25.07)
                    ("binning", ["--map", "binning", "-P", "10"], 29.5)]),  # (27.20)
    "kdd": (["--standardize"], [("fourier", ["-D", "20"], 3.5),  # (2.20)
                                ("binning", ["--map", "binning", "-P", "5"], 1.0)]),  # (0.27)
}
# For scale: always predicting the majority class errs on 24 % (Adult), 49 % (Forest) and 20 %
# (KDD) of the rows; predicting the training mean scores 20 % (CPU) and 72 % (Census, whose target
# is long-tailed) on the full test splits. Every ceiling is well below those.
SKIP = 77  # CTest's SKIP_RETURN_CODE: the datasets are not beside this checkout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    if not os.path.isdir(convert.DATASETS):
        print(f"{convert.DATASETS} not found (../shared/datasets beside the checkout); skipping")
        return SKIP
    os.makedirs(a.work, exist_ok=True)
    failures = []
    t_all = time.time()
    with tempfile.TemporaryDirectory(dir=a.work) as tmp:
        for ds, (common, runs) in CASES.items():
            try:
                info = getattr(convert, ds)(tmp, 2007, MAX_TRAIN, MAX_TEST)
            except (convert.ConvertError, OSError) as e:
                failures.append(f"{ds}: conversion failed: {e}")
                continue
            for name, opts, ceiling in runs:
                model = os.path.join(tmp, f"{ds}.{name}.rfk")
                cmd = [a.rfk, "train", "--train", info["files"]["train"], "-o", model, "--gamma", "auto",
                       "--lambda", "auto", "--threads", str(a.threads)] + common + opts
                t0 = time.time()
                tr = subprocess.run(cmd, capture_output=True, text=True)
                if tr.returncode != 0:
                    failures.append(f"{ds} {name}: rfk train failed: {tr.stderr.strip()}")
                    continue
                ev = subprocess.run([a.rfk, "eval", "--decision", "raw", "-m", model, info["files"]["test"], "--json"],
                                    capture_output=True, text=True)
                if ev.returncode != 0:
                    failures.append(f"{ds} {name}: rfk eval failed: {ev.stderr.strip()}")
                    continue
                e = json.loads(ev.stdout)
                err = 100 * (e["rel_rmse"] if "rel_rmse" in e else e["error_rate"])
                ok = err <= ceiling
                print(f"{ds:7s} {name:8s} {' '.join(opts):22s} train {info['train_rows']:5d} test {e['n']:5d}  "
                      f"error {err:6.2f} %  ceiling {ceiling:5.1f} %  {time.time() - t0:5.1f} s  "
                      f"{'ok' if ok else 'FAIL'}", flush=True)
                if not ok:
                    failures.append(f"{ds} {name}: test error {err:.2f} % exceeds the ceiling {ceiling} %")
    print(f"total {time.time() - t_all:.1f} s")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
