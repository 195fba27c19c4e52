#!/usr/bin/env python3
"""Writes the firmware figures as Markdown tables: the flash and worst-case stack of each core
image (the `footprint*` tests) and the instructions per prediction of each fixture (the `cost*`
tests), one column per bare-metal preset, then the ratios the docs quote (Helium against the
scalar table, the integer path against f32), with the machine, date, commit, compiler and command
in a header, so a figure in the docs is re-measured by re-running this script.

  bench/firmware_tables.py [--out FILE] [BUILD_DIR ...]

BUILD_DIR: built preset directories (default: every build/cortex-m* and build/riscv32 that has a
CTestTestfile.cmake); each runs `ctest -R '^(cost|footprint|fixed_image|core_configured)' -V` there. --out: the
Markdown file (default docs/generated/firmware.md; '-' for stdout). Counts come from qemu -icount,
so they are the same on any host for the same build.
"""
import argparse
import datetime
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench", "paper"))
import blocks  # noqa: E402  (the marked blocks the docs' scripts own)
# Column order: the docs' order of targets.
ORDER = ["cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55", "cortex-m3", "cortex-m33-nofp", "cortex-m0",
         "riscv32"]
NAMES = {"cortex-m4": "Cortex-M4F", "cortex-m7": "Cortex-M7", "cortex-m33": "Cortex-M33",
         "cortex-m55": "Cortex-M55", "cortex-m3": "Cortex-M3", "cortex-m33-nofp": "Cortex-M33 without FPU",
         "cortex-m0": "Cortex-M0", "riscv32": "RV32IMC"}
# What each footprint test's image holds (targets/firmware/checks.cmake).
CORES = [("footprint", "whole core, a firmware calling `rfk_predict` (every float model; no integer path linked)"),
         ("footprint_nofields", "whole core without the open's field names (RFK_ERROR_FIELDS=0)"),
         ("footprint_small", "whole core built for size (`RFK_CORE_SMALL`)"),
         ("footprint_small_nofields", "whole core built for size, without the field names"),
         ("footprint_both", "whole core, a firmware of either path (`rfk_predict`, `rfk_quantize_input`, "
                            "`rfk_predict_fixed`: footprint_both.c)"),
         ("footprint_both_small_nofields", "the same, built for size, without the field names"),
         ("footprint_float", "float path only (RFK_CORE_FIXED=0)"),
         ("footprint_float_small_nofields", "float path only, built for size, without the field names"),
         ("footprint_fixed", "integer path only (RFK_CORE_FLOAT=0)"),
         ("footprint_dense", "configured for house_pair (`--config-header`: dense f32 pairs)"),
         ("footprint_pinned", "pinned to house_pair (`--config-header --pin`)"),
         ("footprint_pinned_fixed", "pinned to house_fixed (its fixed-point conversion)"),
         ("footprint_pinned_covtype_fastfood_int8", "pinned to covtype_fastfood_int8 (Fastfood, int8 weights, "
          "(54, 1024))"),
         ("footprint_pinned_covtype_ff_fixed", "pinned to covtype_ff_fixed (Fastfood on the integer path, (54, 1024))"),
         ("footprint_pinned_small_house_pair", "pinned to house_pair, built for size (`RFK_CORE_SMALL`)"),
         ("footprint_pinned_small_house_fixed", "pinned to house_fixed, built for size"),
         ("footprint_pinned_small_covtype_fastfood_int8", "pinned to covtype_fastfood_int8, built for size"),
         ("footprint_pinned_small_covtype_ff_fixed", "pinned to covtype_ff_fixed, built for size")]


def run_ctest(build):
    out = subprocess.run(["ctest", "-R", "^(cost|footprint|fixed_image|core_configured)", "-V"], cwd=build,
                         capture_output=True, text=True)
    return out.stdout


def parse(text):
    """{test name: lines of its output} from ctest -V (each output line prefixed 'N: ')."""
    names = dict(re.findall(r"Start\s+(\d+): (\S+)", text))
    lines = {}
    for number, line in re.findall(r"^(\d+): (.*)$", text, re.M):
        if number in names:
            lines.setdefault(names[number], []).append(line)
    return lines


def footprint(lines):
    flash = stack = None
    for line in lines:
        m = re.search(r"inference core adds (\d+) B flash", line)
        if m:
            flash = int(m.group(1))
        m = re.search(r"worst-case stack: (\d+) B", line)
        if m:
            stack = int(m.group(1))
    return flash, stack


def costs(test, lines):
    """[(row label, instructions, stack peak, scratch bytes, shape)] of one cost test, labelled by
    fixture, test and (other than the scalar one, which every board runs) kernel table; shape: the
    fixture's name, d, D, K (outputs), P (grids) and whether the row is the integer path's."""
    rows, table = [], None
    for line in lines:
        m = re.match(r"cost: kernel table (\S+)", line)
        if m:
            table = m.group(1)
        m = re.match(r"cost (\S+)\s+d=(\d+)\s+features=(\d+)\s+outputs=(\d+)\s+(?:grids=(\d+)|fixed)\s+"
                     r"instructions/prediction (\d+)\s+stack (\d+) bytes scratch (\d+) bytes", line)
        if m:
            name, d, D, K, grids = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), m.group(5)
            label = f"{name} (d = {d}, D = {D}"
            label += f", P = {grids})" if grids not in (None, "0") else ")"
            if test != "cost":
                label += f", `{test}`"
            if table not in (None, "scalar-scalar") and grids is not None:  # the float path's other tables
                label += f", {table} table"
            shape = (name, d, D, K, int(grids or 0), grids is None)
            rows.append((label, int(m.group(6)), int(m.group(7)), int(m.group(8)), shape))
    return rows


def fixture_maps():
    """{fixture: its --map} from tests/embedded/fixtures.cmake (fixed fixtures: their f32 source's)."""
    text = open(os.path.join(ROOT, "tests", "embedded", "fixtures.cmake")).read()
    maps = {name: m for name, m in re.findall(r"set\(RFK_FIXTURE_(\w+) [^)]*?--map (\S+)", text, re.S)}
    for fixed, source in fixed_sources().items():
        if source in maps:
            maps[fixed] = maps[source]
    return maps


def operations(kind, d, D, K):
    """(multiply-accumulates, additions) of one prediction: a dense map's projection F d (F = D in
    the phase form, D / 2 [cos, sin] pairs) or Fastfood's two transforms per block of d' (d' log2 d'
    additions each) and its two diagonals (2 d' multiplies, counted with the MACs), plus the head's
    K D; cosines and the rest are not counted (no floor of their own)."""
    if kind == "fastfood":
        dp = 1
        while dp < d:
            dp *= 2
        F = D // 2
        blocks = -(-F // dp)
        return 2 * blocks * dp + K * D, 2 * blocks * dp * (dp.bit_length() - 1)
    F = D if kind == "fourier-phase" else D // 2
    return F * d + K * D, 0


# Lanes per instruction: (multiply-accumulates, additions). The float path on the cores with an FPU
# (scalar: one VMLA or VADD; Helium: four lanes of VFMA or VADD), the integer path on the DSP cores
# (SMLAD: two 16-bit MACs; the transform's 32-bit additions one at a time), on MVE (VMLADAVA: eight
# 16-bit MACs; four 32-bit lanes of VADD) and on the others (one MLA). The soft-float cores' float
# operations are library calls: no instruction floor.
FPU = {"cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"}
DSP = {"cortex-m4", "cortex-m7", "cortex-m33", "cortex-m33-nofp"}


def lanes(preset, integer, helium):
    if integer:
        return (8, 4) if preset == "cortex-m55" else (2, 1) if preset in DSP else (1, 1)
    if preset not in FPU:
        return None
    return (4, 4) if helium else (1, 1)


def floor_table(rows, shapes, presets, cols):
    """Instructions per prediction over the arithmetic floor (multiply-accumulates and additions
    divided by the lanes one instruction does), per core: the gap to the limit the issue asks to
    show. Dense and Fastfood fixtures, the default block; binning has no multiply-accumulates."""
    maps = fixture_maps()
    lines = []
    for label, by in rows.items():
        name, d, D, K, grids, integer = shapes[label]
        # The float path's default block, and the integer path's DSP/MVE loops (`cost_fixed`).
        if ("`" in label or integer) and not label.endswith("`cost_fixed`"):
            continue
        kind = maps.get(name)
        if grids or kind not in ("fourier", "fourier-phase", "orf", "fastfood"):
            continue
        macs, adds = operations(kind, d, D, K)
        helium = label.endswith("helium-MVE table")
        cells = []
        for p in presets:
            ln = lanes(p, integer, helium)
            if p not in by or ln is None or (helium and p != "cortex-m55"):
                cells.append("—")
                continue
            floor = macs / ln[0] + adds / ln[1]
            cells.append(f"{by[p] / floor:.1f}")
        if any(c != "—" for c in cells):
            lines.append(f"| {label} | {macs:,} + {adds:,} | " + " | ".join(cells) + " |")
    if not lines:
        return []
    return ["", "## Instructions against the arithmetic floor (`cost` / floor)", "",
            "The floor of a prediction: its multiply-accumulates (a dense map's projection, F d with F = D "
            "in the phase form and D / 2 pairs otherwise; Fastfood's two diagonals, 2 d' a block; the head's "
            "K D) and Fastfood's transform additions (2 d' log2 d' a block), each divided by the lanes one "
            "instruction does: 1 on the float path's scalar table (VMLA), 4 on the Helium table (VFMA), on the "
            "integer path 2 multiply-accumulates per SMLAD on the DSP cores, 8 per VMLADAVA and 4 additions "
            "on the Cortex-M55, 1 elsewhere. Each cell: measured instructions / floor, so 1.0 is the limit; "
            "the cosines, the input's standardisation and the calls are the rest. The soft-float cores' "
            "float operations are library calls (—).", "",
            "| fixture | MACs + additions | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)] + lines


def ram_table(ram, presets, cols):
    """RAM of predicting each fixture: a pinned core's handle (one 4-byte pointer on these cores) +
    the model's scratch + the stack peak `cost` painted, per board (the float fixtures through the
    scalar table, the fixed ones through `cost_fixed`; on the Cortex-M0 the (54, 1024) ones through
    `cost_covtype`)."""
    md = ["", "## RAM per prediction: pinned handle + scratch + measured stack (`ctest -R '^cost' -V`)", "",
          "Each cell: the stack peak `cost.c` painted below `rfk_predict` (`rfk_predict_fixed`), then the "
          "total with the model's scratch (`rfk_scratch_bytes`, `rfk_fixed_scratch_bytes`) and a pinned "
          "core's `rfk_model`, one 4-byte pointer (`--pin`); a configured core's figures are measured with its "
          "own handle in the next table; a generic core's handle adds 260 B (`rfk_model` is 264 B on a 32-bit core). The "
          "`cost_block32` rows: the same fixtures through 32-feature blocks, as `rfk export --config-header` "
          "configures the core.", "",
          "| fixture | scratch | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)]
    for label, by in ram.items():
        scratch = {s for s, _ in by.values()}
        cells = [f"{by[p][1]:,} / **{4 + by[p][0] + by[p][1]:,}**" if p in by else "—" for p in presets]
        md.append(f"| {label} | {'/'.join(f'{s:,}' for s in sorted(scratch))} B | " + " | ".join(cells) + " |")
    return md


def handle_table(results, presets, cols):
    """`sizeof(rfk_model)` of each configured core and the RAM one prediction takes with it
    (`core_configured_<fixture>`, which prints both)."""
    sizes, ram = {}, {}
    for p in presets:
        for test, lines in results[p].items():
            if not test.startswith("core_configured_"):
                continue
            name = test[len("core_configured_"):]
            for line in lines:
                m = re.search(r"configured core: rfk_model is (\d+) bytes", line)
                if m:
                    sizes.setdefault(name, {})[p] = int(m.group(1))
                m = re.search(r"configured core: RAM per prediction (\d+) bytes", line)
                if m:
                    ram.setdefault(name, {})[p] = int(m.group(1))
    if not sizes:
        return []
    md = ["", "## Handle and RAM of a configured core (`ctest -R core_configured -V`)", "",
          "Each cell: `sizeof(rfk_model)` where the application and the core are built with the model's "
          "configuration (`rfk export --config-header`, not pinned): the members its kind reads "
          "(include/rfk/model_layout.h); a generic core's is 264 B, a pinned one's 4 B. Then the RAM one "
          "prediction takes with that core: the handle, the model's scratch (`rfk_scratch_bytes`, "
          "`rfk_fixed_scratch_bytes`, for the 32-feature blocks the configuration sets) and the stack "
          "`rfk_predict` (`rfk_predict_fixed`) takes, painted below its caller as `cost.c` paints it.", "",
          "| fixture | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for name in sorted(sizes):
        cells = []
        for p in presets:
            if p not in sizes[name]:
                cells.append("—")
            elif p in ram.get(name, {}):
                cells.append(f"{sizes[name][p]} B / **{ram[name][p]:,} B**")
            else:
                cells.append(f"{sizes[name][p]} B")
        md.append(f"| {name} | " + " | ".join(cells) + " |")
    return md


README_BEGIN, README_END = blocks.markers("firmware_tables.py")


def readme_block(rows, results, ram, presets, stamp):
    """The README's firmware headline rows (its "Figures"), from the same runs as the tables: the
    (54, 1024) 7-class model on the Cortex-M4F (f32, integer path) and the Cortex-M55 (Helium,
    integer path), the configured and pinned cores' flash and a pinned (16, 256) model's RAM."""
    m4, m55 = "cortex-m4", "cortex-m55"
    phase, fixed = "covtype_phase (d = 54, D = 1024)", "covtype_fixed (d = 54, D = 1024), `cost_fixed`"
    need = [(rows, phase, m4), (rows, fixed, m4), (rows, phase + ", helium-MVE table", m55), (rows, phase, m55),
            (rows, fixed, m55), (rows, fixed.replace("cost_fixed", "cost_fixed_scalar"), m55),
            (ram, "house_pair (d = 16, D = 256), `cost_block32`", m4)]
    if any(p not in presets for p in (m4, m55)) or any(p not in t.get(k, {}) for t, k, p in need):
        return None
    dense, _ = footprint(results[m4].get("footprint_dense", []))
    pinned, _ = footprint(results[m4].get("footprint_pinned", []))
    small, _ = footprint(results[m4].get("footprint_pinned_small_house_pair", []))
    generic = [footprint(results[m4].get(t, []))[0]
               for t in ("footprint", "footprint_small_nofields", "footprint_both", "footprint_both_small_nofields")]
    if dense is None or pinned is None or small is None or None in generic:
        return None
    f32, fix = rows[phase][m4], rows[fixed][m4]
    helium, scalar = rows[phase + ", helium-MVE table"][m55], rows[phase][m55]
    mve, mve_scalar = rows[fixed][m55], rows[fixed.replace("cost_fixed", "cost_fixed_scalar")][m55]
    scratch, stack = ram["house_pair (d = 16, D = 256), `cost_block32`"][m4]
    link = "docs/generated/firmware.md"
    return "\n".join([
        README_BEGIN,
        f"| on microcontrollers (qemu instruction counts, {stamp}) | figure | where |", "|---|---|---|",
        f"| Cortex-M4F, (54, 1024) 7-class model | {f32:,} instructions per prediction (f32); {fix:,} fixed-point "
        f"with DSP kernels ({fix / f32:.2f}x) | [docs/EMBEDDED.md](docs/EMBEDDED.md#dsp-kernels-cortex-m4-m7-m33) |",
        f"| Cortex-M4F core configured for a dense f32 model | {dense:,} B of flash; {pinned:,} B pinned to the model "
        f"(`--pin`), {small:,} B built for size (`RFK_CORE_SMALL`), with a 4-byte handle; {4 + scratch + stack:,} B of RAM for a (16, 256) model | [{link}]({link}) |",
        f"| Cortex-M4F generic core (any model, as an over-the-air firmware opens it) | {generic[0]:,} B of flash in a "
        f"firmware that predicts float models, {generic[1]:,} B built for size without field names; {generic[2]:,} B "
        f"and {generic[3]:,} B in one that runs either path | [docs/EMBEDDED.md](docs/EMBEDDED.md#footprint-cortex-m) |",
        f"| Cortex-M55, (54, 1024) 7-class model | {helium:,} instructions per prediction with Helium, "
        f"{scalar / helium:.2f}x fewer than scalar; fixed-point {mve:,}, {mve_scalar / mve:.1f}x fewer than its "
        "scalar loops | [docs/EMBEDDED.md](docs/EMBEDDED.md#helium-kernels-cortex-m55) |",
        README_END]) + "\n"


def fixed_sources():
    """{fixed fixture: the f32 fixture it is converted from}, from tests/embedded/fixtures.cmake."""
    text = open(os.path.join(ROOT, "tests", "embedded", "fixtures.cmake")).read()
    return dict(re.findall(r"set\(RFK_FIXED_(\w+) (\w+) --", text))


def fixture_of(label):
    """The fixture name a cost row's label starts with."""
    return label.split(" ", 1)[0]


# The fixtures with stored weights and the f32 fixture of the same data, map and D each is compared
# with (tests/embedded/fixtures.cmake trains both with the same options but --storage).
STORED_FROM = {"house_int8": "house_pair", "house_f16": "house_pair", "covtype_int8": "covtype_phase",
               "covtype_fastfood_int8": "covtype_fastfood_binary", "house_fastfood_f16": "house_fastfood"}


# Fastfood against the dense map of the same data and D (tests/embedded/fixtures.cmake): each
# dense fixture and its Fastfood twin, so that a cell is how many times fewer instructions Fastfood takes.
DENSE_OVER_FASTFOOD = {"covtype_pair_binary": "covtype_fastfood_binary", "covtype_phase": "covtype_fastfood",
                       "house_pair": "house_fastfood"}


def ratio_table(rows, presets, cols, pairs, title, intro):
    """A section of instructions(name) / instructions(other), per core, for each pair of `pairs`
    (name: other), the default block: the scalar table's on every core, and on the Cortex-M55 also
    the Helium table's against its own figure for the other."""
    def row(name, suffix=""):
        return next((by for lab, by in rows.items() if fixture_of(lab) == name and "`" not in lab
                     and (lab.endswith(suffix) if suffix else "table" not in lab)), None)
    lines = []
    for name, other in pairs.items():
        for suffix in ("", ", helium-MVE table"):
            got, ref = row(name, suffix), row(other, suffix)
            if not got or not ref:
                continue
            cells = [f"{got[p] / ref[p]:.2f}" if p in got and p in ref else "—" for p in presets]
            if any(c != "—" for c in cells):
                lines.append(f"| {name} / {other}{suffix} | " + " | ".join(cells) + " |")
    if not lines:
        return []
    return ["", f"## {title}", "", intro, "", "| fixtures | " + " | ".join(cols) + " |",
            "|---|" + "---|" * len(cols)] + lines


def small_against_default(rows, presets, cols):
    """The core built for size against the default, instructions per prediction: `cost_small` /
    `cost` (float path) and `cost_fixed_small` / `cost_fixed` (integer path), the same build."""
    md = []
    for label, by in rows.items():
        for small, default in ((", `cost_small`", ""), (", `cost_fixed_small`", ", `cost_fixed`")):
            if not label.endswith(small):
                continue
            name = label[: -len(small)]
            if not default and name + ", `cost_fixed_small`" in rows:  # cost's integer rows: counted below
                continue
            base = rows.get(name + default, {})
            cells = [f"{by[p] / base[p]:.2f}" if p in by and p in base else "—" for p in presets]
            if any(c != "—" for c in cells):
                md.append(f"| {name}{' (integer path)' if default else ''} | " + " | ".join(cells) + " |")
    if not md:
        return []
    return ["", "## Built for size against the default (`cost_small` / `cost`, `cost_fixed_small` / `cost_fixed`)",
            "", "`RFK_CORE_SMALL` (docs/EMBEDDED.md, \"Building for size\"): the same outputs from the plainest "
            "loops; instructions per prediction of that core over the default core's, the same build. "
            "On the cores where the float path's plain loops are the default (M3, M33 without FPU, M0, RV32IMC) only the "
            "integer path differs (its computed cosine table).",
            "", "| fixture | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)] + md


def stored_against_f32(rows, presets, cols):
    """Instructions of each int8 or f16 fixture over its f32 twin's, per core."""
    return ratio_table(rows, presets, cols, STORED_FROM,
                       "Stored weights against f32 (instructions, `cost` / `cost`, the same build)",
                       "Each int8 or f16 fixture against the f32 fixture of the same data, map and D; the scalar "
                       "table's on every core, and on the Cortex-M55 the Helium table's against its own f32 figure.")


def fastfood_against_dense(rows, presets, cols):
    """Instructions of each dense fixture over its Fastfood twin's, per core."""
    return ratio_table(rows, presets, cols, DENSE_OVER_FASTFOOD,
                       "Fastfood against the dense map (instructions, `cost` / `cost`, the same build)",
                       "Each dense fixture's instructions over those of the Fastfood fixture of the same data and D: "
                       "above 1, Fastfood takes that many times fewer; below 1, more. The soft-float cores' float "
                       "operations are library calls, which Fastfood's smaller projection saves.")


# Each core against another on the same fixtures (instructions, `cost`): what a float operation
# costs where it is a libgcc call (M3 / M4F), Thumb-1 against Thumb-2 soft float (M0 / M3) and
# RV32IMC's libgcc against Arm's (RV32IMC / M3); then the M4F's count as time at 168 MHz, one
# instruction a cycle (an estimate: the M4F's loads and branches take more).
CORE_PAIRS = (("cortex-m3", "cortex-m4"), ("cortex-m0", "cortex-m3"), ("riscv32", "cortex-m3"))
M4F_HZ = 168e6


def cores_against_each_other(rows, presets):
    """Per fixture (the default `cost` rows), the instructions of one core over another's, and the
    M4F's count as milliseconds at M4F_HZ."""
    pairs = [(a, b) for a, b in CORE_PAIRS if a in presets and b in presets]
    if not pairs and "cortex-m4" not in presets:
        return []
    heads = [f"{NAMES[a]} / {NAMES[b]}" for a, b in pairs]
    m4 = "cortex-m4" in presets
    md = ["", "## Each core against another (instructions, `cost`)", "",
          "The same fixture's instructions per prediction on one core over another's: "
          + "; ".join(f"{NAMES[a]} / {NAMES[b]}" for a, b in pairs)
          + (f". Then the Cortex-M4F's count as time at {M4F_HZ / 1e6:.0f} MHz and one instruction a cycle "
             "(an estimate: its loads, branches and divisions take more)." if m4 else "."),
          "", "| fixture | " + " | ".join(heads) + (" | Cortex-M4F at 168 MHz |" if m4 else " |"),
          "|---|" + "---|" * (len(heads) + (1 if m4 else 0))]
    for label, by in rows.items():
        if "`" in label or "table" in label:
            continue
        # A core the fixture does not fit (the micro:bit's M0) may run it on an enlarged board:
        # `cost_covtype`'s row, the same build's core.
        by = dict(rows.get(label + ", `cost_covtype`", {}), **by)
        cells = [f"{by[a] / by[b]:.2f}" if a in by and b in by else "—" for a, b in pairs]
        if m4:
            cells.append(f"{by['cortex-m4'] / M4F_HZ * 1e3:.2f} ms" if "cortex-m4" in by else "—")
        if any(c != "—" for c in cells):
            md.append(f"| {label} | " + " | ".join(cells) + " |")
    return md


def derived(rows, presets, cols, fixed):
    """The ratios the docs quote, from the cost rows: each Helium row against the same build's
    scalar table, and the integer path's DSP and scalar loops against the f32 model they were
    converted from."""
    md = []
    if "cortex-m55" in presets:
        md += ["", "## Helium against the scalar table (Cortex-M55, the same build)", "",
               "| fixture | scalar table | Helium table | scalar / Helium |", "|---|---|---|---|"]
        for label, by in rows.items():
            if label.endswith(", helium-MVE table") and "cortex-m55" in by:
                scalar = rows.get(label[: -len(", helium-MVE table")], {}).get("cortex-m55")
                if scalar:
                    h = by["cortex-m55"]
                    md.append(f"| {label[: -len(', helium-MVE table')]} | {scalar:,} | {h:,} | {scalar / h:.2f} |")
    block32 = [(label[: -len(", `cost_block32`")], by) for label, by in rows.items()
               if label.endswith(", `cost_block32`") and label not in fixed]
    if block32:
        md += ["", "## 32-feature blocks against 128 (`cost_block32` / `cost`, the same build)", "",
               "What `rfk export --config-header` configures (`RFK_FEATURE_BLOCK 32`: a quarter of the "
               "features' scratch, the same outputs) against the default block, instructions per prediction.",
               "", "| fixture | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
        for label, by in block32:
            base = rows.get(label, {})
            cells = [f"{by[p] / base[p]:.3f}" if p in by and p in base else "—" for p in presets]
            if any(c != "—" for c in cells):
                md.append(f"| {label} | " + " | ".join(cells) + " |")
    md += small_against_default(rows, presets, cols)
    md += stored_against_f32(rows, presets, cols)
    md += fastfood_against_dense(rows, presets, cols)
    md += cores_against_each_other(rows, presets)
    sources = fixed_sources()
    lines = []
    for label, by in rows.items():
        if not label.endswith(", `cost_fixed`"):
            continue
        name = fixture_of(label)
        fixture = next((f for f in sources if f.startswith(name)), None)
        source = sources.get(fixture)
        f32 = next((r for lab, r in rows.items() if fixture_of(lab) == source and "`" not in lab
                    and "table" not in lab), None)
        scalar = rows.get(label.replace("`cost_fixed`", "`cost_fixed_scalar`"), {})
        for p, col in zip(presets, cols):
            if p in scalar and f32 and p in f32 and p in by:
                dsp = by[p]
                lines.append(f"| {col} | {name} (from {source}) | {f32[p]:,} | {scalar[p]:,} | {dsp:,} | "
                             f"{dsp / scalar[p]:.2f} | {dsp / f32[p]:.2f} |")
    if lines:
        md += ["", "## The integer path against f32 (the cores with both loops)", "",
               "| core | fixture | f32 (`cost`) | integer, scalar loops | integer, DSP/MVE loops | DSP / scalar | "
               "DSP / f32 |", "|---|---|---|---|---|---|---|"] + lines + [
                   "", "The f32 column is the scalar table's on every core, the Cortex-M55's included "
                   "(its Helium f32 figures are in the table above)."]
    return md


def image_table(results, presets):
    """The smallest whole firmware, where a preset builds it (`fixed_image_limits`: the Cortex-M0's
    16 KB image of the fixed-only core without Fastfood and binning, and a fixed-point model)."""
    md = []
    for p in presets:
        for line in results[p].get("fixed_image_limits", []):
            m = re.search(r"flash (\d+) B \(text (\d+), data (\d+)\) of (\d+); RAM (\d+) B \(data \+ bss (\d+), "
                          r"stack peak (\d+)\) of (\d+)", line)
            if m:
                v = [int(x) for x in m.groups()]
                if not md:
                    md = ["", "## The whole 16 KB firmware (`ctest -R fixed_image -V`)", "",
                          "`rfk_fixed_image`: the fixed-only core without Fastfood and binning "
                          "(`rfk_core_fixed_min`), `house_fixed` and its test vectors, its own start-up code; "
                          "the stack painted under qemu, the painter's 64-byte margin included.", "",
                          "| target | flash (text + data) | of | RAM (data + bss + stack peak) | of |",
                          "|---|---|---|---|---|"]
                md.append(f"| {NAMES.get(p, p)} | {v[0]:,} B | {v[3]:,} B | {v[4]:,} B ({v[5]:,} + {v[6]:,}) | "
                          f"{v[7]:,} B |")
    return md


# The images whose symbols breakdown() lists, against the empty image of the same build.
BREAKDOWN = [("footprint_pinned", "rfk_footprint_pinned.elf"), ("footprint_pinned_fixed", "rfk_footprint_pinned_fixed.elf"),
             ("footprint_pinned_small_house_pair", "rfk_footprint_pinned_small_house_pair.elf"),
             ("footprint_pinned_small_house_fixed", "rfk_footprint_pinned_small_house_fixed.elf")]


def short_name(name):
    """A demangled symbol without parameter lists, clone suffixes and anonymous namespaces: enough
    to find it in the sources (firmware_profile.py's table uses it too)."""
    name = re.sub(r" \[clone [^]]*\]", "", name.replace("(anonymous namespace)::", ""))
    while re.search(r"\([^()]*\)", name):
        name = re.sub(r"\([^()]*\)", "", name)
    return name


def symbols(elf):
    """{address: (size, [names])} of an image's sized symbols (`nm -S -C`; aliases share an address)."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", "-C", elf], capture_output=True, text=True).stdout
    by = {}
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4:
            size, names = int(parts[1], 16), by.setdefault(int(parts[0], 16), [0, []])[1]
            by[int(parts[0], 16)][0] = size
            name = short_name(parts[3])
            if name not in names:
                names.append(name)
    return by


def added(build, elf):
    """{name: size} of the symbols an image has that its build's empty image has not (nor the same size)."""
    empty = {}
    for size, names in symbols(os.path.join(build, "bin", "rfk_footprint_empty.elf")).values():
        for n in names:
            empty[n] = size
    out = {}
    for size, names in symbols(os.path.join(build, "bin", elf)).values():
        if size and not all(empty.get(n) == size for n in names):
            key = " / ".join(f"`{n}`" for n in sorted(names))
            out[key] = out.get(key, 0) + size
    return out


def breakdown(builds_by_preset, presets):
    """What the pinned images hold, symbol by symbol, on the Cortex-M4F and the Cortex-M0."""
    picks = [p for p in ("cortex-m4", "cortex-m0") if p in presets]
    cols, tables = [], []
    for p in picks:
        for test, elf in BREAKDOWN:
            path = os.path.join(builds_by_preset[p], "bin", elf)
            if os.path.exists(path):
                cols.append(f"`{test}`, {NAMES[p]}")
                tables.append(added(builds_by_preset[p], elf))
    if not cols:
        return []
    names = sorted({n for t in tables for n in t}, key=lambda n: (-max(t.get(n, 0) for t in tables), n))
    md = ["", "## What the pinned images add, symbol by symbol (`arm-none-eabi-nm -S -C`)", "",
          "Each symbol the image has beyond its build's empty image (the test's `main` included; "
          "aliases at one address on one row). The footprint figures above also count alignment padding.", "",
          "| symbol | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for n in names:
        md.append(f"| {n} | " + " | ".join(f"{t[n]:,}" if n in t else "" for t in tables) + " |")
    md.append("| sum | " + " | ".join(f"{sum(t.values()):,}" for t in tables) + " |")
    return md


def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def commit_now():
    return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def stamp(builds):
    """The README block's provenance: commit, date and command, the machine being the tables'."""
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    return f"`bench/firmware_tables.py` over {len(builds)} presets at {commit_now()}, {date}"


def header(builds):
    commit = commit_now()
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = re.search(r"model name\s*: (.*)", f.read()).group(1)
    except (OSError, AttributeError):
        pass
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    dirs = " ".join(os.path.relpath(b, ROOT) for b in builds)
    return (f"Generated by `bench/firmware_tables.py {dirs}` on {date}, commit {commit}; {cpu}, "
            f"{os.cpu_count()} CPUs ({platform.system()}); {version(['arm-none-eabi-gcc', '--version'])}; "
            f"{version(['qemu-system-arm', '--version'])}. Instruction counts are qemu's (`-icount shift=0`): "
            "deterministic for a build, not cycles. Flash: text + rodata + data the core adds to an empty "
            "image, libgcc included; stack: the static worst case from GCC's call-graph records.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "generated", "firmware.md"))
    ap.add_argument("builds", nargs="*")
    a = ap.parse_args()
    builds = a.builds or [d for p in ORDER for d in [os.path.join(ROOT, "build", p)]
                          if os.path.exists(os.path.join(d, "CTestTestfile.cmake"))]
    presets, results = [], {}
    for b in builds:
        preset = os.path.basename(os.path.normpath(b))
        presets.append(preset)
        results[preset] = parse(run_ctest(b))
        if not results[preset]:
            sys.exit(f"firmware_tables: no cost or footprint test ran in {b}")
    presets.sort(key=lambda p: ORDER.index(p) if p in ORDER else len(ORDER))
    cols = [NAMES.get(p, p) for p in presets]
    readme_stamp = stamp(builds)  # before anything is written: the tree's state as measured
    md = ["# Firmware figures (generated: do not edit)", "", header(builds), "",
          "## Flash and worst-case stack of each core image (`ctest -R footprint -V`)", "",
          "| core | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for test, what in CORES:
        cells = []
        for p in presets:
            flash, stack = footprint(results[p].get(test, []))
            cells.append("—" if flash is None else f"{flash:,} B / {stack:,} B")
        md.append(f"| `{test}`: {what} | " + " | ".join(cells) + " |")
    md += ["", "## Instructions per prediction (`ctest -R '^cost' -V`)", "",
           "| fixture | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    rows, shapes, order, ram, fixed = {}, {}, [], {}, set()  # fixed: the integer path's rows
    for p in presets:
        for test in sorted(t for t in results[p] if t.startswith("cost")):
            for label, n, stack, scratch, shape in costs(test, results[p][test]):
                shapes[label] = shape
                integer = shape[5]
                if label not in rows:
                    rows[label] = {}
                    order.append(label)
                rows[label][p] = n
                if integer:
                    fixed.add(label)
                block32_fixed = test == "cost_block32" and integer  # the integer path has no blocks
                if test in ("cost", "cost_fixed", "cost_covtype", "cost_block32") and "table" not in label \
                        and not block32_fixed:
                    key = label if test == "cost_block32" else label.replace(f", `{test}`", "")
                    ram.setdefault(key, {})[p] = (scratch, stack)
    for label in order:
        md.append(f"| {label} | " + " | ".join(f"{rows[label][p]:,}" if p in rows[label] else "—"
                                               for p in presets) + " |")
    md += derived(rows, presets, cols, fixed)
    md += floor_table(rows, shapes, presets, cols)
    md += ram_table(ram, presets, cols)
    md += handle_table(results, presets, cols)
    md += image_table(results, presets)
    md += breakdown({os.path.basename(os.path.normpath(b)): b for b in builds}, presets)
    text = "\n".join(md) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(a.out), exist_ok=True)
        tmp = a.out + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, a.out)
        print(f"firmware_tables: wrote {a.out} ({len(presets)} presets, {len(order)} cost rows)")
        block = readme_block(rows, results, ram, presets, readme_stamp)
        readme = os.path.join(ROOT, "README.md")
        # Only into a README that has the block's markers (blocks.write_block would append one).
        if block and a.out == os.path.join(ROOT, "docs", "generated", "firmware.md") and \
                README_BEGIN in open(readme).read():
            blocks.write_block(readme, block, README_BEGIN, README_END)
            print(f"firmware_tables: wrote {readme}'s firmware figures")


if __name__ == "__main__":
    main()
