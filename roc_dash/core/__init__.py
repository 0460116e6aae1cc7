"""Pure ROC analysis: numpy in, small frozen dataclasses of numpy arrays out.

Subpackages by idea, each on a floor that imports only the floors below it (the
``core-floors`` contract of ``.importlinter``), from the top:

* :mod:`.assembly` -- assembly only: a canonical table turned into everything the report and
  the page show (:mod:`.assembly.analysis`, :mod:`.assembly.extensions` for the input kinds
  and combining per model, :mod:`.assembly.combining_views` for the page's combining
  views); its docstring says where each number is computed.
* :mod:`.subgroups` -- one model group by group: per-group ROC, optima and AUC intervals
  (:mod:`.subgroups.slices`), thresholds under a fairness constraint and their cost
  (:mod:`.subgroups.group_thresholds`).
* :mod:`.decisions` -- costs and decisions: an operating point's consequences
  (``operating``), costs, benefits and volume (``economics``), the cost at every threshold
  (``threshold_costs``), over which conditions a vertex stays optimal (``optimality``), the
  decision summary (``decision_summary``), a threshold's spread across folds or bootstrap
  (``uncertainty``), how often each model is the optimum (``optimum_frequency``), bootstrap
  intervals at the optimum and pins (``point_intervals``, with Clopper-Pearson in
  ``proportion_intervals``), net benefit (``decision_curve``, Vickers & Elkin 2006) and the
  fingerprint of a decision's data (``data_fingerprint``).
* :mod:`.analysis_types` -- the analysis's conditions and result types
  (:class:`~.analysis_types.Conditions`, :class:`~.analysis_types.Analysis`, ...), built by
  the assembly and read by the decisions.
* :mod:`.kinds` -- input kinds: the canonical table of each kind (``canonical_kinds``),
  multi-class (``multiclass``: Provost-Domingos, Hand & Till), soft labels (``soft_labels``:
  Qin), example-specific costs (``instance_costs``), tree leaves (``leaves``: Flach et al.).
* :mod:`.combining` -- combining classifiers (Fawcett 2004, section 7.4): two hull
  classifiers mixed to act on a given number of cases (``capacity_mix``, 7.4.1), Flach &
  Wu's concavity repair (``concavity_repair``, 7.4.2), AND/OR (``logical_combining``,
  7.4.3), Adams & Hand's relative superiority (``superiority``).
* :mod:`.inference` -- statistics and intervals: Gini, partial AUC, DeLong and
  Hanley-McNeil (``statistics``, ``partial_auc``), the cross-validated AUC
  (``cross_validation``, LeDell et al. 2015), k models' tests with adjusted p-values and
  optimal cost ranges (``model_comparison``), non-inferiority (``noninferiority``),
  reliability, Brier and the hull's calibration map (``calibration``).
* :mod:`.roc` -- ROC space: curves with thresholds, AUC, ties and DET (``curves``,
  ``curve_geometry``), the convex hull and the optimum (``hull``, ``iso_performance``),
  fold averaging (``averaging``, ``per_fold_curves``, ``score_scales``,
  ``fold_thresholds``), counts at a threshold (``confusion``), and the curves read from the
  ROC: precision-recall (``precision_recall``, ``pr_interpolation``,
  ``precision_recall_gain``) and cost curves (``cost_curves``).
* the ground floor: two-class label encodings (:mod:`.labels`), a table's rows by model or
  dataset (:mod:`.table_groups`), input checks (``_validation``) and exact sums (``_sums``).

The names below are core's public API, importable from ``roc_dash.core``.

No Dash, Plotly or Flask import is allowed anywhere under this package (a test checks it).
"""

from .decisions.decision_summary import DecisionSummary, decision_summary
from .decisions.economics import (
    Economics,
    expected_cost_per_case,
    expected_value_per_case,
    net_conditions,
    net_costs,
    net_slope,
    regret_per_case,
)
from .decisions.optimality import Interval, OptimalityRange, optimality_range
from .decisions.optimum_frequency import (
    OptimumFrequency,
    optimum_frequency,
    optimum_frequency_bootstrap,
    optimum_frequency_of,
)
from .decisions.point_intervals import (
    ChoiceOptimism,
    PointInterval,
    PointIntervals,
    PointUncertainty,
    likelihood_ratios,
    npv_at_prior,
    optimum_intervals,
    pin_intervals,
    point_intervals,
)
from .decisions.threshold_costs import (
    Flatness,
    ThresholdProfile,
    cost_at_thresholds,
    thin_profile,
    threshold_profile,
)
from .decisions.uncertainty import (
    DecisionUncertainty,
    Spread,
    decision_uncertainty,
    uncertainty_from_bootstrap,
    uncertainty_from_folds,
)
from .inference.cross_validation import (
    CrossValidatedAuc,
    cross_validated_auc,
    cross_validated_auc_from_curves,
)
from .inference.model_comparison import (
    OptimalRange,
    OptimalRanges,
    PairwiseComparison,
    benjamini_hochberg_adjust,
    compare_models,
    holm_adjust,
    optimal_ranges,
)
from .inference.statistics import (
    AucInterval,
    PairedAucTest,
    PartialAuc,
    accuracy_at_thresholds,
    auc_confidence_interval,
    auc_test_vs_chance,
    delong_paired_test,
    gini,
    partial_auc,
)
from .kinds.multiclass import (  # noqa: E402
    MulticlassAnalysis,
    hand_till_m,
    multiclass_auc,
    multiclass_roc,
    one_vs_rest_curves,
    pairwise_auc_matrix,
    scores_from_table,
)
from .kinds.soft_labels import (  # noqa: E402
    soft_auc_interval,
    soft_auc_variance,
    soft_class_totals,
    soft_roc_auc,
    soft_roc_curve,
)
from .labels import binary_labels
from .roc.averaging import (
    ScoreScaleWarning,
    ThresholdAverage,
    VerticalAverage,
    fold_curves,
    pooled_curve,
    simultaneous_band,
    threshold_average,
    vertical_average,
)
from .roc.cost_curves import LowerEnvelope, cost_lines, envelope_cost_at, lower_envelope
from .roc.curve_geometry import DetCurve, RocBounds, det_curve, reduce_collinear, tie_bounds
from .roc.curves import (
    OperatingPoint,
    RocCurve,
    accuracy_at_threshold,
    auc,
    best_accuracy,
    roc_auc,
    roc_curve,
)
from .roc.hull import (
    HullOptimum,
    RocHull,
    convex_hull,
    expected_cost,
    hull_of_curves,
    hull_of_points,
    iso_gaps,
    iso_performance_slope,
    normalized_expected_cost,
    optimal_point,
    optimal_vertex,
    pc_pos,
)
from .roc.pr_interpolation import achievable_pr_curve, interpolate_pr
from .roc.precision_recall import (
    PrCurve,
    average_precision,
    average_precision_from_curve,
    iso_f1_curves,
    pr_auc_interpolated,
    precision_recall_curve,
)
from .roc.precision_recall_gain import prg_curve

__all__ = [
    "DecisionSummary", "DecisionUncertainty", "Economics", "Flatness", "Interval",
    "OptimalityRange", "OptimumFrequency", "Spread", "ThresholdProfile", "decision_summary",
    "decision_uncertainty", "expected_cost_per_case", "expected_value_per_case",
    "net_conditions", "net_costs", "net_slope", "optimality_range", "optimum_frequency",
    "optimum_frequency_bootstrap", "optimum_frequency_of", "regret_per_case", "thin_profile",
    "threshold_profile", "uncertainty_from_bootstrap", "uncertainty_from_folds",
    "MulticlassAnalysis", "hand_till_m", "multiclass_auc", "multiclass_roc",
    "one_vs_rest_curves", "pairwise_auc_matrix", "scores_from_table",
    "soft_auc_interval", "soft_auc_variance", "soft_class_totals", "soft_roc_auc",
    "soft_roc_curve",
    "ChoiceOptimism", "PointInterval", "PointIntervals", "PointUncertainty",
    "likelihood_ratios", "npv_at_prior", "optimum_intervals", "pin_intervals",
    "point_intervals",
    "CrossValidatedAuc", "cross_validated_auc", "cross_validated_auc_from_curves",
    "OptimalRange", "OptimalRanges", "PairwiseComparison", "benjamini_hochberg_adjust",
    "compare_models", "holm_adjust", "optimal_ranges",
    "AucInterval",
    "DetCurve",
    "HullOptimum",
    "LowerEnvelope",
    "OperatingPoint",
    "PairedAucTest",
    "PartialAuc",
    "PrCurve",
    "RocBounds",
    "RocCurve",
    "RocHull",
    "ScoreScaleWarning",
    "ThresholdAverage",
    "VerticalAverage",
    "accuracy_at_threshold",
    "accuracy_at_thresholds",
    "achievable_pr_curve",
    "auc",
    "auc_confidence_interval",
    "auc_test_vs_chance",
    "average_precision",
    "average_precision_from_curve",
    "best_accuracy",
    "binary_labels",
    "convex_hull",
    "cost_at_thresholds",
    "cost_lines",
    "delong_paired_test",
    "det_curve",
    "envelope_cost_at",
    "expected_cost",
    "fold_curves",
    "gini",
    "hull_of_curves",
    "hull_of_points",
    "interpolate_pr",
    "iso_f1_curves",
    "iso_gaps",
    "iso_performance_slope",
    "lower_envelope",
    "normalized_expected_cost",
    "optimal_point",
    "optimal_vertex",
    "partial_auc",
    "pc_pos",
    "pooled_curve",
    "pr_auc_interpolated",
    "precision_recall_curve",
    "prg_curve",
    "reduce_collinear",
    "roc_auc",
    "roc_curve",
    "simultaneous_band",
    "threshold_average",
    "tie_bounds",
    "vertical_average",
]
