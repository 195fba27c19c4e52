#!/usr/bin/python3
"""The integer path's accuracy against the f32 model each fixed-point model was converted from: the
three tables of docs/EMBEDDED.md ("The integer path", "Fastfood in integers", "Binning on the
integer path").

Data: the paper's Table 1 sets as bench/paper/convert.py splits them (CPU, Census, Adult, Forest
Cover class 2 vs rest, KDDCUP99 10 %), and the Forest Cover subset with its 7 classes as
bench/covtype_split.sh splits it (the firmware fixtures' split; the same test rows). Each row: `rfk
train --seed 1 --threads T` on the training file, `rfk convert -m f32.rfk --fixed[-only] --calibrate
<training file>`, then `rfk eval --decision raw` of both models on the test file (the fixed model
through the integer path). Classification: % of test rows misclassified; regression: RMSE / rms(y)
(rfk eval's rel_rmse), in %.

- dense: Fourier maps at Table 1's D, gamma and lambda chosen by `--gamma auto --lambda auto` on
  the training file (as bench/paper/run.py does); `--fixed` (the model keeps its float path).
- fastfood: `--map fastfood` or `fastfood-phase`, D = 1024, `--gamma scale` and a given lambda;
  `--fixed-only`.
- binning: `--map binning` at Table 1's P, exact mode (and Adult hashed, B = 64: the a9a_hashed
  fixture's map), rfk's default gamma and lambda; `--fixed-only`.

Prints each table headed by the machine, commit, date and command (bench/provenance.py).

usage: bench/fixed_accuracy.py [--rfk build/release/bin/rfk] [--work DIR] [--threads N]
                               [--tables dense fastfood binning] [--out PAGE]
--out PAGE writes each table into PAGE between its `fixed_accuracy.py-NAME` markers instead
(bench/paper/blocks.py).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import provenance

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)
REGRESSION = {"cpu", "census"}
NAMES = {"cpu": "CPU (cpu_act)", "census": "Census (house_16H)", "adult": "Adult (a9a)",
         "forest": "Forest (class 2 vs rest)", "forest7": "Forest (7 classes)",
         "kdd": "KDDCUP99 (10 %, normal vs attack; `--standardize`)"}
# (dataset, map label, rfk train options)
DENSE = [("adult", "Fourier, D = 500", ["-D", "500"]),
         ("cpu", "Fourier, D = 300", ["-D", "300"]),
         ("cpu", "Fourier (Laplacian kernel), D = 300", ["-D", "300", "--kernel", "laplacian"]),
         ("census", "Fourier, D = 500", ["-D", "500"]),
         ("forest", "Fourier, D = 5000", ["-D", "5000"]),
         ("kdd", "Fourier, D = 50", ["-D", "50"])]
FASTFOOD = [("forest", "`fastfood`, λ = 1e-6", ["--map", "fastfood", "--lambda", "1e-6"]),
            ("forest", "`fastfood-phase`, λ = 1e-6", ["--map", "fastfood-phase", "--lambda", "1e-6"]),
            ("forest7", "`fastfood`, λ = 1e-6", ["--map", "fastfood", "--lambda", "1e-6"]),
            ("adult", "`fastfood`, λ = 1e-4", ["--map", "fastfood", "--lambda", "1e-4"]),
            ("cpu", "`fastfood`, λ = 1e-6", ["--map", "fastfood", "--lambda", "1e-6"]),
            ("census", "`fastfood`, λ = 1e-6", ["--map", "fastfood", "--lambda", "1e-6"])]
BINNING = [("cpu", "exact, P = 350", ["-P", "350"]),
           ("adult", "exact, P = 30", ["-P", "30"]),
           ("adult", "hashed, P = 30, B = 64 (the `a9a_hashed` fixture's map)", ["-P", "30", "-B", "64"]),
           ("census", "exact, P = 30", ["-P", "30"]),
           ("kdd", "exact, P = 10", ["-P", "10"]),
           ("forest", "exact, P = 50", ["-P", "50"])]


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def data_files(a, work):
    """{dataset: (train, test, extra rfk options)}."""
    out = os.path.join(work, "data")
    info = json.loads(run([sys.executable, os.path.join(ROOT, "bench/paper/convert.py"), "--out", out,
                           "cpu", "census", "adult", "forest", "kdd"]))
    files = {}
    for ds, d in info.items():
        extra = (["--task", "regression"] if ds in REGRESSION else []) + (["--standardize"] if ds == "kdd" else [])
        files[ds] = (d["files"]["train"], d["files"]["test"], extra)
    run(["bash", os.path.join(ROOT, "bench/covtype_split.sh"), work])
    files["forest7"] = (os.path.join(work, "covtype.train.csv.gz"), os.path.join(work, "covtype.test.csv.gz"),
                        ["--label-col", "0"])
    return files


def error(a, model, test, extra, ds):
    label = ["--label-col", "0"] if "--label-col" in extra else []
    ev = json.loads(run([a.rfk, "eval", "--decision", "raw", "-m", model, test, "--json"] + label))
    return 100 * (ev["rel_rmse"] if ds in REGRESSION else ev["error_rate"])


def row(a, files, ds, options, fixed_flag, work):
    train, test, extra = files[ds]
    f32, fixed = os.path.join(work, "f32.rfk"), os.path.join(work, "fixed.rfk")
    run([a.rfk, "train", "--train", train, "-o", f32, "--seed", "1", "--threads", str(a.threads)] + extra + options)
    label = ["--label-col", "0"] if "--label-col" in extra else []
    run([a.rfk, "convert", "-m", f32, fixed_flag, "--calibrate", train, "-o", fixed, "--threads", str(a.threads), "-q"]
        + label)
    return dict(f32=error(a, f32, test, extra, ds), fixed=error(a, fixed, test, extra, ds),
                f32_bytes=os.path.getsize(f32), fixed_bytes=os.path.getsize(fixed))


def table(a, files, rows, common, fixed_flag, work, title):
    lines = [provenance.line(f"bench/fixed_accuracy.py --threads {a.threads} --tables {title}"), "",
             "| dataset | map | f32 test error | fixed-point test error | model bytes f32 / fixed-point |",
             "|---|---|---|---|---|"]
    for ds, label, options in rows:
        r = row(a, files, ds, common + options, fixed_flag, work)
        unit = " (rel. RMSE)" if ds in REGRESSION else ""
        lines.append(f"| {NAMES[ds]}{unit} | {label} | {r['f32']:.3f} % | {r['fixed']:.3f} % "
                     f"({r['fixed'] - r['f32']:+.3f}) | {r['f32_bytes']:,} / {r['fixed_bytes']:,} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build/release/bin/rfk"))
    ap.add_argument("--work", help="the data and the models (default: a temporary directory)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--tables", nargs="+", choices=["dense", "fastfood", "binning"],
                    default=["dense", "fastfood", "binning"])
    ap.add_argument("--out", help="the page to write the tables into (docs/EMBEDDED.md); without it they are printed")
    a = ap.parse_args()
    # Each table: its rows, the options every row's `rfk train` takes, and the convert flag.
    specs = {"dense": (DENSE, ["--gamma", "auto", "--lambda", "auto"], "--fixed"),
             "fastfood": (FASTFOOD, ["-D", "1024", "--gamma", "scale"], "--fixed-only"),
             "binning": (BINNING, ["--map", "binning"], "--fixed-only")}
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        os.makedirs(work, exist_ok=True)
        files = data_files(a, work)
        for name in a.tables:
            rows, common, flag = specs[name]
            text = table(a, files, rows, common, flag, work, name)
            if not a.out:
                print(f"{name}:\n")
            with blocks.output(a.out, f"fixed_accuracy.py-{name}"):
                print(text)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
