"""A multi-class model's rows prepared once for any cost matrix and prior (cmr001-cmr003):
the decisions on them are :func:`cost_matrix_decision`'s on the raw arrays, the Bayes rule's
confusion matrix is a hand count with numpy, and the page prepares the rows once per data
(a new matrix or prior only decides again)."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.core.constraints import cost_matrix as cm
from roc_dash.core.constraints.cost_matrix import (
    class_rows,
    cost_matrix_decision,
    decide_on_rows,
)

FIELDS = ("prior", "data_prior", "bayes_weights", "weights", "decided", "confusion",
          "bayes_confusion", "ovr_thresholds", "ovr_confusion", "argmax_confusion")


def _data(n, k, seed):
    """Calibrated probabilities (Dirichlet), each row's class drawn from them, and a cost
    matrix; the probabilities column-major, as the page reads a frame's columns."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(k, 0.7), n)
    y = (p.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1)
    cost = rng.uniform(1, 5, (k, k)) * (1 - np.eye(k))
    return np.asfortranarray(p), np.array([f"c{v}" for v in y], dtype=object), cost


@pytest.mark.parametrize(("n", "k", "fit_rows"), [(60, 3, 5000), (3000, 4, 300)])
def test_cmr001_rows_kept_decide_as_the_raw_arrays(monkeypatch, n, k, fit_rows):
    monkeypatch.setattr(cm, "FIT_ROWS", fit_rows)  # (3000 rows: a subset of 300 fitted on)
    p, y, cost = _data(n, k, seed=k)
    classes = [f"c{j}" for j in range(k)]
    rows = class_rows(p, y, classes=classes, fit_rows=fit_rows)
    assert rows.probabilities.flags["C_CONTIGUOUS"]
    assert (rows.subset is None) == (n <= fit_rows)
    for prior in (None, np.arange(1.0, k + 1)):
        kept = decide_on_rows(rows, cost, prior=prior)
        fresh = cost_matrix_decision(p, y, cost, classes=classes, prior=prior)
        for name in FIELDS:
            np.testing.assert_allclose(getattr(kept, name), getattr(fresh, name),
                                       rtol=1e-12, err_msg=name)
        for name in ("expected_cost", "bayes_cost", "ovr_cost", "argmax_cost", "method",
                     "notes"):
            assert getattr(kept, name) == getattr(fresh, name), name
        # the Bayes rule counted by hand: argmin over decisions of Σ_i (π_i/π0_i)·p_i·C[i, j]
        pi0 = np.bincount([int(v[1:]) for v in y], minlength=k) / n
        pi = pi0 if prior is None else prior / prior.sum()
        risk = (p * (pi / pi0)) @ cost
        truth = np.array([int(v[1:]) for v in y])
        hand = np.zeros((k, k))
        np.add.at(hand, (truth, risk.argmin(axis=1)), 1.0)
        np.testing.assert_array_equal(kept.bayes_confusion, hand)


def test_cmr002_bad_matrix_named_before_a_class_without_rows():
    p, y, cost = _data(50, 3, seed=1)
    rows = class_rows(p, np.where(y == "c2", "c1", y), classes=["c0", "c1", "c2"])
    with pytest.raises(ValueError, match="has shape"):
        decide_on_rows(rows, np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"every class needs rows: \['c2'\]"):
        decide_on_rows(rows, cost)


def test_cmr003_page_prepares_the_rows_once_per_data(tmp_path, monkeypatch):
    import roc_dash.core.constraints.cost_matrix as core
    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.class_costs import model_decision
    from roc_dash.app.server.store import DatasetStore

    calls = []
    real = core.class_rows
    monkeypatch.setattr(core, "class_rows", lambda *a, **k: calls.append(1) or real(*a, **k))
    cache = AnalysisCache(DatasetStore(tmp_path))
    key = "demo-multiclass/logistic regression"
    first = model_decision(cache, key, 1.0 - np.eye(3), None)[1]
    other = model_decision(cache, key, np.array([[0, 1, 5], [2, 0, 1], [10, 1, 0.0]]),
                           np.array([0.2, 0.3, 0.5]))[1]
    assert len(calls) == 1  # the second matrix and prior decided on the rows kept
    assert first.expected_cost != other.expected_cost
