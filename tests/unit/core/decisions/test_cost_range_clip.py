"""review8 item 1: the expected cost's interval never leaves the range of what a threshold can
cost (the perfect point's cost to the worst point's, under the same economics and prior).
The bounds are computed here by hand from the cost formula (Fawcett 2004, section 7.1),
not with the package."""

import json

import numpy as np
import pandas as pd
import pytest

from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import point_intervals
from tests.conftest import DATA

DEMO = DATA / "demo_predictions.csv"


def _bounds(p, c_fp=1.0, c_fn=1.0, b_tp=0.0, b_tn=0.0):
    """Cost per case at (FPR, TPR) = (0, 1) (perfect) and (1, 0) (worst), written out."""
    perfect = -(p * b_tp + (1 - p) * b_tn)
    worst = p * c_fn + (1 - p) * c_fp
    return min(perfect, worst), max(perfect, worst)


def _demo_rows():
    frame = pd.read_csv(DEMO)
    rows = frame[frame["model"] == frame["model"].iloc[0]]
    return rows["label"].to_numpy() == "pos", rows["score"].to_numpy(float)


@pytest.mark.parametrize("money", [dict(c_fp=100.0), dict(c_fp=100.0, b_tp=30.0, b_tn=2.0)])
def test_rcl001_optimum_and_pin_cost_intervals_stay_in_the_achievable_range(money):
    y, s = _demo_rows()
    e = Economics(cost_fp=money.get("c_fp", 1.0), cost_fn=money.get("c_fn", 1.0),
                  benefit_tp=money.get("b_tp", 0.0), benefit_tn=money.get("b_tn", 0.0))
    lo, hi = _bounds(0.05, **money)
    r = point_intervals(y, s, 0.05, e, pins=(0.5, 0.99), n_boot=200, seed=0)
    for u in (r.optimum, *r.pins):
        c = u.expected_cost
        assert lo - 1e-12 <= c.low <= c.high <= hi + 1e-12, (c.low, c.high, lo, hi)
        assert lo - 1e-12 <= c.estimate <= hi + 1e-12
        if c.correction is not None:
            assert lo - 1e-12 <= c.correction.low and c.correction.high <= hi + 1e-12
    if money == dict(c_fp=100.0):  # the review's case: the corrected interval reached -0.32
        assert r.optimum.expected_cost.low == pytest.approx(lo, abs=1e-12)


def test_rcl002_near_perfect_data_at_a_tiny_prior_has_no_negative_cost():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(60, bool), np.zeros(300, bool)]
    s = np.r_[0.9 + 0.1 * rng.random(60), 0.92 * rng.random(300)]
    e = Economics(cost_fp=1.0, cost_fn=1.0)
    lo, hi = _bounds(0.001)
    u = point_intervals(y, s, 0.001, e, n_boot=200, seed=0).optimum
    assert lo <= u.expected_cost.low <= u.expected_cost.high <= hi


def test_rcl003_strip_line_and_cli_show_the_clipped_interval(cache, tmp_path, capsys):
    from roc_dash.app.analysis import model_names
    from roc_dash.app.features import intervals as feature
    from roc_dash.app.page_state import PageState
    from roc_dash.app.server.store import DEMO_ID
    from roc_dash.app.state import ControlState
    from roc_dash.cli import main

    state = ControlState(cost_fp=100.0, cost_fn=1.0, prior=0.05,
                         prior_mode="manual").to_store()
    model_names(cache, [DEMO_ID])
    page = PageState(conditions=ControlState.from_store(state))
    _, _, u = feature.chosen_intervals(cache, page, seconds=600)[0]
    text = feature.strip_text(u)
    lo, hi = _bounds(0.05, c_fp=100.0)
    low = float(text.split("expected cost ")[1].split("–")[0])
    high = float(text.split("expected cost ")[1].split("–")[1].split(" ")[0])
    assert lo <= low <= high <= hi, text
    assert "-" not in text.split("expected cost ")[1].split(" per case")[0]

    out = tmp_path / "d.json"
    code = main(["decide", str(DEMO), "--cost-fp", "100", "--prior", "0.05", "-o", str(out)])
    assert code == 0
    err = capsys.readouterr().err
    span = err.split("expected cost [")[1].split("]")[0]
    a, b = (float(v) for v in span.split(", "))
    assert lo <= a <= b <= hi, err
    rec = json.loads(out.read_text())
    blob = json.dumps(rec)
    assert "-0.3216" not in blob
