#!/usr/bin/python3
"""Mean squared kernel error of dense, orthogonal (ORF) and Fastfood random Fourier features, pairs
and phase form, against D, against gamma and against model bytes, on two real datasets (issue 15).

For census_house16H/house_16h.csv.gz (d = 16) and adult_a9a/a9a.gz (d = 123) from
../shared/datasets, `rfk_kernel_approx` (bench/paper/kernel_approx.cc) takes 300 standardised
training rows at an even stride and reports, per map, D and seed, the mean over all 44,850 pairs of
(z(x)'z(y) - exp(-gamma |x - y|^2))^2 ("mse") and the bytes of the map's model with a one-output
head ("model_bytes"). Three sweeps, 5 seeds each:

  - against D: D = 16, 32, ..., 2048 at the data-scale default gamma (1 / median squared distance
    over the pairs, as the tool reports it), all six maps (fourier, fourier-phase, orf, orf-phase,
    fastfood, fastfood-phase);
  - against gamma: gamma = default x {1/16, 1/8, 1/4, 1/2, 1, 2, 4} at D = 256, the maps fourier,
    fourier-phase, orf, fastfood;
  - against model bytes: the first sweep's points, placed at each map's model bytes.

The tool is single-threaded; it runs under `nice -n 5`.

usage: kernel_mse.py [--kernel-approx PATH] [--data DIR] [--work DIR] [--png PATH] [--report-only]
                     [--out docs/RESULTS.md]
  --kernel-approx: the rfk_kernel_approx binary (default build/release/bin/rfk_kernel_approx)
  --data: the datasets folder (default ../shared/datasets, beside the repository)
  --report-only: redraw the figure and reprint the figures from the last run's JSON
  --out: write the report, headed by the machine line, into that page's block kernel_mse.py

Outputs: <work>/kernel_mse.json (every JSON line the tool printed, with the sweep and the gamma
multiplier added; default work = build/mse), docs/paper/kernel_mse.png (2 rows, one per dataset,
x 3 columns: MSE against D, against the gamma multiplier at D = 256, against model bytes; mean over
seeds, min-max bands), and the report of slopes and ratios (stdout, or --out's block).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import blocks  # noqa: E402  (this folder's: the marked blocks the docs' scripts own)
import provenance  # noqa: E402

DATASETS = [("house_16H", "census_house16H/house_16h.csv.gz"), ("a9a", "adult_a9a/a9a.gz")]
SEEDS, POINTS = 5, 300
DS = [16, 32, 64, 128, 256, 512, 1024, 2048]
MAPS = ["fourier", "fourier-phase", "orf", "orf-phase", "fastfood", "fastfood-phase"]
GAMMA_D = 256
GAMMA_MULTS = [1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 4]
GAMMA_MAPS = ["fourier", "fourier-phase", "orf", "fastfood"]
STYLE = {"fourier": ("C0", "o", "-"), "fourier-phase": ("C0", "o", "--"),
         "orf": ("C1", "s", "-"), "orf-phase": ("C1", "s", "--"),
         "fastfood": ("C2", "^", "-"), "fastfood-phase": ("C2", "^", "--")}


def run_tool(exe, path, extra):
    cmd = ["nice", "-n", "5", exe, path, "--points", str(POINTS), "--seeds", str(SEEDS), "--grids", "none"] + extra
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def measure(a):
    rows, defaults = [], {}
    for name, rel in DATASETS:
        path = os.path.join(a.data, rel)
        t0 = time.time()
        lines = run_tool(a.kernel_approx, path, ["--features", ",".join(map(str, DS)), "--maps", ",".join(MAPS)])
        g0 = lines[0]["gamma"]
        defaults[name] = g0
        rows += [dict(r, data=name, sweep="D", mult=1.0) for r in lines]
        for mult in GAMMA_MULTS:
            lines = run_tool(a.kernel_approx, path, ["--features", str(GAMMA_D), "--maps", ",".join(GAMMA_MAPS),
                                                     "--gamma", repr(g0 * mult)])
            rows += [dict(r, data=name, sweep="gamma", mult=mult) for r in lines]
        print(f"{name}: default gamma {g0}, {time.time() - t0:.1f} s", file=sys.stderr)
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "points": POINTS, "seeds": SEEDS,
            "default_gamma": defaults, "rows": rows}


def stats(rows, data, sweep, m, key):
    """{x: (mean, min, max) of mse over seeds} for one dataset, sweep and map; x = D or the gamma multiplier."""
    acc = {}
    for r in rows:
        if r["data"] == data and r["sweep"] == sweep and r["map"] == m:
            acc.setdefault(r["n"] if key == "n" else r["mult"], []).append(r["mse"])
    return {x: (sum(v) / len(v), min(v), max(v)) for x, v in sorted(acc.items())}


def model_bytes(rows, data, m):
    return {r["n"]: r["model_bytes"] for r in rows if r["data"] == data and r["sweep"] == "D" and r["map"] == m}


def slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def loginterp(x, xs, ys):
    """log-log interpolation of ys(xs) at x (xs increasing); None outside the range."""
    for i in range(len(xs) - 1):
        if xs[i] <= x <= xs[i + 1]:
            t = (math.log(x) - math.log(xs[i])) / (math.log(xs[i + 1]) - math.log(xs[i]))
            return math.exp(math.log(ys[i]) + t * (math.log(ys[i + 1]) - math.log(ys[i])))
    return None


def report(res):
    rows = res["rows"]
    for name, _ in DATASETS:
        print(f"## {name} (default gamma {res['default_gamma'][name]})")
        dense = stats(rows, name, "D", "fourier", "n")
        for m in MAPS:
            s = stats(rows, name, "D", m, "n")
            ratios = " ".join(f"{D}:{s[D][0] / dense[D][0]:.2f}" for D in DS)
            print(f"  D sweep {m:15s} slope {slope(DS, [s[D][0] for D in DS]):+.2f}  ratio to fourier {ratios}")
        gd = stats(rows, name, "gamma", "fourier", "mult")
        for m in GAMMA_MAPS:
            s = stats(rows, name, "gamma", m, "mult")
            cells = (f"x{mu:g}:{s[mu][0]:.3g}({s[mu][0] / gd[mu][0]:.2f})" for mu in GAMMA_MULTS)
            print(f"  gamma sweep {m:15s} " + " ".join(cells))
        # equal bytes: dense pairs' MSE interpolated (log-log) at each Fastfood model's bytes
        bd = model_bytes(rows, name, "fourier")
        xs, ys = [bd[D] for D in DS], [dense[D][0] for D in DS]
        for m in ("fastfood", "fastfood-phase", "orf"):
            s, bm = stats(rows, name, "D", m, "n"), model_bytes(rows, name, m)
            out = []
            for D in DS:
                ref = loginterp(bm[D], xs, ys)
                out.append(f"{D}({bm[D]}B):" + (f"{s[D][0] / ref:.3f}" if ref else "-"))
            print(f"  equal bytes {m} / fourier: " + " ".join(out))


def plot(res, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = res["rows"]
    fig, axes = plt.subplots(len(DATASETS), 3, figsize=(14.5, 8.4))

    def line(ax, x, mean, lo, hi, m):  # mean over seeds, band from min to max
        c, mk, ls = STYLE[m]
        ax.plot(x, mean, color=c, marker=mk, ls=ls, ms=4, label=m)
        ax.fill_between(x, lo, hi, color=c, alpha=0.12, lw=0)

    for i, (name, _) in enumerate(DATASETS):
        g0 = res["default_gamma"][name]
        d = next(r["d"] for r in rows if r["data"] == name)
        ax_d, ax_g, ax_b = axes[i]
        for m in MAPS:
            s = stats(rows, name, "D", m, "n")
            band = [[s[D][k] for D in DS] for k in range(3)]
            bm = model_bytes(rows, name, m)
            line(ax_d, DS, *band, m)
            line(ax_b, [bm[D] for D in DS], *band, m)
        for m in GAMMA_MAPS:
            s = stats(rows, name, "gamma", m, "mult")
            line(ax_g, GAMMA_MULTS, *([s[mu][k] for mu in GAMMA_MULTS] for k in range(3)), m)
        ax_d.set_xscale("log", base=2)
        ax_d.set_xlabel("D (number of random features)")
        ax_d.set_title(f"{name} (d = {d}): MSE against D, γ = default ({g0:.3g})", fontsize=10)
        ax_g.set_xscale("log", base=2)
        ax_g.set_xticks(GAMMA_MULTS)
        ax_g.set_xticklabels(["1/16", "1/8", "1/4", "1/2", "1", "2", "4"])
        ax_g.set_xlabel("γ / default γ")
        ax_g.set_title(f"{name}: MSE against γ, D = {GAMMA_D}", fontsize=10)
        ax_b.set_xscale("log")
        ax_b.set_xlabel("model bytes (map + one-output head), D = 16 ... 2048")
        ax_b.set_title(f"{name}: MSE against model bytes, γ = default", fontsize=10)
        for ax in axes[i]:
            ax.set_yscale("log")
            ax.set_ylabel("kernel MSE (mean over pairs)")
            ax.grid(True, which="major", alpha=0.3)
            ax.grid(True, which="minor", alpha=0.1)
    axes[0][0].legend(fontsize=8, loc="lower left")
    axes[0][1].legend(fontsize=8, loc="upper left")
    fig.suptitle(f"Mean squared error of z(x)'z(y) against the Gaussian kernel, {res['points']} points "
                 f"({res['points'] * (res['points'] - 1) // 2:,} pairs), line = mean over {res['seeds']} seeds, "
                 "band = min-max; solid = pairs, dashed = phase form", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    os.makedirs(os.path.dirname(png), exist_ok=True)
    fig.savefig(png, dpi=110)
    try:  # a 256-colour palette: the bands' blends make the RGB PNG about 420 KB, the palette one well under half
        from PIL import Image
        img = Image.open(png).convert("RGB")
        img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(png, optimize=True)
    except ImportError:
        pass
    print(f"wrote {png} ({os.path.getsize(png):,} bytes)", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel-approx", default=os.path.join(ROOT, "build", "release", "bin", "rfk_kernel_approx"))
    ap.add_argument("--data", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "datasets")))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mse"))
    ap.add_argument("--png", default=os.path.join(ROOT, "docs", "paper", "kernel_mse.png"))
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--out", help="write the report into this page's block kernel_mse.py (docs/RESULTS.md)")
    a = ap.parse_args()
    out = os.path.join(a.work, "kernel_mse.json")
    if a.report_only:
        res = json.load(open(out))
    else:
        res = measure(a)
        os.makedirs(a.work, exist_ok=True)
        with open(out + ".tmp", "w") as f:
            json.dump(res, f, indent=0)
        os.replace(out + ".tmp", out)
        print(f"wrote {out}", file=sys.stderr)
    with blocks.output(a.out, "kernel_mse.py"):
        print(provenance.line("bench/paper/kernel_mse.py" + (" --report-only" if a.report_only else "") +
                              (f" --out {a.out}" if a.out else "")) +
              "; per dataset: each map's log-log slope of MSE against D and its ratio to `fourier` at each D; "
              "the γ sweep at D = 256 (MSE and, in parentheses, the ratio to `fourier`); Fastfood's and ORF's "
              "MSE over dense pairs' interpolated (log-log) at their model bytes (- where below the smallest "
              "dense model)\n")
        print("```text")
        report(res)
        print("```")
    plot(res, a.png)


if __name__ == "__main__":
    main()
