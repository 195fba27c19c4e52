"""Where the tests find the package and the CLI.

The package: the installed `rfk` when there is one, else the in-tree one (targets/python/rfk with _rfk built there by
-DRFK_PYTHON=ON). The CLI, for the byte-identity tests: $RFK_CLI, else the first of
build/python/bin/rfk and build/release/bin/rfk that exists.
"""
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
try:  # an installed rfk (pip install .) first
    import rfk  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent))


@pytest.fixture(scope="session")
def rfk_cli():
    env = os.environ.get("RFK_CLI")
    candidates = [pathlib.Path(env)] if env else [ROOT / "build/python/bin/rfk", ROOT / "build/release/bin/rfk"]
    for c in candidates:
        if c.is_file():
            return str(c)
    pytest.fail("the rfk CLI was not found: build it (cmake --build build/python --target rfk) or set RFK_CLI")
