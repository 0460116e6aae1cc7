"""The summary strip's headline and the operating card under the Decide tab's capacity or
floors: with either set, both show the point *Download decision* writes (the least expected
cost meeting them over the shown models, :func:`..constrained.page_constrained`, the choice
``roc-dash decide --capacity/--floor`` makes) and say which constraint chose it; without
them, what the views drew (the optimum under the costs and the prior).

The strip is drawn by the views callback; this module only patches its headline and its
detail line (slots 0 and 1 of :func:`..components.summary_strip`; the pins' line stays; the
intervals' line, of the optimum without the constraint, is left out meanwhile: the
intervals callback does not patch it in while a constraint is readable), and redraws the
operating card: the recommendation, or with pins the latest pin (a pin is an explicit
choice), the pins compared with the recommendation, not with the optimum without them. It runs after every render of the views (the viz-data store) and when the
capacity or the floors change.
"""

from __future__ import annotations

from dash import Input, Output, Patch, State, ctx, html, no_update
from dash.exceptions import PreventUpdate

from ...core.assembly.analysis import AnalysisTimeout
from ...core.decisions.operating import compare_points, operating_point, pinned_points
from ...figures.threshold import chosen_marks
from .. import ids
from ..analysis import SHOWN_FIELDS, model_refs, shown_analysis, shown_pins
from ..chosen_points import RECOMMENDATION
from ..components import STRIP_INTERVALS_SLOT, operating_panel
from ..constrained import constrained_point
from ..constrained_headline import chosen_by, constrained_or_unmet, constrained_strip, pins_line
from ..page_state import PageState, dependencies
from ..render import decision_views
from ..state import economics_from_state

__all__ = ["chosen_by", "constrained_strip", "strip_update", "register"]


def threshold_marks(analysis, economics, view, chosen: dict | None):
    """The threshold view's subtitle and ◆ as a patch (:func:`~roc_dash.figures.threshold.
    chosen_marks`): under a capacity or floors the ★ is named the optimum without them and
    the choice is marked; without them, the view's own words again. ``view``: the view's
    ``(model, axis)`` as its controls hold them (the model the views draw when that one is
    not shown); ``no_update`` without it."""
    if view is None:
        return no_update
    names = [m.name for m in analysis.models]
    if not names:
        return no_update
    model, axis = view
    if model not in names:  # as the views choose it (render.decision_views)
        model = analysis.optimal.model if analysis.optimal.model in names else names[0]
    subtitle, note = chosen_marks(analysis, model, economics,
                                  axis="flagged" if axis == "flagged" else "threshold",
                                  chosen=chosen)
    patch = Patch()
    patch["layout"]["title"]["subtitle"]["text"] = subtitle
    patch["layout"]["annotations"][1] = note
    return patch


def _restored(analysis, page: PageState, cache, economics) -> dict:
    """The strip's headline and detail line and the operating card as the views draw
    them without a constraint."""
    refs = model_refs(cache, page.datasets)
    pins = pinned_points(analysis, shown_pins(page.pins, refs))
    strip, _ = decision_views(analysis, pins, economics)
    patch = Patch()
    patch[0], patch[1] = strip[0], strip[1]
    if pins:  # compared with the optimum again
        patch[STRIP_PINS_SLOT] = strip[STRIP_PINS_SLOT]
    return {"summary": patch,
            "operating": no_update if pins else operating_panel(operating_point(analysis),
                                                              analysis)}


#: The strip's slot of the pins' line (:func:`..components.summary_strip`).
STRIP_PINS_SLOT = 3


def strip_update(cache, page: PageState, triggered: str | None, view=None) -> dict:
    """``{"summary": Patch, "operating": card or Patch, "threshold": Patch}`` for the page's
    state: the point under its capacity or floors; the unconstrained recommendation again
    when they were changed to nothing readable (``triggered``: the id that fired).
    ``PreventUpdate`` when the views' own strip stands. ``view``: the threshold view's
    ``(model, axis)``, whose ★ words and ◆ follow the choice (:func:`threshold_marks`)."""
    if page.conditions is None:
        raise PreventUpdate
    analysis = shown_analysis(cache, page)
    if analysis is None:
        raise PreventUpdate
    economics = economics_from_state(page.control.to_store())
    constrained, line = constrained_or_unmet(page, analysis, economics)
    if line:  # none meets them: the strip says so under the optimum
        out = _restored(analysis, page, cache, economics)
        out["summary"][1] = html.Div(line, className="summary-detail warn", title=line)
        out["threshold"] = threshold_marks(analysis, economics, view, None)
        return out
    if constrained is None:
        if triggered == ids.VIZ_DATA:
            raise PreventUpdate  # the views drew the strip without a constraint
        return {**_restored(analysis, page, cache, economics),
                "threshold": threshold_marks(analysis, economics, view, None)}
    marks = threshold_marks(analysis, economics, view, constrained.pinned)
    headline, detail = constrained_strip(analysis, constrained, economics,
                                         chosen_by(page, constrained.how_chosen))
    patch = Patch()
    # the intervals' line is of the optimum without the constraint: left out meanwhile
    patch[0], patch[1], patch[STRIP_INTERVALS_SLOT] = headline, detail, None
    op = constrained_point(analysis, constrained)  # the recommendation, unpinned
    by = chosen_by(page, constrained.how_chosen)
    pinned = pinned_points(analysis, shown_pins(page.pins, model_refs(cache, page.datasets)))
    if pinned:
        line = pins_line(cache, page, analysis, economics, constrained.pinned)
        if line is not None:
            patch[STRIP_PINS_SLOT] = line
        # the card compares the pins with the recommendation (the point its ↓ writes), and
        # shows the latest pin, as the views do
        return {"summary": patch, "operating": operating_panel(
            pinned[-1], analysis, compare_points(op, pinned, first=RECOMMENDATION)),
            "threshold": marks}
    return {"summary": patch, "operating": operating_panel(op, analysis, chosen_by=by),
            "threshold": marks}


def register(app, cache, store) -> None:
    """After every render of the views and on a change of the capacity or the floors."""

    @app.callback(
        output={"summary": Output(ids.SUMMARY, "children", allow_duplicate=True),
                "operating": Output(ids.OPERATING, "children", allow_duplicate=True),
                "threshold": Output(ids.THRESHOLD_GRAPH, "figure", allow_duplicate=True)},
        inputs={"viz": Input(ids.VIZ_DATA, "data"),
                "page": {**dependencies(Input, "capacity", "floors", "floor_confidence",
                                        "volume"),
                         **dependencies(State, *SHOWN_FIELDS, "pins")},
                "view": [State(ids.THRESHOLD_MODEL, "value"),
                         State(ids.THRESHOLD_AXIS, "value")]},
        prevent_initial_call=True,
    )
    def constrained_headline(viz, page, view):
        if not isinstance(viz, dict):
            raise PreventUpdate  # no views drawn (yet)
        try:
            return strip_update(cache, PageState.from_dash(page), ctx.triggered_id,
                                tuple(view))
        except AnalysisTimeout:
            raise PreventUpdate from None  # the views say so
