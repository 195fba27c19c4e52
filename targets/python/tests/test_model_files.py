"""The estimators and the CLI make and read the same files: the same data, options and seed give
byte-identical models through `rfk train` and fit(), and Python's predictions are the device
core's as `rfk predict` prints them."""
import pickle
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

import rfk


def _data(n=240, d=6, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 - X[:, 2]
    cuts = np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1])
    return X, np.digitize(score, cuts), score


def _write_csv(path, X, y):
    with open(path, "w") as f:
        for row, label in zip(X, y):
            f.write(",".join("%.9g" % v for v in row) + f",{label}\n")


def _cli(cli, *args):
    r = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


# (CLI arguments, estimator parameters): the same options said both ways.
CASES = [
    (["--features", 200, "--seed", 7, "--gamma", 0.1, "--lambda", 1e-3],
     dict(n_features=200, random_state=7, gamma=0.1, alpha=1e-3)),
    (["--features", 100, "--seed", 3], dict(n_features=100, random_state=3)),  # default gamma/lambda: CV
    (["--map", "orf-phase", "--features", 64, "--gamma", "scale", "--storage", "int8"],
     dict(map="orf-phase", n_features=64, gamma="scale", storage="int8")),
    (["--map", "fourier+binning", "--kernel", "laplacian", "--features", 50, "--grids", 8, "--lambda", 0.01,
      "--head-storage", "f16", "--no-standardize"],
     dict(map="fourier+binning", kernel="laplacian", n_features=50, grids=8, alpha=0.01, head_storage="f16",
          standardize=False)),
    (["--map", "fastfood", "--features", 64, "--class-weight", "balanced", "--gamma", "auto", "--lambda", "auto"],
     dict(map="fastfood", n_features=64, class_weight="balanced", gamma="auto", alpha="auto")),
    (["--features", 100, "--seed", 5, "--no-calibration"], dict(n_features=100, random_state=5, calibration=False)),
    (["--features", 60, "--seed", 4, "--storage", "f16", "--no-metadata"],
     dict(n_features=60, random_state=4, storage="f16", metadata=False)),
]


@pytest.mark.parametrize("cli_args,params", CASES)
@pytest.mark.parametrize("labels", ["int", "str", "binary"])
def test_classifier_matches_cli(tmp_path, rfk_cli, cli_args, params, labels):
    X, y, _ = _data(classes=2 if labels == "binary" else 3)
    if labels == "str":  # text labels: classes_ and the model's (lexicographic) order agree
        y = np.array(["zeta", "alpha", "mid"])[y]
    csv = tmp_path / "train.csv"
    _write_csv(csv, X, y)
    _cli(rfk_cli, "train", "--train", csv, "-o", tmp_path / "cli.rfk", "--task", "classification", "-q", *cli_args)
    est = rfk.RandomFeatureClassifier(**params).fit(X, y)
    est.save(tmp_path / "py.rfk")
    assert (tmp_path / "py.rfk").read_bytes() == (tmp_path / "cli.rfk").read_bytes()
    assert est.to_bytes() == (tmp_path / "cli.rfk").read_bytes()

    out = _cli(rfk_cli, "predict", "-m", tmp_path / "py.rfk", "--scores", "-q", csv).splitlines()[1:]
    raw = est.model_.decision(X)
    assert [line.split("\t")[0] for line in out] == [str(v) for v in est.predict(X)]
    assert [line.split("\t")[1:] for line in out] == [["%.9g" % v for v in row] for row in raw]
    assert set(est.predict(X)) <= set(est.classes_)
    assert list(est.classes_) == sorted(set(y))


def _proba_table(text):
    """`rfk predict --proba`'s table: the predictions, and {label: column of %.9g texts}."""
    lines = text.splitlines()
    header = lines[0].split("\t")
    assert header[0] == "prediction" and all(h.startswith("p ") for h in header[1:])
    rows = [line.split("\t") for line in lines[1:]]
    return [r[0] for r in rows], {h[2:]: [r[j] for r in rows] for j, h in enumerate(header) if j > 0}


@pytest.mark.parametrize("labels", ["int", "binary", "str-numbers"])
def test_predict_proba_is_the_cli_proba(tmp_path, rfk_cli, labels):
    """predict_proba's columns (classes_ order) are `rfk predict --proba`'s values, bit for bit, for
    labels whose model order differs from classes_ too ('9' < '10' in the model, not in classes_)."""
    X, y, _ = _data(classes=3 if labels == "int" else 2)
    if labels == "str-numbers":
        y = np.array(["9", "10"])[y]
    est = rfk.RandomFeatureClassifier(n_features=100, random_state=2).fit(X, y)
    est.save(tmp_path / "m.rfk")
    csv = tmp_path / "x.csv"
    _write_csv(csv, X, y)
    preds, columns = _proba_table(_cli(rfk_cli, "predict", "-m", tmp_path / "m.rfk", "--proba", "-q", csv))
    proba = est.predict_proba(X)
    assert proba.shape == (len(X), len(est.classes_)) and proba.dtype == np.float64
    for j, c in enumerate(est.classes_):
        assert columns[str(c)] == ["%.9g" % v for v in proba[:, j].astype(np.float32)]
    assert preds == [str(v) for v in est.predict(X)]
    assert np.allclose(proba.sum(axis=1), 1, atol=1e-6)
    assert np.array_equal(est.predict_log_proba(X), np.log(proba))
    # predict is the most probable class, on every row; decision_function agrees with it.
    assert (est.classes_[np.argmax(proba, axis=1)] == est.predict(X)).all()
    dec = est.decision_function(X)
    assert (est.classes_[(dec > 0).astype(int) if dec.ndim == 1 else np.argmax(dec, axis=1)] == est.predict(X)).all()
    # decision="raw": the sign / first maximum of the raw outputs, as `rfk predict --decision raw`.
    est.set_params(decision="raw")
    raw_preds, _ = _proba_table(_cli(rfk_cli, "predict", "-m", tmp_path / "m.rfk", "--proba", "--decision", "raw",
                                     "-q", csv))
    assert raw_preds == [str(v) for v in est.predict(X)]
    dec = est.decision_function(X)
    assert (est.classes_[(dec > 0).astype(int) if dec.ndim == 1 else np.argmax(dec, axis=1)] == est.predict(X)).all()
    with pytest.raises(ValueError, match="decision must be"):
        est.set_params(decision="argmax").predict(X)
    est.set_params(decision="calibrated")
    if len(est.classes_) == 2:  # platt-cubic is monotone: p(classes_[1]) never falls as the decision grows
        order = np.argsort(est.decision_function(X), kind="stable")
        assert (np.diff(proba[order, 1]) >= 0).all()


def test_calibration_properties():
    X, y, _ = _data(classes=2)
    binary = rfk.RandomFeatureClassifier(n_features=100).fit(X, y).model_
    assert binary.calibration_method in ("platt-cubic", "platt")
    assert len(binary.calibration_params) == (3 if binary.calibration_method == "platt-cubic" else 2)
    X, y, _ = _data(classes=3)
    multi = rfk.RandomFeatureClassifier(n_features=100).fit(X, y).model_
    assert multi.calibration_method in ("softmax-vector", "softmax-temperature")
    if multi.calibration_method == "softmax-vector":
        assert len(multi.calibration_params) == 2 * multi.num_outputs
    plain = rfk.RandomFeatureClassifier(n_features=100, calibration=False).fit(X, y).model_
    assert plain.calibration_method is None and plain.calibration_params == []
    with pytest.raises(ValueError, match="no calibration"):
        plain.proba(X)


@pytest.mark.parametrize("params,n,why", [(dict(calibration=False), 240, "calibration=False"),
                                          (dict(map="binning", grids=4), 240, "binning"),
                                          (dict(), 24, "rows per fold")])
def test_no_predict_proba_without_calibration(params, n, why):
    X, y, _ = _data(n=n)
    est = rfk.RandomFeatureClassifier(n_features=100, **params)
    assert hasattr(est, "predict_proba") == est.calibration  # before fit: whether fit will calibrate
    est.fit(X, y)
    assert not hasattr(est, "predict_proba") and not hasattr(est, "predict_log_proba")
    with pytest.raises(AttributeError) as err:
        est.predict_proba(X)
    assert why in "".join(str(e) for e in (err.value, err.value.__cause__, err.value.__context__) if e)
    with pytest.raises(ValueError, match="calibration must be"):
        rfk.RandomFeatureClassifier(calibration="yes").fit(X, y)


def test_load_keeps_the_calibration(tmp_path, rfk_cli):
    X, y, _ = _data()
    csv = tmp_path / "train.csv"
    _write_csv(csv, X, y)
    _cli(rfk_cli, "train", "--train", csv, "-o", tmp_path / "cal.rfk", "-q", "--features", 100)
    _cli(rfk_cli, "train", "--train", csv, "-o", tmp_path / "raw.rfk", "-q", "--features", 100, "--no-calibration")
    est = rfk.load(tmp_path / "cal.rfk")
    _, columns = _proba_table(_cli(rfk_cli, "predict", "-m", tmp_path / "cal.rfk", "--proba", "-q", csv))
    proba = est.predict_proba(X)
    for j, c in enumerate(est.classes_):
        assert columns[str(c)] == ["%.9g" % v for v in proba[:, j].astype(np.float32)]
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.predict_proba(X), proba)
    raw = rfk.load(tmp_path / "raw.rfk")
    assert not hasattr(raw, "predict_proba")


def test_numeric_labels_order_by_value(tmp_path, rfk_cli):
    """Labels 2, 10, 100: the model orders them by value, classes_ too; decision columns follow classes_."""
    X, y, _ = _data()
    y = np.array([10, 2, 100])[y]
    est = rfk.RandomFeatureClassifier(n_features=100).fit(X, y)
    assert list(est.classes_) == [2, 10, 100]
    assert est.model_.labels == ["2", "10", "100"]
    dec = est.decision_function(X)
    assert (est.classes_[np.argmax(dec, axis=1)] == est.predict(X)).all()


def test_string_labels_that_are_numbers(tmp_path):
    """Text labels '9' and '10': classes_ is lexicographic ('10' < '9'), the model's order numeric;
    the binary decision's sign follows classes_ (> 0: classes_[1])."""
    X, y, _ = _data(classes=2)
    ys = np.array(["9", "10"])[y]
    est = rfk.RandomFeatureClassifier(n_features=100).fit(X, ys)
    assert list(est.classes_) == ["10", "9"]
    assert est.model_.labels == ["9", "10"]
    dec = est.decision_function(X)
    assert (np.where(dec > 0, est.classes_[1], est.classes_[0]) == est.predict(X)).all()
    assert (est.predict(X) == ys).mean() > 0.8


def test_regressor_matches_cli(tmp_path, rfk_cli):
    X, _, t = _data()
    t = t.astype(np.float32).astype(np.float64)
    csv = tmp_path / "train.csv"
    _write_csv(csv, X, ["%.17g" % v for v in t])
    _cli(rfk_cli, "train", "--train", csv, "-o", tmp_path / "cli.rfk", "--task", "regression", "-q",
         "--features", 120, "--seed", 11)
    est = rfk.RandomFeatureRegressor(n_features=120, random_state=11).fit(X, t)
    assert est.to_bytes() == (tmp_path / "cli.rfk").read_bytes()
    out = _cli(rfk_cli, "predict", "-m", tmp_path / "cli.rfk", "-q", csv).split()
    assert out == ["%.9g" % v for v in est.predict(X).astype(np.float32)]


def test_metadata_false_drops_the_section(tmp_path, rfk_cli):
    """metadata=False (--no-metadata): the model without its metadata section, predicting the same
    scores; the regressor's bytes are the CLI's; a value that is not a bool is refused."""
    X, y, t = _data()
    with_md = rfk.RandomFeatureRegressor(n_features=80, random_state=2).fit(X, t)
    without = rfk.RandomFeatureRegressor(n_features=80, random_state=2, metadata=False).fit(X, t)
    assert "lambda=" in with_md.model_.metadata
    assert without.model_.metadata == ""
    assert len(without.to_bytes()) < len(with_md.to_bytes())
    assert (without.predict(X) == with_md.predict(X)).all()
    csv = tmp_path / "train.csv"
    _write_csv(csv, X, ["%.17g" % v for v in t.astype(np.float32).astype(np.float64)])
    _cli(rfk_cli, "train", "--train", csv, "-o", tmp_path / "cli.rfk", "--task", "regression", "-q",
         "--features", 80, "--seed", 2, "--no-metadata")
    est = rfk.RandomFeatureRegressor(n_features=80, random_state=2, metadata=False)
    assert est.fit(X, t.astype(np.float32).astype(np.float64)).to_bytes() == (tmp_path / "cli.rfk").read_bytes()
    with pytest.raises(ValueError, match="metadata must be True or False"):
        rfk.RandomFeatureClassifier(metadata="no").fit(X, y)


def test_sparse_fit_matches_cli_libsvm(tmp_path, rfk_cli):
    rng = np.random.default_rng(1)
    X = sp.random(200, 30, density=0.1, format="csr", random_state=2, dtype=np.float32)
    y = (np.asarray(X.sum(axis=1)).ravel() > np.median(np.asarray(X.sum(axis=1)))).astype(int)
    X.data = np.round(X.data * 100) / 100  # short decimals: the file's text is the same floats
    path = tmp_path / "train.svm"
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            row = X[i]
            f.write(f"{y[i]} " + " ".join(f"{j + 1}:{v:.9g}" for j, v in zip(row.indices, row.data)) + "\n")
    _cli(rfk_cli, "train", "--train", path, "-o", tmp_path / "cli.rfk", "-q", "--task", "classification",
         "--features", 80, "--gamma", 0.5, "--lambda", 1e-3)
    est = rfk.RandomFeatureClassifier(n_features=80, gamma=0.5, alpha=1e-3).fit(X, y)
    assert est.to_bytes() == (tmp_path / "cli.rfk").read_bytes()
    assert (est.predict(X) == est.predict(X.toarray())).all()
    del rng


def test_load_reads_cli_files(tmp_path, rfk_cli):
    X, y, _ = _data()
    csv = tmp_path / "train.csv"
    _write_csv(csv, X, y)
    _cli(rfk_cli, "train", "--train", csv, "-o", tmp_path / "m.rfk", "-q", "--features", 100)
    est = rfk.load(tmp_path / "m.rfk")
    assert isinstance(est, rfk.RandomFeatureClassifier)
    assert list(est.classes_) == [0, 1, 2] and est.n_features_in_ == 6
    out = _cli(rfk_cli, "predict", "-m", tmp_path / "m.rfk", "-q", csv).split()
    assert out == [str(v) for v in est.predict(X)]
    assert rfk.load(est.to_bytes()).to_bytes() == est.to_bytes()


def test_input_layouts_give_the_same_outputs():
    X, y, _ = _data()
    est = rfk.RandomFeatureClassifier(n_features=100).fit(X, y)
    ref = est.decision_function(X)
    for variant in (X.astype(np.float64), np.asfortranarray(X), np.asfortranarray(X.astype(np.float64)),
                    np.repeat(X, 2, axis=1)[:, ::2], sp.csr_matrix(X)):
        assert np.array_equal(est.decision_function(variant), ref)
    # Training from float64 or F-ordered X is training on the same floats.
    assert rfk.RandomFeatureClassifier(n_features=100).fit(np.asfortranarray(X.astype(np.float64)), y).to_bytes() \
        == est.to_bytes()


def test_errors_are_python_exceptions(tmp_path):
    X, y, _ = _data()
    est = rfk.RandomFeatureClassifier(n_features=100).fit(X, y)
    with pytest.raises(ValueError, match="expects 6"):
        est.model_.decision(np.zeros((2, 5), np.float32))
    with pytest.raises(ValueError, match="byte offset"):
        rfk.load(est.to_bytes()[:100])
    bad = bytearray(est.to_bytes())
    bad[40] ^= 0xFF
    with pytest.raises(ValueError, match="byte offset"):
        rfk.load(bytes(bad))
    with pytest.raises(ValueError, match="even"):
        rfk.RandomFeatureClassifier(n_features=101).fit(X, y)
    with pytest.raises(ValueError, match="unknown kernel"):
        rfk.RandomFeatureClassifier(kernel="polynomial").fit(X, y)
    with pytest.raises(ValueError, match="storage"):
        rfk.RandomFeatureClassifier(n_features=100, storage="f8").fit(X, y)
    with pytest.raises(ValueError, match="gamma"):
        rfk.RandomFeatureClassifier(gamma=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="NaN|infinity"):
        est.predict(np.full((1, 6), np.nan))
    with pytest.raises(ValueError, match="non-finite|prediction failed"):
        est.model_.decision(np.full((1, 6), np.inf, np.float32))
    with pytest.raises(OSError):
        est.save(tmp_path / "missing-dir" / "m.rfk")
    with pytest.raises(OSError):
        rfk.load(tmp_path / "nothing.rfk")


def test_pickle_keeps_the_model_bytes():
    X, y, _ = _data()
    est = rfk.RandomFeatureClassifier(n_features=100, storage="f16").fit(X, y)
    back = pickle.loads(pickle.dumps(est))
    assert back.to_bytes() == est.to_bytes()
    assert np.array_equal(back.decision_function(X), est.decision_function(X))
    t = rfk.RandomFeatures(n_features=50, gamma=0.3).fit(X)
    assert np.array_equal(pickle.loads(pickle.dumps(t)).transform(X), t.transform(X))


def test_random_features_approximate_the_gaussian_kernel():
    """z(x).z(y) estimates exp(-gamma ||x - y||^2), RBFSampler's kernel, for the same gamma."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 5)) * 0.5
    gamma = 0.4
    Z = rfk.RandomFeatures(n_features=20000, gamma=gamma, random_state=5).fit_transform(X).astype(np.float64)
    exact = np.exp(-gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    assert np.abs(Z @ Z.T - exact).max() < 0.05
    wrong = np.exp(-2 * gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    assert np.abs(Z @ Z.T - wrong).max() > 0.05


def test_c_header_is_the_cli_export(tmp_path, rfk_cli):
    """to_c_header holds the bytes and macros `rfk export` writes (the comments name the producer)."""
    import re
    X, y, _ = _data()
    est = rfk.RandomFeatureClassifier(n_features=64, storage="int8").fit(X, y)
    est.save(tmp_path / "m.rfk")
    _cli(rfk_cli, "export", "-m", tmp_path / "m.rfk", "--c-header", tmp_path / "m.h", "--name", "kws")

    def code(text):
        return re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    assert code(est.to_c_header("kws")) == code((tmp_path / "m.h").read_text())
    assert "KWS_BYTES" in est.to_c_header("kws")
    with pytest.raises(ValueError):
        est.to_c_header("int")


@pytest.mark.parametrize("params", [dict(grids=-1, map="binning"), dict(n_features=0), dict(cv=1.5),
                                    dict(memory_limit=0), dict(alpha=-1.0), dict(standardize="yes"),
                                    dict(map="binning", bins_per_grid=-3), dict(n_jobs=0)])
def test_bad_parameters_raise_value_error_at_fit(params):
    X, y, _ = _data()
    with pytest.raises(ValueError):
        rfk.RandomFeatureClassifier(**params).fit(X, y)


@pytest.mark.parametrize("params, words", [
    (dict(n_features=7), "n_features must be even for map='fourier'"),
    (dict(max_model_bytes=64), "max_model_bytes='64 B' holds no feature"),
    (dict(max_model_bytes=64), "fewer bits (storage), or give n_features")])
def test_training_errors_name_the_python_parameters(params, words):
    # The checks that need the data run at training (ValidateOptions, the default D's budget); their
    # messages name the estimator's parameters, never the CLI's flags.
    X, y, _ = _data()
    with pytest.raises(ValueError) as err:
        rfk.RandomFeatureClassifier(**params).fit(X, y)
    assert words in str(err.value)
    assert "--" not in str(err.value)


def test_blas_advice_leaves_a_set_openblas_coretype_alone():
    # rfk.host BetterBlasCore: empty once OPENBLAS_CORETYPE is set (the user's choice, or rfk's);
    # a core name only where OpenBLAS fell back to its generic kernels.
    import os
    import sys
    code = "import rfk._rfk as r; print(repr(r.blas_advice()))"
    forced = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, OPENBLAS_CORETYPE="Haswell"),
                            capture_output=True, text=True, check=True).stdout
    assert forced.strip() == "''"
    free = subprocess.run([sys.executable, "-c", code], env={k: v for k, v in os.environ.items()
                                                             if k != "OPENBLAS_CORETYPE"},
                          capture_output=True, text=True, check=True).stdout.strip()
    assert free in ("''", "'SkylakeX'", "'Haswell'", "'Sandybridge'")


def test_one_version_everywhere(rfk_cli):
    """rfk.__version__, the installed distribution's version and `rfk --version` are all
    project(rfk VERSION ...) of CMakeLists.txt, the one place it is written."""
    import importlib.metadata
    import os
    import re
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..")
    with open(os.path.join(root, "CMakeLists.txt")) as f:
        project = re.search(r"project\(rfk VERSION ([0-9.]+)", f.read()).group(1)
    assert rfk.__version__ == project
    assert _cli(rfk_cli, "--version").strip() == f"rfk {project}"
    try:  # pip install . (scripts/test-python.sh); an in-tree run has no distribution
        assert importlib.metadata.version("rfk") == project
    except importlib.metadata.PackageNotFoundError:
        pass


def test_map_names_from_the_library(rfk_cli):
    """The map names in RandomFeatures' docstring and `rfk train --help` are the library's registry
    (rfk::host::FourierMapNames), every one of which trains."""
    names = rfk._rfk.map_names()
    assert "qmc-phase" in names and "{maps}" not in rfk.RandomFeatures.__doc__
    assert names in " ".join(rfk.RandomFeatures.__doc__.split())
    assert names in " ".join(_cli(rfk_cli, "train", "--help").split())
    X = np.random.default_rng(0).standard_normal((20, 3))
    for name in names.split(", "):
        assert rfk.RandomFeatures(map=name, n_features=8).fit(X).transform(X).shape == (20, 8)


def test_storage_names_from_the_format_table(rfk_cli):
    """The storage names in the estimators' and convert's docstrings and the CLI's help are the format
    table's user storages (RFK_FORMAT_STORAGES, kForUser), every one of which trains."""
    names = rfk._rfk.storage_names()
    assert names == "f32, f16 or int8"
    for doc in (rfk.RandomFeatureClassifier.__doc__, rfk.RandomFeatureRegressor.__doc__, rfk.convert.__doc__):
        assert "{storages}" not in doc and names in " ".join(doc.split())
    for command in ("train", "convert"):
        assert names in " ".join(_cli(rfk_cli, command, "--help").split())
    X = np.random.default_rng(0).standard_normal((40, 3))
    y = (X[:, 0] > 0).astype(int)
    for name in names.replace(" or ", ", ").split(", "):
        assert rfk.RandomFeatureClassifier(n_features=16, storage=name).fit(X, y).score(X, y) > 0.5
