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
from ...core.decisions.point_intervals import OPTIMUM_METHOD, PointUncertainty
from ...figures.point_regions import REGION_UID
from ...figures.style import format_threshold
from ...text.rounding import sig
from .. import ids
from ..chosen_points import (
    N_BOOT,
    OPTIMUM,
    RECOMMENDATION,
    SECONDS,
    SEED,
    chosen_intervals,
    point_regions,
)
from ..components import COMPUTING_INTERVALS, STRIP_INTERVALS_SLOT
from ..constrained import constrained_headline
from ..core_words import reason_of
from ..help import HELP
from ..page_state import PageState, dependencies
from ..view_patches import regions_drawn

__all__ = ["N_BOOT", "SEED", "SECONDS", "chosen_intervals", "intervals_table",
           "interval_text", "regions", "strip_text", "notes_by_point", "register"]


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


def interval_text(iv, number=_number) -> str:
    """``"0.812 [0.770–0.850]"``: the estimate and its interval (the estimate alone when the
    interval is fixed or undefined); ``number`` writes each (a threshold's: as a rule's
    bound, :func:`~roc_dash.figures.style.format_threshold`, as the strip's line)."""
    if iv.interval in ("fixed", "none"):
        return number(iv.estimate)
    return f"{number(iv.estimate)} [{number(iv.low)}–{number(iv.high)}]"


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
    head = html.Tr([html.Th("")] + [html.Th([
        html.Span(label, className="opt-tag" if label in (OPTIMUM, RECOMMENDATION) else
                  f"pin-tag pin-{label}"), html.Br(),
        html.Span(_kind(u), className="hint interval-kind")], title=f"{op.model}",
        className="num") for label, op, u in chosen])
    body = [html.Tr([html.Th("Model")] + [html.Td(op.model, className="num model")
                                          for _, op, _ in chosen])]
    body += [html.Tr([html.Th(name, title=HELP.get(key))] + [
        html.Td(interval_text(getattr(u, attr), format_threshold if attr == "threshold"
                              else _number), className="num") for _, _, u in chosen])
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
    if chosen[0][0] == RECOMMENDATION:
        caption += (f" {RECOMMENDATION}: the point the capacity or floors choose (the "
                    "strip's recommendation); its threshold is held fixed in every replicate, "
                    "as a pin's.")
    notes = notes_by_point(chosen)
    return html.Div(children=[
        html.H3(f"How sure? {u0.level:.0%} bootstrap intervals", className="interval-head",
                title=HELP["pi_head"]),
        html.Div(className="table-scroll", children=html.Table(
            className="compare intervals", children=[html.Thead(head), html.Tbody(body)])),
        html.P(caption, className="hint interval-caption"),
        html.Details([html.Summary(f"Notes on the intervals ({len(notes)})"),
                      html.Ul([html.Li(n) for n in notes])], className="interval-notes")
        if notes else None,
    ])


def _kind(u: PointUncertainty) -> str:
    """What a column's bootstrap intervals are: ``"corrected for the choice"`` at the
    optimum (chosen again in every replicate), ``"threshold fixed"`` at a pin or the
    capacity's or floors' choice."""
    return ("corrected for the choice" if u.method.startswith(OPTIMUM_METHOD)
            else "threshold fixed")


def _where(labels: list[str]) -> str:
    """``"Optimum"``, ``"Pin A"``, ``"Optimum and pins A and B"``: the points of a note."""
    pins = [x for x in labels if x != OPTIMUM]
    words = ([OPTIMUM] if OPTIMUM in labels else []) + (
        [("pins " if len(pins) > 1 else "pin ") + " and ".join(pins)] if pins else [])
    text = " and ".join(words) if len(words) < 3 else ", ".join(words)
    return text[:1].upper() + text[1:]


def notes_by_point(chosen) -> list[str]:
    """The intervals' notes, each once, saying for which points it holds
    (``"Pin A: LR+ is infinite … in 1 of 200 replicates …"``), in the points' order."""
    points: dict[str, list[str]] = {}
    for label, _, u in chosen:
        for note in u.notes:
            points.setdefault(note, [])
            if label not in points[note]:
                points[note].append(label)
    return [f"{_where(labels)}: {note}" for note, labels in points.items()]


def _span(low: float, high: float, unit: str = "") -> str:
    return f"{_number(low)}–{_number(high)}{(' ' + unit) if unit else ''}"


def strip_text(u: PointUncertainty, unit: str = "") -> str:
    """The summary strip's line: the optimum's threshold and expected cost (a net gain when
    the estimate is negative, as the strip's headline says it) with their intervals, and the
    out-of-bag cost of the choice; ``""`` when neither interval is defined."""
    t, c = u.threshold, u.expected_cost
    if c.interval == "none" and t.interval == "none":
        return ""
    # the threshold's ends as rules' bounds (never rounded up past them), as every threshold
    parts = ([f"threshold {format_threshold(t.low)}–{format_threshold(t.high)}"]
             if t.interval != "none" else [])
    if c.interval != "none":
        parts.append(f"net gain {_span(-c.high, -c.low, unit)} per case" if c.estimate < 0
                     else f"expected cost {_span(c.low, c.high, unit)} per case")
    o = u.optimism
    if o is not None and o.n:
        parts.append(f"out of bag {_number(-o.out_of_bag)} (gain)" if c.estimate < 0
                     else f"out of bag {_number(o.out_of_bag)}")
    return (f"How sure: {u.level:.0%} intervals of the choice ({u.n_boot_used} bootstrap "
            f"replicates): " + ", ".join(parts) + ".")


#: The ROC's interval boxes of the chosen points (none on DET axes).
regions = point_regions


#: Replaces the interval boxes in the drawn ROC (layout shapes, found by name) by the new
#: ones, put after the other shapes (the iso line stays ``layout.shapes[0]``, where the drag
#: code expects it; the optimum's box lands in the slot ``viz["roc_shapes"]`` the views'
#: patches use, :func:`..view_patches.patch_regions`). Only the layout changes: no trace is
#: sent again, so plotly recomputes none. Unchanged figure when there is nothing to replace.
REPLACE_REGIONS = """
function (boxes, fig) {
    var none = window.dash_clientside.no_update;
    if (!fig || !fig.layout) { return none; }
    var shapes = Array.isArray(fig.layout.shapes) ? fig.layout.shapes : [];
    var keep = shapes.filter(function (s) {
        return !(s && typeof s.name === "string" && s.name.indexOf("REGION_UID") === 0);
    });
    var add = Array.isArray(boxes) ? boxes : [];
    var floor = fig.layout.meta && fig.layout.meta.xlog;
    if (typeof floor === "number") {  /* a log FPR axis: FPR = 0 at its floor (roc_axes) */
        add = add.map(function (b) {
            return Object.assign({}, b, {x0: Math.max(b.x0, floor),
                                         x1: Math.max(b.x1, floor)});
        });
    }
    if (keep.length === shapes.length && !add.length) { return none; }
    var layout = Object.assign({}, fig.layout, {shapes: keep.concat(add)});
    return Object.assign({}, fig, {layout: layout});
}
""".replace("REGION_UID", REGION_UID)


# -- wiring ------------------------------------------------------------------------------
def recommendation(page: PageState, analysis):
    """``(RECOMMENDATION, point)`` of the point the page's capacity or floors choose (the
    summary strip's headline), None without them or when none meets them (the strip then
    recommends the optimum)."""
    from ..constrained import constrained_point, page_constrained
    from ..state import economics_from_state

    try:
        made = page_constrained(page, analysis, None,
                                economics_from_state(page.control.to_store()), n_boot=0)
    except ValueError:
        return None
    if made is None:
        return None
    return RECOMMENDATION, constrained_point(analysis, made)


def register(app, cache, store) -> None:
    """The intervals callback: after every render of the views (the viz-data store); the
    boxes on the ROC follow (clientside, into the drawn figure)."""

    @app.callback(
        output={"table": Output(ids.POINT_INTERVALS, "children"),
                "regions": Output(ids.POINT_REGIONS, "data"),
                "strip": Output(ids.STRIP_INTERVALS, "data")},
        # the Decide tab's capacity and floors too: under them the card's first column is
        # the point they choose (the strip's recommendation), not the optimum
        inputs={"viz": Input(ids.VIZ_DATA, "data"),
                "page": {**dependencies(State, "datasets", "models", "conditions", "pins",
                                        "det", "level", "band", "samples"),
                         **dependencies(Input, "capacity", "floors", "floor_confidence",
                                        "volume")}},
        running=[(Output(ids.POINT_INTERVALS_STATUS, "children"), COMPUTING_INTERVALS, ""),
                 (Output(ids.POINT_INTERVALS, "className"), "point-intervals stale",
                  "point-intervals")],
    )
    def intervals(viz, page):
        page = PageState.from_dash(page)
        if page.conditions is None:
            return {"table": no_update, "regions": no_update, "strip": no_update}
        if not isinstance(viz, dict):
            return {"table": intervals_table([]), "regions": [], "strip": None}
        try:
            chosen = chosen_intervals(cache, page, first=lambda a: recommendation(page, a))
        except (ValueError, AnalysisTimeout) as exc:
            return {"table": html.P(f"No intervals: {reason_of(exc)}.", className="hint"),
                    "regions": [], "strip": None}
        line = strip_text(chosen[0][2], page.control.unit) if chosen else ""
        boxes = regions(chosen, page.det)
        # the views drew these boxes already (their patch, from the cache): no second redraw
        drawn = viz.get("regions") is not None and viz.get("regions") == regions_drawn(boxes)
        # a new value every time (the views emptied the strip's slot even when the line
        # is the same), so the patch below always follows
        return {"table": intervals_table(chosen), "regions": no_update if drawn else boxes,
                "strip": {"line": line, "at": time.time()}}

    @app.callback(
        Output(ids.SUMMARY, "children", allow_duplicate=True),
        Input(ids.STRIP_INTERVALS, "data"),
        State(ids.DCT_CAPACITY, "value"),
        State(ids.DCT_FLOORS, "value"),
        prevent_initial_call=True,
    )
    def strip(data, capacity="", floors=""):
        """The intervals' line into the summary strip the views drew (its empty slot); not
        while a capacity or floors choose the headline (these are the optimum's intervals:
        :mod:`.constrained_strip`)."""
        line = data.get("line") if isinstance(data, dict) else None
        if not isinstance(line, str) or not line or constrained_headline(capacity, floors):
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
