"""Callbacks as plain functions: upload, views, controls, dragging, pinning, URL, exports."""

import base64
import io

import numpy as np
import pandas as pd
import pytest
from dash import no_update

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.components import model_table_rows
from roc_dash.app.features.data import apply_upload, remove_dataset
from roc_dash.app.features.exports import curves_csv, table_csv
from roc_dash.app.features.pins import pin_from_click
from roc_dash.app.page_state import FIELDS, PageState
from roc_dash.app.render import models_table, render_views, resolve_operating
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState, parse_query
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.report.html import render_html
from tests.conftest import DEMO_MODELS, make_predictions


def _data_url(payload: bytes) -> str:
    return "data:text/csv;base64," + base64.b64encode(payload).decode()


def _good_csv(seed=0):
    return make_predictions(120, seed=seed).to_csv(index=False).encode()


def _legend(fig):
    return [t.name for t in fig.data]


def _upload(store, payloads, names, ids_, positive=None):
    sources = [(n, base64.b64decode(p.split(",", 1)[1])) for p, n in zip(payloads, names,
                                                                         strict=True)]
    out = apply_upload(store, sources, ids_, positive)
    return out.dataset_ids, out.status, out.error


def _views(cache, ids_, models=None, **kw):
    models = models if models is not None else model_names(cache, ids_)
    cond = kw.pop("conditions", Conditions(prior_pos=0.3))
    return render_views(cache, ids_, models, cond, **kw)


def test_cbk001_upload_adds_a_dataset_to_every_view(store, cache):
    ids_, status, error = _upload(store, [_data_url(_good_csv())], ["mine.csv"], [DEMO_ID])
    assert len(ids_) == 1 and ids_[0] != DEMO_ID  # the first upload replaces the demo
    assert error == "" and "mine.csv" in status and "120 rows" in status
    assert "replaces the demo" in status
    ids_ = [DEMO_ID, *ids_]
    roc, pr, cost, op, viz, slope, _, _, _ = _views(cache, ids_)
    table = models_table(cache, PageState(datasets=tuple(ids_),
                                          conditions=ControlState(prior=0.3)))
    assert any(n.startswith("mine (AUC ") for n in _legend(roc))
    assert any(n.startswith("logistic regression (demo) (AUC ") for n in _legend(roc))
    assert any(n.startswith("mine (AP ") for n in _legend(pr))
    assert "mine lower envelope" in _legend(cost)
    assert "mine" in str(table) and viz["hull"]["fpr"][0] == 0 and "slope" in slope


def test_cbk002_bad_upload_changes_nothing(store):
    ids_, status, error = _upload(store, [_data_url(b"label,score\n")], ["empty.csv"],
                                  [DEMO_ID])
    assert ids_ is no_update and "empty.csv" in error
    # all-or-nothing over several files: the good one is not loaded either
    ids_, _, error = _upload(
        store, [_data_url(_good_csv()), _data_url(b"\x89PNG\r\n\x1a\n\x00\x00")],
        ["good.csv", "picture.png"], [DEMO_ID])
    assert ids_ is no_update and "picture.png" in error
    assert list((store.dir).glob("*.parquet")) == []


def test_cbk003_positive_label_for_ambiguous_labels(store):
    frame = make_predictions(80, seed=3)
    frame["label"] = np.where(frame["label"] == 1, "cat", "dog")
    payload = [_data_url(frame.to_csv(index=False).encode())]
    ids_, _, error = _upload(store, payload, ["pets.csv"], [])
    assert ids_ is no_update and "cat" in error and "dog" in error
    # the page's wording: the Positive label box, not a command-line flag
    assert "Positive label box" in error and "--positive" not in error
    ids_, status, error = _upload(store, payload, ["pets.csv"], [], positive="cat")
    assert error == "" and len(ids_) == 1


def test_cbk004_same_name_twice_gets_distinct_model_names(store, cache):
    ids_, _, _ = _upload(store, [_data_url(_good_csv())], ["run.csv"], [])
    ids_, status, _ = _upload(store, [_data_url(_good_csv(1))], ["run.csv"], ids_)
    # "run" names its file (no model column): the first keeps it, the second is tagged
    assert model_names(cache, ids_) == ["run", "run (run.csv #2)"]
    assert "'run (run.csv #2)'" in status and "'run' keeps its name" in status


def test_cbk005_remove_and_missing_dataset(store, cache):
    ids_, _, _ = _upload(store, [_data_url(_good_csv())], ["a.csv"], [DEMO_ID])
    ids_ = [DEMO_ID, *ids_]
    assert remove_dataset(ids_, DEMO_ID) == ids_[1:]
    for f in store.dir.iterdir():  # the server's data folder was wiped
        f.unlink()
    fresh = AnalysisCache(DatasetStore(store.root))
    assert model_names(fresh, ids_) == DEMO_MODELS


def test_cbk006_views_follow_the_conditions(cache):
    cheap_fn = Conditions(cost_fp=1, cost_fn=10, prior_pos=0.5)
    cheap_fp = Conditions(cost_fp=10, cost_fn=1, prior_pos=0.5)
    a = _views(cache, [DEMO_ID], conditions=cheap_fn)
    b = _views(cache, [DEMO_ID], conditions=cheap_fp)
    line_a, line_b = a[0].layout.shapes[0], b[0].layout.shapes[0]
    slope_a = (line_a.y1 - line_a.y0) / (line_a.x1 - line_a.x0)
    slope_b = (line_b.y1 - line_b.y0) / (line_b.x1 - line_b.x0)
    assert slope_a == pytest.approx(0.1) and slope_b == pytest.approx(10)
    # the cost view's marker sits at PC(+) = 1/(1+m)
    assert a[2].layout.shapes[0].x0 == pytest.approx(1 / 1.1)
    assert b[2].layout.shapes[0].x0 == pytest.approx(1 / 11)
    # the PR view is drawn at the deployment prior
    assert "0.5" in a[1].layout.yaxis.title.text
    # the operating point is the liberal one when false negatives are expensive
    assert "optimal" in str(a[3]) and str(a[3]) != str(b[3])


def test_cbk007_every_averaging_mode_and_det(cache):
    for averaging in ("none", "pooled", "vertical", "threshold"):
        roc = _views(cache, [DEMO_ID], averaging=averaging)[0]
        names = _legend(roc)
        assert any("logistic regression" in n for n in names), averaging
        for trace in roc.data:
            assert len(trace.x) <= 2100  # thinned for display
    vertical = _views(cache, [DEMO_ID], averaging="vertical")[0]
    assert vertical.layout.title.text.startswith(
        "vertical average of 10 folds, 95% pointwise band")
    # the averaged views say the hull and optimum stay pooled (issue 17)
    assert "hull and ★ optimum from pooled predictions" in vertical.layout.title.text
    assert sum(t.fill == "toself" for t in vertical.data) == 4  # one band per model
    threshold = _views(cache, [DEMO_ID], averaging="threshold")[0]
    assert "threshold average of 10 folds" in threshold.layout.title.text
    assert sum(t.error_x.array is not None for t in threshold.data) == 4  # 2-D error bars
    det = _views(cache, [DEMO_ID], det=True)[0]
    assert det.layout.meta["det"] and "normal deviate" in det.layout.xaxis.title.text


def test_cbk008_model_selection_sets_the_joint_hull(cache):
    one = _views(cache, [DEMO_ID], models=["decision tree"])
    assert set(_legend(one[0])) >= {"convex hull (all shown models)"}
    assert not any("naive Bayes" in n for n in _legend(one[0]))
    empty = _views(cache, [DEMO_ID], models=[])
    assert empty[4] is None and "No model" in str(empty[0].layout.annotations)
    # a model keeps its colour whatever else is ticked
    colour = {n: None for n in DEMO_MODELS}
    for shown in (DEMO_MODELS, ["decision tree"], ["naive Bayes", "decision tree"]):
        roc = _views(cache, [DEMO_ID], models=shown)[0]
        for t in roc.data:
            name = (t.name or "").split(" (AUC")[0]
            if name in colour:
                colour[name] = colour[name] or t.line.color
                assert t.line.color == colour[name], (name, shown)
    assert len(set(colour.values())) == 4


def test_cbk011_url_round_trip():
    q = parse_query("?cfp=2&cfn=5&prior=0.1&avg=vertical&level=0.9&band=simultaneous&n=33"
                    "&det=1&pres=1&models=a|b&pin=naive%20Bayes|0.42")
    assert q == {"cost_fp": 2.0, "cost_fn": 5.0, "prior": 0.1, "averaging": "vertical",
                 "level": 0.9, "band": "simultaneous", "samples": 33, "det": ["det"],
                 "presentation": ["on"], "models": ["a", "b"],
                 "pins": [{"model": "naive Bayes", "threshold": 0.42, "label": "A"}]}
    assert parse_query("?pin=x|inf")["pins"] == [{"model": "x", "threshold": None, "label": "A"}]
    # up to three pins, each with its letter
    q = parse_query("?pin=A:m|0.1&pin=B:m2|0.5&pin=C:m|0.9&pin=m|0.95")
    assert [(p["label"], p["model"], p["threshold"]) for p in q["pins"]] == [
        ("A", "m", 0.1), ("B", "m2", 0.5), ("C", "m", 0.9)]
    # dataset ids: validated, each once, bounded
    ok = "A" * 32
    assert parse_query(f"?data={ok},{ok},demo,../etc,x")["data"] == [ok, "demo"]
    assert len(parse_query("?data=" + ",".join(f"{i:032d}" for i in range(300)))["data"]) == 20
    # junk is ignored, not fatal
    assert parse_query("?cfp=-1&prior=2&avg=zzz&n=3&level=abc") == {}


def test_cbk011b_tab_round_trip():
    """The tab shown goes into the link as ``tab=`` (assets/roc_dash.js writeUrl leaves the
    first tab out) and comes back from it; anything else opens the first tab."""
    from roc_dash.app.state import TABS

    assert TABS[0] == "decide"
    for tab in TABS[1:]:
        q = parse_query(f"?cfn=5&tab={tab}&prm=prg")
        assert q == {"cost_fn": 5.0, "tab": tab, "pr_mode": "prg"}
    assert parse_query("?tab=decide") == {"tab": "decide"}
    assert "tab" not in parse_query("?cfn=5")  # a link from before the tabs
    for junk in ("?tab=", "?tab=Compare", "?tab=../x", "?tab=compare%00", "?tab=" + "x" * 999):
        assert "tab" not in parse_query(junk), junk
    assert parse_query("?tab=beyond&tab=compare")["tab"] == "compare"  # the last one wins


def test_cbk011c_tab_from_link_and_url_wiring(tmp_path):
    """The tab a link names reaches the tab store; the page's link is written with the tab."""
    from dash.exceptions import PreventUpdate

    app = create_app(store=DatasetStore(tmp_path))
    restore = app.callback_map[f"{ids.TAB}.data"]["callback"]
    assert restore.__wrapped__("?cfn=2&tab=beyond") == "beyond"
    for search in ("", "?cfn=2", "?tab=nowhere", None):
        with pytest.raises(PreventUpdate):
            restore.__wrapped__(search)
    # the link is written from every field of the page's state, the tab included
    write = app.callback_map[f"{ids.URL_SYNC}.data"]
    read = {(i["id"], i["property"]) for i in write["inputs"]}
    assert {(ids.TAB, "data"), (ids.COST_MODE, "value"), (ids.SLC_COLUMN, "value"),
            (ids.SLC_MODEL, "value"), (ids.PINNED, "data")} <= read
    assert read == {s for f in FIELDS for s in f.sources}


def test_cbk012_pinning(cache):
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3))
    names = [m.name for m in analysis.models]
    click = {"points": [{"customdata": [names.index("naive Bayes"), 0.42, 0.1, 0.5]}]}
    pinned = pin_from_click(click, names)
    assert pinned == {"model": "naive Bayes", "threshold": 0.42}
    assert pin_from_click({"points": [{"customdata": [-1, None, 0, 0]}]}, names) is None
    assert pin_from_click({"points": [{"x": 1}]}, names) is None
    as_object = {"points": [{"customdata": {"0": 1, "1": 0.5, "2": 0.1, "3": 0.4}}]}
    assert pin_from_click(as_object, names) == {"model": names[1], "threshold": 0.5}
    assert pin_from_click({"points": [{"customdata": [0, None, 0, 0]}]}, names) == {
        "model": names[0], "threshold": None}  # the origin: +inf
    # hover unified along x (threshold view): the lines without customdata come first
    unified = {"points": [{"x": 0.3, "y": 0.6}, {"x": 0.3, "y": 0.2, "customdata": None},
                          {"x": 0.3, "y": 0.17, "customdata": [2, 0.3, 0.2, 0.6]}]}
    assert pin_from_click(unified, names) == {"model": names[2], "threshold": 0.3}
    op = resolve_operating(analysis, pinned)
    assert op.pinned and op.model == "naive Bayes" and op.threshold >= 0.42
    curve = analysis.model("naive Bayes").curve
    k = np.flatnonzero(curve.thresholds >= 0.42)[-1]
    assert (op.fpr, op.tpr) == (curve.fpr[k], curve.tpr[k])
    # the pinned point appears in every view
    views = render_views(cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3),
                         pinned=pinned)
    for fig in views[:3]:
        assert any("pinned" in (t.name or "") for t in fig.data)
    assert "pinned" in str(views[3])
    # a pin on a model no longer shown falls back to the optimum
    assert not resolve_operating(analysis, {"model": "gone", "threshold": 0.1}).pinned


def test_cbk013_exports(cache):
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3))
    curves = pd.read_csv(io.StringIO(curves_csv(analysis)))
    assert set(curves["model"]) == set(DEMO_MODELS)
    # the pooled curve's vertices, then each fold's own curve (issue 17: a fold column)
    pooled = curves[curves["fold"] == "pooled"]
    assert pooled.groupby("model").size()["logistic regression"] == len(
        analysis.model("logistic regression").curve)
    lr = curves[(curves["model"] == "logistic regression") & (curves["fold"] != "pooled")]
    assert lr["fold"].nunique() == 10 and len(lr) == sum(
        len(c) for c in analysis.model("logistic regression").folds.values())
    rows = pd.DataFrame(model_table_rows(analysis))
    assert list(rows["model"]) == DEMO_MODELS and rows["auc"].between(0.7, 1).all()
    # the table CSV says under which conditions its optimal thresholds hold
    table = pd.read_csv(io.StringIO(table_csv(analysis)))
    assert (table["prior_pos"] == 0.3).all() and (table["cost_fp"] == 1).all()
    assert table["slope"].iloc[0] == pytest.approx(0.7 / 0.3)
    page = render_html(analysis)
    assert page.startswith("<!DOCTYPE html>") and "logistic regression" in page
    assert '<script src="http' not in page and "Plotly" in page  # plotly.js inlined


def test_cbk014_operating_point_numbers(cache):
    cond = Conditions(cost_fp=1, cost_fn=3, prior_pos=0.2)
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, cond)
    op = resolve_operating(analysis, None)
    assert not op.pinned and op.model == analysis.optimal.model
    assert op.tp + op.fn == pytest.approx(analysis.model(op.model).n_pos)
    assert op.fp + op.tn == pytest.approx(analysis.model(op.model).n_neg)
    assert sum(op.per_1000) == pytest.approx(1000)
    assert op.per_1000[0] == pytest.approx(1000 * 0.2 * op.tpr)
    assert op.precision == pytest.approx(0.2 * op.tpr / (0.2 * op.tpr + 0.8 * op.fpr))
    assert op.expected_cost == pytest.approx(analysis.optimal.expected_cost)


def test_cbk015_cache_reuses_analyses(cache):
    cond = Conditions(prior_pos=0.3)
    a = cache.analysis([DEMO_ID], DEMO_MODELS, cond)
    b = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.1, cost_fn=4))
    assert b.models[0].curve is a.models[0].curve  # curves, intervals, averages reused
    assert b.models[0].vertical is a.models[0].vertical
    assert cache.analysis([DEMO_ID], DEMO_MODELS[:2], cond).models[0].curve is not None
    # the reused analysis equals a fresh one under the new conditions
    for c, got in ((cond, a), (Conditions(prior_pos=0.1, cost_fn=4), b)):
        direct = analyse(cache.table([DEMO_ID]), c)
        assert [m.auc for m in direct.models] == [m.auc for m in got.models]
        assert direct.optimal.expected_cost == pytest.approx(got.optimal.expected_cost)
        assert [m.optimal.threshold for m in direct.models] == [
            m.optimal.threshold for m in got.models]
        assert got.conditions == c


def test_cbk016_health_and_layout(tmp_path):
    app = create_app(data_dir=tmp_path)
    client = app.server.test_client()
    assert client.get("/health").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and b"roc-dash" in page.data
    assert client.get("/assets/style.css").status_code == 200
    assert client.get("/assets/roc_dash.js").status_code == 200


def test_cbk017_html_report_carries_the_dashboards_state(cache):
    from roc_dash.report.html import ReportState

    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3, cost_fn=4))
    pinned = resolve_operating(analysis, {"model": "naive Bayes", "threshold": 0.42})
    page = render_html(analysis, state=ReportState(
        averaging="vertical", datasets=("demo", "preds.csv"), operating=pinned,
        link="http://host/?cfn=4&pin=naive%20Bayes|0.42", note="Ship <it> Monday"))
    assert "Ship &lt;it&gt; Monday" in page  # the meeting's note, escaped
    assert "Operating point (pinned)" in page and "naive Bayes" in page
    assert "Fold averaging: vertical" in page and "preds.csv" in page
    assert 'href="http://host/?cfn=4&amp;pin=naive%20Bayes|0.42"' in page
    assert "vertical average of 10 folds" in page  # the ROC figure drawn as in the page
    assert "p(+) = 0.3" in page


def test_cbk018_every_control_and_metric_has_help(cache):
    """Tooltips: each control label, each option list and each metric says what it means."""
    from roc_dash.app.help import HELP
    from roc_dash.app.page import build_layout

    def walk(node):
        yield node
        children = getattr(node, "children", None)
        if isinstance(children, list | tuple):
            for child in children:
                yield from walk(child)
        elif children is not None and hasattr(children, "to_plotly_json"):
            yield from walk(children)

    nodes = list(walk(build_layout()))
    labels = [n for n in nodes if type(n).__name__ == "Label"
              and getattr(n, "className", "") == "control-label"]
    assert len(labels) >= 8 and all(getattr(n, "title", None) for n in labels)
    checklists = [n for n in nodes if type(n).__name__ == "Div"
                  and type(getattr(n, "children", None)).__name__ == "Checklist"]
    # + the log FPR axis (logfpr), + the PR bands toggle (the capacity and floors card)
    assert len(checklists) == 6 and all(n.title for n in checklists)
    copy = next(n for n in nodes if getattr(n, "id", None) == ids.COPY_LINK)
    assert type(copy).__name__ == "Button" and copy.title == HELP["copy_link"]
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3))
    from roc_dash.app.components import model_table, operating_panel

    op = resolve_operating(analysis, None)
    metrics = next(n for n in walk(operating_panel(op, analysis))
                   if getattr(n, "className", "") == "metrics")
    ths = [n for n in walk(metrics) if type(n).__name__ == "Th" and n.children != "Model"]
    assert ths and all(getattr(n, "title", None) for n in ths if n.children)
    head = [n for part in model_table(analysis) for n in walk(part) if type(n).__name__ == "Th"]
    assert sum(bool(getattr(n, "title", None)) for n in head) >= 6
    assert all("(" in text for text in HELP.values() if "et al" in text)


def test_cbk019_up_to_three_pins_side_by_side(cache):
    from roc_dash.app.features.pins import add_pin
    from roc_dash.app.state import clean_pins
    from roc_dash.core.decisions.operating import compare_points, operating_point, pinned_points

    pins = []
    for t in (0.3, 0.5, 0.7, 0.9):
        pins = add_pin(pins, {"model": "naive Bayes", "threshold": t})
    # the oldest made room for the fourth; letters stay distinct
    assert [(p["label"], p["threshold"]) for p in pins] == [("B", 0.5), ("C", 0.7), ("A", 0.9)]
    assert add_pin(pins, {"model": "naive Bayes", "threshold": 0.5}) == pins  # already pinned
    assert clean_pins([{"model": 1}, "x", {"model": "m", "threshold": "inf"},
                       {"model": "m", "threshold": None, "label": "Z"}]) == [
        {"model": "m", "threshold": None, "label": "A"}]
    cond = Conditions(prior_pos=0.3, cost_fn=2)
    views = render_views(cache, [DEMO_ID], DEMO_MODELS, cond, pinned=pins)
    for fig in views[:3]:
        names = [t.name or "" for t in fig.data]
        for label in "ABC":
            assert any(n.startswith(f"pinned {label}") for n in names), (label, names)
    panel = str(views[3])
    assert "compare" in panel and "Δ" in panel and "Optimum" in panel
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, cond)
    points = pinned_points(analysis, pins)
    table = compare_points(operating_point(analysis), points)
    assert table.labels == ("Optimum", "B", "C", "A")
    rows = dict((name, (values, deltas)) for name, values, deltas in table.rows)
    values, deltas = rows["Expected cost per case"]
    assert values[1] == pytest.approx(points[0].expected_cost)
    assert deltas[1] == pytest.approx(points[0].expected_cost - analysis.optimal.expected_cost)
    assert min(values) == pytest.approx(values[0])  # nothing beats the optimum
    flagged = rows["Flagged"][0][1]
    assert flagged == pytest.approx(0.3 * points[0].tpr + 0.7 * points[0].fpr)
    assert rows["Cost per 1,000 cases"][0][2] == pytest.approx(1000 * points[1].expected_cost)


def test_cbk020_decision_summary_threshold_view_and_economics(cache):
    """The summary strip names the decision and its numbers; benefits make the costs net;
    the threshold view has the model's cost curve with its optimum and flat band."""
    from roc_dash.app.state import ControlState, conditions_from_state, economics_from_state
    from roc_dash.core.decisions.decision_summary import decision_summary

    state = ControlState(cost_fp=1, cost_fn=3, prior=0.3, benefit_tp=2, unit="€",
                         population=10_000).to_store()
    cond = conditions_from_state(state)
    assert (cond.cost_fp, cond.cost_fn) == (1, 5)  # net: c(FN) + b(TP)
    e = economics_from_state(state)
    views = render_views(cache, [DEMO_ID], DEMO_MODELS, cond, economics=e)
    strip, threshold = str(views[7]), views[8]
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, cond)
    s = decision_summary(analysis, None, e)
    assert s.model == analysis.optimal.model
    assert s.model in strip and f"flags {s.flagged:.0%} of cases" in strip
    assert f"finds {s.tpr:.0%} of positives" in strip and "€" in strip
    assert "per month" in strip and "runner-up" in strip
    assert "stays optimal while" in strip and "folds" in strip
    names = [t.name for t in threshold.data]
    assert "expected cost (€)" in names and f"optimum of {s.model}" in names
    assert threshold.layout.meta["model"] == s.model
    # a pin is compared below the recommendation, never in its place (issue 15)
    pin = [{"model": "naive Bayes", "threshold": 0.5, "label": "A"}]
    pinned = str(render_views(cache, [DEMO_ID], DEMO_MODELS, cond, economics=e,
                              pinned=pin)[7])
    assert pinned.startswith("[Div(children=['Use '") and "Pinned A: naive Bayes" in pinned


def test_cbk019_with_benefits_every_view_gives_one_expected_cost(cache):
    """Benefits entered: the operating panel, the model table and the decision summary give
    the same cost per case (errors minus benefits), said as a gain when it is negative."""
    from roc_dash.app.state import ControlState, conditions_from_state, economics_from_state
    from roc_dash.core.decisions.decision_summary import decision_summary
    from roc_dash.core.decisions.economics import expected_cost_per_case
    from roc_dash.core.decisions.operating import operating_point

    state = ControlState(cost_fp=1.0, cost_fn=1.0, prior=0.2738, prior_mode="manual",
                         benefit_tp=2.0, benefit_tn=0.5, unit="€", population=10000).to_store()
    cond = conditions_from_state(state)
    economics = economics_from_state(state)
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, cond)
    op = operating_point(analysis)
    truth = expected_cost_per_case(op.fpr, op.tpr, 0.2738, economics)  # core's own formula
    assert truth < 0  # the benefits outweigh the costs here
    assert op.expected_cost == pytest.approx(truth, abs=1e-12)
    assert analysis.optimal.expected_cost == pytest.approx(truth, abs=1e-12)
    summary = decision_summary(analysis, None, economics)
    assert summary.expected_cost == pytest.approx(truth, abs=1e-12)
    rows = {r["model"]: r for r in model_table_rows(analysis)}
    best = analysis.model(op.model)
    assert rows[op.model]["expected_cost"] == pytest.approx(
        expected_cost_per_case(best.optimal.fpr, best.optimal.tpr, 0.2738, economics))
    views = render_views(cache, [DEMO_ID], DEMO_MODELS, cond, economics=economics)
    text = str(views[7])
    assert "net gain" in text and f"{-truth:.6g} €" in text and "-" not in text.split("€")[0]
    assert "(c(FP)+b(TN))" in views[5]
    # without benefits nothing changes: the regret and the cost are the same number
    plain = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.2738))
    assert plain.optimal.expected_cost == pytest.approx(expected_cost_per_case(
        plain.optimal.fpr, plain.optimal.tpr, 0.2738, economics_from_state(
            ControlState(prior=0.2738).to_store())), abs=1e-15)
