"""The summary strip's headline and the operating card under the Decide tab's capacity or
floors (roc_dash.app.features.constrained_strip): the point they show is the one the
decision download writes, checked against brute force over the demo file read with
pandas."""

import json

import numpy as np
import pandas as pd
import pytest
from dash.exceptions import PreventUpdate

from roc_dash.app import ids
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.components import plain_text
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.core.constraints.floors import parse_floor
from roc_dash.figures.style import format_threshold
from roc_dash.text.rounding import sig as format_sig

from .test_app_constraints import CFN, CFP, DEMO, MODELS, PRIOR

RECALL = parse_floor("recall >= 0.8").text


def _brute(fits):
    """The least expected cost per case at PRIOR under CFP, CFN over every single threshold
    of every demo model whose (TPR, FPR, flagged share) ``fits``: ``(cost, model, t)``."""
    rows = pd.read_csv(DEMO)
    best = (np.inf, None, None)
    for m in MODELS:
        r = rows[rows["model"] == m]
        y, s = (r["label"] == "pos").to_numpy(), r["score"].to_numpy(float)
        for t in [np.inf, *np.unique(s)]:
            tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
            cost = PRIOR * (1 - tpr) * CFN + (1 - PRIOR) * fpr * CFP
            if fits(tpr, fpr, PRIOR * tpr + (1 - PRIOR) * fpr):
                best = min(best, (cost, m, t), key=lambda b: b[0])
    return best


def _ops(patch):
    """``{location: value}`` of a Dash ``Patch`` (each location's last assignment)."""
    return {tuple(op["location"]): op["params"]["value"]
            for op in patch.to_plotly_json()["operations"] if op["operation"] == "Assign"}


@pytest.fixture
def page_of(tmp_path):
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    conditions = ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR, prior_mode="manual")

    def make(**kw):
        return cache, store, PageState(datasets=(DEMO_ID,), conditions=conditions, **kw)
    return make


def test_cst001_capacity_headline_and_card_are_the_brute_force_and_the_download(
        page_of, monkeypatch):
    import roc_dash.app.features.exports as exports

    monkeypatch.setattr(exports, "current_owner", lambda: "tester")
    cache, store, page = page_of(capacity="10%")
    out = strip_update(cache, page, ids.VIZ_DATA)
    ops = _ops(out["summary"])
    headline, detail = plain_text(ops[(0,)]), plain_text(ops[(1,)])
    cost, model, t = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    assert headline.startswith(f"Use {model} at score ≥ {format_threshold(t)} under the "
                               "capacity of 10% cases:")
    assert "more per case than the optimum without it" in headline
    assert "Chosen under share flagged ≤ 10%: the least expected cost" in detail
    card = plain_text(out["operating"])
    assert "least expected cost under the capacity of 10% cases" in card
    assert format_threshold(t) in card and model in card
    # the download writes the same point
    analysis = cache.analysis([DEMO_ID], MODELS, exports.page_conditions(page))
    doc = json.loads(exports.decision_download(cache, store, page, analysis)[0]["content"])
    assert (doc["model"], doc["rule"]["threshold"]) == (model, t)
    assert doc["metrics"]["expected_cost"] == pytest.approx(cost, abs=1e-9)


def test_cst002_floors_headline_names_the_floors(page_of):
    cache, _, page = page_of(floors="recall >= 0.8; nonsense")
    out = strip_update(cache, page, ids.DCT_FLOORS)
    headline = plain_text(_ops(out["summary"])[(0,)])
    cost, model, t = _brute(lambda tpr, fpr, flagged: tpr >= 0.8 - 1e-12)
    assert headline.startswith(f"Use {model} at score ≥ {format_threshold(t)} under the "
                               f"floor {RECALL}:")
    both = strip_update(cache, page_of(capacity="60%", floors="recall >= 0.8")[2],
                        ids.VIZ_DATA)
    cost, model, t = _brute(lambda tpr, fpr, flagged: tpr >= 0.8 - 1e-12
                            and flagged <= 0.6 + 1e-12)
    assert plain_text(_ops(both["summary"])[(0,)]).startswith(
        f"Use {model} at score ≥ {format_threshold(t)} under the capacity of 60% cases and "
        f"the floor {RECALL}:")


def test_cst003_none_met_or_cleared_gives_the_optimum_back(page_of):
    cache, _, plain = page_of()
    with pytest.raises(PreventUpdate):  # the views drew the strip without a constraint
        strip_update(cache, plain, ids.VIZ_DATA)
    cleared = strip_update(cache, plain, ids.DCT_CAPACITY)
    cost, model, t = _brute(lambda *_: True)
    assert plain_text(_ops(cleared["summary"])[(0,)]).startswith(
        f"Use {model} at score ≥ {format_threshold(t)}:")
    assert "optimal for the current costs and prior" in plain_text(cleared["operating"])
    _, _, none = page_of(floors="recall >= 0.99; fpr <= 0.001")
    out = strip_update(cache, none, ids.VIZ_DATA)
    ops = _ops(out["summary"])
    assert plain_text(ops[(0,)]).startswith(f"Use {model} at score ≥ {format_threshold(t)}:")
    line = plain_text(ops[(1,)])
    assert line.startswith("No threshold meets the constraints: none of the ")
    # said once, naming the model whose closest values it gives, with no stray punctuation
    assert line.lower().count("no threshold") == 1 and ".)" not in line and ".." not in line
    assert "models shown does. Closest: " in line and ": reaches recall" in line


def test_cst004_the_optimums_intervals_line_stays_out_under_a_constraint(page_of, tmp_path):
    from roc_dash.app import create_app
    from roc_dash.app.components import STRIP_INTERVALS_SLOT

    cache, _, page = page_of(capacity="10%")
    assert _ops(strip_update(cache, page, ids.VIZ_DATA)["summary"])[
        (STRIP_INTERVALS_SLOT,)] is None
    app = create_app(store=DatasetStore(tmp_path))
    fn = next(v for k, v in app.callback_map.items()
              if k.startswith(f"{ids.SUMMARY}.children") and
              [i["id"] for i in v["inputs"]] == [ids.STRIP_INTERVALS])["callback"].__wrapped__
    line = {"line": "How sure: x.", "at": 1.0}
    with pytest.raises(PreventUpdate):
        fn(line, "10%", "")
    with pytest.raises(PreventUpdate):
        fn(line, "", "recall >= 0.8")
    assert fn(line, "lots", "") is not None  # nothing readable: the optimum's line


def test_cst005_pins_are_compared_with_the_constrained_recommendation(page_of):
    """Under a capacity, the pins' line compares each pin with the point the strip
    recommends (the least cost within the capacity), not with the optimum without it; the
    difference by brute force. Cleared, the pins are compared with the optimum again."""
    from roc_dash.app.page_state import ModelRef, Pin

    rows = pd.read_csv(DEMO)
    r = rows[rows["model"] == "naive Bayes"]
    y, s = (r["label"] == "pos").to_numpy(), r["score"].to_numpy(float)
    t = float(np.unique(s)[len(np.unique(s)) // 2])  # a vertex: no snapping
    tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
    pin_cost = PRIOR * (1 - tpr) * CFN + (1 - PRIOR) * fpr * CFP
    pin = Pin("A", ModelRef(DEMO_ID, "naive Bayes"), t)
    cache, _, page = page_of(capacity="10%", pins=(pin,))
    line = plain_text(_ops(strip_update(cache, page, ids.VIZ_DATA)["summary"])[(3,)])
    chosen, _, _ = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    optimum, _, _ = _brute(lambda *_: True)
    assert chosen > optimum + 1e-3  # the capacity binds: the two comparisons differ
    delta = pin_cost - chosen
    said = (f"+{format_sig(delta)} against" if delta > 0 else
            f"{format_sig(-delta)} less than") + " the recommendation"
    assert line.startswith("Pinned A: naive Bayes at score ≥") and said in line
    _, _, free = page_of(capacity="", pins=(pin,))
    back = plain_text(_ops(strip_update(cache, free, ids.DCT_CAPACITY)["summary"])[(3,)])
    assert f"+{format_sig(pin_cost - optimum)} against the recommendation" in back


def test_cst006_with_pins_the_card_and_report_compare_with_the_constrained_point(page_of):
    """Under a capacity with a pin, the operating card's first column is the recommendation
    the strip shows (its ↓ writes that point), not the optimum without the capacity, and
    the HTML report's pins line and comparison say the same as the strip."""
    from roc_dash.app.analysis import shown_analysis
    from roc_dash.app.features.exports import html_download
    from roc_dash.app.page_state import ModelRef, Pin

    rows = pd.read_csv(DEMO)
    s = rows.loc[rows["model"] == "naive Bayes", "score"].to_numpy(float)
    t = float(np.unique(s)[len(np.unique(s)) // 2])
    cache, store, page = page_of(capacity="10%", pins=(Pin("A", ModelRef(DEMO_ID,
                                                                         "naive Bayes"), t),))
    out = strip_update(cache, page, ids.VIZ_DATA)
    chosen, model, threshold = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    card = str(out["operating"])
    assert "Choice" in card and "↓ choice" in card
    assert "children='Optimum'" not in card  # the optimum without the capacity is not shown
    assert f"{model}, score ≥ {format_threshold(threshold)}" in card
    pins = plain_text(_ops(out["summary"])[(3,)])
    analysis = shown_analysis(cache, page)
    table = cache.table(list(page.datasets), None)
    report = html_download(cache, store, page, analysis, table, None, "auc")["content"]
    assert pins.split(": ", 1)[1][:60] in report.replace("&#x27;", "'")
    assert "<th>Choice</th>" in report


def test_cst007_the_cards_intervals_are_of_the_constrained_recommendation(page_of):
    """Under a capacity, the operating card's "How sure?" table stands on the point the
    strip recommends (its threshold fixed in every replicate, as a pin's), not on the
    optimum without the capacity; without it, on the optimum again."""
    from roc_dash.app.chosen_points import chosen_intervals
    from roc_dash.app.features.intervals import intervals_table, recommendation

    cache, _, page = page_of(capacity="10%")
    chosen = chosen_intervals(cache, page, n_boot=20, first=lambda a: recommendation(page, a))
    _, model, threshold = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    label, op, u = chosen[0]
    assert (label, op.model, op.threshold) == ("Choice", model, threshold)
    assert u.threshold.estimate == threshold and u.threshold.interval == "fixed"
    assert "Choice" in str(intervals_table(chosen))
    _, _, free = page_of()
    assert chosen_intervals(cache, free, n_boot=20, first=lambda a: recommendation(
        free, a))[0][0] == "Optimum"


def test_cst008_a_capacity_in_cases_is_a_percent_in_the_note_as_in_the_headline(page_of):
    """review9: "flags 43% of cases" and then "share flagged ≤ 0.952381": one style."""
    import re

    from roc_dash.text.rounding import limit_percent
    n = len(pd.read_csv(DEMO)) // len(MODELS)
    cache, _, page = page_of(capacity="37")
    out = strip_update(cache, page, ids.VIZ_DATA)
    ops = _ops(out["summary"])
    headline, detail = plain_text(ops[(0,)]), plain_text(ops[(1,)])
    assert re.search(r"flags [0-9.]+% of cases", headline)
    # a limit in percent, never rounded up (review 11: 300 of 1,600 is "≤ 18.75%", not 19%)
    assert f"Chosen under share flagged ≤ {limit_percent(37 / n)}:" in detail, detail
    assert not re.search(r"≤ 0\.[0-9]", detail)
