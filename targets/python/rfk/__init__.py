"""rfk: random-feature kernel machines with scikit-learn estimators.

The estimators train through rfk's host library (the same code path as ``rfk train``) and predict
through the device core on the model file's bytes, so a model fitted here is the file the CLI
writes and predicts bit-identically in firmware. API reference: docs/PYTHON.md.
"""

from ._rfk import __version__
from ._estimators import (
    RandomFeatureClassifier,
    RandomFeatureRegressor,
    RandomFeatures,
    load,
)
from ._convert import convert, export

__all__ = ["RandomFeatureClassifier", "RandomFeatureRegressor", "RandomFeatures", "convert", "export", "load"]
