#!/usr/bin/python3
"""rfk's defaults on small tables: training time and test error at 100, 300 and 1,000 rows.

For each Table 1 dataset with a dense CSV or LIBSVM file (CPU, Census, Adult, Forest) and each
size, convert.py's uniform subsample (its hash order) of that many training rows and 2,000 test
rows; then `rfk train` with no tuning options (the defaults: D = 1000, gamma and lambda
cross-validated) and with `--gamma auto --lambda auto` at the same D, each scored by `rfk eval` on
the test rows. Prints a Markdown table with the machine, commit, date and command in its header:
the training seconds are `rfk train`'s own report (reading excluded), the error is the test
error in % (regression: RMSE / rms(y)). Standard library only.

usage: small_tables.py --rfk PATH --work DIR [--threads N] [--sizes 100 300 1000]
"""
import argparse
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000])
    a = ap.parse_args()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
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
            rows.append((ds, n, res))
            print(f"{ds} n={n}: " + ", ".join(f"{k} {v['train_s']:.2f} s {v['error']:.2f} %" for k, v in res.items()),
                  file=sys.stderr)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"Machine: {platform.machine()} {cpu}, {os.cpu_count()} CPUs; commit {commit}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"`bench/paper/small_tables.py --rfk {a.rfk} --threads {a.threads}`\n")
    print("| dataset | training rows | default: train s | default: test error % | auto: train s | "
          "auto: test error % | selection in the dual |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for ds, n, res in rows:
        d, u = res["default"], res["auto"]
        print(f"| {ds} | {n} | {d['train_s']:.2f} | {d['error']:.2f} | {u['train_s']:.2f} | {u['error']:.2f} | "
              f"{'yes' if d['dual'] else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
