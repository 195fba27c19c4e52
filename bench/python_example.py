#!/usr/bin/python3
"""docs/PYTHON.md's "Example and measurements" table: targets/python/examples/fashion_mnist.py
(Fashion-MNIST, D = 4000, alpha = 1e-6) run at one thread and at every thread, with its CLI
comparison, beside scikit-learn's StandardScaler + RBFSampler + RidgeClassifier on NumPy's
OpenBLAS with --openblas-core's kernels (OPENBLAS_CORETYPE, default SkylakeX: Debian's OpenBLAS
0.3.21 takes AVX-512 Zen 4 cores for "Prescott"), written into docs/PYTHON.md between its
`python_example.py` markers under the machine, commit, date and command.

usage: bench/python_example.py [--python build/python-venv/bin/python] [--rfk build/release/bin/rfk]
                               [--openblas-core SkylakeX] [--out docs/PYTHON.md | -]
"""
import argparse
import json
import os
import subprocess
import sys

import provenance

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)

EXAMPLE = os.path.join(ROOT, "targets", "python", "examples", "fashion_mnist.py")
BEGIN, END = blocks.markers("python_example.py")


def run_example(a, threads):
    """The example's JSON figures at `threads` threads (rfk's n_jobs and --threads, OpenBLAS's)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OPENBLAS_CORETYPE=a.openblas_core)
    cmd = [a.python, EXAMPLE, "--cli", a.rfk, "--threads", str(threads), "--json"]
    print("+", f"OPENBLAS_NUM_THREADS={threads}", " ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(results):
    rows = ["| threads | rfk fit (Python) | CLI train | fit ratio | rfk predict (Python) | CLI predict | predict ratio "
            "| scikit-learn fit | scikit-learn predict |", "|---|---|---|---|---|---|---|---|---|"]
    for threads, r in results:
        rows.append(f"| {threads} | {r['fit_s']:.1f} s | {r['cli_train_s']:.1f} s | {r['fit_s'] / r['cli_train_s']:.3f} "
                    f"| {r['predict_s']:.2f} s | {r['cli_predict_s']:.2f} s | {r['predict_s'] / r['cli_predict_s']:.3f} "
                    f"| {r['sklearn_fit_s']:.1f} s | {r['sklearn_predict_s']:.2f} s |")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", default=os.path.join(ROOT, "build", "python-venv", "bin", "python"))
    ap.add_argument("--rfk", default=os.path.join(ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--openblas-core", default="SkylakeX", help="OPENBLAS_CORETYPE for both rfk and NumPy")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "PYTHON.md"), help="the doc to write into; - prints")
    a = ap.parse_args()
    every = os.cpu_count() or 1
    results = [(t, run_example(a, t)) for t in sorted({1, every})]
    first = results[0][1]
    same = all(r["same_model"] and r["same_predictions"] for _, r in results)
    line = provenance.line("bench/python_example.py" + (f" --openblas-core {a.openblas_core}"
                                                        if a.openblas_core != "SkylakeX" else ""))
    text = "\n".join([
        BEGIN,
        f"{line}; OpenBLAS kernels `{a.openblas_core}` (`OPENBLAS_CORETYPE`):", "",
        *table(results), "",
        f"Test error: rfk {first['error']:.4f} (Python), {first['cli_error']:.4f} (CLI), scikit-learn "
        f"{first['sklearn_error']:.4f}. " + ("In every run the CLI's model file and Python's were byte-identical and "
                                             "`rfk predict` printed the same 10,000 classes."
                                             if same else "**The CLI's and Python's models or classes differed** "
                                             "(see the example's output)."),
        END]) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        blocks.write_block(a.out, text, BEGIN, END)
        print(f"python_example: wrote {a.out}'s example figures", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
