#!/usr/bin/python3
"""The (54, 1024) binary Fastfood model per storage: the table in docs/EMBEDDED.md ("Fastfood").

The fixture covtype_fastfood_binary's model (tests/embedded/fixtures.cmake: F = 512 in 8 blocks
of d' = 64), trained as the fixture is, on bench/covtype_split.sh's binary split (80,000 training
rows, 20,000 test rows): `rfk train --label-col 0 --map fastfood -D 1024 --gamma scale --lambda
1e-6 --seed 1`; then `rfk convert --storage S [--head-storage H] [--no-metadata]` for each row.
Sections are `rfk inspect --json`'s; the test error is `rfk eval --label-col 0` on the test rows.

Prints a Markdown table headed by the machine, commit, date and command (bench/provenance.py).

usage: bench/fastfood_storage.py [--rfk build/release/bin/rfk] [--work DIR] [--threads N] [--out PAGE]
--out PAGE writes the table into PAGE between its `fastfood_storage.py` markers instead
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
# (G and S, head, extra convert options); f32 / f32 is the trained model itself.
ROWS = [("f32", "f32", None), ("f16", "f32", []), ("int8", "f32", []), ("f32", "int8", []), ("f16", "f16", []),
        ("f16", "int8", []), ("int8", "int8", []), ("int8", "int8", ["--no-metadata"])]


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build/release/bin/rfk"))
    ap.add_argument("--work", help="the split and the models (default: a temporary directory)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--out", help="the page to write the table into (docs/EMBEDDED.md); without it it is printed")
    a = ap.parse_args()
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        w = a.work or tmp
        os.makedirs(w, exist_ok=True)
        run(["bash", os.path.join(ROOT, "bench/covtype_split.sh"), w])
        train, test = os.path.join(w, "covtype.binary.train.csv.gz"), os.path.join(w, "covtype.binary.test.csv.gz")
        f32 = os.path.join(w, "f32.rfk")
        run([a.rfk, "train", "--train", train, "--label-col", "0", "--map", "fastfood", "-D", "1024", "--gamma",
             "scale", "--lambda", "1e-6", "--seed", "1", "--threads", str(a.threads), "-o", f32])
        base = None
        for diag, head, extra in ROWS:
            model = f32
            if extra is not None:
                model = os.path.join(w, "out.rfk")
                run([a.rfk, "convert", "-m", f32, "--storage", diag, "--head-storage", head, "-o", model, "-q"] + extra)
            info = json.loads(run([a.rfk, "inspect", "--json", model]))
            size = {s["name"]: s["size"] for s in info["sections"]}
            err = 100 * json.loads(run([a.rfk, "eval", "-m", model, test, "--label-col", "0", "--json"]))["error_rate"]
            base = err if base is None else base
            std = size.get("standardize", 0)
            std_kind = "f32" if std >= 8 * info["input_dim"] else "f16"
            head_label = head + (", `--no-metadata`" if extra else "")
            lines.append(f"| {diag} | {head_label} | {info['file_bytes']:,} | {size.get('fastfood', 0):,} | "
                         f"{size.get('head', 0):,} | {std:,} ({std_kind}) | {err:.3f} % ({err - base:+.3f}) |")
    with blocks.output(a.out, "fastfood_storage.py"):
        print(provenance.line(f"bench/fastfood_storage.py --threads {a.threads}") + "\n")
        print("| G and S | head | model bytes | `fastfood` section | head section | `standardize` | test error |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
