"""A model and a monotone recalibration of it have the same ROC curve: wherever one is the
optimal choice the other is too, at the same cost. Both are named optimal and each is said
to tie with the other, whichever is listed first (the core, the JSON and HTML reports, the
model table, the page's comparison card). Checked against a brute force over a grid of
iso-performance slopes: at slope ``m`` the optimal points minimise ``m·FPR − TPR`` over every
model's ROC points, the trivial (0, 0) and (1, 1) belonging to no model."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.features.comparison import comparison_panel
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.inference.model_comparison import NEVER_OPTIMAL, optimal_ranges
from roc_dash.core.roc.curves import roc_curve
from roc_dash.io import load_predictions
from roc_dash.report import build_report, model_table_rows
from roc_dash.report.comparison_text import optimal_range_text
from roc_dash.report.html import model_comparison_html

SLOPES = np.geomspace(1e-3, 1e3, 4001)


def _data(seed=5, n=400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + 1.3 * y, 3)
    worse = np.round(s + rng.normal(scale=1.5, size=n), 3)
    return y, {"model": s, "recalibrated": 1 / (1 + np.exp(-(2 * s + 1))), "worse": worse}


def _brute_force_optimal(curves) -> dict[str, np.ndarray]:
    """Per model, whether it reaches the least ``m·FPR − TPR`` at each slope of SLOPES
    (the trivial points compete as nobody's)."""
    best = np.minimum(0.0, SLOPES - 1.0)  # (0, 0) and (1, 1)
    own = {}
    for name, c in curves.items():
        real = ~(((c.fpr == 0) & (c.tpr == 0)) | ((c.fpr == 1) & (c.tpr == 1)))
        f, t = c.fpr[real], c.tpr[real]
        own[name] = (SLOPES[:, None] * f[None, :] - t[None, :]).min(axis=1) \
            if f.size else np.full(SLOPES.size, np.inf)
        best = np.minimum(best, own[name])
    return {n: v <= best + 1e-12 for n, v in own.items()}


def _agrees(r, curves) -> dict[str, np.ndarray]:
    """The core's ranges equal the brute force at every slope of the grid but those within
    1e-9 of a range's end (where rounding decides a tie of two vertices)."""
    brute = _brute_force_optimal(curves)
    ends = np.concatenate([np.r_[x.slope_low, x.slope_high] for x in r.ranges])
    near = (np.abs(SLOPES[:, None] - ends[None, :]) <= 1e-9 * SLOPES[:, None]).any(axis=1)
    for name in curves:
        got = np.array([r.of(name).contains_slope(m) for m in SLOPES])
        assert np.array_equal(got[~near], brute[name][~near]), name
    return brute


@pytest.mark.parametrize("order", [("model", "recalibrated", "worse"),
                                   ("recalibrated", "model", "worse"),
                                   ("worse", "recalibrated", "model")])
def test_twn001_a_recalibrated_twin_is_optimal_and_named_a_tie_in_any_order(order):
    y, scores = _data()
    curves = {n: roc_curve(y, scores[n]) for n in order}
    assert np.array_equal(curves["model"].fpr, curves["recalibrated"].fpr)
    r = optimal_ranges(curves, prior_pos=0.35)
    brute = _agrees(r, curves)
    a, b = r.of("model"), r.of("recalibrated")
    assert not a.never_optimal and not b.never_optimal
    assert np.array_equal(a.slope_low, b.slope_low) and np.array_equal(a.slope_high,
                                                                        b.slope_high)
    assert a.ties_at_every_cost == ("recalibrated",) and b.ties_at_every_cost == ("model",)
    assert r.of("worse").never_optimal and not brute["worse"].any()
    assert r.of("worse").ties_at_every_cost == r.of("worse").ties_in_part == ()
    assert "ties with model at every cost" in optimal_range_text(b)
    assert "both optimal" in optimal_range_text(a)
    assert optimal_range_text(r.of("worse")) == NEVER_OPTIMAL


def test_twn002_a_shared_vertex_is_a_tie_in_part():
    """C passes through A's first hull vertex only, then falls below A's hull."""
    a = SimpleNamespace(fpr=np.array([0, .2, .5, 1.]), tpr=np.array([0, .6, .9, 1.]),
                        thresholds=np.array([np.inf, 3, 2, 1.]))
    c = SimpleNamespace(fpr=np.array([0, .2, .6, 1.]), tpr=np.array([0, .6, .8, 1.]),
                        thresholds=np.array([np.inf, 3, 2, 1.]))
    curves = {"A": a, "C": c}
    r = optimal_ranges(curves, prior_pos=0.5)
    brute = _agrees(r, curves)
    assert brute["C"].any()
    assert r.of("A").ties_in_part == ("C",) and r.of("C").ties_in_part == ("A",)
    assert r.of("A").ties_at_every_cost == ()
    assert "ties with C on part of it" in optimal_range_text(r.of("A"))


def _text(component) -> str:
    """Every text inside a Dash component tree."""
    if isinstance(component, str | int | float):
        return str(component)
    if isinstance(component, list | tuple):
        return " ".join(_text(c) for c in component)
    children = getattr(component, "children", None)
    return "" if children is None else _text(children)


def test_twn003_reports_table_and_page_name_the_tie_for_both_models(tmp_path):
    y, scores = _data()
    path = tmp_path / "twins.csv"
    pd.concat([pd.DataFrame({"model": n, "id": np.arange(y.size), "label": y.astype(int),
                             "score": scores[n]})
               for n in ("model", "recalibrated")]).to_csv(path, index=False)
    analysis = analyse(load_predictions([path]).table, Conditions())
    doc = build_report(analysis)["optimal_ranges"]["models"]
    assert [m["optimal"] for m in doc] == [True, True]
    assert [m["ties_at_every_cost"] for m in doc] == [["recalibrated"], ["model"]]
    assert all("at every cost" in m["note"] for m in doc)
    rows = {r["model"]: r["hull_slope_ranges"] for r in model_table_rows(analysis)}
    assert rows["model"].endswith("(ties with recalibrated)")
    assert rows["recalibrated"].endswith("(ties with model)")
    assert rows["model"].split(" (")[0] == rows["recalibrated"].split(" (")[0]
    html = model_comparison_html(analysis)
    page = _text(comparison_panel(analysis))
    for text in (html, page):
        assert "never optimal" not in text
        assert "ties with recalibrated at every cost" in text
        assert "ties with model at every cost" in text
