#!/usr/bin/env python3
"""Instructions executed per function by a bare-metal test firmware under qemu.

Runs ELF on qemu-system-arm (or -riscv32) one instruction per translation block (-singlestep,
-d exec,nochain: every executed instruction is logged once), maps each logged PC to the function
around it (the ELF's symbols from `nm`), and prints the top functions by instructions executed,
whole run (opens, the harness's own loops and every prediction it makes). qemu's trace of a run
of about 10 M instructions is about 1 GB: it goes to a temporary file, deleted afterwards.

--markdown prints a Markdown table headed by the machine, commit, date and command instead
(bench/provenance.py): what docs/generated/firmware_profile.md holds, written by (docs/EMBEDDED.md,
"DSP kernels"):
  bench/firmware_profile.py --machine mps2-an386 --markdown build/cortex-m4/bin/rfk_cost_fixed.elf \
      > docs/generated/firmware_profile.md
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

import firmware_tables  # short_name: one rule for the symbols' names
import provenance


def symbols(elf, nm):
    out = subprocess.run([nm, "-n", "-C", elf], check=True, capture_output=True, text=True).stdout
    table = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            table.append((int(parts[0], 16), parts[2]))
    table.sort()
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("elf")
    ap.add_argument("--machine", required=True, help="qemu -M board, as the preset's tests use it")
    ap.add_argument("--qemu", default="qemu-system-arm")
    ap.add_argument("--nm", default="arm-none-eabi-nm")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--markdown", action="store_true", help="a Markdown table with its provenance line")
    args = ap.parse_args()
    table = symbols(args.elf, args.nm)
    starts = [a for a, _ in table]
    counts = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        subprocess.run([args.qemu, "-M", args.machine, "-nographic", "-monitor", "none",
                        "-semihosting-config", "enable=on,target=native", "-singlestep",
                        "-d", "exec,nochain", "-D", trace, "-kernel", args.elf],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=600)
        pc_re = re.compile(r"\[[0-9a-f]+/([0-9a-f]+)/")
        with open(trace) as f:
            for line in f:
                m = pc_re.search(line)
                if m:
                    i = bisect.bisect_right(starts, int(m.group(1), 16) & ~1) - 1
                    counts[table[i][1] if i >= 0 else "?"] += 1
    total = sum(counts.values())
    if total == 0:
        sys.exit("no instruction logged: is the machine right for this ELF?")
    if not args.markdown:
        print(f"{total} instructions executed")
        for name, n in counts.most_common(args.top):
            print(f"{n:10d} {100.0 * n / total:5.1f}%  {name[:100]}")
        return
    elf = os.path.relpath(args.elf, provenance.ROOT)
    print(f"# Instructions by function: `{elf}` on qemu `-M {args.machine}` (generated: do not edit)\n")
    print(provenance.line(f"bench/firmware_profile.py --machine {args.machine} --markdown {elf}") +
          f"; {args.qemu} `-singlestep -d exec,nochain`, each executed instruction attributed to the function "
          "around its address; the whole run (the opens, the harness's loops and every prediction).\n")
    print("| function | instructions | share |\n|---|---|---|")
    for name, n in counts.most_common(args.top):
        print(f"| `{firmware_tables.short_name(name)}` | {n:,} | {100.0 * n / total:.1f} % |")
    print(f"| all {len(counts)} functions | {total:,} | 100 % |")


if __name__ == "__main__":
    main()
