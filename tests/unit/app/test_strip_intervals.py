"""The summary strip's line of intervals (features/intervals.py, issue 17 item 2): its text
against the core's bootstrap on the model's rows read here with pandas, formatted here with
Python's own ``format``; its place in the strip; and the wiring that patches it in after the
views without holding them up."""

import numpy as np
import pandas as pd
import pytest
from dash.exceptions import PreventUpdate

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.components import STRIP_INTERVALS_SLOT, summary_strip
from roc_dash.app.features import intervals as feature
from roc_dash.app.page_state import ModelRef, PageState, Pin
from roc_dash.app.render import VIEW_OUTPUTS
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.decisions.decision_summary import decision_summary
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import point_intervals
from roc_dash.text.rounding import sig
from tests.conftest import DATA
from tools.dash_requests import callback_body, callback_specs

DEMO = DATA / "demo_predictions.csv"


def _page(state, pins=()):
    """The page's state: the demo, every model shown, the conditions ``state`` and the pins
    (``{"model", "threshold", "label"}`` of the demo's models)."""
    return PageState(conditions=ControlState.from_store(state), pins=tuple(
        Pin(p["label"], ModelRef(DEMO_ID, p["model"]), p["threshold"]) for p in pins))


def _three(v):
    """The one rounding rule, as the page's interval cells (written out here: Python's .6g)."""
    return format(v, ".6g")


def _optimum(cache, state):
    model_names(cache, [DEMO_ID])
    chosen = feature.chosen_intervals(cache, _page(state, []), seconds=600)
    return chosen[0]


def test_pci020_strip_line_holds_the_threshold_and_cost_intervals_of_the_core(cache):
    state = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual").to_store()
    _, op, u = _optimum(cache, state)
    frame = pd.read_csv(DEMO)
    rows = frame[frame["model"] == op.model]
    core = point_intervals(rows["label"].to_numpy() == "pos", rows["score"].to_numpy(float),
                           0.3, Economics(cost_fp=1.0, cost_fn=3.0), n_boot=feature.N_BOOT,
                           seed=feature.SEED).optimum
    text = feature.strip_text(u)
    t, c = core.threshold, core.expected_cost
    assert f"threshold {_three(t.low)}–{_three(t.high)}" in text
    assert f"expected cost {_three(c.low)}–{_three(c.high)} per case" in text
    assert f"out of bag {_three(core.optimism.out_of_bag)}" in text
    assert text.startswith(f"How sure: 95% intervals of the choice ({feature.N_BOOT} ")
    assert "$" in feature.strip_text(u, "$")


def test_pci021_strip_line_says_a_net_gain_when_benefits_outweigh_costs(cache):
    state = ControlState(cost_fp=1.0, cost_fn=1.0, benefit_tp=5.0, prior=0.3,
                         prior_mode="manual").to_store()
    _, _, u = _optimum(cache, state)
    assert u.expected_cost.estimate < 0
    text = feature.strip_text(u)
    c = u.expected_cost
    assert f"net gain {_three(-c.high)}–{_three(-c.low)} per case" in text
    assert "expected cost" not in text


def test_pci022_strip_has_an_empty_slot_for_the_line_before_the_pins():
    y = np.r_[np.ones(20, bool), np.zeros(30, bool)]
    s = np.r_[np.linspace(0.3, 1, 20), np.linspace(0, 0.7, 30)]
    table = pd.DataFrame({"label": y, "score": s, "model": "m", "fold": 0, "weight": 1.0})
    analysis = analyse(table, Conditions())
    e = Economics(cost_fp=1.0, cost_fn=1.0)
    summary = decision_summary(analysis, None, e)
    pinned = decision_summary(analysis, {"model": "m", "threshold": 0.5}, e)
    strip = summary_strip(summary, pinned=[("A", pinned)])
    assert strip[STRIP_INTERVALS_SLOT] is None
    assert strip[-1].className == "summary-pins" and STRIP_INTERVALS_SLOT < len(strip) - 1


def test_pci023_the_line_follows_the_intervals_and_patches_the_strip(tmp_path):
    app = create_app(store=DatasetStore(tmp_path))
    views = {str(o) for o in VIEW_OUTPUTS.values()}
    key = next(k for k in app.callback_map if ids.STRIP_INTERVALS in k and
               ids.POINT_INTERVALS in k)
    inputs = [i["id"] for i in app.callback_map[key]["inputs"]]
    # after the views, never in front of them; and when the Decide tab's capacity or
    # floors change (the card's first column is then the point they choose)
    assert inputs == [ids.VIZ_DATA, ids.DCT_CAPACITY, ids.DCT_FLOORS,
                      ids.DCT_FLOOR_CONF, ids.DCT_VOLUME]
    patcher = next(v for k, v in app.callback_map.items()
                   if k.startswith(f"{ids.SUMMARY}.children") and
                   [i["id"] for i in v["inputs"]] == [ids.STRIP_INTERVALS])
    assert f"{ids.SUMMARY}.children" in " ".join(views)
    fn = patcher["callback"].__wrapped__
    patch = fn({"line": "How sure: x.", "at": 1.0}).to_plotly_json()
    (op,) = patch["operations"]
    assert op["operation"] == "Assign" and op["location"] == [STRIP_INTERVALS_SLOT]
    assert op["params"]["value"].children == "How sure: x."
    for empty in (None, {"line": ""}, "text"):
        with pytest.raises(PreventUpdate):
            fn(empty)


def _export_html(app, state, models, measure="auc", dataset_ids=(DEMO_ID,)):
    """The page's HTML export, as a click on its button runs it (``measure``: the Model
    comparison card's choice; ``models`` of the one dataset ``dataset_ids``)."""
    body = callback_body(callback_specs(app), f"{ids.DOWNLOAD}.data", {
        f"{ids.EXPORT_HTML}.n_clicks": 1, "datasets.data": list(dataset_ids),
        "models.value": [f"{dataset_ids[0]}/{m}" for m in models], "conditions.data": state,
        "level.value": 0.95, "band.value": "pointwise", "averaging.value": "pooled",
        f"{ids.CMP_MEASURE}.value": measure}, [f"{ids.EXPORT_HTML}.n_clicks"])
    r = app.server.test_client().post("/_dash-update-component", json=body)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    return r.get_json()["response"]["download"]["data"]["content"]


def test_pci024_page_html_export_has_the_intervals_section_with_the_cores_numbers(tmp_path):
    store = DatasetStore(tmp_path)
    app = create_app(store=store)
    cache = AnalysisCache(store)
    models = model_names(cache, [DEMO_ID])
    state = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual").to_store()
    page = _export_html(app, state, models)
    assert "How sure is the chosen point?" in page
    frame = pd.read_csv(DEMO)
    e = Economics(cost_fp=1.0, cost_fn=3.0)
    for model in models:
        rows = frame[frame["model"] == model]
        u = point_intervals(rows["label"].to_numpy() == "pos", rows["score"].to_numpy(float),
                            0.3, e, n_boot=200, seed=0).optimum
        for iv in (u.threshold, u.tpr, u.expected_cost):  # the report's 4 decimals
            assert f"{sig(iv.estimate)} [{sig(iv.low)}–{sig(iv.high)}]" in page, model
        assert f"{sig(u.optimism.out_of_bag)}" in page
    # the same numbers as the operating card's optimum column
    _, op, card = feature.chosen_intervals(cache, _page(state, []),
                                           seconds=600)[0]
    t = card.threshold
    assert f"{sig(t.estimate)} [{sig(t.low)}–{sig(t.high)}]" in page
