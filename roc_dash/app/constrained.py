"""The page's capacity and floors (its Decide tab), read from what was typed, and the
threshold they choose for *Download decision*: shared by the capacity and floors card
(:mod:`.features.constraints`) and the exports (:mod:`.features.exports`), which do not
import each other. The choice is :func:`roc_dash.report.constrained_choice.choose_under`,
the one ``roc-dash decide --capacity/--floor`` makes."""

from __future__ import annotations

import dataclasses
import re

from ..core.constraints.capacity import parse_capacity
from ..core.constraints.floors import parse_floor
from ..text.capacity_words import more_cases_than
from .core_words import less_than_one_case, not_used, zero_capacity
from .page_state import PageState

__all__ = ["constrained_point", "parse_settings", "parse_confidence", "parse_volume", "constrained_headline", "page_settings", "page_constrained", "page_constraints_html", "constrained_record", "capacity_too_big",
           "N_BOOT", "SEED"]

#: Bootstrap replicates and seed of how sure the floors are (as the operating card's).
N_BOOT, SEED = 200, 0


def parse_settings(capacity_text, floors_text):
    """``(capacity, floors, capacity_message, floors_message)``: the capacity as
    ``(cases, fraction)`` (None when empty or unreadable), the floors (``;`` or ``,``
    between them; the readable ones) and what is wrong with each text (``""``: nothing)."""
    capacity, cap_msg = None, ""
    if isinstance(capacity_text, str) and capacity_text.strip():
        try:
            capacity = parse_capacity(capacity_text)
        except ValueError as exc:
            cap_msg = not_used("Capacity", exc)
        if capacity is not None and 0 in capacity:  # used, but it flags nothing: say so
            cap_msg = zero_capacity(capacity_text.strip(), capacity[0] is not None)
    floors, bad = [], []
    for part in re.split(r"[;,\n]", floors_text if isinstance(floors_text, str) else ""):
        if not part.strip():
            continue
        try:
            floors.append(parse_floor(part.strip()))
        except ValueError as exc:
            bad.append(exc)
    floors_msg = not_used("Floor", "; ".join(str(b).rstrip(".") for b in bad)) if bad else ""
    return capacity, tuple(floors), cap_msg, floors_msg


def parse_confidence(text) -> tuple[float | None, str]:
    """``(confidence, message)``: the confidence the floors hold with (``95%`` or
    ``0.95``; the floors are then met on exact one-sided bounds of the rates), None when
    empty or unreadable (the message says why)."""
    if not isinstance(text, str) or not text.strip():
        return None, ""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        value = float("nan")
    if not 0.5 <= value < 1:
        return None, (f"Confidence not used: {raw!r} is not a confidence between 50% and "
                      "100% (write 95% or 0.95).")
    return value, ""


def parse_volume(text) -> tuple[float | None, str]:
    """``(volume, message)``: the cases a capacity of so many cases is out of (``4000``: 800
    of 4,000 cases), None when empty or unreadable (the message says why)."""
    if not isinstance(text, str) or not text.strip():
        return None, ""
    try:
        value = float(text.strip().replace(",", ""))
    except ValueError:
        value = float("nan")
    if not (value > 0 and value < float("inf")):
        return None, (f"Volume not used: {text.strip()!r} is not a number of cases above 0 "
                      "(write 4000: the capacity is then so many of 4,000 cases).")
    return value, ""


def constrained_headline(capacity_text, floors_text) -> bool:
    """Whether the capacity or the floors typed choose the summary strip's headline (one
    of them is readable)."""
    capacity, floors, _, _ = parse_settings(capacity_text, floors_text)
    return capacity is not None or bool(floors)


def page_settings(page: PageState, *, n_boot: int = N_BOOT):
    """The page's capacity and floors (the readable ones) as
    :class:`~roc_dash.core.constraints.assembly.ConstraintSettings` (``n_boot`` replicates of
    how sure the floors are, 0: none), None when neither is given."""
    from ..core.constraints.assembly import ConstraintSettings

    capacity, floors, _, _ = parse_settings(page.capacity, page.floors)
    if capacity is None and not floors:
        return None
    cases, fraction = capacity or (None, None)
    confidence = parse_confidence(page.floor_confidence)[0] if floors else None
    volume = parse_volume(page.volume)[0] if cases is not None else None
    return ConstraintSettings(capacity=cases, capacity_fraction=fraction, floors=floors,
                              confidence=confidence, volume=volume, n_boot=n_boot, seed=SEED)


def capacity_too_big(capacity, analysis, volume=None) -> str:
    """The message when ``capacity`` (cases) is more than a model's cases (or than
    ``volume``), or less than one case (a share typed as a count: 0.5), else ``""``."""
    if capacity is None or capacity[0] is None:
        return ""
    if 0 < capacity[0] < 1:
        n = volume if volume is not None else max(
            (float(m.n_pos + m.n_neg) for m in analysis.models), default=0.0)
        if n > 1:
            return not_used("Capacity", less_than_one_case(capacity[0], n))
    return more_cases_than(capacity[0], analysis.models, volume)


def page_constrained(page: PageState, analysis, table, economics, *, n_boot: int = N_BOOT):
    """The choice under the page's capacity and floors (the readable ones) over the shown
    models (:class:`~roc_dash.report.constrained_choice.Constrained`), None when neither is
    given; ``ValueError`` when no threshold meets them (its message says why). ``n_boot``
    0: the same threshold, without how sure the floors are (the summary strip's)."""
    from ..report.constrained_choice import choose_point, choose_under

    settings = page_settings(page, n_boot=n_boot)
    if settings is None:
        return None
    too_big = capacity_too_big(parse_settings(page.capacity, page.floors)[0], analysis,
                               settings.volume)
    if too_big:  # as the card says: the capacity is not used
        raise ValueError(too_big)
    if n_boot == 0:  # the point alone (the strip's, per change): no other view
        return choose_point(analysis, settings, economics)
    return choose_under(analysis, table, settings, economics)


def constrained_point(analysis, constrained):
    """The point ``constrained`` (:class:`~roc_dash.report.constrained_choice.Constrained`)
    chose, as the page shows a recommendation: its
    :class:`~roc_dash.core.decisions.operating.OperatingSummary` read off the model's
    curve at the chosen threshold, unpinned and without a letter (the choice is the page's,
    not a pin). The operating card, the pins' comparison and the card's intervals all
    stand on it."""
    from ..core.decisions.operating import operating_point

    op = operating_point(analysis, {"model": constrained.pinned["model"],
                                    "threshold": constrained.pinned["threshold"]})
    return dataclasses.replace(op, pinned=False, label="")


def constrained_record(cache, page: PageState, analysis, note: str = ""):
    """``(record, constrained, ref)`` of the point the page's capacity or floors choose: the
    decision record *Download decision* writes for the summary strip's constrained headline
    and the Monitor tab checks as the page's recommendation (one computation), ``ref`` the
    :class:`~.page_state.ModelRef` of its model (the record names the model by its own
    name). None when neither is given; ``ValueError`` when no threshold meets them (its
    message says why) or the calibration card's recalibration cannot be fitted."""
    from ..decision import build_decision
    from .analysis import model_refs
    from .page_state import key_ref
    from .state import economics_from_state

    table = cache.table(list(page.datasets), page.control.reference_class)
    economics = economics_from_state(page.control.to_store())
    constrained = page_constrained(page, analysis, table, economics)
    if constrained is None:
        return None
    pinned = constrained.pinned
    record = constrained.apply(build_decision(
        analysis, table, economics=economics, note=note, pinned=pinned,
        recalibration=page.recalibration or None))
    refs = model_refs(cache, page.datasets)
    ref = next((key_ref(k) for k, v in refs.items() if v == pinned["model"]), None)
    if ref is not None and ref.name != record.model:
        record = dataclasses.replace(record, model=ref.name, notes=(
            *record.notes, f"Shown on the page as “{record.model}”."))
    return record, constrained, ref


def page_constraints_html(page: PageState, analysis, table) -> str:
    """The HTML report's sections of the page's capacity and floors (the readable ones), as
    ``roc-dash report --capacity/--floor`` writes them
    (:func:`roc_dash.report.constraints_html.constraints_html`, calibration with its bands
    included); ``""`` without them, or when the data cannot give them (the rest of the
    report stands)."""
    from ..core.constraints.assembly import analyse_constraints
    from ..report.constraints_html import constraints_html

    settings = page_settings(page)
    if analysis is None or table is None or settings is None:
        return ""
    try:
        models = analyse_constraints(analysis, table, settings)
    except ValueError:
        return ""
    return constraints_html(models, settings, curves={m.name: m.curve for m in analysis.models})
