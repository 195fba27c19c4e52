#!/usr/bin/env python3
"""Footprint of rfk's inference core on a Cortex-M target, and the check against its budget.

Flash and RAM: `size` of an image with the core (footprint_core.elf) minus the same image without
it (footprint_empty.elf); the linker maps attribute the difference to the archives it came from
(librfk_core.a, libm, libgcc, libc), so libm can be excluded as the budget says.

Stack: GCC's -fcallgraph-info=su records (one .ci file per core object: every function's frame
size and its call edges). The worst case from each entry point is the largest sum of frames along
a call chain. Indirect calls (the kernel tables) are taken to reach any function defined in
kernels_scalar.cc or kernels_helium.cc, the tables a bare-metal core has, so the bound is
conservative. Calls that leave the
core (libgcc's soft-float helpers, memcpy, ...) have no record here and are listed, not counted.

Exit status 1 if the core's flash (without libm) or stack exceeds its budget, 2 on bad input.
Standard library only.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys


def size_of(size_tool, elf):
    out = subprocess.run([size_tool, elf], check=True, capture_output=True, text=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    return {"flash": text + data, "ram": data + bss, "text": text, "data": data, "bss": bss}


SECTION_RE = re.compile(r"^ (\.(?:text|rodata|data|bss)\S*)\s*(?:0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*))?$")
CONT_RE = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")


def origin(path):
    base = os.path.basename(path)
    m = re.match(r"(lib[^()]+?\.a)\(", base)
    return m.group(1) if m else base


def map_bytes(map_path):
    """Allocated input-section bytes per origin (archive or object) from a GNU ld map file."""
    totals = collections.Counter()
    in_map = False
    pending = None
    with open(map_path) as f:
        for line in f:
            if line.startswith("Linker script and memory map"):
                in_map = True
                continue
            if not in_map:
                continue
            if pending is not None:
                m = CONT_RE.match(line)
                if m and int(m.group(1), 16) != 0:
                    totals[origin(m.group(3))] += int(m.group(2), 16)
                pending = None
                continue
            m = SECTION_RE.match(line)
            if not m:
                continue
            if m.group(2) is None:
                pending = m.group(1)
            elif int(m.group(2), 16) != 0:
                totals[origin(m.group(4))] += int(m.group(3), 16)
    return totals


NODE_RE = re.compile(r'^node: \{ title: "([^"]+)" label: "((?:[^"\\]|\\.)*)"')
EDGE_RE = re.compile(r'^edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
BYTES_RE = re.compile(r"\\n(\d+) bytes \(([^)]+)\)")


def load_callgraph(directory):
    frames, kinds, edges, defined_in = {}, {}, collections.defaultdict(set), {}
    files = sorted(glob.glob(os.path.join(directory, "**", "*.ci"), recursive=True))
    if not files:
        sys.exit(f"footprint: no .ci files under {directory} (build with -fcallgraph-info=su)")
    for path in files:
        with open(path) as f:
            for line in f:
                m = NODE_RE.match(line)
                if m:
                    b = BYTES_RE.search(m.group(2))
                    if b:
                        frames[m.group(1)] = int(b.group(1))
                        kinds[m.group(1)] = b.group(2)
                        defined_in[m.group(1)] = os.path.basename(path)
                    continue
                m = EDGE_RE.match(line)
                if m:
                    edges[m.group(1)].add(m.group(2))
    return frames, kinds, edges, defined_in


def worst_stack(entry, frames, kinds, edges, defined_in):
    indirect = {f for f, src in defined_in.items() if src.startswith(("kernels_scalar", "kernels_helium"))}
    external, memo = set(), {}

    def visit(fn, stack):
        if fn in memo:
            return memo[fn]
        if fn in stack:
            sys.exit(f"footprint: recursion through {fn}: no static stack bound")
        if fn == "__indirect_call":
            callees = indirect
            own = 0
        elif fn not in frames:
            external.add(fn)
            return (0, [fn + " (external)"])
        else:
            callees = edges.get(fn, ())
            own = frames[fn]
            if kinds[fn] not in ("static",):
                sys.exit(f"footprint: {fn} has a {kinds[fn]} frame: no static stack bound")
        best = (0, [])
        for c in sorted(callees):
            r = visit(c, stack | {fn})
            if r[0] > best[0]:
                best = r
        memo[fn] = (own + best[0], [f"{fn} ({own} B)"] + best[1])
        return memo[fn]

    return visit(entry, frozenset()), sorted(external)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", required=True)
    ap.add_argument("--empty", required=True)
    ap.add_argument("--core", required=True)
    ap.add_argument("--callgraph-dir", required=True)
    ap.add_argument("--entry", action="append", required=True)
    ap.add_argument("--flash-budget", type=int, required=True)
    ap.add_argument("--stack-budget", type=int, required=True)
    ap.add_argument("--mcu", default="")
    a = ap.parse_args()

    empty, core = size_of(a.size, a.empty), size_of(a.size, a.core)
    by_origin = map_bytes(a.core + ".map")
    by_origin.subtract(map_bytes(a.empty + ".map"))
    libm = by_origin.get("libm.a", 0)
    flash = core["flash"] - empty["flash"]
    ram = core["ram"] - empty["ram"]
    print(f"{a.mcu}: inference core adds {flash} B flash (text+rodata+data), {ram} B RAM (data+bss)")
    print("  by origin: " + ", ".join(f"{k} {v:+d} B" for k, v in sorted(by_origin.items()) if v))
    core_flash = flash - libm
    print(f"  flash without libm: {core_flash} B (budget {a.flash_budget} B)")

    frames, kinds, edges, defined_in = load_callgraph(a.callgraph_dir)
    worst = 0
    for entry in a.entry:
        (depth, chain), external = worst_stack(entry, frames, kinds, edges, defined_in)
        worst = max(worst, depth)
        print(f"  stack from {entry}: {depth} B worst case: " + " -> ".join(chain))
        if external:
            print(f"    calls leaving the core (not counted): {', '.join(external)}")
    print(f"  worst-case stack: {worst} B (budget {a.stack_budget} B)")
    failed = False
    if core_flash > a.flash_budget:
        print(f"FAIL: flash {core_flash} B exceeds the budget of {a.flash_budget} B")
        failed = True
    if worst > a.stack_budget:
        print(f"FAIL: stack {worst} B exceeds the budget of {a.stack_budget} B")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
