"""The Slices card (issue 18): its totals against the core called directly on the rows pandas
reads, its figure's curves against scikit-learn, and its message without a group column."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.app.components import plain_text
from roc_dash.app.features.slices import NO_GROUPS, slices_outputs
from roc_dash.core.subgroups.group_thresholds import CONSTRAINTS, group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.io import load_predictions
from tools.slices_example import REGIONS, loan_predictions

STATE = {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2}  # as the CONDITIONS store


@pytest.fixture(scope="module")
def loans():
    frame = loan_predictions(n=1500, seed=3)
    table = load_predictions([("loans.csv", frame.to_csv(index=False).encode())]).table
    return frame, table


@pytest.mark.parametrize("constraint", CONSTRAINTS)
def test_slp001_total_and_price_of_fairness_are_the_cores(loans, constraint):
    frame, table = loans
    rows = frame[frame["model"] == "gradient boosting"]
    expected = group_thresholds(slice_analysis(
        rows["label"].to_numpy(bool), rows["score"].to_numpy(float), rows["group"].to_numpy(),
        cost_fp=1.0, cost_fn=5.0, prior_pos=0.2)).solution(constraint)
    source, _, total, summary, _ = slices_outputs(table, "gradient boosting", STATE,
                                                  constraint)
    assert "4 groups" in source
    shown = float(total.children[1].children)
    assert shown == pytest.approx(expected.expected_cost, rel=1e-5)
    assert f"{expected.cost_of_constraint:+.6g} per case" in plain_text(summary)
    if expected.randomised:
        assert "Randomised" in plain_text(summary)
        for r in expected.rules:
            if r.ignore_share > 0:  # equalized odds: the share whose score is ignored
                assert f"{r.group} {r.ignore_share:.1%}" in plain_text(summary)


def test_slp002_figure_draws_each_groups_curve_as_sklearn(loans):
    frame, table = loans
    _, fig, _, _, _ = slices_outputs(table, "logistic regression", STATE, "equalized_odds")
    rows = frame[frame["model"] == "logistic regression"]
    curves = {t.legendgroup: t for t in fig.data if t.mode in ("lines", "lines+markers") and t.showlegend is not False}
    assert set(curves) == set(REGIONS)
    for name, part in rows.groupby("group"):
        fpr, tpr, _ = sk_roc_curve(part["label"], part["score"], drop_intermediate=False)
        drawn = set(zip(np.round(curves[name].x, 12), np.round(curves[name].y, 12),
                        strict=True))
        points = list(zip(np.round(fpr, 12), np.round(tpr, 12), strict=True))
        assert drawn <= set(points)
        # every corner of sklearn's curve is drawn (points inside a straight run need not be)
        for (x0, y0), (x1, y1), (x2, y2) in zip(points, points[1:], points[2:], strict=False):
            if abs((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)) > 1e-12:
                assert (x1, y1) in drawn
    diamonds = [t for t in fig.data if t.marker is not None and t.marker.symbol == "diamond"]
    assert len(diamonds) == len(REGIONS)
    # equalized odds: every group at one common point
    assert len({(round(t.x[0], 9), round(t.y[0], 9)) for t in diamonds}) == 1


def test_slp003_without_a_group_column_the_card_says_how_to_add_one(loans):
    _, table = loans
    source, _, total, _, rows = slices_outputs(table.drop(columns=["group"]),
                                               "gradient boosting", STATE, "group_optima")
    assert source == NO_GROUPS and "column named group" in source
    assert total == "" and rows == ""


def test_slp004_page_html_report_has_the_slices_of_the_shown_models(loans):
    from roc_dash.app.features.exports import slices_for_report
    from roc_dash.app.state import conditions_from_state

    frame, table = loans
    sections = slices_for_report(table, ["logistic regression"],
                                 conditions_from_state(STATE))
    (model,) = sections["group_thresholds"]["models"]
    assert model["model"] == "logistic regression"
    rows = frame[frame["model"] == "logistic regression"]
    expected = group_thresholds(slice_analysis(
        rows["label"].to_numpy(bool), rows["score"].to_numpy(float), rows["group"].to_numpy(),
        cost_fp=1.0, cost_fn=5.0, prior_pos=0.2))
    for got, want in zip(model["solutions"], expected.solutions, strict=True):
        assert got["expected_cost"] == pytest.approx(want.expected_cost, rel=1e-12)
    assert slices_for_report(table.drop(columns=["group"]), ["logistic regression"],
                             conditions_from_state(STATE)) is None


def test_slp005_curves_are_made_once_and_costs_only_reselect(loans):
    _, table = loans
    made, store = [], {}

    def memo(parts, make):
        if parts not in store:
            made.append(parts)
            store[parts] = make()
        return store[parts]

    for cost_fn in (5.0, 2.0, 9.0):
        state = {**STATE, "cost_fn": cost_fn}
        cached = slices_outputs(table, "gradient boosting", state, "equal_opportunity",
                                memo=memo)
        fresh = slices_outputs(table, "gradient boosting", state, "equal_opportunity")
        assert cached[2].children[1].children == fresh[2].children[1].children
    assert len(made) == 1


def test_slp006_small_groups_are_flagged_not_hidden(loans):
    frame, _ = loans
    frame = frame.copy()
    rows = frame.index[(frame["group"] == "west")]
    frame.loc[rows[:40], "group"] = "islands"  # a handful of cases of both classes
    table = load_predictions([("l.csv", frame.to_csv(index=False).encode())]).table
    _, fig, _, _, body = slices_outputs(table, "gradient boosting", STATE, "group_optima")
    part = frame[frame["model"] == "gradient boosting"]
    counts = part.groupby("group")["label"].agg(["sum", "size"])
    small = {g for g, r in counts.iterrows() if r["sum"] < 30 or r["size"] - r["sum"] < 30}
    assert "islands" in small
    texts = {row.children[0].children for row in body.children[1].children}
    assert texts == {g + (" ⚠ small" if g in small else "") for g in counts.index}
    legend = {t.name for t in fig.data if t.showlegend is not False and t.mode in ("lines", "lines+markers")}
    assert any(n.startswith("islands (small)") for n in legend)
