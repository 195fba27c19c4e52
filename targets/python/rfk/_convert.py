"""rfk.convert and rfk.export: ``rfk convert`` and ``rfk export`` for models in Python.

convert goes through the same library code as the CLI (rfk::host::ConvertModel: the same checks,
refits and messages, naming this API's parameters), so the same model and settings give the
same bytes; export writes what ``rfk export`` writes (without test vectors).
"""
import copy
import os
import warnings

import numpy as np

from . import _rfk
from ._estimators import _count, _threads, load


def _opened(model):
    """(the rfk._rfk.Model, the estimator it came from or None) of an estimator, bytes or a path."""
    if isinstance(model, (bytes, bytearray)):
        return _rfk.Model(bytes(model)), None
    if isinstance(model, (str, os.PathLike)):
        return _rfk.Model(_rfk.read_file(os.fspath(model))), None
    opened = getattr(model, "model_", None)
    if opened is None:
        raise ValueError("model must be a fitted rfk estimator, a model file's bytes or its path")
    return opened, model


def convert(model, *, storage=None, head_storage=None, calibrate=None, fixed=False, fixed_only=False,
            metadata=True, refit=True, memory_limit=None, n_jobs=None):
    """The model converted as ``rfk convert`` converts it, as a new fitted estimator.

    model: a fitted estimator, a model file's bytes or its path. storage ({storages}):
    W's (or Fastfood's G and S) and the head's storage; head_storage: the head's alone; neither
    wider than the source's. calibrate: representative rows (2-D array-like, e.g. the training
    X; at least as many rows as the head has features) on which an int8 head is refitted to
    reproduce the source's outputs (``--calibrate``); needed by fixed / fixed_only, whose input
    ranges set the integer path's scales. Without it, a classifier's int8 head whose outputs moved
    far is refitted on inputs drawn from the model's input statistics unless refit=False.
    metadata=False leaves out the metadata and input statistics. memory_limit (bytes; None:
    physical memory) bounds the refit; n_jobs its threads.

    An estimator comes back as a copy of it with the converted model_; bytes or a path as load()
    gives them. What ``rfk convert`` prints as warnings is raised as UserWarning; its notes are in
    the result's conversion_notes_. ValueError for settings or a model that cannot be converted.

    Examples
    --------
    >>> import numpy as np, rfk
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4)).astype(np.float32)
    >>> clf = rfk.RandomFeatureClassifier(n_features=128, random_state=1).fit(X, X[:, 0] > 0)
    >>> small = rfk.convert(clf, storage="int8", calibrate=X)
    >>> len(small.to_bytes()) < len(clf.to_bytes())
    True
    """
    opened, estimator = _opened(model)
    options = {
        "storage": "" if storage is None else str(storage),
        "head_storage": "" if head_storage is None else str(head_storage),
        "fixed": bool(fixed),
        "fixed_only": bool(fixed_only),
        "metadata": bool(metadata),
        "refit": bool(refit),
        "memory_limit": "physical" if memory_limit is None else str(_count("memory_limit", memory_limit, 1, 2**64)),
        "threads": _threads(n_jobs),
    }
    X = None if calibrate is None else np.asarray(calibrate)
    if X is not None and X.dtype not in (np.float32, np.float64):
        X = X.astype(np.float64)
    blob, messages = _rfk.convert(opened, options, X)
    for is_warning, text in messages:
        if is_warning:
            warnings.warn(text.removeprefix("warning: "), UserWarning, stacklevel=2)
    if estimator is None:
        result = load(blob)
    else:
        result = copy.copy(estimator)
        result.model_ = _rfk.Model(blob)
    result.conversion_notes_ = [text for is_warning, text in messages if not is_warning]
    return result


convert.__doc__ = convert.__doc__.replace("{storages}", _rfk.storage_names())


def export(model, header, *, name="model", source=None, config_header=None, pin=False):
    """Writes the model as C for firmware, as ``rfk export`` does (each file atomically).

    header: the header's path; with source (a .c path) the header declares the arrays and the
    source defines them once, else the header alone defines them (static). config_header: also
    write the core configuration this model needs (``rfk export --config-header``; core_config.h's
    switches). pin: also pin that core to this model's bytes (``rfk export --pin``): it opens this
    model only, links none of the validators and reads the model through the array `name`, which a
    header-only export then defines with external linkage (include it in one file). model: a fitted
    estimator, a model file's bytes or its path. ValueError for a name C cannot use, or for pin
    without config_header.

    Examples
    --------
    >>> rfk.export(clf, "model.h", name="model", config_header="rfk_config.h")  # doctest: +SKIP
    """
    if pin and config_header is None:
        raise ValueError("pin pins the core that config_header configures: give both")
    opened, _ = _opened(model)
    header = os.fspath(header)
    if source is None:
        files = [(header, opened.c_header(str(name), bool(pin)))]
    else:
        text_h, text_c = opened.c_source(str(name), os.path.basename(header))
        files = [(header, text_h), (os.fspath(source), text_c)]
    if config_header is not None:
        files.append((os.fspath(config_header), opened.core_config(str(name) if pin else "")))
    for path, text in files:
        _rfk.write_file_atomic(path, text.encode())
