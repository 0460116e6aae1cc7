"""The chosen points and their bootstrap intervals: the optimum and the pins of the page.

Below the features: the operating card's table of intervals (:mod:`.features.intervals`)
and the decision download (:mod:`.features.exports`) take them from here, so the page and
the file give the same intervals for the same point, replicates and seed: one computation,
cached once (:func:`chosen_intervals`).
"""

from __future__ import annotations

import math
import time

from ..core.decisions.operating import OperatingSummary, operating_point, pinned_points
from ..core.decisions.point_intervals import PointIntervals, PointUncertainty, point_intervals
from ..decision import model_rows
from ..figures.point_regions import point_region_shapes
from .analysis import AnalysisCache, model_refs, shown_analysis, shown_pins
from .page_state import PageState
from .state import economics_from_state

__all__ = ["N_BOOT", "SEED", "SECONDS", "OPTIMUM", "RECOMMENDATION", "chosen_points", "chosen_intervals",
           "model_intervals", "fixed_intervals"]

#: Replicates asked for, the seed, and the server time the bootstrap may take per request.
N_BOOT = 200
SEED = 0
SECONDS = 2.0

#: The optimum's column label (pins have their letters).
OPTIMUM = "Optimum"
#: The column label of the point a capacity or floors choose (the strip's recommendation),
#: when it stands first: short, so that the card fits a projector's 1280×720 with three pins.
RECOMMENDATION = "Choice"


def chosen_points(cache: AnalysisCache, page: PageState, first=None):
    """The views' analysis and its chosen points: ``(analysis, [(column label,
    OperatingSummary)])`` (the optimum first, then the pins of models shown). ``first``:
    a function of the analysis giving ``(label, OperatingSummary)`` to stand first instead
    of the optimum (the point a capacity or floors choose, :data:`RECOMMENDATION`: a fixed
    threshold, as a pin), or None to keep the optimum."""
    analysis = shown_analysis(cache, page)
    if analysis is None:
        return None, []
    pins = pinned_points(analysis, shown_pins(page.pins, model_refs(cache, page.datasets)))
    head = first(analysis) if first is not None else None
    return analysis, [head or (OPTIMUM, operating_point(analysis))] + [(p.label, p)
                                                                       for p in pins]


def _threshold(op: OperatingSummary) -> float | None:
    return None if math.isinf(op.threshold) else float(op.threshold)


def _by_model(points) -> dict[str, list[float | None]]:
    """The models concerned by the chosen ``points``, each with its fixed thresholds (the
    pins', and a recommendation's that is not the optimum)."""
    by_model: dict[str, list[float | None]] = {}
    for label, op in points:
        if label != OPTIMUM:
            by_model.setdefault(op.model, []).append(_threshold(op))
    by_model.setdefault(points[0][1].model, [])
    return by_model


def _assemble(points, results) -> list[tuple[str, OperatingSummary, PointUncertainty]]:
    """``[(label, point, intervals)]`` from each model's :class:`PointIntervals`."""
    out, taken = [], dict.fromkeys(results, 0)
    for label, op in points:
        if label == OPTIMUM:
            out.append((label, op, results[op.model].optimum))
        else:
            out.append((label, op, results[op.model].pins[taken[op.model]]))
            taken[op.model] += 1
    return out


def chosen_intervals(cache: AnalysisCache, page: PageState, *, n_boot: int = N_BOOT,
                     seed: int = SEED, seconds: float = SECONDS, first=None
                     ) -> list[tuple[str, OperatingSummary, PointUncertainty]]:
    """``[(label, point, intervals)]`` of the optimum and the pins the views show for the
    page's state ``page`` (the operating card's table, the decision download's intervals).

    One :func:`~roc_dash.core.decisions.point_intervals.point_intervals` per model concerned (the
    optimum's model and the pinned models; a model's pins share its replicates), on that
    model's rows at the analysis' prior and level and the state's costs and benefits;
    cached by data, class reference, model, conditions, thresholds, ``n_boot`` and ``seed``.
    ``seconds`` bounds the server time of what is not cached (all models together); a result
    cut short by it is shown but not cached, so the next request tries the full count.
    ``first``: as :func:`chosen_points`.
    """
    analysis, points = chosen_points(cache, page, first)
    if analysis is None:
        return []
    deadline = time.monotonic() + seconds
    by_model = _by_model(points)
    results = {model: model_intervals(cache, page, analysis, model, thresholds, n_boot=n_boot,
                                      seed=seed, deadline=deadline)
               for model, thresholds in by_model.items()}
    return _assemble(points, results)


def model_intervals(cache: AnalysisCache, page: PageState, analysis, model: str, thresholds,
                    *, n_boot: int = N_BOOT, seed: int = SEED,
                    deadline: float | None = None) -> PointIntervals:
    """:func:`~roc_dash.core.decisions.point_intervals.point_intervals` of the shown ``model`` (its
    shown name) at the fixed ``thresholds``, on its rows at the analysis' prior and level
    and the state's costs and benefits; cached by data, class reference, model, conditions,
    thresholds, ``n_boot`` and ``seed`` (not when the ``deadline`` cut it short)."""
    c = analysis.conditions
    e = economics_from_state(page.control.to_store())
    reference = page.control.reference_class
    dataset_ids = list(page.datasets)
    cut: list[PointIntervals] = []

    def make():
        y, s, w = model_rows(cache.table(dataset_ids, reference), model)
        r = point_intervals(y, s, c.prior_pos, e, pins=thresholds, weights=w, n_boot=n_boot,
                            seed=seed, level=c.level, deadline=deadline)
        if r.optimum.n_boot_used < n_boot:  # cut short by the deadline: shown, not kept
            cut.append(r)
            return None
        return r

    key = _intervals_key(cache, page, analysis, model, thresholds, n_boot, seed)
    return cache.cache.get_or_make(key, make) or cut[0]


def _intervals_key(cache: AnalysisCache, page: PageState, analysis, model: str, thresholds,
                   n_boot: int, seed: int) -> tuple:
    """The cache key of :func:`model_intervals`'s result."""
    c = analysis.conditions
    e = economics_from_state(page.control.to_store())
    return ("point_intervals", cache.store.present(list(page.datasets)),
            page.control.reference_class, model, float(c.prior_pos), float(c.level),
            e.cost_fp, e.cost_fn, e.benefit_tp, e.benefit_tn, tuple(thresholds), n_boot, seed)


def cached_intervals(cache: AnalysisCache, page: PageState
                     ) -> list[tuple[str, OperatingSummary, PointUncertainty]] | None:
    """:func:`chosen_intervals` when every model's intervals are already in this process's
    memory cache, else None: never computes, never waits for a computation under way (the
    views use it to draw the interval boxes in the same response as the rest)."""
    analysis, points = chosen_points(cache, page)
    if analysis is None:
        return None
    by_model = _by_model(points)
    memory = cache.cache.memory
    results = {}
    for model, thresholds in by_model.items():
        key = _intervals_key(cache, page, analysis, model, thresholds, N_BOOT, SEED)
        results[model] = memory.get(cache.cache.key(key))
        if results[model] is None:
            return None
    return _assemble(points, results)


def point_regions(chosen, det: bool) -> list[dict]:
    """The ROC's interval boxes of the chosen points (layout shapes; none on DET axes)."""
    if det:
        return []
    return point_region_shapes([("" if label == OPTIMUM else label, op.model, u)
                                for label, op, u in chosen])


def fixed_intervals(cache: AnalysisCache, page: PageState, op: OperatingSummary, *,
                    seconds: float = SECONDS) -> PointUncertainty | None:
    """The intervals of a pin at the point ``op`` (its model and threshold), as the
    operating card shows a pin there: the decision file's intervals at its fixed
    threshold."""
    analysis = shown_analysis(cache, page)
    if analysis is None:
        return None
    return model_intervals(cache, page, analysis, op.model, [_threshold(op)],
                           deadline=time.monotonic() + seconds).pins[0]


def decision_record(cache: AnalysisCache, page: PageState, analysis, which: str | None = None,
                    *, seconds: float = SECONDS, note: str = ""):
    """``(record, point, ref)`` of the page's decision: the recommendation (``which`` None,
    the summary's headline) or the pin ``which`` (a letter), with the page's intervals of
    that point (:func:`chosen_intervals`, the same replicates and seed), ``ref`` the
    :class:`~.page_state.ModelRef` of its model (the record names the model by its own
    name), with the calibration card's recalibration of its scores when one is chosen
    (``ValueError`` when it cannot be fitted); ``(None, None, None)`` when that pin is not
    shown. What *Download decision*
    writes and the Monitor tab checks."""
    import dataclasses

    from ..decision import build_decision
    from .page_state import key_ref

    label = which or OPTIMUM
    entry = next((c for c in chosen_intervals(cache, page, seconds=seconds)
                  if c[0] == label), None)
    if entry is None:
        return None, None, None
    _, op, u = entry
    refs = model_refs(cache, page.datasets)
    ref = next((key_ref(k) for k, v in refs.items() if v == op.model), None)
    control = page.control
    table = cache.table(list(page.datasets), control.reference_class)
    record = build_decision(
        analysis, table, economics=economics_from_state(control.to_store()), note=note,
        pinned=None if which is None else {"model": op.model, "threshold": _threshold(op)},
        point=u if which else fixed_intervals(cache, page, op, seconds=seconds),
        choice=None if which else u, recalibration=page.recalibration or None)
    if ref is not None and ref.name != record.model:
        record = dataclasses.replace(record, model=ref.name, notes=(
            *record.notes, f"Shown on the page as “{record.model}”."))
    return record, op, ref
