"""What a benchmark script prints above its table (docs/HACKING.md: every figure names its machine,
commit, date and command): `line(command)` is "Machine: ARCH CPU, N CPUs; commit C; DATE UTC;
`command`", the same words in every script that prints one."""
import os
import platform
import subprocess
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def commit():
    """The checkout's short commit ("" outside a git checkout)."""
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


def cpu():
    """/proc/cpuinfo's model name, or "?" where there is none."""
    try:
        with open("/proc/cpuinfo") as f:
            return next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        return "?"


def line(command):
    return (f"Machine: {platform.machine()} {cpu()}, {os.cpu_count()} CPUs; commit {commit()}; "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; `{command}`")
