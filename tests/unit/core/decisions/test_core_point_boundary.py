"""Intervals of a point whose TPR or FPR is 0 or 1 (core/decisions/point_intervals.py, "boundary").

A percentile bootstrap of a rate that is 0 or 1 on the data collapses to a point; these
intervals fall back to the exact Clopper–Pearson interval, checked against statsmodels'
``proportion_confint(method="beta")`` and scipy's ``binomtest(...).proportion_ci("exact")``;
the metrics computed from the rates against a brute-force grid over the rates' box.
"""

import math

import numpy as np
import pytest
from scipy.stats import binomtest
from statsmodels.stats.proportion import proportion_confint

from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import BOUNDARY_METHOD, METHOD, point_intervals
from roc_dash.core.decisions.proportion_intervals import clopper_pearson

E = Economics(cost_fp=1.0, cost_fn=3.0)


def _data(seed=0, n_pos=12, n_neg=30):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    s = np.round(rng.normal(size=y.size) + 1.5 * y, 2)
    return y, s


@pytest.mark.parametrize("x, n", [(0, 7), (7, 7), (3, 10), (1, 1), (25, 25), (0, 40)])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_pci001_clopper_pearson_equals_statsmodels_and_scipy(x, n, level):
    low, high = clopper_pearson(x, n, level)
    sm = proportion_confint(x, n, alpha=1 - level, method="beta")
    sp = binomtest(x, n).proportion_ci(confidence_level=level, method="exact")
    assert (low, high) == pytest.approx(sm, abs=1e-12)
    assert (low, high) == pytest.approx((sp.low, sp.high), abs=1e-12)


def test_pci002_pin_flagging_every_positive_gets_the_exact_tpr_interval():
    y, s = _data()
    pin = float(s[y].min())  # every positive scores >= it: TPR 1 in every replicate
    r = point_intervals(y, s, 0.3, E, pins=(pin,), n_boot=200, seed=1).pins[0]
    assert r.tpr.estimate == 1.0
    assert np.all(r.tpr.values == 1.0)  # the bootstrap alone would give [1, 1]
    sm = proportion_confint(int(y.sum()), int(y.sum()), alpha=0.05, method="beta")
    assert (r.tpr.low, r.tpr.high) == pytest.approx(sm, abs=1e-12)
    assert r.tpr.low < 1.0 and r.tpr.interval == "boundary"
    assert r.method == BOUNDARY_METHOD
    assert any("Clopper–Pearson" in n for n in r.notes)
    # FPR is not at a boundary: its percentile interval is kept
    fpr = r.fpr.values
    assert (r.fpr.low, r.fpr.high) == pytest.approx(tuple(np.quantile(fpr, [0.025, 0.975])))


def _grid_range(key, fpr_box, tpr_box, p, e):
    """Brute force: the metric over a fine grid of the rates' box."""
    f, t = np.meshgrid(np.linspace(*fpr_box, 201), np.linspace(*tpr_box, 201))
    f, t = f.ravel(), t.ravel()
    flagged = p * t + (1 - p) * f
    with np.errstate(divide="ignore", invalid="ignore"):
        v = {"precision": p * t / flagged,
             "lr_neg": (1 - t) / (1 - f),
             "expected_cost": p * (1 - t) * e.cost_fn + (1 - p) * f * e.cost_fp}[key]
    return float(np.nanmin(v)), float(np.nanmax(v))


@pytest.mark.parametrize("key", ["precision", "lr_neg", "expected_cost"])
def test_pci003_derived_metrics_cover_the_rates_box(key):
    y, s = _data(seed=3)
    r = point_intervals(y, s, 0.3, E, pins=(float(s[y].min()),), n_boot=200, seed=2).pins[0]
    iv = getattr(r, key)
    low, high = _grid_range(key, (r.fpr.low, r.fpr.high), (r.tpr.low, r.tpr.high), 0.3, E)
    boot = np.quantile(iv.values[~np.isnan(iv.values)], [0.025, 0.975])
    assert iv.interval == "boundary"
    assert iv.low == pytest.approx(min(low, boot[0]), rel=1e-9, abs=1e-12)
    assert iv.high == pytest.approx(max(high, boot[1]), rel=1e-9, abs=1e-12)
    if key == "lr_neg":  # 0 in every replicate; no longer the point [0, 0]
        assert iv.estimate == 0.0 and iv.high > 0.0


def test_pci004_separated_classes_optimum_widened_on_both_rates():
    rng = np.random.default_rng(4)
    y = np.r_[np.ones(10, bool), np.zeros(20, bool)]
    s = np.where(y, 2.0, 0.0) + rng.uniform(0, 1, y.size)  # perfectly separated
    r = point_intervals(y, s, 0.5, E, n_boot=100, seed=0).optimum
    assert (r.tpr.estimate, r.fpr.estimate) == (1.0, 0.0)
    # the hull of the exact interval and the interval corrected for the choice (the
    # replicates' choices miss some of the rows they left out)
    tpr_cp, fpr_cp = (proportion_confint(10, 10, alpha=0.05, method="beta"),
                      proportion_confint(0, 20, alpha=0.05, method="beta"))
    assert r.tpr.interval == r.fpr.interval == "boundary"
    assert r.tpr.low <= tpr_cp[0] and r.tpr.high == pytest.approx(tpr_cp[1])
    assert r.fpr.low == pytest.approx(fpr_cp[0]) and r.fpr.high >= fpr_cp[1] * (1 - 1e-12)
    assert math.isinf(r.lr_pos.high) and r.lr_pos.low < math.inf
    assert r.expected_cost.high > r.expected_cost.low


def test_pci005_interior_point_unchanged():
    y, s = _data(seed=5)
    r = point_intervals(y, s, 0.3, E, pins=(float(np.median(s[y])),), n_boot=100, seed=0).pins[0]
    assert 0 < r.tpr.estimate < 1 and 0 < r.fpr.estimate < 1
    assert r.method == METHOD
    assert all(getattr(r, k).interval == "percentile" for k in ("tpr", "fpr", "precision"))


def test_pci006_weighted_counts_are_the_class_weights():
    y, s = _data(seed=6)
    w = np.where(y, 3.0, 2.0)  # frequency weights: 3 copies of each positive
    r = point_intervals(y, s, 0.3, E, pins=(float(s[y].min()),), weights=w, n_boot=50,
                        seed=0).pins[0]
    n = 3 * int(y.sum())
    assert (r.tpr.low, r.tpr.high) == pytest.approx(
        proportion_confint(n, n, alpha=0.05, method="beta"))


def test_pci007_clopper_pearson_rejects_bad_counts():
    with pytest.raises(ValueError, match="successes <= trials"):
        clopper_pearson(5, 3)
    with pytest.raises(ValueError, match="trials > 0"):
        clopper_pearson(0, 0)
