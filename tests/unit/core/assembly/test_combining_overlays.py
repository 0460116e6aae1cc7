"""The combining overlays are computed in core (one frozen result) and only drawn by the app:
the same numbers as the single views of Fawcett (2004) §7.4, the same figure as drawing each
view by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from roc_dash.app import overlays
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.combining_overlays import (
    NO_PAIR,
    CombiningOverlays,
    combining_overlays,
)
from roc_dash.core.assembly.combining_views import budget_view, logical_view
from roc_dash.core.combining.concavity_repair import repair_concavities
from roc_dash.core.combining.logical_combining import logical_combination
from roc_dash.core.decisions.operating import operating_point, pinned_points
from roc_dash.figures.combining import add_budget, add_logical, add_repair
from roc_dash.figures.roc import roc_figure

DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
PINS = [{"model": "decision tree", "threshold": 0.4, "label": "A"},
        {"model": "naive Bayes", "threshold": 0.9, "label": "B"}]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo's analysis at a prior of 0.3 and its combined table."""
    cache = AnalysisCache(DatasetStore(tmp_path_factory.mktemp("cov")))
    return (cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3)),
            cache.table([DEMO_ID]))


def test_cov001_the_overlays_are_the_single_views(demo):
    analysis, table = demo
    pins = pinned_points(analysis, PINS)
    out = combining_overlays(analysis, budget=100, repair="decision tree", logic=True,
                             pins=pins, table=table)
    assert dataclasses.is_dataclass(out) and isinstance(out, CombiningOverlays)
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.budget = None  # type: ignore[misc]
    # the budget: K = 100 of the 442 test cases on the joint hull
    alone = budget_view(analysis, 100)
    assert out.budget.n_total == alone.n_total == 442 and out.budget.budget == 100
    assert out.budget.mix.k == pytest.approx(alone.mix.k)
    # the repair: Flach and Wu's, of the model's pooled curve
    name, repair = out.repair
    expected = repair_concavities(analysis.model("decision tree").curve)
    assert name == "decision tree"
    np.testing.assert_allclose(repair.fpr_repaired, expected.fpr_repaired)
    np.testing.assert_allclose(repair.tpr_repaired, expected.tpr_repaired)
    # AND / OR of the two pins: Fawcett's rectangles from the two points alone
    e = logical_combination(pins[0].fpr, pins[0].tpr, pins[1].fpr, pins[1].tpr)
    assert out.logic.expected.and_fpr_high == e.and_fpr_high
    assert out.logic.expected.or_tpr_low == e.or_tpr_low
    paired = logical_view(pins[0], pins[1], table)
    assert out.logic.paired_by == paired.paired_by == "id"
    assert out.logic.actual.and_fpr == pytest.approx(paired.actual.and_fpr)


def test_cov002_why_an_overlay_is_missing(demo):
    analysis, rows = demo
    reads = []

    def table():
        reads.append(1)
        return rows

    off = combining_overlays(analysis, table=table)
    assert off == CombiningOverlays() and reads == []  # nothing asked, the rows not read
    too_many = combining_overlays(analysis, budget=120, unit="percent", logic=True,
                                  repair="not shown", table=table)
    assert too_many.budget.startswith("Budget: ") and too_many.budget.endswith(".")
    assert too_many.repair is None  # a model not shown is not repaired
    assert too_many.logic == NO_PAIR and reads == []  # no pin: no rows needed
    one_pin = combining_overlays(analysis, logic=True, pins=pinned_points(analysis, PINS[:1]),
                                 table=table)
    assert one_pin.logic.first == operating_point(analysis) and reads == [1]
    assert combining_overlays(None, budget=100) == CombiningOverlays()
    # the app's wrapper hands the card's settings over unchanged
    combine = {"budget": 120, "unit": "percent", "repair": None, "logic": True}
    assert overlays.combine_results(analysis, combine, []) == too_many.as_tuple()[:1] + (
        None, NO_PAIR)


def test_cov003_the_drawn_roc_is_the_hand_drawn_one(demo):
    analysis, table = demo
    pins = pinned_points(analysis, PINS)
    colors = {n: k for k, n in enumerate(DEMO_MODELS)}
    combine = {"budget": 100, "unit": "cases", "repair": "decision tree", "logic": True}
    drawn = overlays.overlay_roc(roc_figure(analysis), analysis, combine, pins=pins,
                                 colors=colors, table=lambda: table, font_size=15)
    by_hand = roc_figure(analysis)
    add_repair(by_hand, repair_concavities(analysis.model("decision tree").curve),
               "decision tree", style=colors["decision tree"])
    add_logical(by_hand, logical_view(pins[0], pins[1], table))
    add_budget(by_hand, budget_view(analysis, 100), font_size=15)
    assert len(drawn.data) > len(roc_figure(analysis).data)
    assert drawn.to_json() == by_hand.to_json()
