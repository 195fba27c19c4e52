#!/usr/bin/env python3
"""A whole firmware image against a board's limits (docs/EMBEDDED.md, "The 16 KB firmware").

Flash: `size`'s text + data of the linked image (vector table, startup, C runtime, core, model,
everything). RAM: the image's own report of data + bss + the stack's measured peak (fixed_image.c
paints the free RAM and runs), read from its output under the emulator. Exit status 1 when a limit
is exceeded or the image fails, 2 on bad input. Standard library only.
"""
import argparse
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", required=True)
    ap.add_argument("--flash-limit", type=int, required=True)
    ap.add_argument("--ram-limit", type=int, required=True)
    ap.add_argument("image")
    ap.add_argument("emulator", nargs=argparse.REMAINDER, help="the command that runs the image (last)")
    a = ap.parse_args()
    out = subprocess.run([a.size, a.image], check=True, capture_output=True, text=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    flash = text + data
    run = subprocess.run(a.emulator + [a.image], capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr  # qemu writes semihosting's SYS_WRITE0 to either, by version
    sys.stdout.write(output)
    m = re.search(r"image ram (\d+) stack (\d+) total (\d+) mismatches (\d+)", output)
    if m is None:
        print(f"image_limits: no report from the image (exit {run.returncode})\n{run.stderr}")
        return 2
    ram, stack, total, bad = (int(v) for v in m.groups())
    print(f"image {a.image}: flash {flash} B (text {text}, data {data}) of {a.flash_limit}; "
          f"RAM {total} B (data + bss {ram}, stack peak {stack}) of {a.ram_limit}; size's bss {bss}")
    total = max(total, data + bss + stack)  # size's data + bss with the same stack, if larger
    ok = run.returncode == 0 and bad == 0 and flash <= a.flash_limit and total <= a.ram_limit
    if not ok:
        print("image_limits: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
