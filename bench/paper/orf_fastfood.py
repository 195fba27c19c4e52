#!/usr/bin/env python3
"""Orthogonal and Fastfood features against dense random Fourier features, by kernel error
(docs/RESULTS.md, "Orthogonal and Fastfood features: kernel error against dense random Fourier
features"): rfk_kernel_approx's mean squared kernel error (mean over --seeds seeds of the mean
over all pairs of 300 standardised training rows, Gaussian kernel) for the six maps (dense,
orthogonal and Fastfood, each in pair and phase form) at D = 64, 256, 1024, on census house_16H
(d = 16) and a9a (d = 123), at the data-scale default gamma and at a quarter of it; the ratios to
dense pairs; each map's model bytes; and the ranges the section's text reads from them. Writes
the block orf_fastfood.py of --out (or prints it).

    /usr/bin/python3 bench/paper/orf_fastfood.py [--kernel-approx build/release/bin/rfk_kernel_approx]
        [--seeds 5] [--out docs/RESULTS.md]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import blocks

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402

SHARED = os.path.join(provenance.ROOT, "..", "shared", "datasets")
DATA = [("house_16H", "census_house16H/house_16h.csv.gz", 16), ("a9a", "adult_a9a/a9a.gz", 123)]
MAPS = ["fourier", "fourier-phase", "orf", "orf-phase", "fastfood", "fastfood-phase"]
FEATURES = [64, 256, 1024]


def approx(tool, path, seeds, gamma=None):
    """{(map, D): (mean MSE over seeds, model bytes)} and the gamma rfk_kernel_approx used."""
    cmd = [tool, path, "--points", "300", "--seeds", str(seeds), "--features", ",".join(map(str, FEATURES)),
           "--grids", "none", "--maps", ",".join(MAPS)] + (["--gamma", repr(gamma)] if gamma else [])
    rows = [json.loads(line) for line in subprocess.run(cmd, capture_output=True, text=True, check=True)
            .stdout.splitlines() if line.startswith("{")]
    out = {}
    for m in MAPS:
        for D in FEATURES:
            mine = [r for r in rows if r["map"] == m and r["n"] == D]
            out[(m, D)] = (statistics.mean(r["mse"] for r in mine), mine[0]["model_bytes"])
    return out, rows[0]["gamma"]


def span(values):
    return f"{min(values):.2f}–{max(values):.2f}×"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel-approx", default=os.path.join(provenance.ROOT, "build", "release", "bin",
                                                            "rfk_kernel_approx"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--out", help="write the block into this page (docs/RESULTS.md)")
    a = ap.parse_args()
    results = {}  # (data, "default" | "quarter") -> (table, gamma)
    for name, rel, _ in DATA:
        table, gamma = approx(a.kernel_approx, os.path.join(SHARED, rel), a.seeds)
        results[(name, "default")] = (table, gamma)
        results[(name, "quarter")] = approx(a.kernel_approx, os.path.join(SHARED, rel), a.seeds, gamma / 4)
    ratio = lambda t, m, D: t[(m, D)][0] / t[("fourier", D)][0]  # noqa: E731
    with blocks.output(a.out, "orf_fastfood.py"):
        print(provenance.line("/usr/bin/python3 bench/paper/orf_fastfood.py" + (f" --out {a.out}" if a.out else "")) +
              f"; rfk_kernel_approx DATA --points 300 --seeds {a.seeds} --features 64,256,1024 --grids none "
              f"--maps {','.join(MAPS)} [--gamma default / 4]. In parentheses: the ratio to `fourier` (dense "
              "pairs) at the same D.")
        print()
        print("| data, γ | D | " + " | ".join(f"`{m}`" for m in MAPS) + " |")
        print("|---|---|" + "---|" * len(MAPS))
        for name, _, _ in DATA:
            for which, label in (("default", "default"), ("quarter", "default / 4")):
                t, gamma = results[(name, which)]
                for D in FEATURES:
                    cells = [f"{t[('fourier', D)][0]:.3g}"] + [f"{t[(m, D)][0]:.3g} ({ratio(t, m, D):.2f})"
                                                                for m in MAPS[1:]]
                    print(f"| {name}, γ = {label} ({gamma:.6g}) | {D} | " + " | ".join(cells) + " |")
        print()
        print("Model bytes (one output) at D = 64 / 256 / 1024:")
        print()
        print("| data | `fourier`, `orf` | `fourier-phase`, `orf-phase` | `fastfood` | `fastfood-phase` |")
        print("|---|---|---|---|---|")
        for name, _, d in DATA:
            t = results[(name, "default")][0]
            b = lambda m: " / ".join(f"{t[(m, D)][1]:,}" for D in FEATURES)  # noqa: E731
            print(f"| {name} (d = {d}) | {b('fourier')} | {b('fourier-phase')} | {b('fastfood')} | "
                  f"{b('fastfood-phase')} |")
        print()
        lines = []
        for name, _, d in DATA:
            td, tq = results[(name, "default")][0], results[(name, "quarter")][0]
            full = [D for D in FEATURES if D >= d]  # an orthogonal block is full
            lines.append(f"- {name}: `orf` / `fourier` {span([ratio(td, 'orf', D) for D in full])} at the default γ "
                         f"and {span([ratio(tq, 'orf', D) for D in full])} at a quarter of it (D ≥ d); "
                         f"`orf-phase` / `fourier-phase` "
                         f"{span([td[('orf-phase', D)][0] / td[('fourier-phase', D)][0] for D in FEATURES] + [tq[('orf-phase', D)][0] / tq[('fourier-phase', D)][0] for D in FEATURES])}; "
                         f"`fastfood` / `fourier` {span([ratio(t, 'fastfood', D) for t in (td, tq) for D in FEATURES])}; "
                         f"`fastfood` at D = 1024 ({td[('fastfood', 1024)][1]:,} B) against `fourier` at the D whose "
                         f"model is nearest in bytes above it: " + equal_bytes(td) + ".")
        print("Ranges over the table (both γ unless named):")
        print()
        print("\n".join(lines))


def equal_bytes(t):
    """Fastfood at the largest D against the dense map at the smallest D with at least its bytes."""
    ff_err, ff_bytes = t[("fastfood", 1024)]
    dense = [D for D in FEATURES if t[("fourier", D)][1] >= ff_bytes]
    if not dense:
        return "none of the dense models is that large"
    D = dense[0]
    return f"`fourier` at D = {D} ({t[('fourier', D)][1]:,} B), {ff_err / t[('fourier', D)][0]:.3g}× its error"


if __name__ == "__main__":
    main()
