#!/usr/bin/env bash
# The Python package's tests (scripts/test.sh runs this after the release preset): installs
# targets/python's `rfk` the way a user does -- `pip install .` into a virtual environment that
# sees Debian's NumPy, SciPy and scikit-learn (--system-site-packages), offline
# (--no-build-isolation; setup.py builds the extension with CMake: the library and the module
# only, in build/temp.*) -- then runs the pytest suite from outside the source tree against that
# install, with the release preset's CLI for the byte-identity tests (RFK_CLI, default
# build/release/bin/rfk). Last, docs/PYTHON.md's python blocks run as a user pastes them, with that
# install (tests/docs/run_guide.sh, in build/docs_python). PYTHON picks the interpreter (default
# /usr/bin/python3, Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-/usr/bin/python3}
venv=$root/build/python-venv
"$python" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --no-build-isolation --disable-pip-version-check -q "$root"
cd "$root/build"
RFK_CLI=${RFK_CLI:-$root/build/release/bin/rfk} "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$root/targets/python/tests"
PYTHON="$venv/bin/python" bash "$root/tests/docs/run_guide.sh" "$root/docs/PYTHON.md" "$root/build/docs_python"
