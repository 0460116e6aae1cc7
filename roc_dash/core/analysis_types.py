"""The types of an analysis: its conditions and its results, shared by the floors of core.

:func:`~roc_dash.core.assembly.analysis.analyse` builds them from a canonical table; the
modules of costs and decisions (:mod:`roc_dash.core.decisions`) read them, as do the report,
the page and the command line. They sit on a floor of their own, below both, so that no
module has to reach up into the assembly for a type.

* :class:`Conditions` -- the operating conditions (costs, benefits, deployment prior, FPR
  limit) and the analysis's settings;
* :class:`Operating` -- the operating point chosen on a hull under those conditions;
* :class:`ModelAnalysis` -- one model's curve, statistics, hull, optimum and fold averages;
* :class:`Comparison` -- DeLong's paired test of two models scored on the same rows;
* :class:`Analysis` -- every model's analysis, the joint hull and the overall optimum.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._forward import forwarded
from .inference.cross_validation import CrossValidatedAuc
from .inference.model_comparison import OptimalRanges, PairwiseComparison
from .inference.statistics import AucInterval, PairedAucTest, PartialAuc
from .roc.averaging import ThresholdAverage, VerticalAverage
from .roc.curves import RocCurve
from .roc.fold_thresholds import FoldThresholds
from .roc.hull import HullOptimum, RocHull
from .roc.iso_performance import iso_performance_slope, pc_pos

__all__ = ["Conditions", "Operating", "ModelAnalysis", "Comparison", "Analysis"]


@dataclass(frozen=True)
class Conditions:
    """Operating conditions and analysis settings.

    ``prior_pos=None`` means "the data's prevalence" and is resolved by
    :func:`~roc_dash.core.assembly.analysis.analyse`.

    With benefits of right decisions, ``cost_fp`` and ``cost_fn`` are the *net* costs
    ``c(FP)+b(TN)`` and ``c(FN)+b(TP)`` (Fawcett 2004, section 7.1, footnote): they alone decide
    the slope and the optimum. ``benefit_tp`` and ``benefit_tn`` are kept only so that an
    operating point's expected cost is the cost per case itself, errors minus benefits
    (:meth:`benefit_per_case` subtracted), the same number as the decision summary's.
    """

    cost_fp: float = 1.0
    cost_fn: float = 1.0
    prior_pos: float | None = None
    fpr_max: float = 0.2
    level: float = 0.95
    n_samples: int = 101
    band: str = "pointwise"  # or "simultaneous" (vertical averaging)
    benefit_tp: float = 0.0
    benefit_tn: float = 0.0

    def benefit_per_case(self) -> float:
        """``p·b(TP) + (1−p)·b(TN)``: what the net costs add to every operating point's cost
        (0 without benefits)."""
        if not (self.benefit_tp or self.benefit_tn):
            return 0.0
        p = self._prior()
        return p * self.benefit_tp + (1 - p) * self.benefit_tn

    @property
    def slope(self) -> float:
        """Iso-performance slope ``m = c(FP)·p(−) / (c(FN)·p(+))``."""
        return iso_performance_slope(self.cost_fp, self.cost_fn, self._prior())

    @property
    def pc_pos(self) -> float:
        """Probability-cost ``PC(+) = 1 / (1 + m)``."""
        return pc_pos(self.cost_fp, self.cost_fn, self._prior())

    def _prior(self) -> float:
        if self.prior_pos is None:
            raise ValueError("the prior is unresolved; call analyse() or give prior_pos")
        return self.prior_pos


@dataclass(frozen=True)
class Operating:
    """An operating point chosen on a hull under given conditions, with its costs."""

    optimum: HullOptimum
    expected_cost: float
    normalized_expected_cost: float

    fpr = forwarded("optimum", "fpr")
    tpr = forwarded("optimum", "tpr")
    threshold = forwarded("optimum", "threshold")
    model = forwarded("optimum", "model")


@dataclass(frozen=True, eq=False)
class ModelAnalysis:
    """One model's pooled curve, statistics, hull, optimum and fold averages."""

    name: str
    n_rows: int
    n_pos: float
    n_neg: float
    n_folds: int
    curve: RocCurve
    auc: float
    auc_ci: AucInterval | None
    gini: float
    partial_auc: PartialAuc
    average_precision: float
    pr_auc_interpolated: float
    hull: RocHull
    optimal: Operating
    folds: dict[str, RocCurve]
    vertical: VerticalAverage
    threshold: ThresholdAverage
    notes: tuple[str, ...] = field(default=())
    dataset: str | None = None
    """The dataset (test set) the model was evaluated on, when the table says."""
    cross_validation: CrossValidatedAuc | None = None
    """Per-fold AUC and AP, their mean ± SD and the cvAUC interval (LeDell et al. 2015), for
    two or more folds holding both classes; None otherwise, and for soft labels with
    fractional values (each row is split in two, so rows are not instances)."""
    vertical_thresholds: FoldThresholds | None = None
    """The folds' score thresholds at each FP rate of ``vertical`` (their mean and range
    are the hover of a vertically averaged point: it has no single threshold)."""


@dataclass(frozen=True)
class Comparison:
    """DeLong's paired test between two models scored on the same rows."""

    a: str
    b: str
    paired_by: str  # "id" or "row order"
    n_rows: int
    test: PairedAucTest


@dataclass(frozen=True, eq=False)
class Analysis:
    conditions: Conditions
    models: list[ModelAnalysis]
    hull: RocHull
    optimal: Operating
    comparisons: list[Comparison]
    notes: tuple[str, ...] = field(default=())
    data_prevalence: float | None = None
    dataset_prevalence: dict[str, float] = field(default_factory=dict)
    """Prevalence of each dataset (test set) of the shown models, when the table says."""
    model_comparison: PairwiseComparison | None = None
    """Every pair of models' DeLong test (from :attr:`comparisons`) as matrices, with Holm and
    Benjamini-Hochberg adjusted p-values; None with fewer than two models or no pair scored
    on the same rows. Untested pairs are NaN."""
    optimal_ranges: OptimalRanges | None = None
    """Each model's slope and cost-ratio range on the joint hull (at the conditions' prior),
    or never optimal; None with fewer than two models."""

    def model(self, name: str) -> ModelAnalysis:
        return next(m for m in self.models if m.name == name)

    @property
    def datasets(self) -> list[str]:
        """The datasets of the shown models, in order (empty when the table has none)."""
        return list(self.dataset_prevalence)

    @property
    def spans_datasets(self) -> bool:
        """True when the shown models come from more than one test set: the joint hull and
        the overall optimum then compare models evaluated on different data."""
        return len(self.dataset_prevalence) > 1
