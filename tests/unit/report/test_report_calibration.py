"""The report's calibration and decision-curve keys (rca001-rca004), checked against
scikit-learn, naive loops and the report's own optimum (an independent path: the hull's
optimal point and its expected cost)."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.report import build_report


def _table(seed=0, n=400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = np.round(1 / (1 + np.exp(-(1.2 * rng.normal(size=n) + 1.8 * y - 1.5))), 3)
    margin = np.round(rng.normal(size=n) + y, 3)
    frames = [pd.DataFrame({"label": y, "score": s, "model": name, "fold": "1",
                            "weight": 1.0}) for name, s in (("prob", p), ("margin", margin))]
    return pd.concat(frames, ignore_index=True), y, {"prob": p, "margin": margin}


def _doc(table, **conditions):
    return build_report(analyse(table, Conditions(**conditions)))


def test_rca001_calibration_per_model():
    table, y, scores = _table()
    doc = _doc(table)
    by_name = {m["name"]: m["calibration"] for m in doc["models"]}
    assert set(by_name["prob"]) == {"brier", "ece", "mce", "in_unit_interval", "note"}
    prob = by_name["prob"]
    s = scores["prob"]
    assert prob["in_unit_interval"] is True
    assert prob["brier"] == pytest.approx(brier_score_loss(y, s), rel=1e-12)
    prob_true, prob_pred = calibration_curve(y, s, n_bins=10)
    bins = np.searchsorted(np.linspace(0, 1, 11)[1:-1], s)
    counts = np.bincount(bins, minlength=10)
    counts = counts[counts > 0]
    gaps = np.abs(prob_true - prob_pred)
    assert prob["ece"] == pytest.approx(np.dot(counts, gaps) / s.size, rel=1e-12)
    assert prob["mce"] == pytest.approx(gaps.max(), rel=1e-12)
    margin = by_name["margin"]
    assert margin["in_unit_interval"] is False
    assert margin["brier"] is margin["ece"] is margin["mce"] is None
    assert "not probabilities" in margin["note"]


def test_rca002_decision_curve_against_naive_net_benefit():
    table, y, scores = _table(1)
    dc = _doc(table)["decision_curve"]
    grid = np.array(dc["threshold_probability"])
    pi = y.mean()
    assert dc["prior_pos"] == pytest.approx(pi)
    np.testing.assert_allclose(dc["treat_all"], pi - (1 - pi) * grid / (1 - grid), rtol=1e-12)
    models = {m["name"]: m for m in dc["models"]}
    s = scores["prob"]
    naive = [(np.sum(y & (s >= p)) - np.sum(~y & (s >= p)) * p / (1 - p)) / y.size
             for p in grid]
    np.testing.assert_allclose(models["prob"]["net_benefit"], naive, rtol=1e-12, atol=1e-14)
    assert models["margin"]["net_benefit"] is None
    assert models["margin"]["in_unit_interval"] is False
    joint = np.array(dc["hull_net_benefit"])
    for m in models.values():
        assert np.all(joint >= np.array(m["hull_net_benefit"]) - 1e-12)


@pytest.mark.parametrize(("cost_fp", "cost_fn", "prior"), [(1, 1, None), (1, 4, None),
                                                            (3, 1, 0.1), (1, 20, 0.6)])
def test_rca003_current_p_t_is_the_reports_optimum(cost_fp, cost_fn, prior):
    """At p_t = c(FP)/(c(FP)+c(FN)): NB = π − EC/c(FN), EC the report's optimal expected cost,
    at the same threshold and model."""
    table, _, _ = _table(2)
    doc = _doc(table, cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=prior)
    cur = doc["decision_curve"]["current"]
    opt = doc["optimal"]
    pi = doc["conditions"]["prior_pos"]
    assert cur["threshold_probability"] == pytest.approx(cost_fp / (cost_fp + cost_fn))
    assert cur["net_benefit"] == pytest.approx(pi - opt["expected_cost"] / cost_fn, rel=1e-12,
                                               abs=1e-14)
    assert cur["threshold"] == opt["threshold"] and cur["model"] == opt["model"]


def test_rca004_json_safe_at_extreme_costs():
    table, _, _ = _table(3)
    doc = _doc(table, cost_fp=1e308, cost_fn=1e-10)
    text = json.dumps(doc, allow_nan=False)  # raises on NaN or infinity
    cur = json.loads(text)["decision_curve"]["current"]
    assert cur["threshold_probability"] == 1.0 and cur["net_benefit"] is None
