"""The linked views' content: the ROC, PR, cost and threshold views, the operating point and
the summary strip for the current data, models and conditions; and the Compare tab's model
table, drawn on its own when that tab shows (:func:`models_table`, its one builder).

Below the features: the views feature's callback (:mod:`.features.views`), which reads a
gesture on the costs and prior controls and returns the views for the new conditions in the
same response (one round trip per change), calls :func:`update_views` with the page's state
(:class:`.page_state.PageState`): a patch of the drawn figures when only the costs or the
prior changed (:func:`patch_views`), else a full :func:`render_views`. Inside one drawing
models carry their shown names; the state names them by dataset id and name.
"""

from __future__ import annotations

import dataclasses
import math
import uuid

from dash import Output, no_update

from ..core.analysis_types import Analysis, Conditions
from ..core.assembly.analysis import AnalysisTimeout
from ..core.decisions.decision_summary import decision_summary
from ..core.decisions.economics import Economics
from ..core.decisions.operating import (
    OperatingSummary,
    compare_points,
    operating_point,
    pinned_points,
)
from ..core.decisions.optimum_frequency import optimum_frequency_of
from ..core.decisions.uncertainty import decision_uncertainty
from ..core.roc.hull import TIE_RTOL
from ..figures import cost_figure, pr_figure, roc_figure
from ..figures.marks import RING_NOTE, STAR_NOTE
from ..figures.roc import OPTIMUM_UID, iso_line_endpoints
from ..figures.roc_axes import ISO_UID
from ..figures.style import folds_note, pins_on_top, set_subtitle
from ..figures.threshold import threshold_figure
from ..figures.zoom import apply_zoom
from ..text.rounding import sig
from . import ids
from .analysis import (
    MAX_SHOWN_MODELS,
    AnalysisCache,
    dataset_labels,
    loaded_infos,
    model_names,
    model_refs,
    shown_analysis,
    shown_combine,
    shown_pins,
    timeout_message,
)
from .chosen_points import cached_intervals, point_regions
from .components import (
    banner,
    empty_figure,
    model_table,
    operating_panel,
    summary_strip,
)
from .overlays import (
    active,
    decorate_roc,
    multiclass_results,
    overlay_roc,
    shown_kinds,
    soft_results,
    table_extras,
)
from .page_state import PageState
from .server.store import clean_ids
from .state import (
    AVERAGING_MODES,
    FONT,
    clean_pins,
    conditions_from_state,
    economics_from_state,
)
from .view_cache import kept_views
from .view_patches import (
    changed_parts,
    figure_parts,
    mark_indices,
    marks_known,
    patch_cost,
    patch_pr_star,
    patch_regions,
    patch_roc,
    threshold_patch,
    threshold_record,
)

__all__ = ["resolve_operating", "viz_data", "slope_words", "conditions_text", "render_views",
           "kinds_of", "kinds_table", "decision_views", "render_key", "patch_views", "present",
           "pr_view", "emphasise", "apply_zoom", "update_views", "VIEW_OUTPUTS", "VIEW_FIELDS",
           "COST_MODES", "decision_view"]


def resolve_operating(analysis: Analysis | None, pinned) -> OperatingSummary | None:
    """The pinned operating point if it is valid for the shown models, else the optimum."""
    if analysis is None:
        return None
    if not (isinstance(pinned, dict) and isinstance(pinned.get("model"), str)
            and (pinned.get("threshold") is None
                 or isinstance(pinned.get("threshold"), int | float))):
        pinned = None
    return operating_point(analysis, pinned)


def viz_data(analysis: Analysis | None, figures=(), key: str = "") -> dict | None:
    """What the browser needs to move the iso line and markers without the server, what the
    server needs to read a drag of the line (the line as drawn and its vertex), and what a
    cost-only update needs to patch the drawn figures (which trace is the optimum, and a key
    of everything else the figures were drawn with)."""
    if analysis is None:
        return None
    h = analysis.hull
    c = analysis.conditions
    opt = analysis.optimal
    return {
        "models": [m.name for m in analysis.models],
        "hull": {"fpr": h.fpr.tolist(), "tpr": h.tpr.tolist()},
        # core's tie tolerance, for the browser's one optimum rule (assets/optimum.js)
        "tie_rtol": TIE_RTOL,
        "prior": c.prior_pos,
        "cost_fp": c.cost_fp,
        "cost_fn": c.cost_fn,
        "line": list(iso_line_endpoints(opt.fpr, opt.tpr, c.slope)),
        "vertex": [opt.fpr, opt.tpr],
        "key": key,
        # the optimum's star in each view and the ROC's ring (annotations, figures.marks;
        # the star a trace in the DET, PRG and decision views), found by name or uid
        **mark_indices(figures),
        # the iso curve of a log FPR or DET view, and the log axis's floor (figures.roc_axes)
        "iso_trace": next((k for k, t in enumerate(figures[0].data) if t.uid == ISO_UID),
                          None) if figures else None,
        "xlog": (figures[0].layout.meta or {}).get("xlog") if figures else None,
        # the ROC view's shapes as rendered: the interval boxes' slot (view_patches)
        **({"roc_shapes": len(figures[0].layout.shapes)} if figures else {}),
    }


def slope_words(c: Conditions) -> str:
    """The line under the sliders: the iso-performance slope, with net costs when benefits
    are set (then the formula names them)."""
    if c.benefit_tp or c.benefit_tn:
        formula = "(c(FP)+b(TN))·p(−) / ((c(FN)+b(TP))·p(+))"
    else:
        formula = "c(FP)·p(−) / (c(FN)·p(+))"
    return f"Iso-performance slope m = {formula} = {sig(c.slope)}; PC(+) = {sig(c.pc_pos)}"


def conditions_text(c: Conditions) -> str:
    """One line naming the conditions (figure titles of exported images, CSV columns)."""
    return (f"c(FP) = {sig(c.cost_fp)}, c(FN) = {sig(c.cost_fn)}, p(+) = {sig(c.prior_pos)}, "
            f"slope m = {sig(c.slope)}")


def render_views(cache: AnalysisCache, dataset_ids, models, conditions: Conditions, *,
                 averaging="pooled", det=False, presentation=False, pinned=None, rev=0,
                 zoom=None, ties=False, pr_mode="pr", economics=None, threshold_model=None,
                 threshold_axis="threshold", combine=None, reference=None, log_fpr=False):
    """All views for the current data, models and conditions.

    ``log_fpr`` draws the ROC's FPR axis on a log scale (not with ``det``).
    ``reference`` is the class shown as positive of multi-class data (:mod:`.features.kinds`).
    ``combine`` holds the combining overlays of the ROC view (:mod:`.features.combining`).
    ``zoom`` holds the axis ranges the user zoomed each view to (``{"roc": {"x": [a, b],
    "y": [c, d], "det": bool}, "pr": ..., "cost": ...}``); they are kept.
    Returns ``(roc, pr, cost, operating panel, viz data, slope text, banner, summary strip,
    threshold view)`` (:data:`RENDERED`). The model table is not among them: the Compare
    tab draws it when it shows (:func:`models_table`, its one builder).
    """
    names = model_names(cache, dataset_ids)
    models = [m for m in (models or []) if m in names]
    extra = []
    if len(models) > MAX_SHOWN_MODELS:
        extra.append(f"{len(models)} models are ticked; the views show the first "
                     f"{MAX_SHOWN_MODELS}. Untick some to see the others.")
        models = models[:MAX_SHOWN_MODELS]
    try:
        analysis = (cache.analysis(dataset_ids, models, conditions, reference) if models
                    else None)
    except AnalysisTimeout as exc:
        analysis = None
        extra.append(timeout_message(exc, len(models)))
    font = FONT[bool(presentation)]
    if analysis is None:
        return (empty_figure(font), empty_figure(font), empty_figure(font),
                operating_panel(None, None), None, "", banner(None, extra), summary_strip(None),
                empty_figure(font))
    colors = {n: k for k, n in enumerate(names)}
    optimum = operating_point(analysis)
    pins = pinned_points(analysis, clean_pins(pinned if isinstance(pinned, list) else
                                               [pinned] if isinstance(pinned, dict) else []))
    focus = pins[-1] if pins else optimum
    kw = {"pins": pins, "font_size": font, "colors": colors}
    roc = roc_figure(analysis, averaging=averaging if averaging in AVERAGING_MODES else "pooled",
                     det=det, ties=bool(ties), log_fpr=bool(log_fpr) and not det, **kw)
    overlay_roc(roc, analysis, combine, pins=pins, colors=colors, font_size=font,
                       det=bool(det), table=lambda: cache.table(dataset_ids, reference),
                       population=economics.population if economics else None)
    kinds = kinds_of(cache, dataset_ids, models)
    decorate_roc(roc, analysis, cache.table(dataset_ids, reference), kinds,
                          colors=colors, font_size=font, det=bool(det))
    pins_on_top(roc)  # the letters above every curve and overlay
    # a new edit revision on every render: a dragged line is always redrawn where it belongs
    roc.update_layout(editrevision=f"{rev}-{uuid.uuid4().hex[:8]}")
    c = analysis.conditions
    title = conditions_text(c)
    figures = (roc, pr_figure(analysis, mode="prg" if pr_mode == "prg" else "pr", **kw),
               cost_figure(analysis, **kw))
    # the PR and cost views use the pooled folds whatever the ROC's averaging: they say so
    averaging = averaging if averaging in AVERAGING_MODES else "pooled"
    set_subtitle(figures[1], folds_note(analysis, averaging, "precision-recall"), font)
    set_subtitle(figures[2], folds_note(analysis, averaging, "the cost curves"), font)
    if presentation:  # large lines and markers for a projector; the plots keep their room
        for fig in figures:
            # short entries, off the plot: beside the square ROC, below the others
            present(fig, beside=fig is roc)
    for fig, view in zip(figures, ("roc", "pr", "cost"), strict=True):
        fig.update_layout(meta={**(fig.layout.meta or {}), "conditions": title})
        apply_zoom(fig, zoom, view, det=bool(det) if view == "roc" else
                   (pr_mode == "prg" if view == "pr" else False))
    comparison = compare_points(optimum, pins) if pins else None
    key = render_key(cache.store.present(dataset_ids), models, conditions, averaging, det,
                     presentation, pins, ties, pr_mode, reference, log_fpr)
    economics = economics or Economics(cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn)
    summary, threshold = decision_views(analysis, pins, economics,
                                        threshold_model=threshold_model, axis=threshold_axis,
                                        font=font)
    if presentation:
        emphasise(threshold)
    viz = {**viz_data(analysis, figures, key),  # what a patch needs
           "threshold": threshold_record(threshold, c.prior_pos),
           "pr_parts": figure_parts(figures[1]) if pr_mode != "prg" else None}
    return (*figures, operating_panel(focus, analysis, comparison), viz, slope_words(c),
            banner(analysis, extra), summary, threshold)


def kinds_of(cache: AnalysisCache, dataset_ids, models) -> dict:
    """The dataset info of each shown model (see :func:`.overlays.shown_kinds`)."""
    infos, _ = loaded_infos(cache.store, dataset_ids)
    return shown_kinds(cache.model_datasets(dataset_ids), infos, dataset_labels(infos), models)


def kinds_table(cache: AnalysisCache, dataset_ids, analysis: Analysis, colors, kinds=None):
    """The model table, with M and the weighted AUC of multi-class models and the labels of
    soft-label models."""
    names = [m.name for m in analysis.models]
    kinds = kinds_of(cache, dataset_ids, names) if kinds is None else kinds
    extras = table_extras(
        analysis, multiclass_results(cache, dataset_ids, names, kinds),
        soft_results(cache, dataset_ids, names, kinds, analysis.conditions.level))
    return model_table(analysis, colors, extras, datasets=len(clean_ids(dataset_ids)) > 1)


def models_table(cache: AnalysisCache, page: PageState | None):
    """The Compare tab's model table for the page's state (the views' analysis of the shown
    models, :func:`.analysis.shown_analysis`), and the only place the page builds it
    (:func:`render_views` does not). Drawn when that tab shows (its gate), not on every full
    render nor on every cost or prior click: the table holds some 300 components, and every
    one the page updates is a pass of dash's renderer over the whole page
    (docs/performance.md, step 6)."""
    try:
        analysis = shown_analysis(cache, page) if page is not None else None
    except AnalysisTimeout:
        return no_update  # the views say why
    if analysis is None:
        return model_table(None)
    dataset_ids = list(page.datasets)
    colors = {n: k for k, n in enumerate(model_names(cache, dataset_ids))}
    return kinds_table(cache, dataset_ids, analysis, colors)


def decision_views(analysis: Analysis, pins, economics: Economics, *, threshold_model=None,
                   axis="threshold", font=14, drawn=None):
    """The summary strip and the threshold view (a patch of the view ``drawn``, its
    :func:`.view_patches.threshold_record`, when that can be patched).

    The strip's headline is always the recommendation (the optimum under the conditions),
    with its uncertainty across folds, the ranges over which it holds and how often each
    model wins; pinned points are compared with it below (never in its place)."""
    e = dataclasses.replace(economics) if economics else None
    summary = decision_summary(analysis, None, e)
    compared = []
    for op in pins or ():
        s = decision_summary(analysis, {"model": op.model, "threshold": op.threshold}, e)
        if s is not None and s.pinned:
            compared.append((op.label, s))
    uncertainty = frequency = None
    if summary is not None:
        m = analysis.model(summary.model) if summary.model in {x.name for x in analysis.models} \
            else None
        if m is not None and m.n_folds > 1 and math.isfinite(summary.threshold):
            try:
                uncertainty = decision_uncertainty(m, summary.threshold,
                                                   analysis.conditions.prior_pos, e,
                                                   method="folds")
            except ValueError:
                uncertainty = None
        try:
            frequency = optimum_frequency_of(analysis, e)
        except ValueError:
            frequency = None
    names = [x.name for x in analysis.models]
    model = threshold_model if threshold_model in names else (
        summary.model if summary is not None and summary.model in names else names[0])
    axis = axis if axis == "flagged" else "threshold"
    fig = (None if pins else threshold_patch(analysis, model, e, drawn, axis=axis, font=font)
           ) or threshold_figure(analysis, model, e, axis=axis, pins=pins, font_size=font)
    return summary_strip(summary, uncertainty, frequency, pinned=compared), fig


def render_key(dataset_ids, models, conditions: Conditions, averaging, det, presentation, pins,
               ties, pr_mode, reference=None, log_fpr=False) -> str:
    """Everything the figures depend on except the costs and the prior: when only those
    change, the drawn figures are patched instead of redrawn (see :func:`patch_views`).
    ``dataset_ids``: those still stored (a deletion elsewhere means a full redraw)."""
    c = dataclasses.replace(conditions, cost_fp=1.0, cost_fn=1.0, prior_pos=None,
                            benefit_tp=0.0, benefit_tn=0.0)
    return repr((clean_ids(dataset_ids), list(models), c, averaging, bool(det),
                 bool(presentation), [(p.model, p.threshold, p.label) for p in pins]
                 if pins else [], bool(ties), pr_mode, reference)
                + ((True,) if log_fpr and not det else ()))


def patch_views(cache: AnalysisCache, dataset_ids, models, conditions: Conditions, viz: dict, *,
                det=False, pr_mode="pr", economics=None, threshold_model=None,
                threshold_axis="threshold", presentation=False, zoom=None, reference=None,
                averaging="pooled", log_fpr=False):
    """The views after a change of costs or prior alone, as patches of the figures drawn.

    Costs and prior move only the iso line, the optimum and the cost view's marker in the
    ROC and cost views (their curves do not depend on them); the PR view is drawn anew when
    the prior changed (precision depends on it), else patched too; the threshold view's
    moved lines are patched (:func:`.view_patches.threshold_patch`). Sending those few
    values instead of whole figures makes such a change several times cheaper for the
    server and the browser. The model table (the Compare tab's) is not among the views: it
    follows when its tab shows (:func:`models_table`). Returns the same tuple as
    :func:`render_views` (figures as ``dash.Patch``), or None when a full render is
    needed."""
    from dash import Patch

    names = model_names(cache, dataset_ids)
    models = [m for m in (models or []) if m in names][:MAX_SHOWN_MODELS]
    try:
        analysis = (cache.analysis(dataset_ids, models, conditions, reference) if models
                    else None)
    except AnalysisTimeout:
        return None  # a full render says why
    if analysis is None or not isinstance(viz, dict) or not marks_known(viz, det):
        return None
    c = analysis.conditions
    title = conditions_text(c)
    if bool(log_fpr and not det) != isinstance(viz.get("xlog"), int | float):
        return None
    roc = patch_roc(analysis, viz, det=det, title=title)
    colors = {n: k for k, n in enumerate(names)}
    prior_changed = viz.get("prior") != c.prior_pos
    if prior_changed:  # drawn anew, sent as the parts that changed (view_patches)
        drawn_pr = pr_view(analysis, pr_mode=pr_mode, presentation=presentation, zoom=zoom,
                           colors=colors, font=FONT[bool(presentation)], averaging=averaging)
        whole = drawn_pr.to_dict() if pr_mode != "prg" else None  # once for both
        pr_parts = figure_parts(whole) if whole is not None else None
        pr = (changed_parts(whole, viz.get("pr_parts"), pr_parts) if pr_parts else None
              ) or drawn_pr
    else:
        pr = patch_pr_star(analysis, viz, pr_mode=pr_mode, title=title)
    cost = patch_cost(analysis, viz, title=title)
    optimum = operating_point(analysis)
    slope_text = slope_words(c)
    new_viz = {**viz, **{k: v for k, v in viz_data(analysis).items()
                         if k not in ("key", "optimum_trace", "optimum_note", "ring_note",
                                      "iso_trace", "xlog")}}
    if prior_changed:  # the PR view drawn anew: where its star is now
        drawn = mark_indices((drawn_pr,))
        for k in ("optimum_trace", "optimum_note"):
            new_viz[k] = [viz[k][0], drawn[k][0], viz[k][2]]
        new_viz["pr_parts"] = pr_parts
    economics = economics or Economics(cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn)
    summary, threshold = decision_views(analysis, [], economics,
                                        threshold_model=threshold_model, axis=threshold_axis,
                                        font=FONT[bool(presentation)], drawn=viz.get("threshold"))
    new_viz["threshold"] = threshold_record(threshold, c.prior_pos, viz.get("threshold"))
    if presentation and not isinstance(threshold, Patch):
        emphasise(threshold)
    # the model table is the Compare tab's: it follows when that tab shows (models_table)
    return (roc, pr, cost, operating_panel(optimum, analysis), new_viz, slope_text, no_update,
            summary, threshold)


def present(fig, *, beside: bool = False) -> None:
    """Presentation mode: large lines and markers for a projector; short legend entries off
    the plot (beside it for the square ROC, below it for the others)."""
    from ..figures.style import presentation_legend

    emphasise(fig)
    presentation_legend(fig, beside=beside)


def pr_view(analysis: Analysis, *, pr_mode="pr", presentation=False, zoom=None, colors=None,
            font=14, averaging="pooled"):
    """The PR (or PRG) view without pins, as :func:`render_views` draws it."""
    fig = pr_figure(analysis, mode="prg" if pr_mode == "prg" else "pr", pins=[],
                    font_size=font, colors=colors, subtitle=folds_note(
                        analysis, averaging if averaging in AVERAGING_MODES else "pooled",
                        "precision-recall"),
                    meta={"conditions": conditions_text(analysis.conditions)})
    if presentation:
        present(fig)
    apply_zoom(fig, zoom, "pr", det=pr_mode == "prg")
    return fig


def emphasise(fig, factor: float = 1.6) -> None:
    """Thicker lines and bigger markers (presentation mode)."""
    for trace in fig.data:
        line = getattr(trace, "line", None)
        if line is not None and line.width:
            line.width = line.width * factor
        marker = getattr(trace, "marker", None)
        # a pin's circle already grows with the font (its letter sits inside it)
        if (marker is not None and isinstance(marker.size, int | float)
                and not (trace.name or "").startswith("pinned ")):
            marker.size = marker.size * 1.35
    for shape in fig.layout.shapes:
        if shape.line is not None and shape.line.width:
            shape.line.width = shape.line.width * factor
    for note in fig.layout.annotations:  # the optimum's star and ring, as markers
        if note.name in (STAR_NOTE, RING_NOTE):
            note.font.size = round(note.font.size * 1.35, 1)


#: The views' outputs, by name: the figures, cards and stores :func:`update_views` returns
#: (one callback owns them: :mod:`.features.views`).
VIEW_OUTPUTS = {name: Output(i, p) for name, (i, p) in {
    "roc": (ids.ROC_GRAPH, "figure"), "pr": (ids.PR_GRAPH, "figure"),
    "cost": (ids.COST_GRAPH, "figure"), "operating": (ids.OPERATING, "children"),
    "viz": (ids.VIZ_DATA, "data"),
    "slope": (ids.SLOPE_TEXT, "children"), "banner": (ids.BANNER, "children"),
    "summary": (ids.SUMMARY, "children"), "threshold": (ids.THRESHOLD_GRAPH, "figure"),
    "threshold_model": (ids.THRESHOLD_MODEL, "value")}.items()}
#: The names of :func:`render_views`'s tuple, in order (no model table: the Compare tab's
#: table follows that tab, :func:`models_table`).
RENDERED = ("roc", "pr", "cost", "operating", "viz", "slope", "banner", "summary", "threshold")
#: Where the viz-data store sits in that tuple (None: the analysis gave no views).
VIZ = RENDERED.index("viz")

#: The fields of the page's state the views are drawn from (:func:`update_views`).
VIEW_FIELDS = ("datasets", "models", "conditions", "averaging", "level", "band", "samples",
               "det", "presentation", "pins", "ties", "pr_mode", "cost_mode", "log_fpr")


def update_views(cache: AnalysisCache, page: PageState, view: dict | None = None, viz=None,
                 zoom=None, *, conditions_changed=False, new_pin=False) -> dict:
    """The views for the page's state ``page`` (:data:`VIEW_FIELDS`) and ``view`` (the
    threshold view's ``threshold_model``, a model's key, and ``threshold_axis``; the
    combining overlays, ``combine``) as ``{name: value}`` of :data:`VIEW_OUTPUTS`: a patch
    of the drawn figures when only the costs or the prior changed (:func:`patch_views`),
    else a full :func:`render_views` (with the decision curve in the cost card for
    ``cost_mode="decision"``), then the model the threshold view shows (a new pin's). Models
    are drawn under their shown names (:func:`.analysis.model_refs`); the viz-data store
    lists their keys (``keys``) beside those names (``models``)."""
    view = view if isinstance(view, dict) else {}
    state = page.control.to_store()
    refs = model_refs(cache, page.datasets)
    dataset_ids = list(page.datasets)
    conditions = conditions_from_state(state, page.level, page.band, page.samples)
    reference = page.control.reference_class
    models = [refs[k] for k in page.shown_keys(list(refs))]
    pinned = shown_pins(page.pins, refs)
    threshold_model = refs.get(view.get("threshold_model"))
    if new_pin and pinned:  # a new pin: the threshold view shows its model
        threshold_model = pinned[-1]["model"]
    combine, axis = shown_combine(view.get("combine"), refs), view.get("threshold_axis")
    out = None
    if (conditions_changed and isinstance(viz, dict) and not pinned
            and not active(combine)
            and viz.get("key") == render_key(cache.store.present(dataset_ids), models,
                                             conditions, page.averaging, page.det,
                                             page.presentation, [], page.ties, page.pr_mode,
                                             reference, page.log_fpr)):
        out = patch_views(cache, dataset_ids, models, conditions, viz, det=page.det,
                          pr_mode=page.pr_mode, economics=economics_from_state(state),
                          averaging=page.averaging, threshold_model=threshold_model,
                          threshold_axis=axis, presentation=page.presentation, zoom=zoom,
                          reference=reference, log_fpr=page.log_fpr)
    if out is None:  # drawn whole, or as drawn for the same before (.view_cache)
        kw = {"averaging": page.averaging, "det": page.det, "presentation": page.presentation,
              "pinned": pinned, "rev": page.control.rev, "zoom": zoom, "ties": page.ties,
              "pr_mode": page.pr_mode, "economics": economics_from_state(state),
              "threshold_model": threshold_model, "threshold_axis": axis,
              "combine": combine, "reference": reference, "log_fpr": page.log_fpr}
        out = kept_views(cache, dataset_ids, (models, conditions, sorted(kw.items())), kw["rev"],
                         lambda: render_views(cache, dataset_ids, models, conditions, **kw))
    if page.cost_mode == "decision":
        out = with_decision_view(out, cache, dataset_ids, models, conditions, reference,
                                 averaging=page.averaging, presentation=page.presentation,
                                 zoom=zoom)
    named = dict(zip(RENDERED, out, strict=True))
    if isinstance(named["viz"], dict):
        named["viz"] = {**named["viz"], "regions": _cached_regions(cache, page, named, viz)}
        shown = {v: k for k, v in refs.items()}
        drawn = {k: v for k, v in named["viz"].items()
                 if k != "cost_mode" or page.cost_mode != "cost"}
        named["viz"] = {**drawn, "keys": [shown.get(n) for n in drawn.get("models", [])]}
    meta = getattr(getattr(named["threshold"], "layout", None), "meta", None)
    drawn_model = meta.get("model") if isinstance(meta, dict) else None
    named["threshold_model"] = next((k for k, v in refs.items() if v == drawn_model),
                                    no_update)
    return named


def _cached_regions(cache: AnalysisCache, page: PageState, named: dict, viz) -> list | None:
    """On a patch of the ROC view (a change of costs or prior), its interval boxes when they
    are known already (:func:`.chosen_points.cached_intervals`): patched in with the rest, so
    the view is redrawn once. What was drawn (:func:`.view_patches.regions_drawn`) or None.
    When they are not known yet, the boxes drawn before stay drawn (the patch leaves them):
    the intervals callback then redraws the view only if its boxes differ from those."""
    from dash import Patch

    if not isinstance(named["roc"], Patch) or page.det:
        return None
    chosen = cached_intervals(cache, page)
    if chosen is None:
        return viz.get("regions") if isinstance(viz, dict) else None
    return patch_regions(named["roc"], point_regions(chosen, page.det), viz)


# -------------------------------------------------- the decision curve in the cost card ----------
#: What the cost card shows: the cost curves or the decision curve (Vickers & Elkin 2006).
COST_MODES = ("cost", "decision")


def decision_view(analysis: Analysis, *, colors=None, font=14, presentation=False,
                  averaging="pooled", zoom=None):
    """The decision curve of the shown models at the deployment prior, with the joint hull's
    net benefit and the current ``p_t = c(FP) / (c(FP) + c(FN))`` marked (``shapes[0]``, the
    star and ``annotations[1]``, as the cost view's read-off); ``layout.meta.view`` is
    ``"decision"`` (the browser's iso-line and hover code read it)."""
    from ..core.decisions.decision_curve import (
        decision_curve_from_curve,
        hull_net_benefit,
        threshold_probability,
    )
    from ..figures.decision_curve import decision_curve_figure

    c = analysis.conditions
    prior = c.prior_pos
    p_t = threshold_probability(c.cost_fp, c.cost_fn)
    curves = {m.name: decision_curve_from_curve(m.curve, prior_pos=prior, hull=m.hull)
              for m in analysis.models}
    # p_t = 1 only when c(FP) dwarfs c(FN) beyond float precision: nobody is treated
    current = hull_net_benefit(analysis.hull, [p_t], prior_pos=prior) if p_t < 1.0 else None
    fig = decision_curve_figure(
        curves, joint=hull_net_benefit(analysis.hull, prior_pos=prior), current=current,
        p_t=p_t, colors=colors, font_size=font,
        model_indices={m.name: k for k, m in enumerate(analysis.models)})
    if not fig.layout.title.text:  # the figure's own subtitle (scores not probabilities) first
        set_subtitle(fig, folds_note(analysis, averaging if averaging in AVERAGING_MODES
                                     else "pooled", "the decision curves"), font)
    if presentation:
        present(fig)
    fig.update_layout(meta={**(fig.layout.meta or {}), "view": "decision",
                            "prior": prior, "conditions": conditions_text(c)})
    apply_zoom(fig, zoom, "decision")  # its own zoom (assets/roc_dash.js keepZoom)
    return fig


def with_decision_view(out: tuple, cache: AnalysisCache, dataset_ids, models,
                       conditions: Conditions, reference, *, averaging="pooled",
                       presentation=False, zoom=None) -> tuple:
    """The views' outputs with the decision curve in place of the cost view (drawn whole:
    a patch of the cost view would not fit it), and the viz-data store told so."""
    if not models or not isinstance(out[VIZ], dict):
        return out
    names = model_names(cache, dataset_ids)
    analysis = cache.analysis(dataset_ids, models[:MAX_SHOWN_MODELS], conditions, reference)
    if analysis is None:
        return out
    fig = decision_view(analysis, colors={n: k for k, n in enumerate(names)},
                        font=FONT[bool(presentation)], presentation=presentation,
                        averaging=averaging, zoom=zoom)
    viz = dict(out[VIZ])
    trace, note = viz.get("optimum_trace"), viz.get("optimum_note")
    if isinstance(trace, list) and len(trace) == 3:
        star = next((k for k, t in enumerate(fig.data) if t.uid == OPTIMUM_UID), None)
        viz["optimum_trace"] = [trace[0], trace[1], star]
    if isinstance(note, list) and len(note) == 3:
        viz["optimum_note"] = [note[0], note[1], None]  # the decision curve's star: a trace
    viz["cost_mode"] = "decision"
    return (out[0], out[1], fig, *out[3:VIZ], viz, *out[VIZ + 1:])
