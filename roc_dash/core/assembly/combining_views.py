"""What the dashboard shows of combining and comparing classifiers, for one analysis.

Glue between an :class:`~roc_dash.core.assembly.analysis.Analysis` (the shown models, the
deployment prior and costs) and the methods of Fawcett (2004), "ROC Graphs: Notes and Practical
Considerations for Researchers":

* section 7.4.1, a budget of K cases out of N (:func:`budget_view`): N is the population per
  period when one is given, else the test set;
* section 7.4.2, Flach and Wu's concavity repair of one shown model (:func:`repair_view`);
* section 7.4.3, the AND and OR of two operating points (:func:`logical_view`), with the
  actual positions when both models scored the same rows;
* section 7.5.3, the relative superiority graph and LC index of two shown models
  (:func:`superiority_view`), the expert's range defaulting around the current ratio.

Every number the dashboard prints about these methods is computed in
:mod:`.capacity_mix`, :mod:`.concavity_repair`, :mod:`.logical_combining` or
:mod:`.superiority`; this module picks the inputs (N, the expert's default range, the rows
to pair) and the callbacks only pass the controls in.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.4.1 (Interpolating classifiers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..analysis_types import Analysis
from ..combining.capacity_mix import BudgetLine, BudgetMix, budget_line, budget_operating_point
from ..combining.concavity_repair import ConcavityRepair, repair_concavities
from ..combining.logical_combining import (
    ActualCombination,
    LogicalCombination,
    combine_thresholded,
    logical_combination,
)
from ..combining.superiority import LcIndex, ratio_to_unit
from ..decisions.operating import OperatingSummary
from .analysis import models_by_dataset, paired_rows

__all__ = [
    "BudgetView", "budget_population", "budget_view", "repair_view", "LogicalView", "logical_view",
    "logical_pair", "SuperiorityView", "default_expert_range", "superiority_view",
]

BUDGET_UNITS = ("cases", "percent")


@dataclass(frozen=True)
class BudgetView:
    """A budget constraint on the joint hull of the shown models (Fawcett 2004 §7.4.1).

    Attributes
    ----------
    mix : BudgetMix
        The achievable point C on the hull, its two vertices and the mixing rate k.
    line : BudgetLine
        The constraint line ``FPR·N(1−π) + TPR·Nπ = K`` clipped to ROC space.
    n_total : float
        N, the cases the budget is a share of.
    n_source : str
        Where N comes from ("cases per month", "the test set").
    budget : float
        K in cases.
    percent : float
        K as a percentage of N.
    """

    mix: BudgetMix
    line: BudgetLine
    n_total: float
    n_source: str
    budget: float
    percent: float


def budget_population(analysis: Analysis, population: float | None) -> tuple[float, str]:
    """N for a budget: the cases per month when given, else the test set size.

    The test set is the shown models' (weighted) rows; when the models were scored on test
    sets of different sizes the largest is used and named.
    """
    if population is not None and math.isfinite(population) and population > 0:
        return float(population), "cases per month"
    sizes = {m.name: float(m.n_pos + m.n_neg) for m in analysis.models}
    n = max(sizes.values())
    if len(set(sizes.values())) > 1:
        who = next(k for k, v in sizes.items() if v == n)
        return n, f"the test set of {who}"
    return n, "the test set"


def _budget_per_dataset(analysis: Analysis, prior: float, value: float, kw: dict):
    """``(N, source, mix)`` when the shown models were scored on test sets of different
    sizes: K cases are another share of each, so each dataset's models are held to the
    budget on the hull of their own curves with N their own test set; the mix finding the
    largest share of positives wins (a dataset with fewer cases than K takes part only
    when every dataset has)."""
    from ..roc.hull import hull_of_curves

    options = []
    for name, models in models_by_dataset(analysis.models).items():
        n = float(models[0].n_pos + models[0].n_neg)
        hull = hull_of_curves({m.name: m.curve for m in models})
        mix = budget_operating_point(hull, n_total=n, prior_pos=prior, **kw)
        options.append((kw.get("budget", 0.0) > n, -mix.tpr, n, name, mix))
    _, _, n, name, mix = min(options, key=lambda o: o[:2])
    return n, f"the test set of {name}, the dataset of the model it chooses", mix


def budget_view(analysis: Analysis, amount: float, unit: str = "cases", *,
                population: float | None = None) -> BudgetView:
    """The best classifier acting on a budget of cases, on the joint hull of the shown models.

    Fawcett (2004) §7.4.1 via :func:`~roc_dash.core.combining.capacity_mix.budget_operating_point`, at the
    deployment prior ``π = p(+)`` of the analysis' conditions.

    Parameters
    ----------
    amount : float
        K in cases (``unit="cases"``) or as a percentage of N flagged (``unit="percent"``,
        0 to 100).
    population : float, optional
        Cases per month: N. Default: the test set size (:func:`budget_population`).

    Raises
    ------
    ValueError
        With a message for the page: a negative or non-finite amount, a percentage above
        100, a count that looks like a fraction.
    """
    if unit not in BUDGET_UNITS:
        raise ValueError(f"unit must be one of {BUDGET_UNITS}")
    value = float(amount)
    if not math.isfinite(value) or value < 0:
        raise ValueError("the budget must be a non-negative number")
    n_total, source = budget_population(analysis, population)
    prior = analysis.conditions.prior_pos
    if unit == "percent":
        if value > 100:
            raise ValueError("a budget in % flagged must lie between 0 and 100")
        kw = {"fraction": value / 100.0}
    else:
        if 0 < value < 1 < n_total:  # in the page's words, not the core's arguments
            raise ValueError(f"{value:g} cases looks like a share of the cases: write "
                             f"{100 * value:g}% for that share, or give a number of cases")
        kw = {"budget": value}
    if source.startswith("the test set of"):  # test sets of different sizes
        n_total, source, mix = _budget_per_dataset(analysis, prior, value, kw)
    else:
        mix = budget_operating_point(analysis.hull, n_total=n_total, prior_pos=prior, **kw)
    # a budget below one case (a small percentage) is a count, not a typo: given as a share;
    # one above the test set's size (a population larger than it, or cases per month below
    # one) as the count it is
    line = (budget_line(n_total=n_total, prior_pos=prior, budget=mix.budget)
            if mix.budget >= 1 or mix.budget > n_total else
            budget_line(n_total=n_total, prior_pos=prior, fraction=mix.budget / n_total))
    return BudgetView(mix=mix, line=line, n_total=n_total, n_source=source, budget=mix.budget,
                      percent=100.0 * mix.budget / n_total)


def repair_view(analysis: Analysis, model: str) -> ConcavityRepair:
    """Flach and Wu's repair of the concavities of a shown model's pooled curve
    (Fawcett 2004 §7.4.2, :func:`~roc_dash.core.combining.concavity_repair.repair_concavities`)."""
    return repair_concavities(analysis.model(model).curve)


@dataclass(frozen=True)
class LogicalView:
    """The AND and OR of two operating points (Fawcett 2004 §7.4.3).

    Attributes
    ----------
    first, second : OperatingSummary
        The two points combined (in the order given).
    expected : LogicalCombination
        Bounding rectangles and positions under conditional independence.
    actual : ActualCombination or None
        The combinations counted on the rows both models scored (None when they cannot be
        paired: ``why_not`` says why).
    paired_by : str
        "id" or "row order" (how the rows were paired), "" when not paired.
    why_not : str
    """

    first: OperatingSummary
    second: OperatingSummary
    expected: LogicalCombination
    actual: ActualCombination | None
    paired_by: str
    why_not: str


def logical_pair(optimum: OperatingSummary | None,
                 pins: list[OperatingSummary]) -> tuple[OperatingSummary, OperatingSummary] | None:
    """Which two points to combine: pins A and B when two are pinned, else the optimum and
    the one pin; None without a pin."""
    if len(pins) >= 2:
        return pins[0], pins[1]
    if len(pins) == 1 and optimum is not None:
        return optimum, pins[0]
    return None


def _model_rows(table: pd.DataFrame, name: str) -> pd.DataFrame:
    return table[table["model"] == name]


def logical_view(first: OperatingSummary, second: OperatingSummary,
                 table: pd.DataFrame | None = None) -> LogicalView:
    """Where the AND and OR of two operating points lie: expected (from the two points) and,
    when ``table`` holds both models' rows on the same cases, actual.

    Fawcett (2004) §7.4.3: :func:`~roc_dash.core.combining.logical_combining.logical_combination` for
    the rectangles and independence positions,
    :func:`~roc_dash.core.combining.logical_combining.combine_thresholded` on the rows paired by
    :func:`~roc_dash.core.assembly.analysis.paired_rows` (by ``id``, else by row order). A point at threshold +inf (nothing flagged) is combined as such.
    """
    expected = logical_combination(first.fpr, first.tpr, second.fpr, second.tpr)
    actual, paired_by, why = None, "", ""
    if table is None:
        why = "no rows"
    else:
        a, b = _model_rows(table, first.model), _model_rows(table, second.model)
        pair = paired_rows(a, b) if len(a) and len(b) else None
        if pair is None:
            why = (f"{first.model} and {second.model} did not score the same rows "
                   "(no common ids, or different labels or lengths)")
        else:
            y, sa, sb, w, paired_by = pair
            try:
                actual = combine_thresholded(y, sa, sb, first.threshold, second.threshold,
                                             weights=w)
            except ValueError as exc:
                actual, paired_by, why = None, "", str(exc)
    return LogicalView(first=first, second=second, expected=expected, actual=actual,
                       paired_by=paired_by, why_not=why)


@dataclass(frozen=True)
class SuperiorityView:
    """The relative superiority graph and LC index of two shown models (Fawcett 2004
    §7.5.3), with the belief it was integrated over and where the current costs lie.

    Attributes
    ----------
    lc : LcIndex
    low, mode, high : float
        The expert's range and most likely value of the cost ratio ``c(FN)/c(FP)``.
    current_ratio, current_u : float
        The ratio of the current costs and its position on the mapped axis.
    current_sign : int
        The graph at the current ratio: +1 when model A is cheaper there, −1 when B is.
    """

    lc: LcIndex
    low: float
    mode: float
    high: float
    current_ratio: float
    current_u: float
    current_sign: int


def default_expert_range(ratio: float, spread: float = 2.0) -> tuple[float, float, float]:
    """The expert's range around the current cost ratio when none is given:
    ``(ratio / spread, ratio, ratio · spread)`` (a factor of two either way by default)."""
    r = float(ratio)
    if not (math.isfinite(r) and r > 0):
        raise ValueError("the cost ratio must be a positive number")
    return r / spread, r, r * spread


def superiority_view(analysis: Analysis, model_a: str, model_b: str, *, low=None, mode=None,
                     high=None) -> SuperiorityView:
    """Relative superiority of ``model_a`` over ``model_b`` and their LC index.

    Fawcett (2004) §7.5.3 (Adams & Hand 1999) via
    :func:`~roc_dash.core.combining.superiority.lc_index` on the two models' pooled curves at the
    deployment prior, with a triangular belief over the cost ratio ``c(FN)/c(FP)``. Values
    not given default around the current ratio (:func:`default_expert_range`); a given
    most likely value outside a default range widens it.
    """
    c = analysis.conditions
    ratio = c.cost_fn / c.cost_fp
    d_low, d_mode, d_high = default_expert_range(ratio if mode is None else float(mode))
    lo = d_low if low is None else float(low)
    hi = d_high if high is None else float(high)
    mo = d_mode if mode is None else float(mode)
    if low is None:
        lo = min(lo, mo)
    if high is None:
        hi = max(hi, mo)
    for name, v in (("low", lo), ("most likely", mo), ("high", hi)):
        if not (math.isfinite(v) and v > 0):
            raise ValueError(f"the {name} cost ratio must be a positive number")
    if not (lo <= mo <= hi and lo < hi):
        raise ValueError("need low ≤ most likely ≤ high, and low < high")
    from .extensions import superiority_analysis  # the report's computation, shared

    lc = superiority_analysis(analysis, model_a, model_b, low=lo, mode=mo, high=hi)
    u = float(ratio_to_unit(ratio))
    return SuperiorityView(lc=lc, low=lo, mode=mo, high=hi, current_ratio=float(ratio),
                           current_u=u, current_sign=int(np.asarray(
                               lc.superiority.sign_at(u)).item()))
