"""The Decide tab's capacity and floors card (roc_dash.app.features.constraints): its glue
checked against the core and against brute force over the demo file read with pandas."""

import json
from dataclasses import replace as dataclasses_replace

import numpy as np
import pandas as pd
import pytest
from dash import no_update
from dash.exceptions import PreventUpdate

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache, model_refs
from roc_dash.app.components import percent
from roc_dash.app.features.constraints import (
    N_BOOT,
    OVERLAY_UID,
    SEED,
    card_figure,
    confidences,
    model_views,
    overlay,
    parse_settings,
    summary_table,
)
from roc_dash.app.page_state import PageState, parse_link
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.constraints.floor_confidence import floor_confidence, resample_thresholds
from roc_dash.core.constraints.floors import Floor
from roc_dash.figures.style import format_threshold
from roc_dash.text.rounding import sig
from tests.conftest import DATA
from tests.conftest import DEMO_MODELS as MODELS

DEMO = DATA / "demo_predictions.csv"
PRIOR, CFP, CFN = 0.3, 1.0, 4.0


@pytest.fixture
def demo(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    return cache, cache.analysis([DEMO_ID], MODELS,
                                 Conditions(prior_pos=PRIOR, cost_fp=CFP, cost_fn=CFN))


def _rows(model):
    rows = pd.read_csv(DEMO)
    rows = rows[rows["model"] == model]
    return (rows["label"] == "pos").to_numpy(), rows["score"].to_numpy(float)


def _brute(model):
    """Every single threshold of a model (each distinct score, and +inf): its count of
    cases flagged, TPR, FPR and expected cost per case at PRIOR under CFP and CFN."""
    y, s = _rows(model)
    out = []
    for t in [np.inf, *np.unique(s)]:
        flag = s >= t
        tpr, fpr = flag[y].mean(), flag[~y].mean()
        cost = PRIOR * (1 - tpr) * CFN + (1 - PRIOR) * fpr * CFP
        out.append((t, int(flag.sum()), tpr, fpr, cost))
    return out


def test_dct001_settings_parse_and_bad_input_says_what(demo):
    cap, floors, cap_msg, floors_msg = parse_settings(" 30/1000 ", "precision >= 0.9; "
                                                      "recall>=95%, fpr <= 1%")
    assert cap == (None, 0.03) and not cap_msg and not floors_msg
    assert floors == (Floor("precision", ">=", 0.9), Floor("recall", ">=", 0.95),
                      Floor("fpr", "<=", 0.01))
    cap, floors, cap_msg, floors_msg = parse_settings("lots", "precision >= 0.9; prec ~ 3")
    assert cap is None and "lots" in cap_msg and "30/1000" in cap_msg
    assert floors == (Floor("precision", ">=", 0.9),)  # the good one is kept
    assert "prec ~ 3" in floors_msg and "precision>=0.9" in floors_msg
    assert parse_settings("", "") == (None, (), "", "")


def test_dct002_capacity_threshold_is_the_cheapest_within_k_by_brute_force(demo):
    _, analysis = demo
    k = 40
    views = model_views(analysis, (float(k), None), ())
    for v in views:
        cp = v.capacity
        n = len(_rows(v.name)[0])
        assert cp.queue_rate == pytest.approx(k / n)
        # the queue rate at the deployment prior: p·TPR + (1 − p)·FPR of the cases
        within = [b for b in _brute(v.name)
                  if PRIOR * b[2] + (1 - PRIOR) * b[3] <= k / n + 1e-12]
        t, count, tpr, fpr, cost = min(within, key=lambda b: b[4])
        assert cp.decision.expected_cost == pytest.approx(cost, abs=1e-12)
        assert cp.decision.threshold == t
        # the hull point uses the capacity: no single threshold within it finds more
        assert cp.recall >= max(b[2] for b in within) - 1e-12
        assert cp.precision == pytest.approx(PRIOR * cp.recall / cp.queue_rate)
        # the card's row is one rule, the single threshold: its own recall and queue rate
        # (Fawcett's exact-K mix, when it is one, only in the note)
        table = summary_table([v])
        head, name, cells, note = _row_cells(table)
        assert head == "Under the capacity" and name == v.name and cells[2] == percent(tpr)
        assert cells[0] == percent(PRIOR * tpr + (1 - PRIOR) * fpr)
        assert cells[4] == format_threshold(t)
        if cp.binding and cp.mix.k not in (0.0, 1.0):
            # the note's sentence gives its rates as percentages, as its queue rate
            assert f"recall {percent(cp.recall)}" in note


def _row_cells(table, group: int = 0) -> tuple[str, str, list[str], str]:
    """A Dash capacity table's group heading, its first model's name, the texts of that
    model's cells and its note (``group``: 0 the capacity's rows, 1 the floors')."""
    bodies = table.children[1:]
    starts = [i for i, b in enumerate(bodies) if getattr(b, "className", None) != "dct-model-rows"]
    heading, model = bodies[starts[group]], bodies[starts[group] + 1]
    named, row = model.children
    name, _, note = named.children.children
    return (str(heading.children.children.children), str(name.children),
            [str(td.children) for td in row.children], str(note.children))


def test_dct012_one_number_style_per_column_of_the_capacity_table(demo):
    """The table mixed percentages (the queue rate, "3.16742%") and decimals (precision
    0.823453, recall 0.4) for shares: every share is now in percent as the summary strip
    says it (``percent``), every threshold by the page's rule, lift and cost in 6 digits;
    the constraint is its group's heading, and each model's name and note a row over its
    numbers (so that the table keeps to its card's width)."""
    _, analysis = demo
    views = model_views(analysis, (None, 0.1), (Floor("recall", ">=", 0.8),))
    table = summary_table(views)
    head = [th.children for th in table.children[0].children.children]
    assert head == ["Queue rate", "Precision", "Recall", "Lift", "Threshold", "Expected cost"]
    for group, v in enumerate(views[:1] * 2):
        d = v.capacity.decision if group == 0 else v.floors
        heading, name, cells, note = _row_cells(table, group)
        assert heading == ("Under the capacity", "Under the floors")[group]
        p = d.prior_pos
        flagged = p * d.tpr + (1 - p) * d.fpr
        precision = p * d.tpr / flagged
        assert name == v.name
        assert cells == [percent(flagged), percent(precision), percent(d.tpr),
                         sig(precision / p), format_threshold(d.threshold),
                         sig(d.expected_cost)]
        assert all(c.endswith("%") for c in cells[:3]), cells
        assert not any(c.endswith("%") for c in cells[3:]), cells
        assert note.startswith("the capacity ") if group == 0 else note == (
            f"the floors add {sig(v.floors.cost_of_floors)} per case to the optimum's cost")


def test_dct003_floors_threshold_meets_them_at_least_cost_by_brute_force(demo):
    _, analysis = demo
    floors = (Floor("recall", ">=", 0.8), Floor("fpr", "<=", 0.3))
    for v in model_views(analysis, None, floors):
        ok = [b for b in _brute(v.name) if b[2] >= 0.8 - 1e-12 and b[3] <= 0.3 + 1e-12]
        d = v.floors
        if not ok:
            assert d.index is None
            continue
        best = min(ok, key=lambda b: b[4])
        assert d.expected_cost == pytest.approx(best[4], abs=1e-12)
        assert d.tpr >= 0.8 - 1e-12 and d.fpr <= 0.3 + 1e-12


def test_dct004_overlay_traces_are_tagged_listed_and_follow_the_axes(demo):
    _, analysis = demo
    views = model_views(analysis, (None, 0.2), (Floor("precision", ">=", 0.6),))
    out = overlay(views)
    json.dumps(out)  # a store's JSON: no numpy arrays
    assert out["roc"] and out["pr"]
    uids = [t["uid"] for t in out["roc"] + out["pr"]]
    assert all(u.startswith(OVERLAY_UID) for u in uids) and len(set(uids)) == len(uids)
    assert sum(bool(t.get("fill")) for t in out["roc"]) == 1  # the region once
    assert sum(bool(t.get("fill")) for t in out["pr"]) == 1
    # the capacity's point on the ROC is each model's hull point
    marks = [t for t in out["roc"] if t.get("mode") == "markers+text"]
    assert [(m["x"][0], m["y"][0]) for m in marks] == [
        (v.capacity.mix.fpr, v.capacity.mix.tpr) for v in views]
    assert overlay(views, det=True)["roc"] == [] and overlay(views, pr_mode="prg")["pr"] == []
    for view in ("gains", "lift", "ks"):
        fig = card_figure(views, view)
        assert len(fig.data) >= 2


def test_dct005_floor_confidence_is_the_cores_on_the_same_replicates(demo):
    cache, analysis = demo
    page = PageState(conditions=ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR,
                                             prior_mode="manual"))
    floors = (Floor("recall", ">=", 0.8),)
    got = dict(confidences(cache, page, analysis, floors))
    assert set(got) == set(MODELS)
    v = model_views(analysis, None, floors)[1]
    y, s = _rows(v.name)
    want = floor_confidence(y, s, floors, v.floors.threshold, prior_pos=PRIOR,
                            economics=_economics(), n_boot=N_BOOT,
                            seed=SEED, level=analysis.conditions.level,
                            replicates=resample_thresholds(y, s, n_boot=N_BOOT, seed=SEED))
    h, w = got[v.name].holds[0], want.holds[0]
    assert (h.estimate, h.low, h.high, h.holds_share, h.procedure_share) == pytest.approx(
        (w.estimate, w.low, w.high, w.holds_share, w.procedure_share))
    # the share by brute force: the recall of the chosen threshold on each replicate
    assert 0 <= h.holds_share <= 1 and h.estimate == pytest.approx(
        (s[y] >= v.floors.threshold).mean())


def _economics():
    from roc_dash.core.decisions.economics import Economics

    return Economics(cost_fp=CFP, cost_fn=CFN)


def _callback(app, output_id):
    return next(v["callback"] for k, v in app.callback_map.items() if output_id in k)


def _page(keys, **kw):
    page = {"datasets": [DEMO_ID], "models": [keys, [{"value": k} for k in keys]],
            "conditions": ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR,
                                       prior_mode="manual").to_store(),
            "level": 0.95, "band": "pointwise", "samples": 51, "det": [], "pr_mode": "pr",
            "capacity": "", "floors": "", "constraint_view": "gains", "presentation": [],
            "tab": "decide"}
    page.update(kw)
    return page


def test_dct006_callback_bad_input_keeps_the_rest(tmp_path):
    app = create_app(store=DatasetStore(tmp_path))
    keys = list(model_refs(AnalysisCache(DatasetStore(tmp_path)), [DEMO_ID]))
    view = _callback(app, ids.DCT_SUMMARY).__wrapped__
    viz = {"key": "x"}
    out = view(viz=viz, page=_page(keys, capacity="100000", floors="recall >= 0.8; nonsense"))
    assert "more than the" in out["capacity_msg"] and "100,000" in out["capacity_msg"]
    assert "nonsense" in out["floors_msg"]
    assert len(out["overlay"]["floors"]) == 1 and "recall" in out["overlay"]["floors"][0]
    assert any(t.get("fill") for t in out["overlay"]["roc"])  # the good floor still drawn
    assert "floors" in str(out["summary"])
    good = view(viz=viz, page=_page(keys, capacity="5%"))
    assert good["capacity_msg"] == "" and good["overlay"]["roc"]
    with pytest.raises(PreventUpdate):
        view(viz=viz, page=_page(keys, tab="compare"))
    # how sure the floors are: after the card, from the store it writes
    sure = _callback(app, ids.DCT_CONFIDENCE).__wrapped__
    fields = ("datasets", "models", "conditions", "level", "band", "samples", "floors")
    page = {k: v for k, v in _page(keys, floors="recall >= 0.8; nonsense").items()
            if k in fields}
    assert "Holds in" in str(sure(drawn=out["overlay"], page=page))
    assert sure(drawn=None, page={**page, "floors": ""}) is None


def test_dct007_settings_restored_from_a_link(tmp_path):
    app = create_app(store=DatasetStore(tmp_path))
    state = PageState(capacity="30/1000", floors="precision >= 0.9", constraint_view="lift")
    query = state.to_query()
    assert parse_link(query)[0].floors == "precision >= 0.9"
    for target, want in ((ids.DCT_CAPACITY, "30/1000"), (ids.DCT_FLOORS, "precision >= 0.9"),
                         (ids.DCT_VIEW, "lift")):
        assert app.callback_map[f"{target}.value"]["callback"].__wrapped__(query) == want


def _export_page(tmp_path, monkeypatch, **fields):
    """``(exports, store, cache, page, analysis)``: the exports module signed in as
    ``tester``, a store on ``tmp_path`` and its cache, the page at the module's costs and
    prior (manual) with ``fields`` (capacity, floors, ...) and its analysis of the demo."""
    import roc_dash.app.features.exports as exports

    monkeypatch.setattr(exports, "current_owner", lambda: "tester")
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    conditions = ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR, prior_mode="manual")
    page = PageState(conditions=conditions, **fields)
    return exports, store, cache, page, cache.analysis([DEMO_ID], MODELS,
                                                      exports.page_conditions(page))


def test_dct008_download_decision_under_capacity_or_floors(tmp_path, monkeypatch):
    exports, store, cache, page, analysis = _export_page(
        tmp_path, monkeypatch, capacity="10%")
    file, status = exports.decision_download(cache, store, page, analysis)
    doc = json.loads(file["content"])
    # brute force: the least cost of any model's threshold flagging at most 10% at the prior
    best = min((b[4], m, b[0]) for m in MODELS for b in _brute(m)
                if PRIOR * b[2] + (1 - PRIOR) * b[3] <= 0.1 + 1e-12)
    assert doc["rule"]["how_chosen"] == "capacity"
    assert (doc["model"], doc["rule"]["threshold"]) == (best[1], best[2])
    assert doc["metrics"]["expected_cost"] == pytest.approx(best[0], abs=1e-9)
    assert "under the capacity" in status and best[1] in status

    floors = dataclasses_replace(page, capacity="", floors="recall >= 0.8; nonsense")
    doc = json.loads(exports.decision_download(cache, store, floors, analysis)[0]["content"])
    best = min((b[4], m, b[0]) for m in MODELS for b in _brute(m) if b[2] >= 0.8 - 1e-12)
    assert doc["rule"]["how_chosen"] == "floors"
    assert (doc["model"], doc["rule"]["threshold"]) == (best[1], best[2])
    assert any("holds in" in n for n in doc["notes"])
    # both: the note names both, as the strip does (not "under the floors")
    both = dataclasses_replace(page, capacity="30%", floors="recall >= 0.5")
    _, status = exports.decision_download(cache, store, both, analysis)
    assert "under the capacity of 30% cases and the floor recall ≥ 0.5:" in status
    # nothing meets the floors: a message, no file
    none = dataclasses_replace(page, capacity="", floors="recall >= 0.99; fpr <= 0.001")
    file, status = exports.decision_download(cache, store, none, analysis)
    assert file is no_update and "no threshold meets" in status
    # nothing readable: the recommendation, as without it
    odd = dataclasses_replace(page, capacity="lots")
    doc = json.loads(exports.decision_download(cache, store, odd, analysis)[0]["content"])
    assert doc["rule"]["how_chosen"] == "optimum"


def test_dct009_html_report_has_the_pages_capacity_and_floors(tmp_path, monkeypatch):
    from roc_dash.core.constraints.capacity import capacity_point

    exports, store, cache, page, analysis = _export_page(
        tmp_path, monkeypatch, capacity="10%", floors="recall >= 0.8")
    table = cache.table([DEMO_ID])
    text = exports.html_download(cache, store, page, analysis, table, None, None)["content"]
    assert "<h2>Capacity:" in text and "<h2>Floors: recall" in text
    m = analysis.models[0]
    cp = capacity_point(m.curve, fraction=0.1, prior_pos=PRIOR, hull=m.hull)
    assert sig(cp.precision) in text and sig(cp.recall) in text
    plain = exports.html_download(cache, store, PageState(conditions=page.conditions), analysis,
                                  table, None, None)["content"]
    assert "<h2>Capacity:" not in plain and "<h2>Floors:" not in plain


def test_dct010_calibration_card_bands_and_fit_are_statsmodels(demo):
    import statsmodels.api as sm
    from statsmodels.stats.proportion import proportion_confint

    from roc_dash.app.features.calibration import (
        band_traces,
        calibration_outputs,
        model_calibrations,
        model_uncertainties,
    )
    from roc_dash.core.constraints.calibration_intervals import EPS

    _, analysis = demo
    uncertain = model_uncertainties(analysis, n_bins=10, level=0.95)
    cards = model_calibrations(analysis, n_bins=10)
    traces = band_traces(uncertain, {n: i for i, n in enumerate(MODELS)})
    checked = 0
    for name, trace in zip([n for n, u in uncertain.items() if u.bands is not None], traces,
                           strict=True):
        u, y_s = uncertain[name], _rows(name)
        y, s = y_s[0].astype(float), y_s[1]
        # the bins are the card's, their intervals statsmodels' Wilson intervals
        np.testing.assert_allclose(trace["x"], cards[name].mean_predicted)
        b = u.bands
        low, high = proportion_confint(np.round(b.fraction_positive * b.count), b.count,
                                       alpha=0.05, method="wilson")
        np.testing.assert_allclose(trace["y"] - trace["error_y"]["arrayminus"], low, atol=1e-9)
        np.testing.assert_allclose(trace["y"] + trace["error_y"]["array"], high, atol=1e-9)
        c = np.clip(s, EPS, 1 - EPS)
        glm = sm.GLM(y, sm.add_constant(np.log(c / (1 - c))),
                     family=sm.families.Binomial()).fit()
        assert (u.fit.intercept, u.fit.slope) == pytest.approx(tuple(glm.params), rel=1e-6)
        lo, hi = glm.conf_int(0.05)[1]
        assert (u.fit.slope_low, u.fit.slope_high) == pytest.approx((lo, hi), rel=1e-5)
        checked += 1
    assert checked >= 2
    figure, table = calibration_outputs(analysis, MODELS)
    assert sum("band" in (t.name or "") for t in figure.data) == checked
    assert "slope" in str(table) and "Spiegelhalter" in str(table)


def test_dct011_pr_bands_at_the_deployment_prior_are_the_cores(demo):
    from roc_dash.app.features.constraints import pr_bands
    from roc_dash.core.constraints.pr_bands import pr_fold_band

    cache, analysis = demo
    page = PageState(conditions=ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR,
                                             prior_mode="manual"), pr_bands=True)
    bands = pr_bands(cache, page, analysis)
    assert [b[0] for b in bands] == MODELS and [b[2] for b in bands] == [0, 1, 2, 3]
    m = analysis.models[1]
    want = pr_fold_band(m.folds, prevalence=PRIOR, pooled=m.curve, level=0.95)
    got = bands[1][1]
    assert got.prevalence == PRIOR and got.method == "folds" and got.n_curves == 10
    np.testing.assert_allclose(got.low, want.low)
    np.testing.assert_allclose(got.high, want.high)
    out = overlay(model_views(analysis, None, ()), bands=bands)
    fills = [t for t in out["pr"] if t.get("fill") == "toself"]
    assert len(fills) == 4 and all(t["uid"].startswith(OVERLAY_UID) for t in fills)
    assert overlay(model_views(analysis, None, ()))["pr"] == []
