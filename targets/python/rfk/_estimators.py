"""scikit-learn estimators over rfk's host library (training) and device core (prediction).

Each fitted estimator holds one model file's bytes (``to_bytes()``), opened by the device core
(``rfk._rfk.Model``); pickling stores those bytes. Training builds the same
``rfk::host::TrainOptions`` as ``rfk train`` does from the matching options (docs/PYTHON.md lists
the correspondence), so the same data, options and seed give a byte-identical file.
"""

import numbers
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _rfk

_blas_warned = False


def _warn_blas_once():
    """OpenBLAS runs generic kernels on a CPU its version does not know (rfk.host BetterBlasCore),
    2-3x slower. Importing rfk switches them in place (rfk._rfk.blas_core_switched); where that
    could not be done (an OpenBLAS without DYNAMIC_ARCH), this says what to set, once."""
    global _blas_warned
    core = _rfk.blas_advice()
    if core and not _blas_warned:
        _blas_warned = True
        warnings.warn(f"OpenBLAS runs its generic kernels on this CPU, which it does not know; training is "
                      f"2-3x faster with OPENBLAS_CORETYPE={core} set before Python starts", RuntimeWarning,
                      stacklevel=3)

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # scikit-learn < 1.6: the estimator's own method
    def _validate_data(estimator, *args, **kwargs):
        return estimator._validate_data(*args, **kwargs)

_DTYPES = (np.float32, np.float64)
_CHUNK = 4096  # rows of sparse input densified at a time for prediction


def _label_text(v):
    """A class label or target as the text rfk's trainer reads (as a CSV field would hold it)."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        return repr(float(v))
    return str(v)


def _seed(random_state):
    """rfk's seed: random_state None means rfk's default seed 1 (models are reproducible)."""
    if random_state is None:
        return 1
    if isinstance(random_state, numbers.Integral):
        if random_state < 0:
            raise ValueError(f"random_state must be >= 0; got {random_state}")
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    raise ValueError(f"random_state must be None, an int or a RandomState; got {random_state!r}")


def _threads(n_jobs):
    if n_jobs is None or n_jobs == -1:
        return 0  # all hardware threads, as `rfk train` by default; the model does not depend on it
    if isinstance(n_jobs, numbers.Integral) and n_jobs > 0:
        return int(n_jobs)
    raise ValueError(f"n_jobs must be None, -1 or a positive int; got {n_jobs!r}")


def _count(name, value, low=0, end=2**32):
    """An integer parameter passed to rfk (which holds it as an unsigned 32- or 64-bit integer)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not low <= value < end:
        raise ValueError(f"{name} must be an int from {low} to {end - 1}; got {value!r}")
    return int(value)


def _feature_names(estimator):
    """The DataFrame column names fit saw (feature_names_in_, all strings), for the model file."""
    names = getattr(estimator, "feature_names_in_", None)
    return None if names is None else [str(n) for n in names]


def _target_name(y):
    """y's name (a pandas Series' name) for the model file's label column, else ""."""
    name = getattr(y, "name", None)
    return "" if name is None else str(name)


def _calibrated_logits(model, raw):
    """The calibration's logits for raw outputs (n x K float32), in float32 as rfk::Probabilities
    computes them: binary -t (t = A s + B + C s^3; > 0 where p(class 1) > 1/2), multi-class
    z_k = a_k s_k + b_k (softmax-vector) or A s_k (softmax-temperature)."""
    c = np.asarray(model.calibration_params, dtype=np.float32)
    method = model.calibration_method
    if method in ("platt", "platt-cubic"):
        s = raw[:, :1]
        t = c[0] * s + c[1]
        if method == "platt-cubic":
            c3 = c[2] * (s * s * s)
            t = np.where(np.isnan(c3), t, t + c3)
        return -t
    if method == "softmax-vector":
        K = raw.shape[1]
        return c[:K] * raw + c[K:2 * K]
    return c[0] * raw


def _decision_rows(model, X):
    """The model's raw outputs (n x K float32) for validated X (dense or CSR)."""
    if sp.issparse(X):
        out = np.empty((X.shape[0], model.num_outputs), dtype=np.float32)
        for i in range(0, X.shape[0], _CHUNK):
            out[i:i + _CHUNK] = model.decision(X[i:i + _CHUNK].toarray().astype(np.float32, copy=False))
        return out
    return model.decision(X)


class _ModelBytes:
    """A fitted model_ (rfk._rfk.Model): its bytes, the file, and pickling as those bytes."""

    def to_bytes(self):
        """The model file's bytes (docs/FORMAT.md), as `rfk train` writes them."""
        check_is_fitted(self, "model_")
        return self.model_.to_bytes()

    def to_c_header(self, name="model"):
        """The model as a header-only C file for firmware, as `rfk export` writes it: `name[]`,
        the 16-byte-aligned blob the device core reads in place, and NAME_BYTES, NAME_INPUT_DIM,
        NAME_SCRATCH_BYTES, ... (docs/EMBEDDED.md)."""
        check_is_fitted(self, "model_")
        return self.model_.c_header(str(name))

    def save(self, path):
        """Writes the model file atomically (a temporary in the same folder, fsync, rename)."""
        _rfk.write_file_atomic(str(path), self.to_bytes())

    def __getstate__(self):
        state = super().__getstate__()
        if "model_" in state:
            state = dict(state)
            state["model_"] = state["model_"].to_bytes()
        return state

    def __setstate__(self, state):
        if isinstance(state.get("model_"), bytes):
            state = dict(state)
            state["model_"] = _rfk.Model(state["model_"])
        super().__setstate__(state)


# check_estimator's checks that cannot pass, with the reason (docs/PYTHON.md lists them too).
_XFAIL = {
    "check_sample_weights_invariance":
        "a zero sample_weight is not the same as removing the row: rfk's data-scale gamma, its "
        "standardisation and its cross-validation folds use every row; weights apply to the ridge "
        "fit and the validation losses (as with `rfk train --weight-column`)",
}
# The classifier with decision="raw" and calibration (predict is then not argmax(predict_proba)).
_XFAIL_RAW_CALIBRATED = {
    "check_classifiers_train":
        "decision='raw': predict is the sign / first maximum of the raw outputs, and the calibration's "
        "per-class scales and biases can move the most probable class off it where two outputs are close",
}
_DECISIONS = ("calibrated", "raw")


def _xfail_checks(estimator):
    """The expected failures of one estimator (scikit-learn >= 1.6: pass it as
    parametrize_with_checks' expected_failed_checks, or its result as check_estimator's)."""
    if isinstance(estimator, RandomFeatures):
        return {}
    if isinstance(estimator, RandomFeatureClassifier) and estimator.calibration and estimator.decision == "raw":
        return {**_XFAIL, **_XFAIL_RAW_CALIBRATED}
    return dict(_XFAIL)


class _ModelEstimator(_ModelBytes, BaseEstimator):
    """What the classifier and the regressor share: options, training, the model's bytes."""

    def _more_tags(self):  # scikit-learn < 1.6
        return {"_xfail_checks": _xfail_checks(self)}

    if hasattr(BaseEstimator, "__sklearn_tags__"):  # scikit-learn >= 1.6 (expected failures:
        def __sklearn_tags__(self):                  # _xfail_checks, passed by the caller)
            tags = super().__sklearn_tags__()
            tags.input_tags.sparse = True
            return tags

    def _train_options(self, classification, sample_weight):
        gamma = self.gamma
        if gamma is None:
            gamma = "default"
        elif isinstance(gamma, str):
            if gamma not in ("auto", "scale"):
                raise ValueError(f"gamma must be a positive number, 'scale', 'auto' or None; got {gamma!r}")
        elif isinstance(gamma, numbers.Real) and np.isfinite(gamma) and gamma > 0:
            gamma = repr(float(gamma))
        else:
            raise ValueError(f"gamma must be a positive number, 'scale', 'auto' or None; got {gamma!r}")
        alpha = self.alpha
        if alpha is None:
            alpha = "default"
        elif isinstance(alpha, str):
            if alpha != "auto":
                raise ValueError(f"alpha must be a number >= 0, 'auto' or None; got {alpha!r}")
        elif isinstance(alpha, numbers.Real) and np.isfinite(alpha) and alpha >= 0:
            alpha = repr(float(alpha))
        else:
            raise ValueError(f"alpha must be a number >= 0, 'auto' or None; got {alpha!r}")
        bin_gamma = self.bin_gamma
        if bin_gamma is None:
            bin_gamma = "default"
        elif isinstance(bin_gamma, numbers.Real) and np.isfinite(bin_gamma) and bin_gamma > 0:
            bin_gamma = repr(float(bin_gamma))
        else:
            raise ValueError(f"bin_gamma must be a positive number or None; got {bin_gamma!r}")
        if not isinstance(self.metadata, (bool, np.bool_)):
            raise ValueError(f"metadata must be True or False; got {self.metadata!r}")
        standardize = {"auto": -1, True: 1, False: 0}.get(self.standardize)
        if standardize is None or not isinstance(self.standardize, (str, bool)):
            raise ValueError(f"standardize must be 'auto', True or False; got {self.standardize!r}")
        n_features = "default" if self.n_features is None else str(_count("n_features", self.n_features, 1))
        max_model_bytes = ("16M" if self.max_model_bytes is None
                           else str(_count("max_model_bytes", self.max_model_bytes, 1, 2**64)))
        return {
            "map": str(self.map),
            "kernel": str(self.kernel),
            "grids": _count("grids", self.grids),
            "bins_per_grid": _count("bins_per_grid", self.bins_per_grid),
            "bin_gamma": bin_gamma,
            "n_features": n_features,
            "max_model_bytes": max_model_bytes,
            "seed": _seed(self.random_state),
            "threads": _threads(self.n_jobs),
            "folds": _count("cv", self.cv),
            "memory_limit": ("physical" if self.memory_limit is None
                             else str(_count("memory_limit", self.memory_limit, 1, 2**64))),
            "standardize": standardize,
            "gamma": gamma,
            "lambda": alpha,
            "classification": classification,
            "calibrate": bool(getattr(self, "calibration", True)),  # the regressor's: unused
            "class_weight": "balanced" if getattr(self, "class_weight", None) == "balanced" else "none",
            "sample_weight": None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64).tolist(),
            "storage": str(self.storage),
            "head_storage": "" if self.head_storage is None else str(self.head_storage),
            "metadata": bool(self.metadata),
            "feature_names": _feature_names(self),
            "target_name": "",
        }

    def _train(self, X, labels, classification, sample_weight, target_name=""):
        if X.shape[0] < 2:
            raise ValueError(f"rfk needs at least 2 samples to train; got {X.shape[0]} sample")
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        options = self._train_options(classification, sample_weight)
        options["target_name"] = target_name
        _warn_blas_once()
        if sp.issparse(X):
            X = X.tocsr()
            X.sort_indices()
            csr = (X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data.astype(np.float32))
            blob, reason = _rfk.train(None, csr, X.shape[0], X.shape[1], labels, options)
        else:
            blob, reason = _rfk.train(X, None, 0, 0, labels, options)
        self.model_ = _rfk.Model(blob)
        # Why the model has no calibration (TrainReport::calibration_reason), in this API's words.
        self._calibration_reason = "calibration=False" if reason == "--no-calibration" else reason

    def _decision(self, X):
        check_is_fitted(self, "model_")
        X = _validate_data(self, X, accept_sparse="csr", dtype=_DTYPES, reset=False)
        return _decision_rows(self.model_, X)

_COMMON_DOC = """
    Parameters mirror ``rfk train`` (docs/PYTHON.md gives the table): map (a Fourier map: {maps};
    binning; or a Fourier map + '+binning'), kernel, n_features (-D; None: 'default', from the
    rows, within max_model_bytes: bytes, None: 16 MiB),
    gamma (None: 'default'; 'scale', 'auto' or a number), alpha (--lambda; None: 'default'),
    random_state (--seed; None: 1), n_jobs (--threads; None or -1: all cores), storage and
    head_storage ({storages}), standardize ('auto', True, False), grids, bins_per_grid, bin_gamma, cv (--folds),
    memory_limit (bytes; None: physical memory), metadata (True; False: --no-metadata, the model
    without its metadata section). The classifier's calibration (True; False: --no-calibration)
    fits the model's calibration section, which predict_proba applies, and its decision
    ('calibrated': predict is the most probable class; 'raw': the sign / first maximum of the raw
    outputs, as `rfk predict --decision raw`) says how predict and decision_function decide.
"""
# The names from the library's tables (the lists `rfk train --help` prints).
_COMMON_DOC = _COMMON_DOC.replace("{maps}", _rfk.map_names()).replace("{storages}", _rfk.storage_names())


class RandomFeatureClassifier(ClassifierMixin, _ModelEstimator):
    __doc__ = "Ridge classifier on random features (one-vs-rest), trained as `rfk train` does." + _COMMON_DOC + """
    Examples
    --------
    >>> import numpy as np, rfk
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4)).astype(np.float32)
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> clf = rfk.RandomFeatureClassifier(n_features=200, random_state=1).fit(X, y)
    >>> clf.predict(X[:3]).shape, clf.predict_proba(X[:3]).shape
    ((3,), (3, 2))
    >>> clf.save("model.rfk")          # the file `rfk predict -m model.rfk` reads  # doctest: +SKIP
"""

    def __init__(self, map="fourier", kernel="gaussian", n_features=None, gamma=None, alpha=None,
                 random_state=None, n_jobs=None, storage="f32", head_storage=None, standardize="auto",
                 class_weight=None, grids=30, bins_per_grid=0, bin_gamma=None, cv=3, memory_limit=None,
                 calibration=True, metadata=True, decision="calibrated", max_model_bytes=None):
        self.map = map
        self.kernel = kernel
        self.n_features = n_features
        self.gamma = gamma
        self.alpha = alpha
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.storage = storage
        self.head_storage = head_storage
        self.standardize = standardize
        self.class_weight = class_weight
        self.grids = grids
        self.bins_per_grid = bins_per_grid
        self.bin_gamma = bin_gamma
        self.cv = cv
        self.memory_limit = memory_limit
        self.max_model_bytes = max_model_bytes
        self.calibration = calibration
        self.metadata = metadata
        self.decision = decision

    def _validate_decision(self):
        if self.decision not in _DECISIONS:
            raise ValueError(f"decision must be 'calibrated' or 'raw'; got {self.decision!r}")

    def _check_decision(self):
        """Whether predict and decision_function use the calibration (ValueError for a bad decision)."""
        self._validate_decision()
        return self.decision == "calibrated" and self.model_.calibration_method is not None

    def fit(self, X, y, sample_weight=None):
        if not isinstance(self.calibration, (bool, np.bool_)):
            raise ValueError(f"calibration must be True or False; got {self.calibration!r}")
        self._validate_decision()  # before the training, as scikit-learn checks parameters
        target_name = _target_name(y)
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=_DTYPES)
        check_classification_targets(y)
        classes, y_index = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError("Classifier can't train when only one class is present (rfk needs at least 2 classes)")
        cw = self.class_weight
        if isinstance(cw, dict):  # per-class weights: folded into the row weights
            unknown = [k for k in cw if not np.any(classes == k)]
            if unknown:  # as scikit-learn's compute_class_weight
                raise ValueError(f"The classes, {unknown}, are not in class: class_weight's keys must be "
                                 f"among y's classes {list(classes)}")
            w = np.array([float(cw.get(c, 1.0)) for c in classes])[y_index]
            sample_weight = w if sample_weight is None else w * np.asarray(sample_weight, dtype=np.float64)
        elif cw not in (None, "balanced"):
            raise ValueError(f"class_weight must be None, 'balanced' or a dict; got {cw!r}")
        texts = [_label_text(c) for c in classes]
        self._train(X, [texts[i] for i in y_index], True, sample_weight, target_name)
        where = {t: i for i, t in enumerate(texts)}
        model_labels = self.model_.labels
        if len(model_labels) != len(classes):
            del self.model_
            raise ValueError(f"rfk reads these labels as {len(model_labels)} classes ({model_labels}), not "
                             f"{len(classes)}: labels that are the same number ('1', '+1') are one class")
        self.classes_ = classes
        self._class_of_output = np.array([where[t] for t in model_labels], dtype=np.intp)
        return self

    def decision_function(self, X):
        """Binary: one value per row, > 0 where predict gives classes_[1]; else one score per class in
        classes_, largest for predict's class. With decision='calibrated' and a calibrated model, the
        calibration's logits (binary -(A s + B + C s^3), multi-class a_k s_k + b_k: predict_proba is
        their sigmoid / softmax); else the raw outputs s (docs/PYTHON.md)."""
        raw = self._decision(X)
        if self._check_decision():
            raw = _calibrated_logits(self.model_, raw)
        if raw.shape[1] == 1:
            return raw[:, 0] if self._class_of_output[1] == 1 else -raw[:, 0]
        out = np.empty_like(raw)
        out[:, self._class_of_output] = raw
        return out

    def predict(self, X):
        """The class the device core decides: rfk::DecideClass (with a calibration section, the most
        probable class, argmax of predict_proba) or, with decision='raw', rfk::DecideClassRaw (the
        sign or the first maximum of the raw outputs)."""
        raw = self._decision(X)
        idx = self.model_.decide(raw, raw=not self._check_decision())
        return self.classes_[self._class_of_output[idx.astype(np.intp)]]

    def _has_probabilities(self):
        """available_if's test: before fit, whether fit will try to calibrate (calibration); after,
        whether the model has a calibration section. Raises AttributeError saying why not."""
        if not hasattr(self, "model_"):
            if not self.calibration:
                raise AttributeError("predict_proba is not available: calibration=False")
            return True
        if self.model_.calibration_method is None:
            reason = getattr(self, "_calibration_reason", "") or (
                "the model file has no calibration section (trained with --no-calibration or calibration=False, "
                "with random binning, on too few rows per calibration fold, or by an older rfk)")
            raise AttributeError(f"predict_proba is not available: the model has no calibration ({reason})")
        return True

    @available_if(_has_probabilities)
    def predict_proba(self, X):
        """Calibrated class probabilities (n x len(classes_), columns in classes_ order, rows sum to 1
        within float32 rounding): the device core's rfk::Probabilities on the raw outputs, as
        `rfk predict --proba` prints them (float32 values, returned as float64). Their argmax is
        predict's class (unless decision='raw')."""
        check_is_fitted(self, "model_")
        X = _validate_data(self, X, accept_sparse="csr", dtype=_DTYPES, reset=False)
        if sp.issparse(X):
            raw = np.vstack([self.model_.proba(X[i:i + _CHUNK].toarray().astype(np.float32, copy=False))
                             for i in range(0, X.shape[0], _CHUNK)]
                            or [np.empty((0, len(self.classes_)), np.float32)])
        else:
            raw = self.model_.proba(X)
        out = np.empty(raw.shape, dtype=np.float64)
        out[:, self._class_of_output] = raw
        return out

    @available_if(_has_probabilities)
    def predict_log_proba(self, X):
        """np.log(predict_proba(X)): -inf where a probability is 0 in float32."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

class RandomFeatureRegressor(RegressorMixin, _ModelEstimator):
    __doc__ = "Ridge regression on random features, trained as `rfk train --task regression` does." + _COMMON_DOC + """
    Examples
    --------
    >>> import numpy as np, rfk
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = np.sin(X[:, 0]) + 0.1 * X[:, 1]
    >>> reg = rfk.RandomFeatureRegressor(n_features=200, random_state=1).fit(X, y)
    >>> reg.predict(X[:2]).shape
    (2,)
"""

    def __init__(self, map="fourier", kernel="gaussian", n_features=None, gamma=None, alpha=None,
                 random_state=None, n_jobs=None, storage="f32", head_storage=None, standardize="auto",
                 grids=30, bins_per_grid=0, bin_gamma=None, cv=3, memory_limit=None, metadata=True,
                 max_model_bytes=None):
        self.map = map
        self.kernel = kernel
        self.n_features = n_features
        self.gamma = gamma
        self.alpha = alpha
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.storage = storage
        self.head_storage = head_storage
        self.standardize = standardize
        self.grids = grids
        self.bins_per_grid = bins_per_grid
        self.bin_gamma = bin_gamma
        self.cv = cv
        self.memory_limit = memory_limit
        self.max_model_bytes = max_model_bytes
        self.metadata = metadata

    def fit(self, X, y, sample_weight=None):
        target_name = _target_name(y)
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=_DTYPES, y_numeric=True)
        self._train(X, [repr(float(v)) for v in y], False, sample_weight, target_name)
        return self

    def predict(self, X):
        """The model's output per row (float32 values, returned as float64)."""
        return self._decision(X)[:, 0].astype(np.float64)


class RandomFeatures(TransformerMixin, _ModelBytes, BaseEstimator):
    """The random feature map z(x) alone, like scikit-learn's RBFSampler (fit draws it, transform applies it).

    gamma is the kernel's parameter (gaussian: exp(-gamma ||x - y||^2), as RBFSampler's); map is a
    Fourier-type map ({maps}). The features are computed by the device core
    (rfk::ComputeFeatures), in float32.

    Examples
    --------
    >>> import numpy as np, rfk
    >>> X = np.random.default_rng(0).normal(size=(5, 3))
    >>> rfk.RandomFeatures(n_features=64, gamma=0.5, random_state=1).fit_transform(X).shape
    (5, 64)
    """

    def __init__(self, kernel="gaussian", map="fourier", n_features=1000, gamma=1.0, random_state=None):
        self.kernel = kernel
        self.map = map
        self.n_features = n_features
        self.gamma = gamma
        self.random_state = random_state

    def fit(self, X, y=None):
        X = _validate_data(self, X, accept_sparse="csr", dtype=_DTYPES)
        if not (isinstance(self.gamma, numbers.Real) and np.isfinite(self.gamma) and self.gamma > 0):
            raise ValueError(f"gamma must be a positive number; got {self.gamma!r}")
        if not (isinstance(self.n_features, numbers.Integral) and self.n_features > 0):
            raise ValueError(f"n_features must be a positive int; got {self.n_features!r}")
        self.model_ = _rfk.Model(_rfk.feature_spec(str(self.kernel), str(self.map), int(self.n_features),
                                                   X.shape[1], float(self.gamma), _seed(self.random_state)))
        self.n_features_out_ = self.model_.num_features
        return self

    def transform(self, X):
        check_is_fitted(self, "model_")
        X = _validate_data(self, X, accept_sparse="csr", dtype=_DTYPES, reset=False)
        if sp.issparse(X):
            return np.vstack([self.model_.features(X[i:i + _CHUNK].toarray()) for i in range(0, X.shape[0], _CHUNK)]
                             or [np.empty((0, self.n_features_out_), np.float32)])
        return self.model_.features(X)

    def _more_tags(self):  # scikit-learn < 1.6
        return {"preserves_dtype": [np.float32]}

    if hasattr(BaseEstimator, "__sklearn_tags__"):  # scikit-learn >= 1.6
        def __sklearn_tags__(self):
            tags = super().__sklearn_tags__()
            tags.transformer_tags.preserves_dtype = ["float32"]
            tags.input_tags.sparse = True
            return tags

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "model_")
        name = type(self).__name__.lower()
        return np.array([f"{name}{i}" for i in range(self.n_features_out_)], dtype=object)



# The map names, from the library's registry (the same list as `rfk train --help`).
RandomFeatures.__doc__ = RandomFeatures.__doc__.replace("{maps}", _rfk.map_names())


def _label_values(labels):
    """A loaded model's class labels as an array: ints or floats when they all read as numbers."""
    for kind in (int, float):
        try:
            return np.array([kind(t) for t in labels])
        except ValueError:
            pass
    return np.array(labels, dtype=object)


def load(path_or_bytes):
    """Reads a model file (or its bytes) written by the CLI or by save(): a fitted estimator.

    A classification model gives a RandomFeatureClassifier (classes_ from the model's labels,
    numbers when they all read as numbers), a regression model a RandomFeatureRegressor. The
    estimator's parameters are the defaults; the model's own settings are in its bytes
    (``rfk inspect``). Raises ValueError, with the field and byte offset, for a file that does not open.
    """
    blob = path_or_bytes if isinstance(path_or_bytes, (bytes, bytearray)) else _rfk.read_file(str(path_or_bytes))
    model = _rfk.Model(bytes(blob))
    if model.labels:
        est = RandomFeatureClassifier()
        est.classes_ = _label_values(model.labels)
        est._class_of_output = np.arange(len(model.labels), dtype=np.intp)
    else:
        est = RandomFeatureRegressor()
    est.model_ = model
    est.n_features_in_ = model.input_dim
    return est
