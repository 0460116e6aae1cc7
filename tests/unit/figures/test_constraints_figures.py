"""The figure builders of the constraints (cfg001-cfg006): each figure's traces read back
against the core result it draws, and every figure serialisable."""

from __future__ import annotations

import json

import numpy as np
import pytest

from roc_dash.core.constraints import (
    calibration_uncertainty,
    capacity_point,
    cost_matrix_decision,
    floor_decision,
    gains_curve,
    ks_statistic,
    pr_bootstrap_band,
    resample_thresholds,
)
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.roc.curves import roc_curve
from roc_dash.figures.calibration_bands import reliability_band_figure
from roc_dash.figures.cost_matrix import confusion_figure, rule_costs_figure
from roc_dash.figures.floors import BEST_UID, REGION_UID, THRESHOLD_UID, floor_figure, floor_traces
from roc_dash.figures.gains import (
    CAPACITY_UID,
    capacity_traces,
    gains_figure,
    ks_figure,
    lift_figure,
    queue_rate_trace,
)
from roc_dash.figures.pr_bands import pr_band_figure, pr_band_traces


@pytest.fixture(scope="module")
def model():
    rng = np.random.default_rng(0)
    y = rng.random(1500) < 0.25
    z = rng.normal(size=1500) + 1.4 * y
    p = 1 / (1 + np.exp(-(z - 1)))
    return y, p, roc_curve(y, p)


def _uid(fig, uid):
    return [t for t in fig.data if t.uid == uid]


def test_cfg001_gains_lift_and_capacity_point(model):
    y, p, curve = model
    g = gains_curve(curve)
    cp = capacity_point(curve, fraction=0.1, economics=Economics(1, 5))
    fig = gains_figure({"m <b>": g}, capacity=cp)
    line = [t for t in fig.data if t.name.startswith("m &lt;b&gt;")][0]
    np.testing.assert_allclose(line.x, g.queue_rate)
    np.testing.assert_allclose(line.y, g.gain)
    assert "accuracy ratio" in line.name
    (k,) = _uid(fig, CAPACITY_UID)
    assert (k.x[0], k.y[0]) == pytest.approx((0.1, cp.recall))
    assert fig.layout.shapes[0].x0 == pytest.approx(0.1)
    lift = lift_figure({"m": g}, capacity=cp)
    ok = np.isfinite(g.lift)
    np.testing.assert_allclose(lift.data[1].y, g.lift[ok])
    assert _uid(lift, CAPACITY_UID)[0].y[0] == pytest.approx(cp.lift)
    json.loads(fig.to_json()) and json.loads(lift.to_json())


def test_cfg002_ks_and_queue_rate(model):
    y, p, curve = model
    g, ks = gains_curve(curve), ks_statistic(curve)
    fig = ks_figure("m", g, ks)
    gap = fig.data[2]
    assert tuple(gap.y) == pytest.approx((ks.fpr, ks.tpr))
    assert f"KS {round(ks.statistic, 6):g}"[:6] in gap.name
    q = queue_rate_trace("m", g)
    assert np.isfinite(q["x"]).all() and (np.diff(q["x"]) < 0).all()  # thresholds falling
    assert (np.diff(q["y"]) >= 0).all()  # flag more


def test_cfg003_capacity_and_floors_on_the_roc_and_pr_views(model):
    y, p, curve = model
    cp = capacity_point(curve, fraction=0.1, economics=Economics(1, 5))
    traces = capacity_traces(cp)
    line = traces[0]
    np.testing.assert_allclose(cp.prior_pos * np.asarray(line["y"])
                               + (1 - cp.prior_pos) * np.asarray(line["x"]), 0.1)
    d = floor_decision(curve, ["precision>=0.6", "recall>=0.4"], economics=Economics(1, 3))
    roc = floor_traces(d, space="roc")
    assert [t["uid"] for t in roc] == [REGION_UID, BEST_UID, THRESHOLD_UID]
    np.testing.assert_allclose(roc[0]["x"], d.region.fpr)
    assert (roc[2]["x"][0], roc[2]["y"][0]) == (d.fpr, d.tpr)
    pr = floor_traces(d, space="pr")
    assert (np.asarray(pr[0]["y"]) >= 0.6 - 1e-9).all()
    assert pr[2]["x"][0] == d.tpr and pr[2]["y"][0] == pytest.approx(d.metrics["precision"])
    fig = floor_figure(d, curve, space="pr")
    json.loads(fig.to_json())
    with pytest.raises(ValueError, match="space must be 'roc' or 'pr'"):
        floor_traces(d, space="det")


def test_cfg004_confusion_and_rule_costs():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 300)
    pr = rng.dirichlet(np.ones(3), 300)
    pr[np.arange(300), y] += 0.5
    pr /= pr.sum(axis=1, keepdims=True)
    names = np.array(["a", "b", "<c>"])
    d = cost_matrix_decision(pr, names[y], np.array([[0, 1, 4], [2, 0, 1], [8, 2, 0.0]]),
                             classes=names)
    fig = confusion_figure(d, rule="ovr")
    np.testing.assert_allclose(fig.data[0].z, d.ovr_confusion
                               / d.ovr_confusion.sum(axis=1, keepdims=True))
    assert list(fig.data[0].x) == ["a", "b", "&lt;c&gt;"]
    bars = rule_costs_figure(d)
    np.testing.assert_allclose(bars.data[0].y, [d.expected_cost, d.bayes_cost, d.ovr_cost,
                                                d.argmax_cost])


def test_cfg005_reliability_bands(model):
    y, p, curve = model
    u = calibration_uncertainty(curve)
    fig = reliability_band_figure({"m": u})
    pts = fig.data[1]
    np.testing.assert_allclose(np.asarray(pts.y) + np.asarray(pts.error_y.array), u.bands.high)
    np.testing.assert_allclose(np.asarray(pts.y) - np.asarray(pts.error_y.arrayminus),
                               u.bands.low)
    assert "slope" in pts.name and "Spiegelhalter" in pts.name


def test_cfg006_pr_band(model):
    y, p, curve = model
    band = pr_bootstrap_band(resample_thresholds(y, p, n_boot=50), curve, prevalence=0.1)
    fill, central = pr_band_traces("m", band)
    assert fill["fill"] == "toself" and len(fill["x"]) == 2 * band.recall.size
    np.testing.assert_allclose(central["y"], band.precision)
    fig = pr_band_figure({"m": band})
    assert "0.1" in fig.layout.yaxis.title.text
    json.loads(fig.to_json())


def test_cfg007_long_curves_are_thinned_for_drawing_only():
    from roc_dash.figures.gains import DRAWN_POINTS, thin_indices

    rng = np.random.default_rng(7)
    y = rng.random(60_000) < 0.3
    s = rng.normal(size=60_000) + y
    curve = roc_curve(y, s)
    g, ks = gains_curve(curve), ks_statistic(curve)
    fig = gains_figure({"m": g})
    line = fig.data[2]
    assert len(line.x) <= DRAWN_POINTS + 2 < len(g)
    assert (line.x[0], line.x[-1]) == (g.queue_rate[0], g.queue_rate[-1])
    k = thin_indices(g.queue_rate, g.gain)
    np.testing.assert_array_equal(line.y, g.gain[k])  # drawn points are vertices
    assert ks.index in thin_indices(g.queue_rate, g.gain - g.fpr, keep=[ks.index])
    assert max(np.diff(np.asarray(line.x))) < 0.01  # evenly along the curve, no long gaps
