"""How sure is the chosen point: bootstrap intervals in the operating card.

The intervals of the threshold, TPR, FPR, precision, NPV, LR+, LR− and expected cost at the
optimum and at every pin (:func:`~roc_dash.core.decisions.point_intervals.point_intervals`, seeded),
with the out-of-bag cost of the choice beside the optimum's expected cost. Its place in the
card is :func:`..components.intervals_box`. The bootstrap never slows the views: its
callback follows them (it is triggered by the viz-data store, which every render of the
views writes), has its own deadline (:data:`SECONDS` of server time; fewer replicates are
then used and the table says how many; such a result is not cached) and its complete
results are cached per data, model, conditions and pinned thresholds.
"""

from __future__ import annotations

import math
import time

from dash import Input, Output, Patch, State, html, no_update
from dash.exceptions import PreventUpdate

from ...core.assembly.analysis import AnalysisTimeout
from ...core.decisions.operating import OperatingSummary, operating_point, pinned_points
from ...core.decisions.point_intervals import PointIntervals, PointUncertainty, point_intervals
from ...decision import model_rows
from ...figures.point_regions import REGION_UID, point_region_traces
from ...text.rounding import sig
from .. import ids
from ..analysis import MAX_SHOWN_MODELS, AnalysisCache, model_names
from ..components import COMPUTING_INTERVALS, STRIP_INTERVALS_SLOT
from ..help import HELP
from ..state import ControlState, clean_pins, conditions_from_state, economics_from_state

__all__ = ["N_BOOT", "SEED", "SECONDS", "chosen_intervals", "intervals_table",
           "interval_text", "regions", "strip_text", "register"]

#: Replicates asked for, the seed, and the server time the bootstrap may take per request.
N_BOOT = 200
SEED = 0
SECONDS = 2.0


#: (label, attribute, help key) of the rows, in order.
ROWS = (
    ("Threshold", "threshold", "threshold"),
    ("TPR (recall)", "tpr", "tpr"),
    ("FPR", "fpr", "fpr"),
    ("Precision at p(+)", "precision", "precision"),
    ("NPV at p(+)", "npv", "pi_npv"),
    ("LR+", "lr_pos", "pi_lr_pos"),
    ("LR−", "lr_neg", "pi_lr_neg"),
    ("Expected cost per case", "expected_cost", "expected_cost"),
)


def _number(v: float) -> str:
    """The one rounding rule (:func:`roc_dash.text.rounding.sig`): 6 significant digits; an
    interval's open end reads ``∞``."""
    return "∞" if v == math.inf else sig(v)


def interval_text(iv) -> str:
    """``"0.812 [0.770–0.850]"``: the estimate and its interval (the estimate alone when the
    interval is fixed or undefined)."""
    if iv.interval in ("fixed", "none"):
        return _number(iv.estimate)
    return f"{_number(iv.estimate)} [{_number(iv.low)}–{_number(iv.high)}]"


def _points(cache: AnalysisCache, dataset_ids, models, state, pinned, settings):
    """The analysis and its chosen points: ``(analysis, [(column label, OperatingSummary)])``
    (the optimum first, then the valid pins)."""
    names = model_names(cache, dataset_ids)
    shown = [m for m in (models or []) if isinstance(m, str) and m in names][:MAX_SHOWN_MODELS]
    if not shown:
        return None, []
    reference = ControlState.from_store(state).reference_class
    analysis = cache.analysis(dataset_ids, shown, conditions_from_state(state, *settings),
                              reference)
    if analysis is None:
        return None, []
    pins = pinned_points(analysis, clean_pins(pinned if isinstance(pinned, list) else []))
    return analysis, [("Optimum", operating_point(analysis))] + [(p.label, p) for p in pins]


def _threshold(op: OperatingSummary) -> float | None:
    return None if math.isinf(op.threshold) else float(op.threshold)


def chosen_intervals(cache: AnalysisCache, dataset_ids, models, state, pinned, settings=(),
                     *, n_boot: int = N_BOOT, seed: int = SEED, seconds: float = SECONDS
                     ) -> list[tuple[str, OperatingSummary, PointUncertainty]]:
    """``[(label, point, intervals)]`` of the optimum and the pins the views show.

    One :func:`~roc_dash.core.decisions.point_intervals.point_intervals` per model concerned (the
    optimum's model and the pinned models; a model's pins share its replicates), on that
    model's rows at the analysis' prior and level and the state's costs and benefits;
    cached by data, class reference, model, conditions, thresholds, ``n_boot`` and ``seed``.
    ``seconds`` bounds the server time of what is not cached (all models together); a result
    cut short by it is shown but not cached, so the next request tries the full count.
    """
    analysis, points = _points(cache, dataset_ids, models, state, pinned, settings)
    if analysis is None:
        return []
    c = analysis.conditions
    e = economics_from_state(state)
    reference = ControlState.from_store(state).reference_class
    deadline = time.monotonic() + seconds
    by_model: dict[str, list[float | None]] = {}
    for _label, op in points[1:]:
        by_model.setdefault(op.model, []).append(_threshold(op))
    by_model.setdefault(points[0][1].model, [])
    results: dict[str, PointIntervals] = {}
    for model, thresholds in by_model.items():
        cut: list[PointIntervals] = []

        def make(model=model, thresholds=thresholds, cut=cut):
            y, s, w = model_rows(cache.table(dataset_ids, reference), model)
            r = point_intervals(y, s, c.prior_pos, e, pins=thresholds, weights=w,
                                n_boot=n_boot, seed=seed, level=c.level, deadline=deadline)
            if r.optimum.n_boot_used < n_boot:  # cut short by the deadline: shown, not kept
                cut.append(r)
                return None
            return r

        key = ("point_intervals", cache.store.present(dataset_ids), reference, model,
               float(c.prior_pos), float(c.level), e.cost_fp, e.cost_fn, e.benefit_tp,
               e.benefit_tn, tuple(thresholds), n_boot, seed)
        results[model] = cache.cache.get_or_make(key, make) or cut[0]
    out, taken = [], {m: 0 for m in by_model}
    for label, op in points:
        if label == "Optimum":
            out.append((label, op, results[op.model].optimum))
        else:
            out.append((label, op, results[op.model].pins[taken[op.model]]))
            taken[op.model] += 1
    return out


def _oob_text(u: PointUncertainty) -> str:
    o = u.optimism
    if o is None or o.n == 0:
        return "—"
    return f"{_number(o.out_of_bag)} (+{_number(o.optimism)})" if o.optimism >= 0 else \
        f"{_number(o.out_of_bag)} ({_number(o.optimism)})"


def intervals_table(chosen):
    """The table of intervals: one column per chosen point, one row per metric, then the
    out-of-bag cost of the choice (optimum only); a caption and the notes."""
    if not chosen:
        return html.P("No intervals: no model is shown.", className="hint")
    head = html.Tr([html.Th("")] + [html.Th(
        html.Span(label, className="opt-tag" if label == "Optimum" else
                  f"pin-tag pin-{label}"), title=f"{op.model}", className="num")
        for label, op, _ in chosen])
    body = [html.Tr([html.Th("Model")] + [html.Td(op.model, className="num model")
                                          for _, op, _ in chosen])]
    body += [html.Tr([html.Th(name, title=HELP.get(key))] + [
        html.Td(interval_text(getattr(u, attr)), className="num") for _, _, u in chosen])
        for name, attr, key in ROWS]
    body.append(html.Tr(className="oob", children=[
        html.Th("Out-of-bag cost of the choice", title=HELP["pi_oob"])] + [
        html.Td(_oob_text(u), className="num", title=HELP["pi_oob"]) for _, _, u in chosen]))
    u0 = chosen[0][2]
    caption = (f"{u0.level:.0%} intervals: {u0.method}, {u0.n_boot_used} of {u0.n_boot} "
               f"replicates, seed {SEED}. At the optimum they are of what the chosen "
               "threshold gives on new data, corrected for choosing it on these data (the "
               "estimate beside them is optimistic: a cost's interval may lie above it); "
               "measured coverage in docs/statistics.md.")
    notes = sorted({n for _, _, u in chosen for n in u.notes})
    return html.Div(children=[
        html.H3(f"How sure? {u0.level:.0%} intervals", className="interval-head",
                title=HELP["pi_head"]),
        html.Div(className="table-scroll", children=html.Table(
            className="compare intervals", children=[html.Thead(head), html.Tbody(body)])),
        html.P(caption, className="hint interval-caption"),
        html.Details([html.Summary(f"Notes on the intervals ({len(notes)})"),
                      html.Ul([html.Li(n) for n in notes])], className="interval-notes")
        if notes else None,
    ])


def _span(low: float, high: float, unit: str = "") -> str:
    return f"{_number(low)}–{_number(high)}{(' ' + unit) if unit else ''}"


def strip_text(u: PointUncertainty, unit: str = "") -> str:
    """The summary strip's line: the optimum's threshold and expected cost (a net gain when
    the estimate is negative, as the strip's headline says it) with their intervals, and the
    out-of-bag cost of the choice; ``""`` when neither interval is defined."""
    t, c = u.threshold, u.expected_cost
    if c.interval == "none" and t.interval == "none":
        return ""
    parts = [f"threshold {_span(t.low, t.high)}"] if t.interval != "none" else []
    if c.interval != "none":
        parts.append(f"net gain {_span(-c.high, -c.low, unit)} per case" if c.estimate < 0
                     else f"expected cost {_span(c.low, c.high, unit)} per case")
    o = u.optimism
    if o is not None and o.n:
        parts.append(f"out of bag {_number(-o.out_of_bag)} (gain)" if c.estimate < 0
                     else f"out of bag {_number(o.out_of_bag)}")
    return (f"How sure: {u.level:.0%} intervals of the choice ({u.n_boot_used} bootstrap "
            f"replicates): " + ", ".join(parts) + ".")


def regions(chosen, det: bool) -> list[dict]:
    """The ROC's interval boxes of the chosen points (none on DET axes)."""
    if det:
        return []
    return point_region_traces([("" if label == "Optimum" else label, op.model, u)
                                for label, op, u in chosen])


#: Replaces the interval boxes in the drawn ROC (found by uid) by the new ones, put just
#: before the pins' traces (which stay painted last, see ``figures.style.pins_on_top``): the
#: optimum and its ring come before the pins, so the indices by which the views' patches
#: address them do not move. Unchanged figure when there is nothing to replace.
REPLACE_REGIONS = """
function (boxes, fig) {
    var none = window.dash_clientside.no_update;
    if (!fig || !Array.isArray(fig.data)) { return none; }
    var keep = fig.data.filter(function (t) {
        return !(t && typeof t.uid === "string" && t.uid.indexOf("REGION_UID") === 0);
    });
    var add = Array.isArray(boxes) ? boxes : [];
    var floor = fig.layout && fig.layout.meta && fig.layout.meta.xlog;
    if (typeof floor === "number") {  /* a log FPR axis: FPR = 0 at its floor (roc_axes) */
        add = add.map(function (b) {
            return Object.assign({}, b, {x: (b.x || []).map(function (v) {
                return Math.max(v, floor); })});
        });
    }
    if (keep.length === fig.data.length && !add.length) { return none; }
    var at = keep.findIndex(function (t) {
        return t && typeof t.name === "string" && t.name.indexOf("pinned ") === 0;
    });
    if (at < 0) { at = keep.length; }
    var data = keep.slice(0, at).concat(add, keep.slice(at));
    return Object.assign({}, fig, {data: data});
}
""".replace("REGION_UID", REGION_UID)


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The intervals callback: after every render of the views (the viz-data store); the
    boxes on the ROC follow (clientside, into the drawn figure)."""

    @app.callback(
        Output(ids.POINT_INTERVALS, "children"),
        Output(ids.POINT_REGIONS, "data"),
        Output(ids.STRIP_INTERVALS, "data"),
        Input(ids.VIZ_DATA, "data"),
        State(ids.DATASETS, "data"),
        State(ids.MODELS, "value"),
        State(ids.CONDITIONS, "data"),
        State(ids.PINNED, "data"),
        State(ids.DET, "value"),
        State(ids.LEVEL, "value"),
        State(ids.BAND, "value"),
        State(ids.SAMPLES_OK, "data"),
        running=[(Output(ids.POINT_INTERVALS_STATUS, "children"), COMPUTING_INTERVALS, ""),
                 (Output(ids.POINT_INTERVALS, "className"), "point-intervals stale",
                  "point-intervals")],
    )
    def intervals(viz, dataset_ids, models, state, pinned, det, *settings):
        if state is None:
            return no_update, no_update, no_update
        if not isinstance(viz, dict):
            return intervals_table([]), [], None
        try:
            chosen = chosen_intervals(cache, dataset_ids, models, state, pinned, settings)
        except (ValueError, AnalysisTimeout) as exc:
            return html.P(f"No intervals: {exc}.", className="hint"), [], None
        line = strip_text(chosen[0][2], economics_from_state(state).unit) if chosen else ""
        # a new value every time (the views emptied the strip's slot even when the line
        # is the same), so the patch below always follows
        return intervals_table(chosen), regions(chosen, bool(det)), \
            {"line": line, "at": time.time()}

    @app.callback(
        Output(ids.SUMMARY, "children", allow_duplicate=True),
        Input(ids.STRIP_INTERVALS, "data"),
        prevent_initial_call=True,
    )
    def strip(data):
        """The intervals' line into the summary strip the views drew (its empty slot)."""
        line = data.get("line") if isinstance(data, dict) else None
        if not isinstance(line, str) or not line:
            raise PreventUpdate
        patch = Patch()
        patch[STRIP_INTERVALS_SLOT] = html.Div(line, className="summary-detail summary-intervals",
                                               title=line)
        return patch

    app.clientside_callback(
        REPLACE_REGIONS,
        Output(ids.ROC_GRAPH, "figure", allow_duplicate=True),
        Input(ids.POINT_REGIONS, "data"),
        State(ids.ROC_GRAPH, "figure"),
        prevent_initial_call=True,
    )
