#!/usr/bin/env bash
# Runs a guide's shell blocks as a user would paste them: every ```sh block of GUIDE, in order, in
# one bash (set -euo pipefail) started in an empty WORK folder, with RFK (rfk's install prefix)
# and PATH set as the guide's install step sets them. A block right after a line
# "<!-- not run: WHY -->" is skipped (it installs what the test already has, or needs a board).
#   run_guide.sh GUIDE PREFIX WORK
set -euo pipefail
guide=$1 prefix=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
script="$work/guide.sh"
awk '
  /^<!-- not run:/ { skip = 1; next }
  /^```sh$/ { if (skip) { skipping = 1 } else { inside = 1; ++blocks; print "# block " blocks }; skip = 0; next }
  /^```$/ { inside = 0; skipping = 0; next }
  inside { print; next }
  skipping { next }
  NF { skip = 0 }
  END { if (blocks == 0) exit 1 }
' "$guide" >"$script" || { echo "run_guide.sh: no runnable sh block in $guide"; exit 1; }
echo "run_guide.sh: $(grep -c '^# block' "$script") blocks of $guide"
cd "$work"
RFK="$prefix" PATH="$prefix/bin:$PATH" bash -euo pipefail -x "$script"
