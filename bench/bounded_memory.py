#!/usr/bin/env python3
"""Training in bounded memory (docs/PERFORMANCE.md, "Training in bounded memory"): Forest Cover's
80,000 training rows of bench/covtype_split.sh written 12 times into one gzip'd CSV (960,000 rows x
54), trained with `--memory-limit 48M --chunk 1M` (streamed) and within physical memory (read
whole), each with the defaults' selection and with gamma and lambda given (the first pair's
choice). Prints the machine line and one table row per run: peak resident memory
(`/usr/bin/time -v`), rfk's estimate, wall and user CPU time, the test error on the split's
20,000 held-out rows; and whether each pair's model files are identical.

    /usr/bin/python3 bench/bounded_memory.py [--rfk build/release/bin/rfk] [--work /tmp/rfk-bounded]
        [--out docs/PERFORMANCE.md]    # --out: the block bounded_memory.py there
"""
import argparse
import filecmp
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "paper"))
import blocks  # noqa: E402
import provenance  # noqa: E402

COPIES = 12


def make_data(work):
    """The split (bench/covtype_split.sh) and its training file written COPIES times, gzip -1."""
    split = os.path.join(work, "cov")
    subprocess.run([os.path.join(provenance.ROOT, "bench", "covtype_split.sh"), split], check=True)
    big = os.path.join(work, f"cov{COPIES}.csv.gz")
    train = os.path.join(split, "covtype.train.csv.gz")
    subprocess.run(f"(for i in $(seq {COPIES}); do zcat {train}; done) | gzip -1 > {big}", shell=True,
                   check=True)
    return big, os.path.join(split, "covtype.test.csv.gz")


def train(rfk, data, test, out, extra):
    """One `rfk train --json` under /usr/bin/time -v: its report (a dict) with time's "wall" and
    "user" seconds and "peak" resident MiB."""
    cmd = ["/usr/bin/time", "-v", rfk, "train", "--train", data, "--label-col", "0", "-D", "400", "--json",
           "-o", out, "--test", test] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    report = json.loads(p.stdout)
    grab = lambda pattern: re.search(pattern, p.stderr).group(1)  # noqa: E731
    hms = grab(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)").split(":")
    report["wall"] = sum(float(v) * 60 ** i for i, v in enumerate(reversed(hms)))
    report["user"] = float(grab(r"User time \(seconds\): ([\d.]+)"))
    report["peak"] = int(grab(r"Maximum resident set size \(kbytes\): (\d+)")) / 1024
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rfk", default=os.path.join(provenance.ROOT, "build", "release", "bin", "rfk"))
    ap.add_argument("--work", default="/tmp/rfk-bounded")
    ap.add_argument("--out", help="write the table into this page's block bounded_memory.py")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    data, test = make_data(a.work)
    limit = ["--memory-limit", "48M", "--chunk", "1M"]
    runs = [("defaults (selection), `--memory-limit 48M --chunk 1M`", "sel-stream", limit),
            ("defaults (selection), physical memory", "sel-whole", [])]
    rows = []
    for label, name, extra in runs:
        rows.append((label, name, train(a.rfk, data, test, os.path.join(a.work, name + ".rfk"), extra)))
    # The given pair: the first pair's gamma and lambda.
    gamma, lam = repr(rows[0][2]["gamma"]), repr(rows[0][2]["lambda"])
    given = ["--gamma", gamma, "--lambda", lam]
    for label, name, extra in [("γ, λ given, `--memory-limit 48M --chunk 1M`", "given-stream", limit + given),
                               ("γ, λ given, physical memory", "given-whole", given)]:
        rows.append((label, name, train(a.rfk, data, test, os.path.join(a.work, name + ".rfk"), extra)))
    same = [filecmp.cmp(os.path.join(a.work, f"{p}-stream.rfk"), os.path.join(a.work, f"{p}-whole.rfk"),
                        shallow=False) for p in ("sel", "given")]
    with blocks.output(a.out, "bounded_memory.py"):
        print(provenance.line("/usr/bin/python3 bench/bounded_memory.py" + (f" --out {a.out}" if a.out else "")) +
              f"; {COPIES} copies of bench/covtype_split.sh's training file, D = 400; the given pair γ = {gamma}, "
              f"λ = {lam}. Peak resident: `/usr/bin/time -v`'s maximum resident set size.")
        print()
        print("| run | data | peak resident | estimated | wall | user CPU | test error |")
        print("|---|---|---|---|---|---|---|")
        for label, _, r in rows:
            peak = f"**{r['peak']:.1f} MiB**" if "memory-limit" in label else f"{r['peak']:.1f} MiB"
            how = "streamed" if r["streamed"] else "read whole"
            print(f"| {label} | {how} | {peak} | {r['memory_estimate'] / 2**20:.1f} MiB | {r['wall']:.1f} s | "
                  f"{r['user']:.1f} s | {100 * r['test']['error_rate']:.2f} % |")
        print()
        print("Streamed and read-whole model files identical (`cmp`): with selection "
              f"{'yes' if same[0] else 'NO'}, with γ and λ given {'yes' if same[1] else 'NO'}.")


if __name__ == "__main__":
    main()
