"""One sentence for a capacity written as a share: 0.5 "cases" is less than one case.

The page (:mod:`roc_dash.app.core_words`, under the capacity's box, in the summary strip and
the decision download's status) and the report layer
(:func:`roc_dash.report.constrained_choice.capacity_share`: ``roc-dash decide --capacity``)
both say it with :func:`less_than_one_case`, so the two cannot drift apart (review9)."""

from __future__ import annotations

__all__ = ["less_than_one_case", "more_cases_than"]


def less_than_one_case(k: float, n: float, option: str | None = None) -> str:
    """Why a capacity of ``k`` cases (0 < k < 1) out of ``n`` is refused: a share written as
    a count. ``option`` names the value as the reader typed it (``"--capacity"`` on the
    command line); without it the value is said in cases, as the page says it under its box.
    No full stop: the caller ends the sentence."""
    value = f"{option} {k:g}" if option else f"{k:g} cases"
    return (f"{value} is less than one case: write {100 * k:g}% for that share of the "
            f"{n:,.6g} cases, or give a number of cases (800)")


def more_cases_than(k: float, models, volume: float | None = None) -> str:
    """Why a capacity of ``k`` cases is not used: more than the ``volume`` it is out of, or
    (without a volume) than the cases of one of ``models`` (each with ``name``, ``n_pos`` and
    ``n_neg``); ``""`` when it is not. The page (under the capacity's box, in the strip) and
    ``roc-dash decide --capacity`` refuse with these words (review 11 item 2). A full
    sentence."""
    if volume is not None:
        return "" if k <= volume else (
            f"Capacity not used: {k:,.6g} cases is more than the volume of {volume:,.6g} "
            "cases it is out of.")
    for m in models:
        n = float(m.n_pos + m.n_neg)
        if k > n:
            return (f"Capacity not used: {k:,.6g} cases is more than the {n:,.6g} cases of "
                    f"model {m.name}: give at most {n:,.6g}, or a share (3%) or so many per "
                    "so many (30/1000).")
    return ""
