"""A click on a cost or prior stepper drawn in the browser at once.

A change of costs or prior moves only the iso line, the optimum and its ring in the ROC
view and the read-off in the cost view: the curves and the hull stay (Fawcett 2004, "ROC
graphs: notes and practical considerations for researchers", section 7). After every
drawing of the views, the server sends ahead, for each of the six −/+ steppers, the state
that its click gives (:func:`..gestures.apply_gesture`, the same rule) and the patches of
the ROC and cost views for that state (:func:`..render.conditions_patches`, the same patches
a click's answer carries, the ROC's interval box included when its intervals are cached):
the ``ids.FAST_NEXT`` store, made by :func:`next_views` in its own callback on the viz-data
store (as the intervals are), so that the views' answer does not wait for it. On a click the
browser applies them when they were made for the views and conditions shown
(``assets/roc_dash.js``: ``fastClick`` says what it draws in the ``ids.FAST_CLICK`` store,
``fastDraw`` draws it while the views callback's request is on its way); the views callback
reads that store (:func:`drawn_by_browser`) and its answer leaves those two views alone
(:func:`leave_drawn`), redrawing the others (PR, threshold) and the text panels: each view
is drawn once per click.
"""

from __future__ import annotations

import dataclasses

from dash import Patch, no_update

from ..core.assembly.analysis import AnalysisTimeout
from . import ids
from .analysis import MAX_SHOWN_MODELS, AnalysisCache, model_refs, shown_combine, shown_pins
from .chosen_points import cached_intervals, point_regions
from .gestures import GESTURE_INPUTS, Gesture, apply_gesture
from .overlays import active
from .page_state import PageState
from .render import conditions_patches
from .state import conditions_from_state
from .view_patches import patch_regions

__all__ = ["STEPPERS", "next_views", "drawn_by_browser", "leave_drawn", "register"]

#: The −/+ buttons whose click the browser draws at once.
STEPPERS = (ids.COST_FP_DOWN, ids.COST_FP_UP, ids.COST_FN_DOWN, ids.COST_FN_UP,
            ids.PRIOR_DOWN, ids.PRIOR_UP)
#: A stepper's name among the views callback's gesture inputs (its ``n_clicks``).
_CLICKS = {dep.component_id: name for name, dep in GESTURE_INPUTS.items()
           if dep.component_id in STEPPERS}


def _patchable(page: PageState, view: dict, viz, refs: dict) -> bool:
    """Whether a click's answer would patch the ROC and cost views (as
    :func:`..render.update_views` does: no pins, no combining overlay, the cost curves)."""
    if not isinstance(viz, dict) or page.cost_mode != "cost" or page.conditions is None:
        return False
    if shown_pins(page.pins, refs) or active(shown_combine(view.get("combine"), refs)):
        return False
    index, ring = viz.get("optimum_trace"), viz.get("ring_trace")
    if not (isinstance(index, list) and len(index) == 3 and None not in index):
        return False
    if not page.det and not isinstance(ring, int):
        return False
    return bool(page.log_fpr and not page.det) == isinstance(viz.get("xlog"), int | float)


def next_views(cache: AnalysisCache, page: PageState, view: dict | None, viz) -> dict | None:
    """For each stepper, the state its click gives and the ROC and cost views' patches for
    it (``{"state": ..., "key": ..., "next": {button: {"state", "roc", "cost",
    "regions"}}}``; ``viz``: the views' data just drawn, whose render ``key`` the browser
    checks), or None when a click must wait for the server (pins,
    combining overlays, the decision curve, nothing drawn)."""
    view = view if isinstance(view, dict) else {}
    refs = model_refs(cache, page.datasets)
    if not _patchable(page, view, viz, refs):
        return None
    state = page.control
    dataset_ids = list(page.datasets)
    models = [refs[k] for k in page.shown_keys(list(refs))][:MAX_SHOWN_MODELS]
    out = {}
    for button in STEPPERS:
        result = apply_gesture(Gesture(trigger=button), state, None)
        if result is None or result[0].to_store() == state.to_store():
            continue  # at the end of its range: the click changes nothing
        new = result[0]
        conditions = conditions_from_state(new.to_store(), page.level, page.band, page.samples)
        try:
            analysis = cache.analysis(dataset_ids, models, conditions,
                                      page.control.reference_class)
        except AnalysisTimeout:
            return None  # the click goes to the server, whose answer says why
        if analysis is None:
            return None
        roc, cost = conditions_patches(analysis, viz, det=page.det)
        regions = None
        if not page.det:  # the interval box when this state's intervals are known
            chosen = cached_intervals(cache, dataclasses.replace(page, conditions=new))
            if chosen is not None:
                regions = patch_regions(roc, point_regions(chosen, False), viz)
        out[button] = {"state": new.to_store(), "roc": roc, "cost": cost, "regions": regions}
    return {"state": state.to_store(), "key": viz.get("key"), "next": out} if out else None


def drawn_by_browser(fast, moved: str | None, gesture: dict, new_state: dict) -> bool:
    """Whether the browser drew this click's ROC and cost views already: ``fast`` (the
    ``ids.FAST_CLICK`` store) names the stepper ``moved``, its click count in ``gesture``
    and the state the views callback found for it (``new_state``, its store form)."""
    return (isinstance(fast, dict) and moved in _CLICKS and fast.get("button") == moved
            and fast.get("clicks") == gesture.get(_CLICKS[moved])
            and fast.get("state") == new_state)


def leave_drawn(views: dict, fast: dict) -> dict:
    """The views' outputs without the ROC and cost views the browser drew (when they were
    to be patched: a full drawing is sent whole), the viz-data store told which interval
    box the browser drew."""
    if not (isinstance(views.get("roc"), Patch) and isinstance(views.get("cost"), Patch)):
        return views
    out = {**views, "roc": no_update, "cost": no_update}
    if isinstance(out.get("viz"), dict):
        out["viz"] = {**out["viz"], "regions": fast.get("regions")}
    return out


def register(app, cache, store) -> None:
    """The callback that makes :func:`next_views` after every drawing of the views (the
    viz-data store), for the browser's ``fastClick`` and ``fastDraw``."""
    from dash import Input, Output, State

    from .page_state import dependencies
    from .render import VIEW_FIELDS

    @app.callback(output=Output(ids.FAST_NEXT, "data"),
                  inputs={"viz": Input(ids.VIZ_DATA, "data"),
                          "page": dependencies(State, *VIEW_FIELDS),
                          "combine": State(ids.COMBINE, "data")})
    def fast_next(viz, page, combine):
        page = PageState.from_dash(page)
        return next_views(cache, page, {"combine": combine}, viz)
