"""The report of bench/paper/run.py: docs/RESULTS.md's text and the plots, from the results that
run.py measured (results.json). Every figure in the text comes from those results."""
import os

import blocks

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# The paper's Table 1 (Rahimi & Recht 2007): Fourier + LS and Binning + LS columns.
# Regression: "RMS error normalized by the norm of the ground truth", i.e. ||y_hat - y|| / ||y||
# = RMSE / rms(y), which is rfk's rel_rmse.
PAPER = {
    "cpu":    dict(D=300, P=350, fourier=(3.6, "0.032 s"), binning=(5.3, "20 s"), train="6,500", dims=21),
    "census": dict(D=500, P=30, fourier=(5.0, "36 s"), binning=(7.5, "1.2 min"), train="18,000", dims=119),
    "adult":  dict(D=500, P=30, fourier=(14.9, "9 s"), binning=(15.3, "1.5 min"), train="32,000", dims=123),
    "forest": dict(D=5000, P=50, fourier=(11.6, "71 min"), binning=(2.2, "25.6 min"), train="522,000", dims=54),
    "kdd":    dict(D=50, P=10, fourier=(7.3, "1.5 min"), binning=(7.3, "35 min"), train="4,900,000", dims=127),
}
TITLES = {"cpu": "CPU (cpu_act)", "census": "Census (house_16H)", "adult": "Adult (a9a)",
          "forest": "Forest (covtype subset, class 2 vs rest)", "kdd": "KDDCUP99 (10 %, normal vs attack)"}


def hoeffding(pairs, n, terms_per_n, span, delta=0.05):
    """Worst error over `pairs` fixed pairs that Hoeffding + a union bound allows with prob.
    1 - delta, for an average of n * terms_per_n independent terms each in an interval `span` long."""
    import math
    return span * math.sqrt(math.log(2 * pairs / delta) / (2 * n * terms_per_n))


def plots(a, res):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    os.makedirs(a.plots, exist_ok=True)
    paths = {}
    c1 = res["claim1"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, mp, xlabel, terms, span in ((axes[0], "fourier", "D (Fourier features)", 0.5, 2.0),
                                        (axes[1], "binning", "P (binning grids)", 1.0, 1.0)):
        for ds, rows in c1.items():
            rows = [r for r in rows if r["map"] == mp]
            ns = sorted({r["n"] for r in rows})
            mx = [np.mean([r["max_err"] for r in rows if r["n"] == n]) for n in ns]
            mn = [np.mean([r["mean_err"] for r in rows if r["n"] == n]) for n in ns]
            l, = ax.loglog(ns, mx, "o-", label=f"{ds}: worst over {rows[0]['pairs']:,} pairs (d = {rows[0]['d']})")
            ax.loglog(ns, mn, "s:", color=l.get_color(), alpha=0.7, label=f"{ds}: mean")
        pairs = max(r["pairs"] for rows in c1.values() for r in rows)
        ns = np.array(sorted({r["n"] for rows in c1.values() for r in rows if r["map"] == mp}), float)
        ax.loglog(ns, [hoeffding(pairs, n, terms, span) for n in ns], "k--",
                  label="bound: Hoeffding + union over the pairs, 95 %")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("|z(x)'z(y) - k(x, y)|")
        ax.set_title("Gaussian kernel, Fourier features" if mp == "fourier" else "Laplacian kernel, random binning")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    paths["claim1"] = os.path.join(a.plots, "claim1_uniform_error.png")
    fig.savefig(paths["claim1"] + ".tmp.png", dpi=110)
    os.replace(paths["claim1"] + ".tmp.png", paths["claim1"])
    plt.close(fig)

    f3 = res["figure3"]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    s = f3["sizes"]
    axes[0].semilogx([r["rows"] for r in s], [r["test_error"] for r in s], "o-", label=f"binning, P = {f3['P']}")
    fs = f3.get("fourier_sizes", [])
    if fs:
        axes[0].semilogx([r["rows"] for r in fs], [r["test_error"] for r in fs], "s--",
                         label=f"Fourier, D = {f3['D']}")
    axes[0].legend(fontsize=8)
    axes[0].set_xlabel("training rows")
    axes[0].set_ylabel("test error (%)")
    axes[0].set_title("(a) error vs training size")
    g = f3["grids"]
    axes[1].plot([r["P"] for r in g], [r["test_error"] for r in g], "o-")
    axes[1].set_xlabel("P (grids)")
    axes[1].set_ylabel("test error (%)")
    axes[1].set_title("(b) error vs P, all training rows")
    axes[2].plot([r["P"] for r in g], [r["train_s"] for r in g], "o-")
    axes[2].set_xlabel("P (grids)")
    axes[2].set_ylabel("training time (s)")
    axes[2].set_title("(c) fit time vs P")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    paths["figure3"] = os.path.join(a.plots, "figure3_forest_binning.png")
    fig.savefig(paths["figure3"] + ".tmp.png", dpi=110)
    os.replace(paths["figure3"] + ".tmp.png", paths["figure3"])
    plt.close(fig)
    return paths


def fmt_s(x):
    return f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def fmt_size(b):
    return f"{b / 1024:.1f} KiB" if b < 1024 * 1024 else f"{b / 1048576:.2f} MiB"


def slope(xs, ys):
    import numpy as np
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


def _preamble(a, env):
    """The title and how the run was made (command, date, machine, versions)."""
    L = []
    w = L.append
    w("# Rahimi & Recht (2007) reproduced with rfk, side by side with scikit-learn")
    w("")
    w(f"Generated by `{env['command']}` on {env['date']} ({env['machine']}; {env['threads']} rfk threads; "
      f"scikit-learn {env['sklearn']}, numpy {env['numpy']} on {env.get('blas', 'an unrecorded BLAS')}). "
      f"Every number below was measured in that one run; raw data in `{os.path.relpath(a.json, ROOT)}`. "
      "The machine is shared, so absolute times vary from run to run; each rfk/scikit-learn time pair "
      f"was measured back to back. The whole run took {env['wall_s'] / 60:.0f} minutes."
      + (f" Figure 3 was re-measured on {env['figure3_rerun']['date']} by `run.py --figure3-only` (same code, "
         f"Table 1's chosen gamma and lambda; {env['figure3_rerun']['wall_s'] / 60:.0f} minutes), after "
         "Fourier features were added to its panel (a)." if "figure3_rerun" in env else ""))
    if a.fast:
        w("")
        w("**Fast subset** (subsampled data, small D and P): not comparable with the paper.")
    w("")
    return L


def _protocol(info, t1):
    """The data and the protocol: splits, hyper-parameters, errors, times."""
    L = []
    w = L.append
    w("## Data and protocol")
    w("")
    w("| dataset | here | paper | split (train / test) | task |")
    w("|---|---|---|---|---|")
    for ds in t1:
        i = info[ds]
        w(f"| {TITLES[ds]} | {i['train_rows']:,} train x {i['dims']} dims | {PAPER[ds]['train']} train x "
          f"{PAPER[ds]['dims']} dims | {i['split']} | {i['task']} |")
    w("")
    w("- Data: `../shared/datasets` (each folder's README gives provenance and checksums), converted by "
      "`bench/paper/convert.py` into `build/paper/data`. Adult and CPU are the paper's data; **Census is a "
      "stand-in** (Delve house_16H: 16 of the census-house attributes, not the paper's 119-dim set), "
      "**Forest is mlpack's 100,000-row uniform subset** of covtype (80,000 training rows instead of "
      "522,000), treated as the binary class-2-vs-rest task (LIBSVM's covtype.binary, the task of the "
      "CVM paper the table compares with), and **KDDCUP99 is the official 10 % file** split at random "
      "(the paper trained on the full 4.9 M rows; UCI's separate `corrected` test file is not available).")
    w("- Hyper-parameters: chosen by rfk's own `--gamma auto --lambda auto` on the training file only "
      "(3-fold cross-validation inside rfk; the test file is read only by `rfk eval` afterwards). "
      "Fourier features use the Gaussian kernel exp(-gamma ||x - y||^2) in rfk's pair form "
      "([cos, sin] of D/2 frequencies); binning uses the Laplacian kernel exp(-gamma ||x - y||_1) in exact "
      "mode (one column per bin seen in training). Dense inputs are standardised; KDD's too (`--standardize`).")
    w("- Error: classification, % of test rows misclassified; regression, the paper's \"RMS error "
      "normalized by the norm of the ground truth\": ||y_hat - y||_2 / ||y||_2 over the test rows, "
      "which equals RMSE / rms(y) (rfk eval's `rel_rmse`), in %.")
    w("- Times: *fit* = rfk's own `train` time for one fit at the chosen (gamma, lambda) (reading the "
      "file excluded), the same for scikit-learn (pipeline `fit` on loaded arrays, `StandardScaler` "
      "included where rfk standardises); *auto* = rfk's selection over the gamma x lambda grid plus the "
      "final fit. scikit-learn runs `RBFSampler(gamma, n_components=D)` + `Ridge`/`RidgeClassifier` "
      "(alpha = n x lambda, the same penalty) right after rfk's fit, on the same files, with the default "
      "solver, in float64 (NumPy's default) and in float32 (about twice as fast through BLAS): the faster "
      "of the two is the time shown, marked (f32) where float32 won, and the error column gives float32's "
      "error beside float64's where they differ; NumPy on OpenBLAS at the same thread count as rfk's (`scripts/install-deps.sh --bench`; the run "
      "refuses another BLAS unless --any-blas: Debian's default reference BLAS is several times slower and "
      "no honest peer). Each fit is timed at all threads of the machine (rfk, then scikit-learn) and then at "
      "one thread (the same pair). rfk's fit is its default: for classification that includes the "
      "calibration of its outputs into probabilities (a solve per held-out fold -- one of three from "
      "60,000 rows on -- and its held-out outputs, "
      "`--no-calibration` leaves it out), work `RidgeClassifier` does not do. The paper's times are from "
      "its own 2007 machine and are given for reference only.")
    w("")
    return L


def _table1(t1, f3, env):
    """Table 1, rfk beside the paper and scikit-learn, and the verdicts entry by entry."""
    L = []
    w = L.append
    w("## Table 1")
    w("")
    N = env["threads"]
    w(f"| dataset | map | rfk test error | paper | scikit-learn error | rfk fit (1 / {N} threads) | "
      f"scikit-learn fit (1 / {N} threads) | rfk / sklearn time (1 / {N} threads) | rfk auto (selection + fit) | "
      "paper time | model | chosen gamma, lambda |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for ds, row in t1.items():
        for mp in ("fourier", "binning", "fourier_laplacian"):
            if mp not in row:
                continue
            r = row[mp]
            au, fi = r["auto"], r["fit"]
            pm = PAPER[ds]["fourier" if mp != "binning" else "binning"]
            label = {"fourier": f"Fourier, D = {row['D']}", "binning": f"binning, P = {row['P']}",
                     "fourier_laplacian": f"Fourier (Laplacian kernel), D = {row['D']}"}[mp]
            g = au.get("bin_gamma") if mp == "binning" else au["gamma"]
            sk = row.get("sklearn") if mp == "fourier" else None
            sk1 = row.get("sklearn1") if mp == "fourier" else None
            sk_err = "-"
            if sk:  # float64's error, and float32's where it differs
                e = {r["dtype"]: r["test_error"] for r in sk.get("runs", [sk])}
                sk_err = f"{e.get('float64', sk['test_error']):.2f} %"
                if "float32" in e and abs(e["float32"] - e.get("float64", e["float32"])) >= 0.005:
                    sk_err += f" (float32: {e['float32']:.2f} %)"
            rfk_t = (f"{fmt_s(r['fit1']['train_s'])} / " if "fit1" in r else "") + fmt_s(fi["train_s"])
            tag = lambda run: fmt_s(run["fit_s"]) + (" (f32)" if run.get("dtype") == "float32" else "")
            sk_t = ((f"{tag(sk1)} / " if sk1 else "") + tag(sk)) if sk else "-"
            ratio = "-"
            if sk:
                ratio = (f"**{r['fit1']['train_s'] / sk1['fit_s']:.2f}** / " if sk1 and "fit1" in r else "") + \
                        f"**{fi['train_s'] / sk['fit_s']:.2f}**"
            paper = f"{pm[0]} %" if mp != "fourier_laplacian" else f"({pm[0]} %)"
            w(f"| {TITLES[ds]} | {label} | **{au['test_error']:.2f} %** | {paper} | {sk_err} | {rfk_t} | "
              f"{sk_t} | {ratio} | {fmt_s(au['train_s'])} | {pm[1] if mp != 'fourier_laplacian' else '-'} | "
              f"{fmt_size(au['model_bytes'])} | {g:.4g}, {au['lambda']:.0e} |")
    w("")
    w("The model sizes are rfk's complete model files (what a device loads). Binning models in exact mode "
      "store one weight and one 64-bit key per occupied bin, so they grow with the data; "
      "`-B` (hashed mode) fixes the size in advance. The Laplacian-kernel Fourier rows are extra "
      "(not in the paper's table, no scikit-learn counterpart): the same D with `--kernel laplacian`.")
    w("")
    w("### Against the paper, entry by entry")
    w("")
    for line in verdicts(t1, f3):
        w(f"- {line}")
    w("")
    return L


def _claim1(c1, image):
    """Claim 1: the kernel approximation's worst error against D or P."""
    L = []
    w = L.append
    w("## Claim 1: uniform convergence of the kernel approximation")
    w("")
    w(f"![Claim 1]({image})")
    w("")
    any_rows = next(iter(c1.values()))
    n_pairs = any_rows[0]["pairs"]
    n_pts = int(round((1 + (1 + 8 * n_pairs) ** 0.5) / 2))
    n_seeds = len({r["seed"] for r in any_rows})
    w(f"`rfk_kernel_approx` (bench/paper/kernel_approx.cc) takes {n_pts} training rows at an even stride, "
      "standardised, and compares z(x)'z(y), computed by the device core from rfk's own maps, with the "
      f"exact kernel on all {n_pairs:,} pairs, for {n_seeds} seeds (mean over seeds plotted); gamma is the data-scale "
      "default (1 / median distance over the pairs). The dashed line is what Hoeffding's inequality with a "
      "union bound over the pairs guarantees with probability 95 %: each Fourier frequency contributes "
      "cos(w'(x - y)) in [-1, 1] and each grid an indicator in [0, 1], so the worst error is at most "
      "sqrt(2 log(2N/0.05) / (D/2)) (Fourier) or sqrt(log(2N/0.05) / (2P)) (binning) over N pairs. "
      "Claim 1 of the paper gives the same O(sqrt(d log(...) / D)) rate uniformly over a compact set, "
      "with constants too large to plot at these D.")
    w("")
    w(describe_claim1(c1))
    w("")
    return L


def _figure3(f3, image):
    """Figure 3: Forest with random binning, error and time against rows and P."""
    L = []
    w = L.append
    w("## Figure 3: Forest, random binning")
    w("")
    w(f"![Figure 3]({image})")
    w("")
    w(f"Binary Forest task, exact binning, gamma = {f3['gamma']:.4g} and lambda = {f3['lambda']:.0e} as "
      f"selected for Table 1 on all training rows, held fixed for every point. (a) uses P = {f3['P']} on "
      "uniform random subsets of the training rows (hash order, as in convert.py), and beside it Fourier "
      f"features at D = {f3.get('D')} with Table 1's Fourier gamma and lambda (the full-size point is Table 1's "
      "fit); (b) and (c) use all training rows. Times are rfk's single-fit `train` times.")
    w("")
    w(describe_figure3(f3))
    w("")
    return L


def _reproduce():
    """The commands that make this report again."""
    L = []
    w = L.append
    w("## Reproduce")
    w("")
    w("<!-- not run: installs packages and reruns the whole reproduction (the header says how long it took); "
      "ctest paper_fast_subset runs a fast subset -->")
    w("```sh")
    w("scripts/install-deps.sh --bench        # + python3-sklearn, python3-matplotlib")
    w("cmake --workflow --preset release")
    w("/usr/bin/python3 bench/paper/run.py     # writes docs/RESULTS.md, docs/paper/*.png, build/paper/results.json")
    w("```")
    w("")
    w("The fast subset runs in the test suite as CTest test `paper_fast_subset` "
      "(`bench/paper/fast_check.py`: subsampled data, small D and P, an error ceiling per dataset).")
    return L


def report(a, info, res, paths, env):
    """Writes a.results (docs/RESULTS.md) atomically from the run's results, keeping the blocks
    other scripts wrote into it (blocks.foreign_blocks)."""
    t1, c1, f3 = res["table1"], res["claim1"], res["figure3"]
    rel = lambda p: os.path.relpath(p, os.path.dirname(a.results))
    L = (_preamble(a, env) + _protocol(info, t1) + _table1(t1, f3, env) + _claim1(c1, rel(paths["claim1"]))
         + _figure3(f3, rel(paths["figure3"])) + _reproduce())
    text = "\n".join(L) + "\n"
    kept = blocks.foreign_blocks(open(a.results).read()) if os.path.exists(a.results) else []
    text += "".join("\n" + b + "\n" for b in kept)
    tmp = a.results + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, a.results)


def verdicts(t1, f3):
    out = []
    for ds, row in t1.items():
        for mp in ("fourier", "binning"):
            if mp not in row:
                continue
            e = row[mp]["auto"]["test_error"]
            p = PAPER[ds][mp][0]
            name = f"{TITLES[ds]}, {'Fourier' if mp == 'fourier' else 'binning'}: {e:.2f} % vs {p} %"
            if e <= p:
                out.append(f"{name}: at or below the paper's value.")
                continue
            why = ""
            if ds == "census":
                ref = row.get("reference")
                why = ("different data: house_16H has 16 of the census-house attributes and a target capped "
                       "at 500,001 with a long tail")
                if ref:
                    why += (f"; on this split the training mean alone scores {ref['mean_predictor']:.1f} % and "
                            f"scikit-learn's HistGradientBoostingRegressor {ref['hist_gradient_boosting']:.1f} %, "
                            f"so no model reaches the paper's {p} % on this data")
            elif ds == "forest":
                s = f3["sizes"] if mp == "binning" else f3.get("fourier_sizes")
                why = "80,000 training rows instead of 522,000"
                if s and len(s) >= 2 and mp == "fourier":
                    import math
                    last = s[-2]["test_error"] - s[-1]["test_error"]
                    more = math.log2(522000 / s[-1]["rows"])
                    guess = s[-1]["test_error"] - more * last
                    why += (f"; at D = {f3['D']} the error falls from {s[0]['test_error']:.2f} % ({s[0]['rows']:,} rows) to "
                            f"{s[-1]['test_error']:.2f} % ({s[-1]['rows']:,}) in Figure 3 (a), but the last doubling gained "
                            f"{last:.2f} points; at that rate the {more:.1f} further doublings to 522,000 rows would reach "
                            f"about {guess:.1f} %, " + ("so the subset's size accounts for the gap" if guess <= e - 0 and guess <= p
                                                         else "so the subset's size explains part of the gap, not all of it; "
                                                              "the rest is not pinned down by a measurement here"))
                elif s and len(s) >= 2:
                    why += (f"; binning's error falls from {s[0]['test_error']:.2f} % ({s[0]['rows']:,} rows) to "
                            f"{s[-1]['test_error']:.2f} % ({s[-1]['rows']:,}) in Figure 3 (a), "
                            f"{s[-2]['test_error'] - s[-1]['test_error']:.2f} points over the last doubling")
            elif ds == "cpu" and mp == "fourier":
                ratio = e / p
                why = f"{ratio:.2f} x the paper's value"
                lap = row.get("fourier_laplacian")
                if lap:
                    why += (f"; with the Laplacian kernel the same D reaches {lap['auto']['test_error']:.2f} %, "
                            "so the gap is the Gaussian kernel on these heavy-tailed inputs, not the features")
            elif ds == "adult":
                why = f"{e - p:+.2f} points"
            out.append(f"{name}: above the paper's value ({why}).")
        if ds == "kdd" and "duplicates" in row:
            dup = row["duplicates"]
            out.append(f"{TITLES[ds]}: far below the paper's 7.3 % because the test rows come from the same "
                       f"file as the training rows: {100 * dup['in_train'] / dup['test_rows']:.1f} % of the "
                       f"{dup['test_rows']:,} test rows occur verbatim among the training rows (the file has "
                       "many repeated connection records). The paper's test set is a different capture; this is "
                       "not a like-for-like comparison.")
    for ds, row in t1.items():
        if "fourier" in row and "binning" in row:
            ef, eb = row["fourier"]["auto"]["test_error"], row["binning"]["auto"]["test_error"]
            if ds == "forest":
                out.append(f"Forest: binning {eb:.2f} % " + ("beats" if eb < ef else "does NOT beat")
                           + f" Fourier {ef:.2f} %; in the paper binning wins too (2.2 % vs 11.6 %).")
    for key, what in (("1", "one thread"), ("", "all threads")):
        pairs = {ds: (row["fourier"]["fit" + key]["train_s"], row["sklearn" + key]["fit_s"]) for ds, row in t1.items()
                 if "sklearn" + key in row and "fit" + key in row["fourier"]}
        # Fits under 0.1 s measure fixed costs (thread start, standardisation pass, Python calls), not the fit.
        short = [ds for ds, (r, k) in pairs.items() if max(r, k) < 0.1]
        have = [ds for ds in pairs if ds not in short]
        slow = [ds for ds in have if pairs[ds][0] >= pairs[ds][1]]
        if have:
            out.append(f"At {what}, rfk's fit is faster than scikit-learn's at equal D on "
                       + (f"every dataset that takes 0.1 s or more ({', '.join(have)})" if not slow else
                          f"{len(have) - len(slow)} of the {len(have)} datasets that take 0.1 s or more; "
                          f"not on {', '.join(slow)}")
                       + (f" ({', '.join(short)}: both fits under 0.1 s, too short to compare)" if short else "")
                       + "; the ratios are in the table's *rfk / sklearn time* column.")
    return out


def describe_claim1(c1):
    import numpy as np
    parts, slopes, ratios = [], [], []
    for mp, unit in (("fourier", "D"), ("binning", "P")):
        for ds, rows in c1.items():
            rows = [r for r in rows if r["map"] == mp]
            ns = sorted({r["n"] for r in rows})
            mx = [float(np.mean([r["max_err"] for r in rows if r["n"] == n])) for n in ns]
            mn = [float(np.mean([r["mean_err"] for r in rows if r["n"] == n])) for n in ns]
            slopes.append(slope(ns, mx))
            ratios += [a / b for a, b in zip(mx, mn)]
            parts.append(f"{ds} ({mp}): worst error {mx[0]:.3f} at {unit} = {ns[0]}, {mx[-1]:.4f} at "
                         f"{unit} = {ns[-1]}, log-log slope {slopes[-1]:.2f}")
    over = [r for rows in c1.values() for r in rows
            if r["max_err"] > hoeffding(r["pairs"], r["n"], 0.5 if r["map"] == "fourier" else 1.0,
                                        2.0 if r["map"] == "fourier" else 1.0)]
    txt = (f"What the plot shows: for every dataset and both maps the worst error over all pairs falls on "
           f"a nearly straight line in log-log scale, with fitted slopes from {min(slopes):.2f} to "
           f"{max(slopes):.2f} against the theory's -1/2 (errors shrink as D^(-1/2) and P^(-1/2)); the mean "
           f"error falls in parallel, {min(ratios):.1f} to {max(ratios):.1f} times below the worst. ")
    txt += ("No single run's worst error exceeds the Hoeffding bound. " if not over else
            f"{len(over)} runs' worst errors exceed the Hoeffding bound (see results.json). ")
    return txt + "Measured (mean over seeds): " + "; ".join(parts) + "."


def describe_figure3(f3):
    s, g = f3["sizes"], f3["grids"]
    txt = ["What the plots show:"]
    drops = [100 * (1 - b["test_error"] / a["test_error"]) for a, b in zip(s, s[1:])]
    mono = all(d > 0 for d in drops)
    txt.append(f"(a) binning's test error (P = {f3['P']}, solid) {'falls at every step' if mono else 'does not fall at every step'} as the "
               f"training set grows, from {s[0]['test_error']:.2f} % at {s[0]['rows']:,} rows to "
               f"{s[-1]['test_error']:.2f} % at {s[-1]['rows']:,}; each doubling cuts it by "
               f"{min(drops):.0f} to {max(drops):.0f} % (the paper: up to 40 %), and the last doubling by "
               f"{drops[-1]:.0f} %.")
    fs = f3.get("fourier_sizes", [])
    if len(fs) >= 2:
        fd = [100 * (1 - b["test_error"] / a["test_error"]) for a, b in zip(fs, fs[1:])]
        over = next((b["rows"] for b, f in zip(s, fs) if b["test_error"] < f["test_error"]), None)
        txt.append(f"Fourier features at D = {f3['D']} (dashed) go from {fs[0]['test_error']:.2f} % to "
                   f"{fs[-1]['test_error']:.2f} % over the same sizes ({min(fd):.0f} to {max(fd):.0f} % per doubling"
                   + (", improving at every step" if min(fd) > 0 else "")
                   + f"; the last doubling gained {fs[-2]['test_error'] - fs[-1]['test_error']:.2f} points, binning's "
                   f"{s[-2]['test_error'] - s[-1]['test_error']:.2f}); "
                   + (f"binning is below them from {over:,} rows on." if over else "binning is not below them at any size here."))
    best = min(g, key=lambda r: r["test_error"])
    at10 = next((r for r in g if r["P"] >= 10), g[-1])
    tail = [r for r in g if r["P"] >= at10["P"]]
    txt.append(f"(b) the error drops from {g[0]['test_error']:.2f} % at P = {g[0]['P']} to "
               f"{at10['test_error']:.2f} % at P = {at10['P']} ({g[0]['test_error'] - at10['test_error']:.2f} points), "
               f"then by {at10['test_error'] - tail[-1]['test_error']:.2f} points more up to P = {tail[-1]['P']}; the "
               f"lowest is {best['test_error']:.2f} % at P = {best['P']}.")
    ps, ts = [r["P"] for r in g], [r["train_s"] for r in g]
    big = [(p, t) for p, t in zip(ps, ts) if p >= 10]
    sl = slope([p for p, _ in big], [t for _, t in big]) if len(big) >= 2 else float("nan")
    its = [r.get("cg_iterations") for r in g]
    txt.append(f"(c) the fit time grows from {ts[0]:.2f} s at P = {ps[0]} to {ts[-1]:.2f} s at P = {ps[-1]}, "
               f"as P^{sl:.2f} from P = 10 on (log-log slope): every grid adds one nonzero per row to each CG "
               "iteration"
               + (f", and the iterations to 1e-6 grow too, from {its[0]} at P = {ps[0]} to {its[-1]} at P = {ps[-1]}."
                  if None not in its else "."))
    return " ".join(txt)
