#!/usr/bin/python3
"""The accuracy of training's Gram statistics on real data, as the table docs/PERFORMANCE.md shows
("Accuracy of the Gram statistics").

Runs bench/gram_accuracy.cc's program (`rfk_gram_accuracy`: the same features' statistics once in
float within blocks and once in double over all rows, both solved at the same lambda and scored) on
Fashion-MNIST (D = 4000, lambda = 1e-6, the README's main job) and on a9a (D = 500, lambda = 1e-4),
and prints a Markdown table headed by the machine, commit, date and command.

usage: bench/gram_accuracy.py [--bin build/release/bin/rfk_gram_accuracy] [--threads N]
                              [--fashion DIR] [--a9a DIR] [--out PAGE]
--out PAGE writes the table into PAGE between its `gram_accuracy.py` markers instead
(bench/paper/blocks.py).
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


def measure(binary, train, test, D, lam, threads):
    out = subprocess.run([binary, train, test, "-D", str(D), "--lambda", lam, "--threads", str(threads)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/release/bin/rfk_gram_accuracy"))
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--fashion", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--a9a", default=os.path.join(ROOT, "../shared/datasets/adult_a9a"))
    ap.add_argument("--out", help="the page to write the table into, between its gram_accuracy.py markers; "
                    "without it the table is printed")
    a = ap.parse_args()
    runs = [("Fashion-MNIST", os.path.join(a.fashion, "train-images-idx3-ubyte.gz"),
             os.path.join(a.fashion, "t10k-images-idx3-ubyte.gz"), 4000, "1e-6"),
            ("a9a", os.path.join(a.a9a, "a9a.gz"), os.path.join(a.a9a, "a9a.t.gz"), 500, "1e-4")]
    res = []
    for name, train, test, D, lam in runs:
        r = measure(a.bin, train, test, D, lam, a.threads)
        print(f"{name}: {r}", file=sys.stderr)
        res.append((name, r))
    rows = [("G = ZᵀZ, largest entry error / largest diagonal entry", "G_max_err_over_max_diag"),
            ("G, Frobenius", "G_rel_frobenius"), ("h = ZᵀY, Frobenius (double on both sides)", "h_rel"),
            ("solved head W, Frobenius", "W_rel"), ("bias", "bias_rel")]
    errors = []
    for _, r in res:
        f, d = 100 * r["test_error_float_gram"], 100 * r["test_error_double_gram"]
        errors.append(f"{f:.2f} % with both" if f"{f:.4f}" == f"{d:.4f}" else f"{f:.4f} % against {d:.4f} %")
    with blocks.output(a.out, "gram_accuracy.py"):
        print(provenance.line(f"bench/gram_accuracy.py --threads {a.threads}") + "; "
              + "; ".join(f"{n}: {r['rows']:,} rows, D = {r['D']}, γ = {r['gamma']:.6g}, λ = {r['lambda']:g}"
                          for n, r in res) + "\n")
        print("| quantity | relative error of the float-within-block result, " + " | ".join(n for n, _ in res) + " |")
        print("|---|" + "---|" * len(res))
        for label, key in rows:
            print(f"| {label} | " + " | ".join(f"{r[key]:.2g}" for _, r in res) + " |")
        print("| test error, float-within-block / double | " + " | ".join(errors) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
