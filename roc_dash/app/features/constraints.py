"""Capacity and floors: the Decide tab's card for decisions stated as a capacity or as floors.

"We can review K cases" (``800``, ``3%``, ``30/1000``: :func:`~roc_dash.core.constraints.
capacity.parse_capacity`) gives each shown model's best point under that capacity on its hull
(:func:`~roc_dash.core.constraints.capacity.capacity_point`, Fawcett 2004 §7.4), its queue
rate, precision@K and recall@K; the card's table gives, per model, the single threshold to
deploy (flagging at most K) with its own numbers, the exact-K mix in its note. Floors
(``precision >= 0.9; fpr <= 1%``: :func:`~roc_dash.core.constraints.floors.parse_floor`)
give the feasible region and the best point inside it under the page's costs
(:func:`~roc_dash.core.constraints.floors.floor_decision`). Both are drawn on the ROC view (and the floors on the PR view) as overlay
traces, put into the drawn figures clientside like the intervals' boxes; the card shows
cumulative gains (CAP), lift or KS. How sure each floor is to hold
(:func:`~roc_dash.core.constraints.floor_confidence.floor_confidence`) follows lazily, after
the card, on bootstrap replicates made once per data and model and kept.

The callbacks compute nothing themselves: numbers come from :mod:`roc_dash.core.constraints`,
figures from :mod:`roc_dash.figures.gains` and :mod:`roc_dash.figures.floors`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.assembly.analysis import AnalysisTimeout
from ...core.constraints.assembly import (
    decision_views,
    economics_of,
    model_replicates,
    model_rows,
)
from ...core.constraints.capacity import (
    CapacityPoint,
    GainsCurve,
    KsStatistic,
)
from ...core.constraints.floor_confidence import floor_confidence
from ...core.constraints.floors import Floor, FloorDecision
from ...core.constraints.pr_bands import pr_bootstrap_band, pr_fold_band
from ...figures.floors import floor_traces
from ...figures.gains import capacity_traces, gains_figure, ks_figure, lift_figure
from ...figures.pr_bands import pr_band_traces
from ...figures.style import format_threshold
from ...text.rounding import percent, sig
from .. import ids
from ..analysis import SHOWN_FIELDS, model_names, shown_analysis, timeout_message
from ..components import empty_figure, graph_config, values_from_link
from ..constrained import (
    N_BOOT,
    SEED,
    capacity_too_big,
    parse_confidence,
    parse_settings,
    parse_volume,
)
from ..constrained_headline import constrained_or_unmet
from ..core_words import not_used, reason_of
from ..page_state import PageState, dependencies, parse_link
from ..state import FONT, economics_from_state, tab_shown

__all__ = ["ModelView", "parse_settings", "model_views", "summary_table", "overlay", "pr_bands",
           "card_figure", "confidence_table", "OVERLAY_UID", "N_BOOT", "SEED", "card",
           "register"]

#: Every overlay trace's ``uid`` starts so (the clientside callback finds and replaces them).
OVERLAY_UID = "dct-"

_HELP = ("A decision stated as a capacity (we can review K cases: a number, a share such as "
         "3%, or so many per so many such as 30/1000) or as floors on metrics (precision >= "
         "0.9; recall >= 95%; fpr <= 1%). The capacity's best point on each model's hull and "
         "the floors' feasible region are drawn on the ROC view (the floors on the PR view "
         "too); the best single threshold of each is in the table.")

_CAPACITY_HELP = ("Cases you can review: a number (800), a share (3%) or so many per so many "
                  "(30/1000). Press Enter. Each model's best point flagging no more is drawn "
                  "on the ROC view (K) with its best single threshold.")
_FLOORS_HELP = ("Floors on metrics, separated by ; — precision >= 0.9; recall >= 95%; "
                "fpr <= 1% (also specificity, npv, flagged, fnr <= x). Press Enter. The region "
                "meeting them all is shaded on the ROC and PR views.")
_VOLUME_HELP = ("The cases a capacity given as a number is out of (800 cases of 4000 a day: "
                "type 4000). Empty: the data's cases. Not used with a share (3%, 30/1000).")
_CONF_HELP = ("Choose the floors' threshold so that they hold with this confidence: on the "
              "exact one-sided (Clopper-Pearson) bounds of the rates instead of the rates "
              "themselves (95% or 0.95; empty: on the data's rates). Press Enter.")
_VIEW_HELP = ("Cumulative gains (the CAP curve, with each model's accuracy ratio), lift, or "
              "the KS plot of the first shown model.")
_BANDS_HELP = ("Each shown model's band of precision at fixed recalls at the page's prior "
               "p(+): over its folds (two or more), else over 200 bootstrap replicates.")


@dataclass(frozen=True, eq=False)
class ModelView:
    """One model's views of the card (the capacity and floors None when not asked)."""

    name: str
    gains: GainsCurve
    ks: KsStatistic
    capacity: CapacityPoint | None
    floors: FloorDecision | None


# ---------------------------------------------------------------------------- input
def model_views(analysis, capacity, floors: tuple[Floor, ...], confidence=None,
                volume=None) -> list[ModelView]:
    """Each model's gains, KS, point under ``capacity`` (``(cases, fraction)`` or None;
    cases out of ``volume`` when given) and decision under ``floors`` (met on exact bounds
    at ``confidence`` when given), at the analysis' prior and costs."""
    c = analysis.conditions
    e = economics_of(c)
    out = []
    for m in analysis.models:
        out.append(ModelView(m.name, *decision_views(
            m, prior_pos=c.prior_pos, economics=e, capacity=capacity, floors=floors,
            confidence=confidence,
            n_total=volume if capacity is not None and capacity[0] is not None else None)))
    return out


# ---------------------------------------------------------------------------- output
def _num(v) -> str:
    return "—" if v is None or not math.isfinite(v) else sig(v)


def _point_cells(d) -> list:
    """Queue rate, precision, recall, lift, threshold and expected cost of one single
    threshold (a :class:`~roc_dash.core.constraints.floors.FloorDecision`'s), at its prior:
    one number style per kind of column, the shares in percent as the summary strip says
    them, the threshold by the page's rule, the lift and the cost in 6 digits."""
    p = d.prior_pos
    flagged = p * d.tpr + (1 - p) * d.fpr
    precision = p * d.tpr / flagged if flagged > 0 else math.nan
    return [html.Td(percent(flagged), className="num dct-queue"),
            html.Td(percent(precision), className="num"), html.Td(percent(d.tpr), className="num"),
            html.Td(_num(precision / p) if math.isfinite(precision) else "—", className="num"),
            html.Td(format_threshold(d.threshold), className="num dct-threshold"),
            html.Td(_num(d.expected_cost), className="num")]


def _rows(name: str, cells: list, note: str, title: str, warn: bool = False):
    """A model's two rows: its name with the note across the table, then its numbers (a
    name or a long note does not widen the table beyond its card: 400 px beside the
    operating card at 1301 px)."""
    head = html.Th([html.Span(name, className="dct-model"), " — ",
                    html.Span(note, title=title, className="dct-note-text warn" if warn
                              else "dct-note-text")],
                   colSpan=len(_HEAD), scope="rowgroup")
    return html.Tbody([html.Tr(head, className="dct-name"),
                       html.Tr(cells, className="dct-row")], className="dct-model-rows")


def _capacity_rows(v: ModelView):
    """One row, one rule: every number is the single threshold's (flagging at most K); the
    most positives in exactly K cases (Fawcett's mix of two hull vertices, section 7.4.1) is
    said in the note, where it differs."""
    cp = v.capacity
    d = cp.decision
    if d.index is None:
        cells = [html.Td("—", className="num") for _ in range(6)]
    else:
        cells = _point_cells(d)
    binds = ("the capacity binds" if cp.binding else "the capacity does not bind")
    title = ("the optimum under the costs would flag more than the capacity" if cp.binding
             else "the optimum under the costs flags fewer: the capacity does not bind")
    mixed = cp.mix.k not in (0.0, 1.0) and cp.mix.fpr_a != cp.mix.fpr_b
    if cp.binding and mixed:
        binds += (f"; exactly {percent(cp.queue_rate)} by mixing two thresholds: precision "
                  f"{percent(cp.precision)}, recall {percent(cp.recall)}")
        title += (". The mix of two hull vertices (Fawcett 2004, section 7.4.1) flags "
                  f"{percent(cp.queue_rate)} of cases: the row's numbers are the single "
                  "threshold's, the rule to deploy without randomising")
    return _rows(v.name, cells, binds, title)


def _floor_rows(v: ModelView):
    d = v.floors
    if d.index is None:
        return _rows(v.name, [html.Td("—", className="num") for _ in range(6)],
                     "no threshold meets the floors", " ".join(d.notes), warn=True)
    return _rows(v.name, _point_cells(d),
                 f"the floors add {sig(d.cost_of_floors)} per case to the optimum's cost",
                 "expected cost per case the floors add to the optimum's")


_HEAD = (("Queue rate", "the share of cases flagged at the threshold"),
         ("Precision", "of the cases flagged at the threshold, at the page's prior"),
         ("Recall", "share of the positives flagged at the threshold (TPR)"),
         ("Lift", "precision over the prior"),
         ("Threshold", "the best single threshold: flag scores at or above it"),
         ("Expected cost", "per case, at that threshold under the page's costs"))

#: Each constraint's heading over its models' rows.
_GROUPS = (("Under the capacity", "each model's best single threshold flagging at most the "
                                  "capacity; the note: whether the capacity binds"),
           ("Under the floors", "each model's least expected cost meeting the floors; the "
                                "note: the cost per case they add to the optimum's"))


def _group(index: int, models: list) -> list:
    heading, title = _GROUPS[index]
    return [html.Tbody(html.Tr(html.Th(heading, colSpan=len(_HEAD), scope="rowgroup",
                                       title=title), className="dct-group")), *models]


def summary_table(views: list[ModelView], unmet: str = ""):
    """Per constraint (its models under its heading) each model's name and note (a
    capacity's exact-K mix, the cost the floors add), then its numbers, one rule: the best
    single threshold under it and its queue rate, precision, recall, lift and expected cost.
    ``unmet``: the line saying that no threshold meets the capacity and the floors together
    (the summary strip's words, :func:`..constrained_headline.constrained_or_unmet`), said
    above the rows, each of which is one constraint alone."""
    capacity = [_capacity_rows(v) for v in views if v.capacity is not None]
    floors = [_floor_rows(v) for v in views if v.floors is not None]
    if not capacity and not floors:
        return html.P("Type a capacity or floors to choose the threshold under them.",
                      className="hint")
    body = [b for i, models in enumerate((capacity, floors)) if models
            for b in _group(i, models)]
    table = html.Table(className="models dct-table", children=[
        html.Thead(html.Tr([html.Th(h, title=t, className="num") for h, t in _HEAD])),
        *body])
    if not unmet:
        return table
    return html.Div([html.P(unmet, className="banner warn dct-unmet", role="status"), table])


def _listed(trace: dict) -> dict:
    """A trace with its arrays as lists (a store's JSON)."""
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in trace.items()}


def _legend_name(name) -> str:
    """A capacity's or floors' legend entry in presentation mode: its kind alone
    ("capacity", "floors", "meets the floors"; the hover keeps the details), so that the
    legend keeps the width the presentation layout gave it, clear of the mode bar."""
    name = str(name or "")
    return "meets the floors" if name.startswith("meets ") else name.split(":")[0]


def overlay(views: list[ModelView], *, det: bool = False, pr_mode: str = "pr",
            stamp: str = "", bands=(), presentation: bool = False) -> dict:
    """``{"roc": traces, "pr": traces}``: the capacity's and floors' traces of every model
    (the floors' region once) and the PR ``bands`` (``(name, PrBand, colour index)``, below
    the rest), each with a ``uid`` starting :data:`OVERLAY_UID` and ending
    ``stamp`` (one per answer: the page replaces traces whose uids differ); none on DET
    axes, none on the PR view in PR-gain mode."""
    roc, pr = [], []
    for name, band, index in bands:
        pr += pr_band_traces(name, band, index=index, central=False)
    region = False
    for v in views:
        if v.capacity is not None:
            roc += capacity_traces(v.capacity)
        if v.floors is not None:
            keep = [t for t in floor_traces(v.floors, space="roc")
                    if not (region and t.get("fill"))]
            roc += keep
            pr += [t for t in floor_traces(v.floors, space="pr")
                   if not (region and t.get("fill"))]
            region = True
    if presentation:
        roc, pr = ([{**t, "name": _legend_name(t.get("name"))} for t in ts] for ts in (roc, pr))
    out = {}
    for view, traces, off in (("roc", roc, det), ("pr", pr, pr_mode != "pr")):
        named: set = set()  # each kind of trace once in the legend (hover names the model)
        out[view] = [] if off else [
            {**_listed(t), "uid": f"{OVERLAY_UID}{view}-{i}{stamp}",
             "showlegend": t.get("name") not in named and not named.add(t.get("name"))}
            for i, t in enumerate(traces)]
    return out


def card_figure(views: list[ModelView], view: str, font_size: int = 14):
    """Gains (CAP), lift or KS (of the first model) of the shown models, the first model's
    capacity point marked."""
    if not views:
        return empty_figure(font_size)
    gains = {v.name: v.gains for v in views}
    cap = views[0].capacity
    if view == "lift":
        return lift_figure(gains, capacity=cap, font_size=font_size)
    if view == "ks":
        return ks_figure(views[0].name, views[0].gains, views[0].ks, font_size=font_size)
    return gains_figure(gains, capacity=cap, font_size=font_size)


def confidence_table(rows):
    """How sure each floor is to hold: per model and floor, the estimate at the chosen
    threshold, its interval, the share of bootstrap replicates in which it holds and the share
    in which the choice made again holds. ``rows``: ``(name, FloorConfidence)``."""
    if not rows:
        return None
    body = []
    for name, fc in rows:
        for h in fc.holds:
            body.append(html.Tr([
                html.Td(name), html.Td(h.floor.text, className="nowrap"),
                html.Td(_shown(h), className="num"),
                html.Td(percent(h.holds_share), className="num dct-holds"),
                html.Td(percent(h.procedure_share), className="num")]))
    level, n = rows[0][1].level, rows[0][1].n_boot
    head = [("Model", ""), ("Floor", ""),
            (f"At the threshold [{level:.0%} interval]", "the metric on these data and its "
             "interval, the method named in each row: exact Clopper–Pearson for recall, "
             f"specificity and FPR, else the bootstrap percentile of {n} replicates"),
            ("Holds in", f"share of {n} bootstrap replicates in which the floor holds at the "
             "chosen threshold"),
            ("Chosen again, holds in", "share of replicates in which choosing the threshold "
             "again on the replicate meets the floor")]
    return html.Div([
        html.H3("How sure is each floor to hold?", className="interval-head"),
        html.Table(className="models dct-confidence-table", children=[
            html.Thead(html.Tr([html.Th(h, title=t) for h, t in head])), html.Tbody(body)]),
        html.P(f"{level:.0%} intervals: exact (Clopper–Pearson) for recall, specificity "
               f"and FPR; bootstrap percentile for the other metrics. {n} stratified "
               f"bootstrap replicates, seed {SEED}.", className="hint")])


def _shown(h):
    """``"0.821176 [0.781369–0.856441] exact (Clopper–Pearson)"``: a floor's metric with
    the interval shown for it (:attr:`FloorHold.shown`) and its method."""
    low, high, method = h.shown
    return [f"{sig(h.estimate)} [{sig(low)}–{sig(high)}]", html.Br(),
            html.Span(method, className="hint dct-method")]


# ---------------------------------------------------------------------------- layout
def card():
    """The card: the capacity and floors inputs (each with its message), the table, the
    gains/lift/KS view and how sure the floors are."""
    return html.Div(className="card dct-card", id=ids.DCT_CARD, children=[
        html.Div(className="card-head", children=[
            html.H2("Capacity and floors", title=_HELP),
            html.Div(title=_VIEW_HELP, children=dcc.RadioItems(
                id=ids.DCT_VIEW, value="gains", inline=True, className="radios inline",
                           options=[{"label": "gains (CAP)", "value": "gains"},
                                    {"label": "lift", "value": "lift"},
                                    {"label": "KS", "value": "ks"}])),
        ]),
        html.Div(className="dct-inputs", children=[
            html.Label("We can review", htmlFor=ids.DCT_CAPACITY, title=_CAPACITY_HELP),
            dcc.Input(id=ids.DCT_CAPACITY, type="text", debounce=True, value="",
                      placeholder="800, 3% or 30/1000", className="dct-capacity", maxLength=100),
            html.Span("cases", className="hint"),
            html.Label("Out of", htmlFor=ids.DCT_VOLUME, title=_VOLUME_HELP),
            dcc.Input(id=ids.DCT_VOLUME, type="text", debounce=True, value="",
                      placeholder="cases in all, e.g. 4000 (empty: the data's)",
                      className="dct-volume", maxLength=20),
            html.Div(id=ids.DCT_CAPACITY_MSG, className="dct-msg warn", role="alert"),
            html.Label("Floors", htmlFor=ids.DCT_FLOORS, title=_FLOORS_HELP),
            dcc.Input(id=ids.DCT_FLOORS, type="text", debounce=True, value="",
                      placeholder="precision >= 0.9; recall >= 0.95; fpr <= 1%",
                      className="dct-floors", maxLength=500),
            html.Label("Floors hold with confidence", htmlFor=ids.DCT_FLOOR_CONF,
                       title=_CONF_HELP),
            dcc.Input(id=ids.DCT_FLOOR_CONF, type="text", debounce=True, value="",
                      placeholder="e.g. 95% (empty: on the data's rates)",
                      className="dct-floor-conf", maxLength=20),
            html.Div(id=ids.DCT_FLOORS_MSG, className="dct-msg warn", role="alert"),
        ]),
        html.Div(title=_BANDS_HELP, children=dcc.Checklist(
            id=ids.DCT_PR_BANDS, value=[], className="radios inline dct-pr-bands",
            options=[{"label": "PR bands at the deployment prior (PR view)", "value": "on"}])),
        html.Div(id=ids.DCT_SUMMARY, className="table-scroll"),
        dcc.Graph(id=ids.DCT_GRAPH, config=graph_config("gains"), className="graph dct-graph"),
        html.Div(id=ids.DCT_CONFIDENCE_STATUS, className="hint"),
        html.Div(id=ids.DCT_CONFIDENCE, className="table-scroll"),
        dcc.Store(id=ids.DCT_OVERLAY, data=None),
    ])


# ---------------------------------------------------------------------------- wiring
#: Puts the card's overlay traces (found by uid) last in a drawn figure: when the store changes
#: and when the figure is drawn again without them (a new render of the views, or another
#: overlay written from an older copy of the figure). Nothing when they are there already.
REPLACE_OVERLAY = """
function (overlay, fig) {
    var none = window.dash_clientside.no_update;
    if (!fig || !Array.isArray(fig.data)) { return none; }
    var add = (overlay && Array.isArray(overlay.VIEW)) ? overlay.VIEW : [];
    var mine = function (t) {
        return t && typeof t.uid === "string" && t.uid.indexOf("OVERLAY_UID") === 0;
    };
    var keep = fig.data.filter(function (t) { return !mine(t); });
    var have = fig.data.filter(mine).map(function (t) { return t.uid; }).join(" ");
    if (have === add.map(function (t) { return t.uid; }).join(" ")) { return none; }
    return Object.assign({}, fig, {data: keep.concat(add)});
}
""".replace("OVERLAY_UID", OVERLAY_UID)


def _replicates(cache, page: PageState, name: str):
    """The model's bootstrap replicates, made once per data, class and model and kept."""
    key = ("dct-replicates", tuple(page.datasets), page.control.reference_class, name,
           N_BOOT, SEED)

    def make():
        table = cache.table(list(page.datasets), page.control.reference_class)
        return model_replicates(table, name, n_boot=N_BOOT, seed=SEED)

    return cache.cache.get_or_make(key, make, shared=False)


def pr_bands(cache, page: PageState, analysis) -> list:
    """``(name, PrBand, colour index)`` of every shown model at the deployment prior: over
    its folds when it has two or more (:func:`~roc_dash.core.constraints.pr_bands.
    pr_fold_band`), else over the kept bootstrap replicates (:func:`~roc_dash.core.
    constraints.pr_bands.pr_bootstrap_band`)."""
    c = analysis.conditions
    names = model_names(cache, page.datasets)
    out = []
    for i, m in enumerate(analysis.models):
        if len(m.folds) >= 2:
            band = pr_fold_band(m.folds, prevalence=c.prior_pos, pooled=m.curve, level=c.level)
        else:
            band = pr_bootstrap_band(_replicates(cache, page, m.name), m.curve,
                                     prevalence=c.prior_pos, level=c.level)
        out.append((m.name, band, names.index(m.name) if m.name in names else i))
    return out


def confidences(cache, page: PageState, analysis, floors) -> list:
    """``(name, FloorConfidence)`` of every model with a threshold meeting ``floors`` (on
    exact bounds at the page's confidence, when given)."""
    c = analysis.conditions
    e = economics_of(c)
    table = cache.table(list(page.datasets), page.control.reference_class)
    confidence = parse_confidence(page.floor_confidence)[0]
    out = []
    for v in model_views(analysis, None, floors, confidence):
        d = v.floors
        if d.index is None:
            continue
        y, s, w = model_rows(table, v.name)
        out.append((v.name, floor_confidence(
            y, s, floors, d.threshold, prior_pos=c.prior_pos, economics=e, weights=w,
            n_boot=N_BOOT, seed=SEED, level=c.level, confidence=confidence,
            replicates=_replicates(cache, page, v.name))))
    return out


def _typed(page: PageState) -> tuple:
    """``(capacity, floors, confidence, volume, capacity message, floors message, volume
    message)`` of what was typed in the card (the messages joined under their inputs)."""
    capacity, floors, cap_msg, floors_msg = parse_settings(page.capacity, page.floors)
    confidence, conf_msg = parse_confidence(page.floor_confidence)
    volume, vol_msg = parse_volume(page.volume)
    return (capacity, floors, confidence, volume,
            " ".join(m for m in (cap_msg, vol_msg) if m),
            " ".join(m for m in (floors_msg, conf_msg) if m), vol_msg)


def _from_link(app) -> None:
    values_from_link(app, (("capacity", ids.DCT_CAPACITY), ("floors", ids.DCT_FLOORS),
                           ("floor_confidence", ids.DCT_FLOOR_CONF),
                           ("volume", ids.DCT_VOLUME),
                           ("constraint_view", ids.DCT_VIEW)))

    @app.callback(Output(ids.DCT_PR_BANDS, "value"), Input(ids.URL, "search"))
    def bands_from_link(search):
        link, given = parse_link(search)
        return (["on"] if link.pr_bands else []) if "pr_bands" in given else no_update


def register(app, cache, store) -> None:
    """The card (after the views, while the Decide tab is shown), its overlays on the ROC
    and PR views (clientside), how sure the floors are (after the card) and the link."""
    _from_link(app)

    @app.callback(
        output={"capacity_msg": Output(ids.DCT_CAPACITY_MSG, "children"),
                "floors_msg": Output(ids.DCT_FLOORS_MSG, "children"),
                "summary": Output(ids.DCT_SUMMARY, "children"),
                "figure": Output(ids.DCT_GRAPH, "figure"),
                "overlay": Output(ids.DCT_OVERLAY, "data")},
        inputs={"viz": Input(ids.VIZ_DATA, "data"),
                "page": {**dependencies(Input, "capacity", "floors", "constraint_view",
                                        "pr_bands", "presentation", "tab",
                                        "floor_confidence", "volume"),
                         **dependencies(State, *SHOWN_FIELDS, "det", "pr_mode")}},
    )
    def constraints_view(viz, page):
        page = PageState.from_dash(page)
        if not tab_shown(page.tab, "decide") or page.conditions is None:
            raise PreventUpdate
        font = FONT[page.presentation]
        capacity, floors, confidence, volume, cap_msg, floors_msg, vol_msg = _typed(page)
        try:
            analysis = shown_analysis(cache, page) if isinstance(viz, dict) else None
        except AnalysisTimeout as exc:
            return {"capacity_msg": cap_msg, "floors_msg": floors_msg,
                    "summary": html.P(timeout_message(exc, len(page.models or ())),
                                      className="hint"),
                    "figure": empty_figure(font), "overlay": {"roc": [], "pr": []}}
        if analysis is None:
            return {"capacity_msg": cap_msg, "floors_msg": floors_msg,
                    "summary": html.P("No models.", className="hint"),
                    "figure": empty_figure(font), "overlay": {"roc": [], "pr": []}}
        too_big = capacity_too_big(capacity, analysis, volume)
        if too_big:
            capacity, cap_msg = None, " ".join(m for m in (too_big, vol_msg) if m)
        try:
            views = model_views(analysis, capacity, floors, confidence, volume)
        except ValueError as exc:  # a capacity core refuses (e.g. 0.5 cases)
            capacity, cap_msg = None, not_used("Capacity", exc)
            views = model_views(analysis, None, floors, confidence)
        bands = pr_bands(cache, page, analysis) if page.pr_bands else ()
        # none meets them together: said as the strip says it (a capacity too big is
        # said under its box already)
        unmet = "" if too_big else constrained_or_unmet(
            page, analysis, economics_from_state(page.control.to_store()))[1]
        return {"capacity_msg": cap_msg, "floors_msg": floors_msg,
                "summary": summary_table(views, unmet),
                "figure": card_figure(views, page.constraint_view, font),
                "overlay": {**overlay(views, det=page.det, pr_mode=page.pr_mode,
                                      stamp=f"-{time.time_ns():x}", bands=bands,
                                      presentation=page.presentation),
                            "floors": [f.text for f in floors]}}

    _register_confidence_and_overlays(app, cache)


def _register_confidence_and_overlays(app, cache) -> None:
    """How sure the floors are (after the card) and the card's overlays on the ROC and PR
    views (clientside)."""

    @app.callback(
        output=Output(ids.DCT_CONFIDENCE, "children"),
        inputs={"drawn": Input(ids.DCT_OVERLAY, "data"),
                "page": dependencies(State, *SHOWN_FIELDS, "floors", "floor_confidence")},
        running=[(Output(ids.DCT_CONFIDENCE_STATUS, "children"),
                  "computing how sure the floors are…", "")],
    )
    def confidence(drawn, page):
        page = PageState.from_dash(page)
        _, floors, _, _ = parse_settings("", page.floors)
        if not floors or page.conditions is None:
            return None
        try:
            analysis = shown_analysis(cache, page)
            if analysis is None:
                return None
            return confidence_table(confidences(cache, page, analysis, floors))
        except (AnalysisTimeout, ValueError) as exc:
            return html.P(f"How sure the floors are: not computed ({reason_of(exc, 'the floors')}).",
                          className="hint")

    for graph, view in ((ids.ROC_GRAPH, "roc"), (ids.PR_GRAPH, "pr")):
        app.clientside_callback(
            REPLACE_OVERLAY.replace("VIEW", view),
            Output(graph, "figure", allow_duplicate=True),
            Input(ids.DCT_OVERLAY, "data"),
            Input(graph, "figure"),
            prevent_initial_call=True,
        )
