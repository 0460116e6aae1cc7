"""The combining overlays of the ROC view, computed for one analysis (Fawcett 2004, §7.4).

:func:`combining_overlays` takes the analysis and the combining options (a budget, a model
to repair, AND / OR of two points) and returns :class:`CombiningOverlays`: each overlay's
result from :mod:`.combining_views`, or the sentence saying why there is none. The ROC
figure (:func:`roc_dash.figures.combining.add_overlays`) and the combining card draw and
read out that one result; neither computes.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, sections 7.4.1-7.4.3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from ..analysis_types import Analysis
from ..combining.concavity_repair import ConcavityRepair
from ..decisions.operating import OperatingSummary, operating_point
from .combining_views import BudgetView, LogicalView, budget_view, logical_pair, logical_view
from .combining_views import repair_view as _repair_view

__all__ = ["CombiningOverlays", "combining_overlays", "NO_PAIR"]

#: Why AND / OR shows nothing yet.
NO_PAIR = ("AND / OR: pin a point (click a curve) to combine it with the optimum, "
           "or pin two.")


@dataclass(frozen=True)
class CombiningOverlays:
    """What the combining options add to the ROC view; every field None when its option is
    off.

    Attributes
    ----------
    budget : BudgetView, str or None
        The budget's point and line, or why it cannot be met (``"Budget: ..."``).
    repair : (str, ConcavityRepair), str or None
        The repaired model's name and its repair, or why it failed.
    logic : LogicalView, str or None
        The AND / OR of the two points, or what to do to get it (:data:`NO_PAIR`).
    """

    budget: BudgetView | str | None = None
    repair: tuple[str, ConcavityRepair] | str | None = None
    logic: LogicalView | str | None = None

    def as_tuple(self) -> tuple:
        """``(budget, repair, logic)``."""
        return self.budget, self.repair, self.logic


def _apart(analysis: Analysis, first, second) -> str:
    """Why the AND / OR of two points of models scored on different datasets is not
    computed (``""`` when they share one): they score different cases, so no case is
    flagged by both and there are no joint rates, expected or actual."""
    datasets = {m.name: m.dataset for m in analysis.models}
    a, b = datasets.get(first.model), datasets.get(second.model)
    if a is None or b is None or a == b:
        return ""
    return (f"AND / OR: {first.model} and {second.model} were scored on different datasets "
            f"({a} and {b}), so they score different cases and their AND and OR cannot be "
            "computed. Pin two points of models of one dataset to combine them.")


def combining_overlays(analysis: Analysis | None, *, budget: float | None = None,
                       unit: str = "cases", repair: str | None = None, logic: bool = False,
                       pins: Sequence[OperatingSummary] = (), population: float | None = None,
                       table: pd.DataFrame | Callable[[], pd.DataFrame] | None = None
                       ) -> CombiningOverlays:
    """The overlays asked for, for ``analysis``'s shown models.

    ``budget`` (in ``unit``: "cases" or "percent") gives :func:`budget_view` over
    ``population`` cases (None: the test set); ``repair`` names a shown model for
    :func:`repair_view` (a model not shown: no repair); ``logic`` combines two pins, or the
    optimum and one pin (:func:`logical_pair`), on the rows of ``table`` (or what calling it
    returns: it is read only then).
    """
    if analysis is None or not analysis.models:
        return CombiningOverlays()
    budget_out = repair_out = logic_out = None
    if budget is not None:
        try:
            budget_out = budget_view(analysis, budget, unit, population=population)
        except ValueError as exc:
            budget_out = f"Budget: {exc}."
    if repair and repair in {m.name for m in analysis.models}:
        try:
            repair_out = (repair, _repair_view(analysis, repair))
        except ValueError as exc:
            repair_out = f"Repair of {repair}: {exc}."
    if logic:
        pair = logical_pair(operating_point(analysis), list(pins))
        apart = None if pair is None else _apart(analysis, *pair)
        logic_out = (NO_PAIR if pair is None else apart if apart else
                     logical_view(*pair, table() if callable(table) else table))
    return CombiningOverlays(budget=budget_out, repair=repair_out, logic=logic_out)
