"""Combining classifiers and the LC index in the dashboard (Fawcett 2004 §7.4, §7.5.3): the
core glue (core.assembly.combining_views), the figures (figures.combining) and the callback glue
(app.features.combining), each checked against the core functions called directly."""

import numpy as np
import pandas as pd
import pytest

from roc_dash.app import overlays
from roc_dash.app.features import combining
from roc_dash.app.render import render_views
from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.assembly.combining_views import (
    budget_population,
    budget_view,
    default_expert_range,
    logical_pair,
    logical_view,
    superiority_view,
)
from roc_dash.core.combining.capacity_mix import budget_operating_point
from roc_dash.core.combining.concavity_repair import repair_concavities
from roc_dash.core.combining.logical_combining import combine_thresholded, logical_combination
from roc_dash.core.combining.superiority import lc_index, ratio_to_unit, triangular_distribution
from roc_dash.core.decisions.operating import operating_point, pinned_points
from roc_dash.figures.combining import (
    add_budget,
    add_logical,
    add_repair,
    superiority_figure,
)
from roc_dash.figures.roc import roc_figure
from tests.conftest import DEMO_MODELS


def _names(fig):
    return [t.name for t in fig.data]


# -- core glue ----------------------------------------------------------------------------
def test_byu001_budget_n_is_the_population_else_the_test_set(demo_analysis):
    assert budget_population(demo_analysis, None) == (442.0, "the test set")
    assert budget_population(demo_analysis, 20000) == (20000.0, "cases per month")
    v = budget_view(demo_analysis, 100)
    mix = budget_operating_point(demo_analysis.hull, n_total=442, prior_pos=0.3, budget=100)
    assert (v.mix.fpr, v.mix.tpr, v.mix.k) == (mix.fpr, mix.tpr, mix.k)
    assert v.n_source == "the test set" and v.percent == pytest.approx(100 / 4.42)
    # the line: FPR·N(1−π) + TPR·Nπ = K at both ends
    assert np.allclose(v.line.fpr * 442 * 0.7 + v.line.tpr * 442 * 0.3, 100)
    p = budget_view(demo_analysis, 10, "percent", population=5000)
    assert p.budget == pytest.approx(500) and p.n_source == "cases per month"
    with pytest.raises(ValueError, match="between 0 and 100"):
        budget_view(demo_analysis, 120, "percent")
    with pytest.raises(ValueError, match="non-negative"):
        budget_view(demo_analysis, -3)


def test_byu002_budget_population_names_the_largest_test_set():
    rng = np.random.default_rng(0)
    frames = [pd.DataFrame({"model": m, "label": rng.integers(0, 2, n).astype(bool),
                            "score": rng.random(n), "fold": 1, "weight": 1.0})
              for m, n in (("small", 50), ("large", 80))]
    a = analyse(pd.concat(frames, ignore_index=True), Conditions(prior_pos=0.4))
    assert budget_population(a, None) == (80.0, "the test set of large")


def test_byu003_logical_view_matches_rows_paired_by_id(demo_analysis, demo_cache):
    pins = pinned_points(demo_analysis,
                         [{"model": "decision tree", "threshold": 0.4, "label": "A"},
                          {"model": "naive Bayes", "threshold": 0.9, "label": "B"}])
    first, second = logical_pair(operating_point(demo_analysis), pins)
    assert (first.label, second.label) == ("A", "B")
    table = demo_cache.table([DEMO_ID])
    v = logical_view(first, second, table)
    a = table[table["model"] == "decision tree"].sort_values("id")
    b = table[table["model"] == "naive Bayes"].sort_values("id")
    direct = combine_thresholded(a["label"], a["score"], b["score"].to_numpy(), 0.4, 0.9)
    assert v.paired_by == "id"
    assert (v.actual.and_fpr, v.actual.and_tpr, v.actual.or_fpr, v.actual.or_tpr) == (
        direct.and_fpr, direct.and_tpr, direct.or_fpr, direct.or_tpr)
    e = logical_combination(first.fpr, first.tpr, second.fpr, second.tpr)
    assert (v.expected.and_fpr, v.expected.or_tpr) == (e.and_fpr, e.or_tpr)
    # one pin: the optimum and the pin; none: nothing to combine
    assert logical_pair(operating_point(demo_analysis), pins[:1])[0].pinned is False
    assert logical_pair(operating_point(demo_analysis), []) is None
    # models that did not score the same rows: expected only, with the reason
    other = table.copy()
    other = other[other["model"] != "naive Bayes"]
    lonely = logical_view(first, second, other)
    assert lonely.actual is None and "did not score the same rows" in lonely.why_not


def test_byu004_superiority_defaults_around_the_current_ratio(demo_analysis):
    assert default_expert_range(3.0) == (1.5, 3.0, 6.0)
    c = Conditions(prior_pos=0.3, cost_fp=1.0, cost_fn=3.0)
    from roc_dash.core.assembly.analysis import with_conditions

    a = with_conditions(demo_analysis, c)
    v = superiority_view(a, "gradient boosting", "naive Bayes")
    assert (v.low, v.mode, v.high) == (1.5, 3.0, 6.0)
    gb, nb = a.model("gradient boosting"), a.model("naive Bayes")
    lc = lc_index(gb.hull, nb.hull, triangular_distribution(1.5, 3, 6), prior_pos=0.3)
    assert v.lc.lc == lc.lc and v.current_u == ratio_to_unit(3.0)
    given = superiority_view(a, "gradient boosting", "naive Bayes", low=1, mode=3, high=10)
    assert given.lc.lc == lc_index(gb.hull, nb.hull, triangular_distribution(1, 3, 10),
                                   prior_pos=0.3).lc
    # a most likely value beyond the default range widens it
    wide = superiority_view(a, "gradient boosting", "naive Bayes", mode=20)
    assert wide.low == 10 and wide.high == 40
    with pytest.raises(ValueError, match="low ≤ most likely"):
        superiority_view(a, "gradient boosting", "naive Bayes", low=5, mode=2, high=10)


# -- figures ------------------------------------------------------------------------------
def test_byu005_overlays_add_traces_and_keep_the_iso_line_first(demo_analysis, demo_cache):
    fig = roc_figure(demo_analysis)
    n, shapes = len(fig.data), [s.name for s in fig.layout.shapes]
    add_budget(fig, budget_view(demo_analysis, 100))
    repair = repair_concavities(demo_analysis.model("decision tree").curve)
    add_repair(fig, repair, "decision tree", style=2)
    pins = pinned_points(demo_analysis,
                         [{"model": "decision tree", "threshold": 0.4, "label": "A"},
                          {"model": "naive Bayes", "threshold": 0.9, "label": "B"}])
    add_logical(fig, logical_view(pins[0], pins[1], demo_cache.table([DEMO_ID])))
    assert [s.name for s in fig.layout.shapes] == shapes  # shapes untouched
    assert fig.layout.shapes[0].name == "iso-performance line"
    new = _names(fig)[n:]
    assert "budget: achievable point" in new and "B′ (repaired deepest points)" in new
    assert {"AND: actual (rows)", "OR: possible region", "AND: if independent"} <= set(new)
    b = next(t for t in fig.data if t.name == "B′ (repaired deepest points)")
    assert np.allclose(b.x, repair.fpr_repaired) and np.allclose(b.y, repair.tpr_repaired)
    rect = next(t for t in fig.data if t.name == "AND: possible region")
    e = logical_combination(pins[0].fpr, pins[0].tpr, pins[1].fpr, pins[1].tpr)
    assert max(rect.x) == e.and_fpr_high and max(rect.y) == e.and_tpr_high


def test_byu006_superiority_figure(demo_analysis):
    v = superiority_view(demo_analysis, "logistic regression", "naive Bayes", low=1, mode=3,
                         high=10)
    fig = superiority_figure(v)
    assert fig.layout.meta["lc"] == v.lc.lc and f"{v.lc.lc:+.3f}" in fig.layout.title.text
    assert fig.layout.shapes[0].x0 == v.current_u
    a = next(t for t in fig.data if t.name.startswith("A = logistic regression"))
    u, s = v.lc.superiority.step()
    assert np.array_equal(np.isnan(np.asarray(a.y, dtype=float)), s != 1)


# -- callback glue ------------------------------------------------------------------------
def test_byu007_options_parse_the_budget_box():
    assert combining.parse_budget("1,000") == 1000 and combining.parse_budget("12,5") == 12.5
    assert combining.parse_budget(" 20% ") == 20 and combining.parse_budget("") is None
    opts, msg = combining.combine_options("20%", "cases", None, [])
    assert opts == {"budget": 20.0, "unit": "percent", "repair": None, "logic": False}
    assert overlays.active(opts) and not msg
    opts, msg = combining.combine_options("lots", "cases", None, [])
    assert opts["budget"] is None and "not a number" in msg and not overlays.active(opts)
    assert overlays.active(combining.combine_options("", "cases", "naive Bayes", [])[0])
    assert overlays.active(combining.combine_options("", "cases", None, ["on"])[0])


def test_byu008_render_views_draws_the_chosen_overlays(demo_cache):
    combine, _ = combining.combine_options("100", "cases", "decision tree", ["on"])
    pins = [{"model": "naive Bayes", "threshold": 0.5, "label": "A"}]
    roc = render_views(demo_cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3),
                       combine=combine, pinned=pins)[0]
    names = _names(roc)
    assert "budget: achievable point" in names and "AND: actual (rows)" in names
    assert any(n.startswith("decision tree repaired") for n in names)
    plain = render_views(demo_cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3))[0]
    assert not any(n.startswith(("budget", "AND", "OR", "decision tree repaired"))
                   for n in _names(plain))
    # DET axes: no overlay (ROC space only), and the panel says so
    det = render_views(demo_cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3), det=True,
                       combine=combine)[0]
    assert "budget: achievable point" not in _names(det)


def test_byu009_panel_and_superiority_outputs(demo_analysis, demo_cache):
    analysis = demo_analysis
    combine, _ = combining.combine_options("100", "cases", "decision tree", ["on"])
    text = str(combining.combine_panel(analysis, combine, [], table=demo_cache.table([DEMO_ID])))
    assert "100 of N = 442 cases (the test set)" in text
    assert "6 concavities" in text or "concavities" in text
    assert "pin a point" in text  # AND/OR without a pin says what to do
    off = str(combining.combine_panel(analysis, {"budget": None}, []))
    assert "Set a budget" in off
    fig, msg = combining.superiority_outputs(analysis, "naive Bayes", "naive Bayes", "", "", "")
    assert "two different" in msg
    fig, msg = combining.superiority_outputs(analysis, "naive Bayes", "decision tree", "x", "", "")
    assert "not a number" in msg
    fig, msg = combining.superiority_outputs(analysis, "naive Bayes", "decision tree", "", "", "")
    assert msg == "" and fig.layout.meta["pair"] == ["naive Bayes", "decision tree"]
