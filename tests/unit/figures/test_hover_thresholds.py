"""Every curve of every view says the score threshold of the point hovered (issue 17 item 8,
hvr001-hvr006): built from the demo data (binary with folds, multi-class, tree leaves) and
the combining overlays. A trace added without a threshold (or the explicit "no threshold:
..." wording) in its hover fails hvr001. Numbers in hovers follow one rounding rule, 6
significant digits (``roc_dash.text.rounding``), checked against Python's ``format(x, ".6g")``."""

from __future__ import annotations

import json
import math
import re
from importlib import resources

import numpy as np
import plotly.graph_objects as go
import plotly.utils
import pytest
from sklearn.metrics import roc_auc_score

from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.assembly.combining_views import (
    budget_view,
    logical_view,
    superiority_view,
)
from roc_dash.core.assembly.extensions import analyse_leaves, analyse_multiclass
from roc_dash.core.combining.concavity_repair import repair_concavities
from roc_dash.core.decisions.decision_curve import decision_curve, hull_net_benefit
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.operating import pinned_points
from roc_dash.core.inference.calibration import calibration
from roc_dash.core.subgroups.group_thresholds import group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.figures import cost_figure, pr_figure, roc_figure
from roc_dash.figures.calibration import calibration_figure
from roc_dash.figures.combining import add_budget, add_logical, add_repair, superiority_figure
from roc_dash.figures.decision_curve import decision_curve_figure
from roc_dash.figures.kinds import add_labelings, class_curves_figure
from roc_dash.figures.slices import CONSTRAINT_NAMES, slices_figure
from roc_dash.figures.threshold import threshold_figure
from roc_dash.io import load_predictions
from roc_dash.text.rounding import HOVER, sig
from tests.conftest import DEMO_MODELS


def _demo_file(name):
    path = resources.files("roc_dash.data") / name
    return load_predictions([(name, path.read_bytes())]).table


def _rows(table, model):
    t = table[table["model"] == model]
    return t["label"].to_numpy(dtype=bool), t["score"].to_numpy(dtype=float), t


@pytest.fixture(scope="module")
def figures(demo_analysis, demo_cache):
    """(view name, figure) for every figure the page draws, from the demos."""
    table = demo_cache.table([DEMO_ID])
    pins = pinned_points(demo_analysis,
                         [{"model": "decision tree", "threshold": 0.4, "label": "A"},
                          {"model": "naive Bayes", "threshold": 0.9, "label": "B"}])
    out = [(f"roc {a}", roc_figure(demo_analysis, averaging=a, pins=pins, ties=a == "pooled"))
           for a in ("none", "pooled", "vertical", "threshold")]
    out += [("det", roc_figure(demo_analysis, det=True, pins=pins)),
            ("pr", pr_figure(demo_analysis, pins=pins)),
            ("prg", pr_figure(demo_analysis, pins=pins, mode="prg")),
            ("cost", cost_figure(demo_analysis, pins=pins))]
    economics = Economics(cost_fp=1.0, cost_fn=3.0)
    out += [(f"threshold {axis}", threshold_figure(demo_analysis, "naive Bayes", economics,
                                                   axis=axis, pins=pins))
            for axis in ("threshold", "flagged")]
    combined = roc_figure(demo_analysis)
    add_budget(combined, budget_view(demo_analysis, 100))
    add_repair(combined, repair_concavities(demo_analysis.model("decision tree").curve),
               "decision tree", style=2)
    add_logical(combined, logical_view(pins[0], pins[1], table))
    out += [("combining", combined),
            ("superiority", superiority_figure(superiority_view(
                demo_analysis, "logistic regression", "naive Bayes", low=1, mode=3, high=10)))]
    scores = {m: _rows(table, m)[:2] for m in DEMO_MODELS}
    curves = {m: decision_curve(y, s) for m, (y, s) in scores.items()}
    joint = demo_analysis.hull
    pi = curves[DEMO_MODELS[0]].prior_pos
    out.append(("decision curve", decision_curve_figure(
        curves, joint=hull_net_benefit(joint, prior_pos=pi),
        current=hull_net_benefit(joint, [0.2], prior_pos=pi))))
    out.append(("calibration", calibration_figure(
        {m: calibration(y, s) for m, (y, s) in scores.items()})))
    y, s, t = _rows(table, "decision tree")
    sa = slice_analysis(y, s, t["fold"].astype(str).to_numpy(), min_positives=1,
                        min_negatives=1)
    result = group_thresholds(sa)
    out += [(f"slices {c}", slices_figure(sa, result.solution(c), model="decision tree"))
            for c in CONSTRAINT_NAMES]
    mc = analyse_multiclass(_demo_file("multiclass_demo.csv"))[0]
    out.append(("multi-class", class_curves_figure(mc.result, mc.name)))
    leaves = analyse_leaves(_demo_file("tree_leaves_demo.csv"))[0]
    out.append(("leaves", add_labelings(go.Figure(), leaves, model_index=0, style=0)))
    return out


def _traces(fig):
    spec = json.loads(json.dumps(fig.to_plotly_json(), cls=plotly.utils.PlotlyJSONEncoder))
    return spec["data"]


def _says_threshold(trace) -> bool:
    """The hover names a threshold (or says "no threshold: ...") for every point."""
    template = trace.get("hovertemplate") or ""
    if "threshold" in template.lower() or "threshold" in str(trace.get("meta", "")).lower():
        return True
    for key in ("text", "hovertext"):
        if f"%{{{key}}}" in template:
            values = trace.get(key)
            values = values if isinstance(values, list) else [values]
            return bool(values) and all("threshold" in str(v).lower() for v in values)
    return False


def test_hvr001_every_curve_hover_names_its_threshold(figures):
    seen = set()
    for view, fig in figures:
        for trace in _traces(fig):
            if trace.get("hoverinfo") == "skip" or trace.get("type", "scatter") != "scatter":
                continue
            seen.add(view)
            assert _says_threshold(trace), (view, trace.get("name"), trace.get("hovertemplate"))
    assert len(seen) == len(figures)  # every view had hoverable traces checked


NUMBER_FORMAT = re.compile(r"%\{[^}:]+:([^}]+)\}")


def test_hvr002_hover_numbers_use_the_one_rounding_rule(figures):
    formats = {}
    for view, fig in figures:
        for trace in _traces(fig):
            for spec in NUMBER_FORMAT.findall(trace.get("hovertemplate") or ""):
                formats.setdefault(spec, (view, trace.get("name")))
    assert set(formats) == {HOVER}, formats


def test_hvr003_sig_is_pythons_six_significant_digits():
    rng = np.random.default_rng(17)
    values = np.concatenate((rng.normal(size=50) * 10.0 ** rng.integers(-9, 9, 50),
                             [0.0, -0.0, 1.0, 0.5, 1 / 3, 123456789.0, 1e-7, 0.1234565]))
    for v in values.tolist():
        assert sig(v) == format(v, ".6g")
    assert sig(math.inf) == "+∞" and sig(-math.inf) == "−∞"
    assert sig(None) == "n/a" and sig(math.nan) == "n/a"
    assert HOVER == ".6~g"  # d3: ~ trims trailing zeros, as Python's g does


def test_hvr004_vertical_average_hover_gives_the_folds_thresholds(demo_analysis, demo_cache):
    """The hover of a vertically averaged point gives the mean and range of the folds'
    thresholds at its FPR: checked against each fold's rows (the lowest score whose rule
    keeps the fold's FPR at or below that FPR, found by brute force)."""
    table = demo_cache.table([DEMO_ID])
    fig = roc_figure(demo_analysis, averaging="vertical")
    m = demo_analysis.model("naive Bayes")
    trace = next(t for t in fig.data if str(t.meta or "").startswith("<b>naive Bayes</b>")
                 and t.mode in ("lines", "lines+markers"))
    y, s, t = _rows(table, "naive Bayes")
    folds = t["fold"].astype(str).to_numpy()
    for j in (5, 20, 50, 90):
        x = float(trace.x[j])
        found = []
        for f in np.unique(folds):
            yy, ss = y[folds == f], s[folds == f]
            ok = [c for c in np.unique(ss) if np.mean(ss[~yy] >= c) <= x]
            found.append(min(ok) if ok else math.inf)
        mean = sum(found) / len(found)
        assert trace.text[j] == (f"threshold: folds' mean {sig(mean)} "
                                    f"(range {sig(min(found))} to {sig(max(found))})")
    assert m.vertical_thresholds.n_curves == len(np.unique(folds))


def test_hvr005_fold_hover_gives_that_folds_auc_against_sklearn(demo_analysis, demo_cache):
    table = demo_cache.table([DEMO_ID])
    fig = roc_figure(demo_analysis, averaging="none")
    y, s, t = _rows(table, "gradient boosting")
    folds = t["fold"].astype(str).to_numpy()
    metas = [tr["meta"] for tr in _traces(fig)
             if "<b>gradient boosting</b>" in str(tr.get("meta", ""))]
    aucs = []
    for f in np.unique(folds):
        a = roc_auc_score(y[folds == f], s[folds == f])
        aucs.append(a)
        assert f"fold {f} of <b>gradient boosting</b><br>this fold's AUC {sig(a)}" in metas
    pooled = _traces(roc_figure(demo_analysis, averaging="pooled"))
    meta = next(tr["meta"] for tr in pooled
                if str(tr.get("meta", "")).startswith("<b>gradient boosting</b>"))
    assert (f"cross-validated AUC {sig(np.mean(aucs))} ± {sig(np.std(aucs, ddof=1))} "
            f"(mean ± SD of {len(aucs)} folds)") in meta


def test_hvr006_no_hover_reads_a_missing_threshold_as_zero(figures):
    """Plotly formats a null as 0: a template reading the threshold from customdata must
    never meet a null there (the +inf vertex keeps only its model index, and the trace's
    ``hovertemplatefallback`` says "+∞")."""
    checked = 0
    for view, fig in figures:
        # what the browser gets (the figure may hold customdata as an array)
        for trace, sent in zip(fig.data, fig.to_dict()["data"], strict=True):
            template = trace.hovertemplate or ""
            if not isinstance(template, str) or sent.get("customdata") is None:
                continue
            rows = list(sent["customdata"])
            if "threshold ≥ %{customdata[4]" in template:  # [1] before hvr007
                checked += 1
                assert "+∞" in (trace.hovertemplatefallback or ""), (view, trace.name)
                for row in rows:
                    assert len(row) == 1 or all(v is not None and v == v for v in row[1:]), (
                        view, trace.name, row)
            elif "threshold ≥ %{customdata:" in template:
                checked += 1
                assert all(v is not None and v == v for v in rows), (view, trace.name)
    assert checked > 10
    # the origin of a pooled ROC curve (threshold +inf) keeps only its model index
    roc = next(f for v, f in figures if v == "roc pooled")
    curve = next(t for t in roc.data if str(t.meta or "").startswith("<b>naive Bayes</b>"))
    sent = roc.to_dict()["data"][list(roc.data).index(curve)]
    assert sent["customdata"][0] == [1.0] and (curve.x[0], curve.y[0]) == (0, 0)


AFTER_BOUND = re.compile(r"(?:≥|threshold =) %\{([^}:]+)(?::[^}]*)?\}")


@pytest.fixture(scope="module")
def fine_figures(demo_cache):
    """The ROC (each averaging), DET, PR, PRG, cost, threshold (both axes) and decision-curve
    figures of the demo with scores a little lower (the demo's have 6 digits: none rounds
    up; these all do)."""
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.core.assembly.analysis import analyse

    table = demo_cache.table([DEMO_ID]).copy()
    table["score"] = table["score"] * (1 - math.pi * 1e-7)  # 0.931239 -> 0.93123871
    analysis = analyse(table, Conditions(prior_pos=0.3))
    out = [(f"roc {a}", roc_figure(analysis, averaging=a))
           for a in ("none", "pooled", "vertical", "threshold")]
    out += [("det", roc_figure(analysis, det=True)), ("pr", pr_figure(analysis)),
            ("prg", pr_figure(analysis, mode="prg")), ("cost", cost_figure(analysis))]
    out += [(f"threshold {axis}", threshold_figure(analysis, "naive Bayes",
                                                   Economics(cost_fp=1.0, cost_fn=3.0),
                                                   axis=axis))
            for axis in ("threshold", "flagged")]
    scores = {m: _rows(table, m)[:2] for m in DEMO_MODELS}
    curves = {m: decision_curve(y, s) for m, (y, s) in scores.items()}
    pi = curves[DEMO_MODELS[0]].prior_pos
    out.append(("decision curve", decision_curve_figure(
        curves, joint=hull_net_benefit(analysis.hull, prior_pos=pi))))
    return out


def test_hvr007_hover_thresholds_are_the_pages_text_never_rounded_up(figures, fine_figures):
    """A threshold a hover prints is :func:`format_threshold`'s text (6 digits, rounded down
    where rounding would go up), not plotly's ``.6~g`` of the threshold, which rounds
    0.46702173 up to 0.467022 (a rule flagging fewer cases than the point shown). Plotly
    prints ``%{customdata[4]:.6~g}``, the number :func:`shown_thresholds` gives: its 6
    digits are the page's text (Python's ``.6g`` is d3's ``.6~g`` here, hvr003). The demo's
    scores have 6 digits; ``fine_figures``' all round up (the old templates failed here)."""
    from roc_dash.figures.style import format_threshold

    checked = rounded_up = 0
    for view, fig in figures + fine_figures:
        for trace, sent in zip(fig.data, fig.to_dict()["data"], strict=True):
            template = trace.hovertemplate if isinstance(trace.hovertemplate, str) else ""
            fields = AFTER_BOUND.findall(template)
            assert "p<sub>t</sub> %{x:" not in template or "threshold = p" not in template, (
                view, trace.name, "p_t is the threshold there: printed as x's own .6~g")
            for field in fields:
                assert field in ("customdata[4]", "customdata", "text", "hovertext", "meta"), (
                    view, trace.name, template)
            if "customdata[4]" not in fields:
                continue
            for row in sent["customdata"]:
                if len(row) < 2:
                    continue  # the +inf vertex: its fallback says "+∞" (hvr006)
                checked += 1
                assert format(row[4], ".6g") == format_threshold(row[1]), (view, row)
                assert row[4] <= row[1], (view, row)
                rounded_up += float(format(row[1], ".6g")) > row[1]
    assert checked > 1000 and rounded_up > 100, (checked, rounded_up)


def test_hvr008_threshold_view_and_queue_rate_print_no_rounded_up_x(demo_analysis):
    """The threshold view's rate lines and the queue-rate line have x = the threshold: their
    hovers do not print x (.6~g would round it up); the queue rate reads the page's text
    from customdata, here checked at a score of 0.46702173 (0.467021, never 0.467022)."""
    from roc_dash.core.constraints.capacity import gains_curve
    from roc_dash.core.roc.curves import roc_curve
    from roc_dash.figures.gains import queue_rate_trace

    fig = threshold_figure(demo_analysis, "naive Bayes", Economics(cost_fp=1.0, cost_fn=3.0))
    for trace in fig.data:
        assert "≥ %{x" not in (trace.hovertemplate or ""), trace.name
    # nor does the unified hover's title (plotly's own format of x, 7 digits, may round up)
    assert "%{x" not in fig.layout.xaxis.unifiedhovertitle.text
    y = np.array([1, 0, 1, 0, 1, 0], dtype=bool)
    s = np.array([0.9, 0.8, 0.46702173, 0.3, 0.2, 0.1])
    trace = queue_rate_trace("m", gains_curve(roc_curve(y, s)))
    assert "score ≥ %{customdata:" in trace["hovertemplate"]
    shown = {format(float(c), ".6g") for c in trace["customdata"]}
    assert "0.467021" in shown and "0.467022" not in shown


def test_hvr009_shown_thresholds_is_format_threshold_for_every_kind_of_value():
    """The numpy path of ``shown_thresholds`` gives, value for value, the number of
    :func:`format_threshold`'s text: random scores of 16 digits, values of exactly 6 digits,
    halves of the 6th digit, values near powers of ten, negative, tiny and huge ones."""
    from roc_dash.figures.style import format_threshold, shown_thresholds

    rng = np.random.default_rng(9)
    values = [rng.random(5000), rng.normal(size=2000) * 10.0 ** rng.integers(-30, 30, 2000),
              np.round(rng.random(2000), 6), (np.arange(2000) + 0.5) / 1e6,
              10.0 ** np.arange(-25, 25), np.nextafter(10.0 ** np.arange(-25, 25), 0),
              np.nextafter(10.0 ** np.arange(-25, 25), np.inf), -rng.random(500),
              [0.0, -0.0, 0.46702173, 0.9999999994643758, 1.0, 5e-324, 1.7e308]]
    x = np.concatenate([np.asarray(v, dtype=float) for v in values])
    got = shown_thresholds(x)
    want = [float(format_threshold(v)) for v in x.tolist()]
    bad = [(v, g, w) for v, g, w in zip(x.tolist(), got.tolist(), want, strict=True) if g != w]
    assert not bad, bad[:10]
    assert np.isnan(shown_thresholds([np.inf, -np.inf, np.nan])).all()



def test_hvr012_the_roc_star_holds_the_optimums_words_and_lets_the_mouse_through(
        demo_analysis, demo_cache):
    """Review of 2026-11-29: the iso line's drag handle lay over the hull vertex at the
    optimum and took its hover, so the optimum could not be hovered on the ROC; a star that
    caught the mouse for its hover (taken back) caught the line's drags near the optimum.
    The star now holds the optimum's hover text (the PR star's words: model, threshold by
    the page's rule, FPR, TPR), drawn and patched, without catching the mouse
    (``captureevents`` false); the page shows it (assets/roc_star.js, sth002)."""
    from roc_dash.app.view_patches import patch_roc
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.figures.marks import STAR_NOTE, note_index
    from roc_dash.figures.style import format_threshold
    from roc_dash.text.rounding import sig
    from tests.conftest import DEMO_MODELS

    def expected(analysis):
        opt = analysis.optimal
        return ("optimum: ", f"<b>{opt.model}</b>",
                f"threshold ≥ {format_threshold(opt.threshold)}", f"FPR {sig(opt.fpr)}",
                f"TPR {sig(opt.tpr)}")

    fig = roc_figure(demo_analysis)
    k = note_index(fig.layout.annotations, STAR_NOTE)
    star = fig.layout.annotations[k]
    assert (star.x, star.y) == (demo_analysis.optimal.fpr, demo_analysis.optimal.tpr)
    for part in expected(demo_analysis):
        assert part in star.hovertext, (part, star.hovertext)
    assert star.captureevents is False  # plotly's default with a hovertext is True
    # new costs: the patch moves the star and gives it the new optimum's words
    other = demo_cache.analysis([DEMO_ID], DEMO_MODELS,
                                Conditions(prior_pos=0.3, cost_fp=4.0))
    assert other.optimal.threshold != demo_analysis.optimal.threshold
    viz = {"optimum_note": [k], "ring_note": note_index(fig.layout.annotations, "optimum ring"),
           "iso_trace": None, "xlog": None}
    patch = patch_roc(other, viz, det=False, title="t").to_plotly_json()
    text = json.dumps(patch, ensure_ascii=False)
    for part in expected(other):
        assert part in text, (part, text[:400])
    # the PR and cost views' stars still catch the mouse for their hover
    for view in (pr_figure(demo_analysis), cost_figure(demo_analysis)):
        note = view.layout.annotations[note_index(view.layout.annotations, STAR_NOTE)]
        assert note.hovertext and note.captureevents is None
