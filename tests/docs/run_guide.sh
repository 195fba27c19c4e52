#!/usr/bin/env bash
# Runs a guide's shell blocks as a user would paste them: every ```sh block of GUIDE, in order, in
# one bash (set -euo pipefail) started in an empty folder WORK/run, with the caller's environment
# (the tests set what the guide's install step would: RFK, PATH, rfk). A ```python block runs in
# the same sequence as `"${PYTHON:-python3}" - <<'RFK_GUIDE_PY'` (the caller sets PYTHON to an
# interpreter that imports rfk). With RUN_GUIDE_SHARED set, WORK/shared links to it, so the guide's
# ../shared/datasets paths resolve as beside a checkout. A block (sh or python) right after a line
# "<!-- not run: WHY -->" is skipped (it installs what the test already has, or runs for an hour).
#   run_guide.sh GUIDE WORK
set -euo pipefail
guide=$1 work=$2
rm -rf "$work"
mkdir -p "$work/run"
if [ -n "${RUN_GUIDE_SHARED:-}" ]; then
  [ -d "$RUN_GUIDE_SHARED/datasets" ] || { echo "run_guide.sh: no datasets under $RUN_GUIDE_SHARED: skipped"; exit 77; }
  ln -s "$RUN_GUIDE_SHARED" "$work/shared"
fi
script="$work/guide.sh"
awk '
  /^<!-- not run:/ { skip = 1; next }
  /^```sh$/ { if (skip) { skipping = 1 } else { inside = 1; ++blocks; print "# block " blocks }; skip = 0; next }
  /^```python$/ {
    if (skip) { skipping = 1 } else {
      inside = 1; python = 1; ++blocks; print "# block " blocks " (python)"
      print "\"${PYTHON:-python3}\" - <<'"'"'RFK_GUIDE_PY'"'"'"
    }
    skip = 0; next
  }
  /^```$/ { if (python) print "RFK_GUIDE_PY"; inside = 0; python = 0; skipping = 0; next }
  inside { print; next }
  skipping { next }
  NF { skip = 0 }
  END { if (blocks == 0) exit 1 }
' "$guide" >"$script" || { echo "run_guide.sh: no runnable sh or python block in $guide"; exit 1; }
echo "run_guide.sh: $(grep -c '^# block' "$script") blocks of $guide"
cd "$work/run"
bash -euo pipefail -x "$script"
