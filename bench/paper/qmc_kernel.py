#!/usr/bin/python3
"""Kernel error of quasi-Monte-Carlo features (`--map qmc`, `qmc-phase`) against dense random Fourier
features and ORF at equal D, on the training files of the paper's Table 1 datasets (issue 47).

For each dataset (convert.py's files, the same splits as run.py), `rfk_kernel_approx` takes
--points standardised training rows at an even stride and reports the mean squared error of
z(x)'z(y) against the Gaussian kernel over every pair, for --seeds seeds, at the data-scale
default gamma (1 / median squared distance over the pairs) and at a quarter of it. The table gives
each map's MSE (mean over seeds) and its ratio to the dense map of the same form (`fourier` for
pairs, `fourier-phase` for the phase form).

Prints a Markdown table and writes it, between the markers below, into docs/RESULTS.md (run.py keeps
that block); raw lines go to <work>/qmc_kernel.json.

usage: qmc_kernel.py [--kernel-approx PATH] [--work DIR] [--features D] [--points M] [--seeds S]
                     [--datasets cpu census adult forest kdd] [--no-write]
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import blocks  # noqa: E402
import convert  # noqa: E402
import provenance  # noqa: E402

BEGIN, END = blocks.markers("qmc_kernel.py")
MAPS = ["fourier", "orf", "qmc", "fourier-phase", "orf-phase", "qmc-phase"]
MULTS = [1.0, 0.25]


def run_tool(exe, path, extra):
    cmd = [exe, path] + extra
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def measure(a, files):
    rows = []
    for ds in a.datasets:
        path = files[ds]["files"]["train"]
        base = ["--points", str(a.points), "--seeds", str(a.seeds), "--grids", "none", "--features", str(a.features),
                "--maps", ",".join(MAPS)]
        lines = run_tool(a.kernel_approx, path, base)
        g0 = lines[0]["gamma"]
        rows += [dict(r, data=ds, mult=1.0) for r in lines]
        for mult in MULTS[1:]:
            lines = run_tool(a.kernel_approx, path, base + ["--gamma", repr(g0 * mult)])
            rows += [dict(r, data=ds, mult=mult) for r in lines]
    return rows


def dense(m):
    """The dense map of m's form: `fourier` for pairs, `fourier-phase` for the phase form."""
    return "fourier-phase" if m.endswith("-phase") else "fourier"


def mean_mse(rows, ds, mult, m):
    v = [r["mse"] for r in rows if r["data"] == ds and r["mult"] == mult and r["map"] == m]
    return sum(v) / len(v)


def table(res, a):
    out = [BEGIN, "", "### Quasi-Monte-Carlo features: kernel error on the Table 1 sets", "",
           f"Mean squared kernel error (mean over {a.seeds} seeds of the mean over all pairs of {a.points} standardised "
           f"training rows, Gaussian kernel) at D = {a.features}, at the data-scale default γ and at γ/4; in "
           "parentheses the ratio to the dense map of the same form (`fourier` for pairs, `fourier-phase` for the "
           f"phase form). Measured {res['date']} at {res.get('commit', '?')} on {res['machine']}, release build, "
           "with", "",
           "<!-- not run: a benchmark over run.py's converted datasets that rewrites its block of docs/RESULTS.md -->",
           "```sh",
           "bench/paper/qmc_kernel.py  # per dataset: rfk_kernel_approx TRAIN --points "
           f"{a.points} --seeds {a.seeds} --grids none \\",
           f"#   --features {a.features} --maps {','.join(MAPS)} [--gamma default/4]", "```", "",
           "| data | γ | d | " + " | ".join(f"`{m}`" for m in MAPS) + " |",
           "|---|---|---|" + "---|" * len(MAPS)]
    rows = res["rows"]
    for ds in a.datasets:
        for mult in MULTS:
            sample = next(r for r in rows if r["data"] == ds and r["mult"] == mult)
            cells = []
            for m in MAPS:
                e = mean_mse(rows, ds, mult, m)
                ratio = "" if dense(m) == m else f" ({e / mean_mse(rows, ds, mult, dense(m)):.2f})"
                cells.append(f"{e:.3g}{ratio}")
            label = "default" if mult == 1.0 else "default / 4"
            out.append(f"| {ds} | {label} = {sample['gamma']:.4g} | {sample['d']} | " + " | ".join(cells) + " |")
    out += ["", END]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel-approx", default=os.path.join(ROOT, "build", "release", "bin", "rfk_kernel_approx"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "qmc"))
    ap.add_argument("--features", type=int, default=1024)
    ap.add_argument("--points", type=int, default=300)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--datasets", nargs="+", default=convert.NAMES, choices=convert.NAMES)
    ap.add_argument("--no-write", action="store_true", help="print the table only")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    out = os.path.join(a.work, "data")
    os.makedirs(out, exist_ok=True)
    fns = dict(cpu=convert.cpu, census=convert.census, adult=convert.adult, forest=convert.forest, kdd=convert.kdd)
    files = {ds: fns[ds](out, 2007, 0, 0) for ds in a.datasets}
    t0 = time.time()
    res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": provenance.commit(),
           "machine": f"this project's {os.cpu_count()}-core {platform.machine()} VM ({provenance.cpu()})",
           "rows": measure(a, files)}
    print(f"measured in {time.time() - t0:.0f} s", file=sys.stderr)
    with open(os.path.join(a.work, "qmc_kernel.json"), "w") as f:
        json.dump(res, f, indent=1)
    text = table(res, a)
    print(text)
    if not a.no_write:
        blocks.write_block(os.path.join(ROOT, "docs", "RESULTS.md"), text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
