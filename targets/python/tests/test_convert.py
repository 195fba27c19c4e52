"""rfk.convert and rfk.export make the files `rfk convert` and `rfk export` make: the same library
code (rfk::host::ConvertModel, ModelCSource, CoreConfigHeader), so the same bytes."""
import subprocess
import warnings

import numpy as np
import pytest

import rfk


def _data(n=400, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 - X[:, 2] > 0.3).astype(int)
    return X, y


def _write_csv(path, X):
    with open(path, "w") as f:
        for row in X:
            f.write(",".join("%.9g" % v for v in row) + ",0\n")


def _cli(cli, *args):
    r = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr


@pytest.fixture(scope="module")
def fitted():
    X, y = _data()
    return rfk.RandomFeatureClassifier(n_features=128, random_state=3, gamma=0.2, alpha=1e-3).fit(X, y), X


@pytest.mark.parametrize("settings,flags", [
    (dict(storage="f16"), ["--storage", "f16"]),
    (dict(storage="int8", refit=False), ["--storage", "int8", "--no-refit"]),
    (dict(head_storage="int8", metadata=False), ["--head-storage", "int8", "--no-metadata"]),
])
def test_convert_is_the_cli_convert(tmp_path, rfk_cli, fitted, settings, flags):
    est, X = fitted
    est.save(tmp_path / "m.rfk")
    _cli(rfk_cli, "convert", "-m", tmp_path / "m.rfk", "-o", tmp_path / "c.rfk", *flags)
    converted = rfk.convert(est, **settings)
    assert converted.to_bytes() == (tmp_path / "c.rfk").read_bytes()
    assert converted is not est and est.to_bytes() == (tmp_path / "m.rfk").read_bytes()
    np.testing.assert_array_equal(converted.classes_, est.classes_)
    assert (converted.predict(X) == est.predict(X)).mean() > 0.95
    # the path and the bytes convert alike, into load()'s estimator
    assert rfk.convert(tmp_path / "m.rfk", **settings).to_bytes() == converted.to_bytes()


def test_calibrated_and_fixed_conversions_are_the_cli_ones(tmp_path, rfk_cli, fitted):
    est, X = fitted
    est.save(tmp_path / "m.rfk")
    _write_csv(tmp_path / "x.csv", X)
    _cli(rfk_cli, "convert", "-m", tmp_path / "m.rfk", "-o", tmp_path / "cal.rfk", "--storage", "int8",
         "--calibrate", tmp_path / "x.csv", "--no-header")
    calibrated = rfk.convert(est, storage="int8", calibrate=X)
    assert calibrated.to_bytes() == (tmp_path / "cal.rfk").read_bytes()
    assert any(n.startswith("calibrated on 400 rows of X") for n in calibrated.conversion_notes_)
    _cli(rfk_cli, "convert", "-m", tmp_path / "m.rfk", "-o", tmp_path / "fixed.rfk", "--fixed",
         "--calibrate", tmp_path / "x.csv", "--no-header")
    assert rfk.convert(est, fixed=True, calibrate=X.astype(np.float64)).to_bytes() == \
        (tmp_path / "fixed.rfk").read_bytes()


@pytest.mark.parametrize("settings,message", [
    (dict(), "nothing to convert"),
    (dict(fixed=True), "calibrate=X"),
    (dict(storage="int4"), "storage / head_storage: storage must be f32, f16 or int8"),
    (dict(storage="f16", head_storage="f32", calibrate=np.zeros((200, 5))), "calibrate refits an int8 head"),
    (dict(storage="int8", calibrate=np.zeros((10, 4))), "X has 4 features but the model expects 5"),
])
def test_convert_refusals_name_the_parameters(fitted, settings, message):
    est, _ = fitted
    with pytest.raises(ValueError, match=message):
        rfk.convert(est, **settings)


def test_a_far_moved_head_warns_as_the_cli_does(fitted):
    """refit=False keeps plain rounding; where the outputs moved far that is a warning naming the
    parameters, else a note (this model's head is well regularised: a note)."""
    est, _ = fitted
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        converted = rfk.convert(est, storage="int8", refit=False)
    assert any("re-storing moved the outputs" in n for n in converted.conversion_notes_)
    assert not any("--" in n for n in converted.conversion_notes_)


def test_export_writes_the_cli_files(tmp_path, rfk_cli, fitted):
    est, _ = fitted
    est.save(tmp_path / "m.rfk")
    _cli(rfk_cli, "export", "-m", tmp_path / "m.rfk", "--c-header", tmp_path / "cli.h", "--c-source",
         tmp_path / "cli.c", "--name", "kws", "--config-header", tmp_path / "cli_config.h")
    rfk.export(est, tmp_path / "py.h", name="kws", source=tmp_path / "py.c", config_header=tmp_path / "py_config.h")

    def code(path):  # without the comments, which name the producer
        import re
        return re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S).replace("py.h", "cli.h")
    for py, cli in [("py.h", "cli.h"), ("py.c", "cli.c"), ("py_config.h", "cli_config.h")]:
        assert code(tmp_path / py) == code(tmp_path / cli), py
    with pytest.raises(ValueError):
        rfk.export(est, tmp_path / "bad.h", name="int")
    assert not (tmp_path / "bad.h").exists()
    # Pinned (`--pin`): the same text as the CLI's, the model's size and CRC in it.
    _cli(rfk_cli, "export", "-m", tmp_path / "m.rfk", "--c-header", tmp_path / "cli.h", "--name", "kws",
         "--config-header", tmp_path / "cli_pin.h", "--pin")
    rfk.export(est, tmp_path / "py.h", name="kws", config_header=tmp_path / "py_pin.h", pin=True)
    assert code(tmp_path / "py_pin.h") == code(tmp_path / "cli_pin.h")
    size = (tmp_path / "m.rfk").stat().st_size
    assert f"#define RFK_PIN_BYTES {size}u" in (tmp_path / "py_pin.h").read_text()
    with pytest.raises(ValueError, match="config_header"):
        rfk.export(est, tmp_path / "pin_only.h", name="kws", pin=True)
    assert not (tmp_path / "pin_only.h").exists()
