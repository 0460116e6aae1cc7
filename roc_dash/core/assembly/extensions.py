"""What the report and the dashboard show beyond one binary scorer, per model.

Assembly only (like :mod:`.analysis`): every number comes from the module that computes it.

* :func:`analyse_multiclass` -- Fawcett 2004 s7.3 (:mod:`.multiclass`): class reference
  curves, AUC per class, Provost-Domingos weighted AUC, macro AUC, Hand & Till's M and the
  pairwise matrix, per model of a multi-class table;
* :func:`analyse_soft` -- Qin (2005) eq. 8-12 (:mod:`.soft_labels`): soft totals, AUC
  and the interval that is defined for the labels (DeLong for hard labels, the generalised
  "soft_delong" otherwise);
* :func:`analyse_costs` -- Fawcett 2004 s7.2, Algorithm 6 (:mod:`.instance_costs`): the
  curve on cost fractions and the class cost totals;
* :func:`analyse_leaves` -- Flach et al. s4 (:mod:`.leaves`): leaf table, hull labelings
  ``S_0 .. S_n`` (and all ``2**n`` on request);
* :func:`budget_analysis` -- Fawcett 2004 s7.4.1 (:mod:`.capacity_mix`): the constraint line,
  the best point on the joint hull and on each model's hull, and a mix of two named models;
* :func:`concavity_repairs` -- s7.4.2 (Flach & Wu, :mod:`.concavity_repair`): each model's
  concavities and repairs;
* :func:`logical_analysis` -- s7.4.3 (:mod:`.logical_combining`): AND/OR of two thresholded
  models, expected and actual;
* :func:`superiority_analysis` -- s7.5.3 (Adams & Hand): relative superiority and LC index.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..analysis_types import Analysis
from ..combining.capacity_mix import (
    BudgetLine,
    BudgetMix,
    budget_line,
    budget_operating_point,
    mix_for_budget,
)
from ..combining.concavity_repair import ConcavityRepair, repair_concavities
from ..combining.logical_combining import (
    ActualCombination,
    LogicalCombination,
    combine_thresholded,
    decision_point,
    logical_combination,
)
from ..combining.superiority import LcIndex, lc_index, triangular_distribution
from ..inference.statistics import AucInterval
from ..kinds import canonical_kinds as kinds
from ..kinds.instance_costs import cost_roc_curve
from ..kinds.leaves import AllLabelings, LeafLabelings, all_labelings, optimal_labelings
from ..kinds.multiclass import MulticlassAnalysis, multiclass_roc
from ..kinds.soft_labels import soft_auc_interval, soft_class_totals, soft_roc_auc
from ..roc.curves import RocCurve, auc
from ..roc.hull import RocHull, convex_hull
from ..table_groups import groups_of
from .analysis import paired_rows

__all__ = [
    "MulticlassModel", "analyse_multiclass", "SoftModel", "analyse_soft", "CostModel",
    "analyse_costs", "LeavesResult", "analyse_leaves", "BudgetResult", "budget_analysis",
    "concavity_repairs", "LogicalResult", "logical_analysis", "superiority_analysis",
    "Extensions", "analyse_extensions",
]


def _models(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    return groups_of(table, "model")


def _weights(frame: pd.DataFrame) -> np.ndarray | None:
    w = frame["weight"].to_numpy(dtype=np.float64)
    return None if bool((w == 1.0).all()) else w


# ----------------------------------------------------------------------------- multi-class


@dataclass(frozen=True, eq=False)
class MulticlassModel:
    """One model of a multi-class table: :class:`~.multiclass.MulticlassAnalysis`."""

    name: str
    n_rows: int
    result: MulticlassAnalysis


def analyse_multiclass(table: pd.DataFrame, classes=None) -> list[MulticlassModel]:
    """Fawcett 2004 s7.3 for every model of a multi-class canonical table (columns
    ``class`` and ``score_<c>``, see :mod:`.canonical_kinds`):
    :func:`~.multiclass.multiclass_roc`."""
    classes = list(classes) if classes is not None else kinds.classes_of(table)
    out = []
    for name, frame in _models(table).items():
        scores = frame[[kinds.class_score_column(c) for c in classes]].to_numpy(dtype=np.float64)
        labels = frame[kinds.CLASS_COLUMN].astype(str).to_numpy(dtype=object)
        result = multiclass_roc(labels, scores, classes=np.array(classes, dtype=object),
                                weights=_weights(frame))
        out.append(MulticlassModel(name=name, n_rows=len(frame), result=result))
    return out


# ----------------------------------------------------------------------------- soft labels


@dataclass(frozen=True)
class SoftModel:
    """Qin's soft-label totals, AUC and interval of one model."""

    name: str
    n_instances: int
    n_pos: float
    n_neg: float
    auc: float
    interval: AucInterval | None
    hard_labels: bool
    reason: str = ""
    """Why there is no interval (empty when there is one)."""


def analyse_soft(table: pd.DataFrame, *, level: float = 0.95) -> list[SoftModel]:
    """Qin (2005) eq. 8-12 per model of a soft-label table
    (:func:`.canonical_kinds.split_soft_rows` rows): ``n+ = Σ w p``, ``n− = Σ w (1 − p)``, the
    soft AUC and :func:`~.soft_labels.soft_auc_interval` over the instances (DeLong's for hard
    labels)."""
    out = []
    for name, frame in _models(table).items():
        p, s, w = kinds.soft_instances(frame)
        n_pos, n_neg = soft_class_totals(p, weights=w)
        try:
            interval, reason = soft_auc_interval(p, s, weights=w, level=level), ""
        except ValueError as exc:
            interval, reason = None, str(exc)
        out.append(SoftModel(name=name, n_instances=len(p), n_pos=n_pos, n_neg=n_neg,
                             auc=soft_roc_auc(p, s, weights=w), interval=interval,
                             hard_labels=bool(np.isin(p, (0.0, 1.0)).all()), reason=reason))
    return out


# ----------------------------------------------------------------------------- costs


@dataclass(frozen=True, eq=False)
class CostModel:
    """Fawcett 2004 s7.2: one model's ROC curve on cost fractions."""

    name: str
    total_negative_cost: float
    total_positive_benefit: float
    curve: RocCurve
    auc: float


def analyse_costs(table: pd.DataFrame) -> list[CostModel]:
    """Algorithm 6 per model of a cost table (``weight`` = example-specific cost):
    :func:`~.instance_costs.cost_roc_curve`, whose axes are the fraction of negative cost
    and the fraction of positive benefit."""
    out = []
    for name, frame in _models(table).items():
        y = frame["label"].to_numpy(dtype=bool)
        curve = cost_roc_curve(y, frame["score"].to_numpy(np.float64),
                               frame["weight"].to_numpy(np.float64))
        out.append(CostModel(name=name, total_negative_cost=float(curve.n_neg),
                             total_positive_benefit=float(curve.n_pos), curve=curve,
                             auc=auc(curve)))
    return out


# ----------------------------------------------------------------------------- leaves


@dataclass(frozen=True, eq=False)
class LeavesResult:
    """Flach et al. s4 for one tree: its leaves, the hull labelings and (on request) all."""

    name: str
    leaves: pd.DataFrame
    labelings: LeafLabelings
    hull: RocHull
    all: AllLabelings | None


def analyse_leaves(table: pd.DataFrame, *, with_all: bool = False) -> list[LeavesResult]:
    """Per tree of a leaves table (:func:`.canonical_kinds.leaf_rows`): the leaf table,
    :func:`~.leaves.optimal_labelings` ``S_0 .. S_n``, their hull and, with ``with_all``,
    :func:`~.leaves.all_labelings` (at most 16 leaves, else a ``ValueError``)."""
    out = []
    for name, frame in _models(table).items():
        leaves = kinds.leaf_table(frame)
        labelings = optimal_labelings(leaves)
        out.append(LeavesResult(name=name, leaves=leaves, labelings=labelings,
                                hull=convex_hull(labelings, model=name),
                                all=all_labelings(leaves) if with_all else None))
    return out


# ----------------------------------------------------------------------------- combining


@dataclass(frozen=True, eq=False)
class BudgetResult:
    """Fawcett 2004 s7.4.1 on an analysis: "act on K of n cases at prior p(+)"."""

    n_total: float
    prior_pos: float
    budget: float
    line: BudgetLine
    best: BudgetMix
    """The best point on the joint hull of all models."""
    per_model: dict[str, BudgetMix]
    """The best point on each model's own hull."""
    pair: BudgetMix | None
    """The mix of two named models: A's best vertex within the budget, B's cheapest vertex
    that reaches it (None unless asked)."""


def _cases(hull: RocHull, n_pos: float, n_neg: float) -> np.ndarray:
    return hull.fpr * n_neg + hull.tpr * n_pos


def _pair_mix(analysis: Analysis, a: str, b: str, n_total: float, prior: float,
              k_cases: float) -> BudgetMix:
    n_pos = n_total * prior
    n_neg = n_total - n_pos
    ha, hb = analysis.model(a).hull, analysis.model(b).hull
    ga, gb = _cases(ha, n_pos, n_neg), _cases(hb, n_pos, n_neg)
    i = int(np.flatnonzero(ga <= k_cases)[-1]) if (ga <= k_cases).any() else 0
    later = np.flatnonzero(gb >= k_cases)
    j = int(later[0]) if len(later) else len(hb) - 1
    return mix_for_budget((ha.fpr[i], ha.tpr[i]), (hb.fpr[j], hb.tpr[j]), n_total=n_total,
                          prior_pos=prior, budget=k_cases, threshold_a=ha.thresholds[i],
                          threshold_b=hb.thresholds[j], model_a=a, model_b=b)


def budget_analysis(analysis: Analysis, *, budget=None, fraction=None, n_total=None,
                    prior_pos=None, pair: tuple[str, str] | None = None) -> BudgetResult:
    """The constraint ``FPR·N + TPR·P = K`` (Fawcett 2004 s7.4.1) on an analysis.

    ``n_total`` defaults to the (weighted) number of rows of the first model, ``prior_pos``
    to the analysis' prior; ``budget`` is K in cases, ``fraction`` K as a share of n.
    ``pair=(A, B)`` also mixes model A's best hull vertex within the budget with model B's
    cheapest hull vertex that reaches it (:func:`~.capacity_mix.mix_for_budget`; the CoIL
    example of the paper).
    """
    first = analysis.models[0]
    n = float(n_total) if n_total is not None else float(first.n_pos + first.n_neg)
    prior = float(prior_pos) if prior_pos is not None else float(analysis.conditions.prior_pos)
    kw = {"n_total": n, "prior_pos": prior, "budget": budget, "fraction": fraction}
    best = budget_operating_point(analysis.hull, **kw)
    per_model = {m.name: budget_operating_point(m.hull, **kw) for m in analysis.models}
    mix = _pair_mix(analysis, pair[0], pair[1], n, prior, best.budget) if pair else None
    return BudgetResult(n_total=n, prior_pos=prior, budget=best.budget,
                        line=budget_line(**kw), best=best, per_model=per_model, pair=mix)


def concavity_repairs(analysis: Analysis) -> dict[str, ConcavityRepair]:
    """Fawcett 2004 s7.4.2 (Flach & Wu): :func:`~.concavity_repair.repair_concavities` of every
    model whose curve has concavities."""
    out = {}
    for m in analysis.models:
        repair = repair_concavities(m.curve)
        if len(repair.start):
            out[m.name] = repair
    return out


@dataclass(frozen=True)
class LogicalResult:
    """Fawcett 2004 s7.4.3 for two thresholded models."""

    model_a: str
    model_b: str
    threshold_a: float
    threshold_b: float
    expected: LogicalCombination
    actual: ActualCombination | None
    paired_by: str | None


def _point(frame: pd.DataFrame, threshold: float) -> tuple[float, float]:
    return decision_point(frame["label"].to_numpy(dtype=bool),
                          frame["score"].to_numpy(np.float64) >= threshold,
                          weights=_weights(frame))


def logical_analysis(table: pd.DataFrame, a: str, threshold_a: float, b: str,
                     threshold_b: float, *, bounds: str = "tight") -> LogicalResult:
    """AND/OR of "A positive iff score ≥ threshold_a" and likewise B: bounding rectangles and
    positions under independence (:func:`~.logical_combining.logical_combination`) and, when
    both models scored the same rows (by id or row order), the actual positions
    (:func:`~.logical_combining.combine_thresholded`). Raises ``ValueError`` for an unknown
    model."""
    groups = _models(table)
    for name in (a, b):
        if name not in groups:
            raise ValueError(f"no model {name!r}; models: {', '.join(map(repr, groups))}")
    fa, ta = _point(groups[a], threshold_a)
    fb, tb = _point(groups[b], threshold_b)
    expected = logical_combination(fa, ta, fb, tb, bounds=bounds)
    pair = paired_rows(groups[a], groups[b])
    actual = how = None
    if pair is not None:
        y, sa, sb, w, how = pair
        actual = combine_thresholded(y, sa, sb, threshold_a, threshold_b, weights=w,
                                     bounds=bounds)
    return LogicalResult(model_a=a, model_b=b, threshold_a=float(threshold_a),
                         threshold_b=float(threshold_b), expected=expected, actual=actual,
                         paired_by=how)


def superiority_analysis(analysis: Analysis, a: str, b: str, *, low: float, mode: float,
                         high: float, scale: str = "ratio") -> LcIndex:
    """Fawcett 2004 s7.5.3 (Adams & Hand 1999): the relative superiority graph of models A
    and B at the analysis' prior and the LC index under the expert's triangular belief about
    the cost ratio c(FN)/c(FP) (``scale="ratio"``) or its mapped value (``"unit"``)."""
    distribution = triangular_distribution(low, mode, high, scale=scale)
    return lc_index(analysis.model(a).hull, analysis.model(b).hull, distribution,
                    prior_pos=analysis.conditions.prior_pos, names=(a, b))


@dataclass(frozen=True, eq=False)
class Extensions:
    """Everything beyond the binary analysis that the report shows (None: not applicable
    or not asked). Built by :func:`analyse_extensions`."""

    kind: object = None
    """The :class:`~.canonical_kinds.InputKind` of the table."""
    multiclass: list[MulticlassModel] | None = None
    soft: list[SoftModel] | None = None
    costs: list[CostModel] | None = None
    leaves: list[LeavesResult] | None = None
    budget: BudgetResult | None = None
    repairs: dict[str, ConcavityRepair] | None = None
    logical: LogicalResult | None = None
    superiority: LcIndex | None = None
    superiority_scale: str = "ratio"


def analyse_extensions(table: pd.DataFrame, analysis: Analysis, kind=None, *,
                       budget=None, fraction=None, n_total=None,
                       budget_pair: tuple[str, str] | None = None,
                       repairs: bool = False, all_leaf_labelings: bool = False,
                       logical: tuple[str, float, str, float] | None = None,
                       lc_pair: tuple[str, str] | None = None,
                       lc_belief: tuple[float, float, float] | None = None,
                       lc_scale: str = "ratio") -> Extensions:
    """The sections of :class:`Extensions` that apply to ``kind`` (an
    :class:`~.canonical_kinds.InputKind`; None: binary) and that were asked for.

    ``table`` is the full canonical table (for a multi-class table, any class reference
    view of it); ``analysis`` the binary analysis of it. ``lc_belief`` is (low, mode, high)
    of the cost ratio c(FN)/c(FP) (default: a tenth, one and ten times the analysis' cost
    ratio).
    """
    name = getattr(kind, "kind", "binary")
    out = {"kind": kind}
    if name == "multiclass":
        out["multiclass"] = analyse_multiclass(table, getattr(kind, "classes", None) or None)
    if name == "soft":
        out["soft"] = analyse_soft(table, level=analysis.conditions.level)
    if name == "costs":
        out["costs"] = analyse_costs(table)
    if name == "leaves":
        out["leaves"] = analyse_leaves(table, with_all=all_leaf_labelings)
    names = {x.name for x in analysis.models}
    for asked in (budget_pair or (), lc_pair or (), (logical or (None, 0, None, 0))[::2]):
        for m in asked:
            if m is not None and m not in names:
                raise ValueError(f"no model {m!r}; models: "
                                 f"{', '.join(repr(x.name) for x in analysis.models)}")
    if budget is not None or fraction is not None:
        out["budget"] = budget_analysis(analysis, budget=budget, fraction=fraction,
                                        n_total=n_total, pair=budget_pair)
    if repairs:
        out["repairs"] = concavity_repairs(analysis)
    if logical is not None:
        a, ta, b, tb = logical
        out["logical"] = logical_analysis(table, a, ta, b, tb)
    if lc_pair is not None:
        if lc_belief is None:
            r = analysis.conditions.cost_fn / analysis.conditions.cost_fp
            lc_belief, lc_scale = (r / 10.0, r, r * 10.0), "ratio"
        low, mode, high = lc_belief
        out["superiority"] = superiority_analysis(analysis, lc_pair[0], lc_pair[1], low=low,
                                                  mode=mode, high=high, scale=lc_scale)
        out["superiority_scale"] = lc_scale
    return Extensions(**out)
