"""The decision's headline under the Decide tab's capacity or floors, one wording for the
summary strip (:mod:`.features.constrained_strip`), the page's HTML report
(:mod:`.features.exports`) and ``roc-dash report --format html --capacity/--floor``: "Use M at
score ≥ t under the capacity of 3% cases: flags …, expected cost … — x more per case than the
optimum without it (M′ at score ≥ t′).", then the decision record's note on how it was chosen.
The point is the one *Download decision* and ``roc-dash decide`` write
(:func:`roc_dash.report.constrained_choice.choose_point`)."""

from __future__ import annotations

import dataclasses

from dash import html

from ..core.decisions.decision_summary import decision_summary
from ..core.decisions.operating import operating_point, pinned_points
from ..figures.style import format_threshold
from ..text.rounding import sig
from .analysis import model_refs, shown_pins
from .components import pinned_words, plain_text, summary_strip
from .constrained import page_constrained, parse_confidence, parse_settings, parse_volume
from .core_words import in_page_words
from .page_state import PageState

__all__ = ["chosen_by", "constrained_strip", "ReportHeadline", "report_headline",
           "unmet_line", "constrained_or_unmet", "pins_line"]


def chosen_by(page: PageState, how: str) -> str:
    """Words naming what chose the point: the capacity as typed and the readable floors
    (``how``: the record's ``how_chosen``, ``"capacity"`` or ``"floors"``)."""
    capacity, floors, _, _ = parse_settings(page.capacity, page.floors)
    parts = []
    if capacity is not None:
        volume = parse_volume(page.volume)[0] if capacity[0] is not None else None
        parts.append(f"the capacity of {page.capacity.strip()} cases"
                     + (f" out of {volume:,.6g}" if volume else ""))
    if floors:
        confidence = parse_confidence(page.floor_confidence)[0]
        parts.append(("the floor " if len(floors) == 1 else "the floors ")
                     + "; ".join(f.text for f in floors)
                     + (f" (held with {confidence:.0%} confidence)" if confidence else ""))
    return " and ".join(parts) or f"the {how}"


def constrained_strip(analysis, constrained, economics, by: str) -> tuple:
    """``(headline, detail)`` of the summary strip for the point ``constrained`` chose
    (:class:`~roc_dash.report.constrained_choice.Constrained`): "Use M at score ≥ t under
    <by>: flags …, expected cost … — x more than the optimum without it (M' at score ≥ t')."
    and the record's note on how it was chosen."""
    s = decision_summary(analysis, constrained.pinned, economics)
    # the strip's wording, as a recommendation (not a pin) with no runner-up: the
    # comparison that matters is with the optimum the constraint displaced
    main = summary_strip(dataclasses.replace(s, pinned=False, runner_up=None))[0]
    parts = list(main.children)
    parts[2] = f" at score ≥ {format_threshold(s.threshold)} under {by}: "
    excess = s.excess_cost
    optimum = (f"the optimum without it ({s.optimal_model} at score ≥ "
               f"{format_threshold(s.optimal_threshold)})")
    parts[-1] = (f" — {sig(excess)} more per case than {optimum}." if excess > 5e-4 else
                 f" — as good as {optimum}.")
    headline = html.Div(parts, className="summary-main summary-constrained")
    note = " ".join(constrained.notes[:1])
    return headline, html.Div(note, className="summary-detail", title=note)


def unmet_line(reason) -> str:
    """The strip's second line when no threshold meets the constraints (``reason``: why)."""
    reason = in_page_words(reason, "the capacity")
    return (f"{reason} The headline is the optimum without them "
            "and nothing is downloaded under them.")


def constrained_or_unmet(page: PageState, analysis, economics) -> tuple:
    """``(constrained, line)``: the point the page's capacity and floors choose together
    (:func:`.constrained.page_constrained`, without the bootstrap; None when neither is
    given or no threshold meets them) and, when none meets them, :func:`unmet_line` (``""``
    otherwise). The summary strip's second line and the capacity table's warning, one
    computation and one wording for both."""
    try:
        return page_constrained(page, analysis, None, economics, n_boot=0), ""
    except ValueError as exc:
        return None, unmet_line(exc)


@dataclasses.dataclass(frozen=True)
class ReportHeadline:
    """The HTML report's decision under a capacity or floors: the strip's headline and
    detail as one text, the operating point they chose and the words naming the
    constraint; or, when no threshold meets them (``operating`` None), the line saying so."""

    summary: str
    operating: object | None
    chosen_by: str
    constraints: str = ""
    """The capacity and floors named (as :func:`chosen_by`), whether or not a threshold
    meets them: the report's cost and prior controls say they leave them out."""


def report_headline(page: PageState, analysis, economics) -> ReportHeadline | None:
    """The report's headline for the page's capacity and floors (``page``: its ``capacity``,
    ``floors``, ``floor_confidence`` and ``volume`` are read), None when neither is readable
    (the report keeps the optimum's headline)."""
    try:
        constrained = page_constrained(page, analysis, None, economics, n_boot=0)
    except ValueError as exc:
        return ReportHeadline(summary=unmet_line(exc), operating=None, chosen_by="",
                              constraints=chosen_by(page, "constraints"))
    if constrained is None:
        return None
    by = chosen_by(page, constrained.how_chosen)
    headline, detail = constrained_strip(analysis, constrained, economics, by)
    return ReportHeadline(summary=plain_text([headline, detail]),
                          operating=operating_point(analysis, dict(constrained.pinned)),
                          chosen_by=by, constraints=by)


def pins_line(cache, page: PageState, analysis, economics, chosen: dict):
    """The pins' line compared with the point the constraints chose (the recommendation
    the strip shows and the HTML report's headline), not with the optimum without them;
    None when no pin is shown."""
    base = decision_summary(analysis, chosen, economics)
    refs = model_refs(cache, page.datasets)
    compared = []
    for op in pinned_points(analysis, shown_pins(page.pins, refs)):
        s = decision_summary(analysis, {"model": op.model, "threshold": op.threshold},
                             economics)
        if s is not None and base is not None:
            compared.append((op.label, dataclasses.replace(
                s, excess_cost=s.expected_cost - base.expected_cost)))
    if not compared:
        return None
    words = f"Pinned {'; '.join(pinned_words(label, s) for label, s in compared)}."
    return html.Div(words, className="summary-pins", title=words)
