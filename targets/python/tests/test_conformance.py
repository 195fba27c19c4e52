"""scikit-learn conformance: check_estimator's checks, and use inside Pipeline, GridSearchCV and
cross_val_score. The checks that cannot pass are declared by the estimators (_more_tags'
_xfail_checks; docs/PYTHON.md explains each) and show as skipped, not passed."""
import numpy as np
import pytest
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import rfk


@parametrize_with_checks([rfk.RandomFeatureClassifier(n_features=100),
                          rfk.RandomFeatureClassifier(n_features=100, calibration=False),
                          rfk.RandomFeatureRegressor(n_features=100), rfk.RandomFeatures(n_features=20)])
def test_sklearn_check(estimator, check):
    check(estimator)


def test_pipeline_and_cross_val_score():
    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(StandardScaler(), rfk.RandomFeatureClassifier(n_features=200, random_state=0))
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.mean() > 0.85
    pipe = make_pipeline(rfk.RandomFeatures(n_features=300, gamma=0.2, random_state=0), RidgeClassifier(alpha=1e-3))
    assert cross_val_score(pipe, X, y, cv=3).mean() > 0.85


def test_grid_search_sets_parameters():
    X, y = make_regression(n_samples=120, n_features=4, noise=0.1, random_state=0)
    search = GridSearchCV(rfk.RandomFeatureRegressor(n_features=100, alpha=1e-6),
                          {"gamma": [0.001, 0.05], "map": ["fourier", "orf"]}, cv=3).fit(X, y)
    assert search.best_params_["gamma"] in (0.001, 0.05)
    assert search.best_estimator_.model_.gamma == pytest.approx(search.best_params_["gamma"], rel=1e-6)
    assert f"map={search.best_params_['map']}" in search.best_estimator_.model_.metadata
