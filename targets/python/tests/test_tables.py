"""Tables as a data scientist hands them over (issue 48): a DataFrame's column names go into the
model file, so the CLI matches a CSV's columns to them by name; class_weight keys that are no class
raise as scikit-learn does; OpenBLAS runs the kernels `rfk train` runs, with no environment
variable, so fit takes no longer than with OPENBLAS_CORETYPE set."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import rfk

pd = pytest.importorskip("pandas")


def _frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"width": rng.normal(size=n), "noise": rng.normal(size=n),
                      "height": rng.normal(size=n)})
    y = pd.Series(np.where(X["width"] + X["height"] > 0, "big", "small"), name="size")
    return X, y


def test_dataframe_column_names_are_stored_and_the_cli_matches_by_name(tmp_path, rfk_cli):
    X, y = _frame()
    clf = rfk.RandomFeatureClassifier(n_features=64, gamma=0.5, alpha=1e-3).fit(X, y)
    model = tmp_path / "m.rfk"
    clf.save(model)
    info = json.loads(subprocess.run([rfk_cli, "inspect", "--json", str(model)], capture_output=True, text=True,
                                     check=True).stdout)
    assert info["feature_names"] == ["width", "noise", "height"]
    assert info["label_name"] == "size"
    # The CSV's columns in another order, the label first: eval reads them by name.
    table = tmp_path / "t.csv"
    pd.concat([y, X[["height", "width", "noise"]]], axis=1).to_csv(table, index=False)
    r = subprocess.run([rfk_cli, "eval", "--json", "-m", str(model), str(table)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "matched to the model's features by name" in r.stderr
    assert json.loads(r.stdout)["accuracy"] == pytest.approx(clf.score(X, y))


def test_class_weight_keys_must_be_classes():
    X, y = _frame()
    with pytest.raises(ValueError, match="not in class"):
        rfk.RandomFeatureClassifier(n_features=32, gamma=0.5, alpha=1e-3,
                                    class_weight={"nonexistent": 2.0}).fit(X, y)
    rfk.RandomFeatureClassifier(n_features=32, gamma=0.5, alpha=1e-3, class_weight={"big": 2.0}).fit(X, y)


_BLAS_PROBE = """
import os, rfk, rfk._rfk as r
print(r.blas_advice() or "-", r.blas_core_switched or "-", os.environ.get("OPENBLAS_CORETYPE", "-"))
"""


def test_openblas_runs_the_kernels_rfk_train_runs_without_environment_variables():
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    out = subprocess.run([sys.executable, "-c", _BLAS_PROBE], capture_output=True, text=True, env=env, check=True)
    advice, switched, left = out.stdout.split()
    # No advice is left after import: either OpenBLAS chose well, or the import switched it.
    assert advice == "-", out.stdout
    # The environment is as it was: a child process does not inherit a core type.
    assert left == "-", out.stdout


def test_fit_after_the_switch_gives_the_model_of_a_process_started_with_openblas_coretype(tmp_path):
    # An unknown CPU, simulated: OpenBLAS loads (through NumPy, where Debian's libblas.so.3 is
    # OpenBLAS) with the generic Prescott kernels; then the variable is gone, as on a machine where
    # nobody set it, and importing rfk switches the kernels.
    script = tmp_path / "fit.py"
    script.write_text(
        "import os, sys, numpy as np\n"
        "os.environ.pop('OPENBLAS_CORETYPE', None)\n"
        "import rfk, rfk._rfk as r\n"
        "rng = np.random.default_rng(1)\n"
        "X = rng.normal(size=(400, 8)).astype(np.float32)\n"
        "y = (X[:, 0] + X[:, 1] ** 2 > 1).astype(int)\n"
        "m = rfk.RandomFeatureClassifier(n_features=256, gamma=0.2, alpha=1e-4).fit(X, y)\n"
        "sys.stderr.write(r.blas_core_switched + '\\n')\n"
        "sys.stdout.buffer.write(m.to_bytes())\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    unknown = subprocess.run([sys.executable, str(script)], capture_output=True,
                             env={**env, "OPENBLAS_CORETYPE": "Prescott"}, check=True)
    core = unknown.stderr.decode().strip().splitlines()[-1] if unknown.stderr.strip() else ""
    if not core:
        pytest.skip("nothing switched: NumPy does not share rfk's OpenBLAS here, or the CPU has no AVX")
    started = subprocess.run([sys.executable, str(script)], capture_output=True,
                             env={**env, "OPENBLAS_CORETYPE": core}, check=True)
    assert started.stderr.decode().strip() == ""  # it started with those kernels: nothing to switch
    assert unknown.stdout == started.stdout
