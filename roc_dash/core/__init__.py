"""Pure ROC analysis: numpy in, small frozen dataclasses of numpy arrays out.

Modules, each named after what it computes (and the paper section it implements):

* :mod:`.labels` -- two-class label encodings (0/1, -1/+1, yes/no, ...) and ``pos_label``
* :mod:`.curves` -- ROC points with thresholds, AUC, tie bounds, collinear reduction, DET
* :mod:`.statistics` -- Gini, partial AUC (McClish), DeLong / Hanley-McNeil intervals and tests,
  accuracy and expected cost at every threshold
* :mod:`.averaging` -- pooled, vertical and threshold averaging across folds, bands
* :mod:`.cross_validation` -- each fold's AUC and AP, their mean ± SD, and the confidence
  interval of the cross-validated AUC by the influence curve (LeDell et al. 2015)
* :mod:`.hull` -- ROC convex hull, iso-performance slope, optimal vertex, expected cost
* :mod:`.precision_recall` -- PR under a deployment prevalence, average precision, the area
  under the Davis-Goadrich interpolated curve, iso-F1
* :mod:`.pr_interpolation` -- Davis-Goadrich interpolation, the achievable PR curve
* :mod:`.precision_recall_gain` -- precision-recall-gain curves and their area (Flach & Kull)
* :mod:`.cost_curves` -- Drummond & Holte cost lines and lower envelope
* :mod:`.canonical_kinds` -- the canonical table of each input kind (binary, multi-class,
  soft labels, costs, leaves)
* :mod:`.operating` -- an operating point's consequences; pinned points compared side by side
* :mod:`.economics` -- costs, benefits and volume; expected cost, value and regret per case,
  share flagged and precision at the deployment prior
* :mod:`.threshold_costs` -- the cost at every threshold of one model, how flat its minimum is
* :mod:`.optimality` -- over which cost ratios and priors a hull vertex stays optimal
* :mod:`.model_comparison` -- k models on the same rows: every pair's DeLong (or, for the
  partial AUC, bootstrap) test with Holm and Benjamini-Hochberg adjusted p-values; the
  slopes and cost ratios under which each model is on the joint hull, or never optimal
* :mod:`.chosen_point` -- the decision summary: chosen point, runner-up, what separates them
* :mod:`.uncertainty` -- spread of a fixed threshold's consequences across folds or bootstrap
* :mod:`.optimum_wins` -- how often each model is the optimum across folds or bootstrap
* :mod:`.point_intervals` -- stratified bootstrap intervals at the optimum (the choice re-made
  in every replicate) and at pins, and the out-of-bag optimism of the choice
* :mod:`.budget_mix`, :mod:`.concavity_repair`, :mod:`.logical_combining` -- combining
  classifiers: a budget on the hull (7.4.1), Flach & Wu's repair (7.4.2), AND/OR (7.4.3)
* :mod:`.multiclass` -- class reference curves, Provost-Domingos AUC, Hand & Till's M (7.3)
* :mod:`.soft_labels` -- ROC/AUC with probabilistic labels (Qin), soft DeLong interval
* :mod:`.calibration` -- reliability diagram, Brier score, ECE/MCE, the hull's calibration
  map (PAV ≡ ROCCH, Fawcett & Niculescu-Mizil 2007)
* :mod:`.decision_curve` -- net benefit against the threshold probability (Vickers &
  Elkin 2006), treat all/none, the hull's best net benefit

:mod:`.assembly` holds only assembly: :mod:`.assembly.analysis` (all of the above for every
model of a canonical table), :mod:`.assembly.beyond_binary` (multi-class, soft labels,
costs, leaves, combining, superiority per model) and :mod:`.assembly.combining_views`
(the dashboard's combining views); its docstring says where each number is computed.

No Dash, Plotly or Flask import is allowed anywhere under this package (a test checks it).
"""

from .averaging import (
    ScoreScaleWarning,
    ThresholdAverage,
    VerticalAverage,
    fold_curves,
    pooled_curve,
    simultaneous_band,
    threshold_average,
    vertical_average,
)
from .chosen_point import DecisionSummary, decision_summary
from .cost_curves import LowerEnvelope, cost_lines, envelope_cost_at, lower_envelope
from .cross_validation import (
    CrossValidatedAuc,
    cross_validated_auc,
    cross_validated_auc_from_curves,
)
from .curve_geometry import DetCurve, RocBounds, det_curve, reduce_collinear, tie_bounds
from .curves import (
    OperatingPoint,
    RocCurve,
    accuracy_at_threshold,
    auc,
    best_accuracy,
    roc_auc,
    roc_curve,
)
from .economics import (
    Economics,
    expected_cost_per_case,
    expected_value_per_case,
    net_conditions,
    net_costs,
    net_slope,
    regret_per_case,
)
from .hull import (
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
from .labels import binary_labels
from .model_comparison import (
    OptimalRange,
    OptimalRanges,
    PairwiseComparison,
    benjamini_hochberg_adjust,
    compare_models,
    holm_adjust,
    optimal_ranges,
)
from .multiclass import (  # noqa: E402
    MulticlassAnalysis,
    hand_till_m,
    multiclass_auc,
    multiclass_roc,
    one_vs_rest_curves,
    pairwise_auc_matrix,
    scores_from_table,
)
from .optimality import Interval, OptimalityRange, optimality_range
from .optimum_wins import (
    OptimumFrequency,
    optimum_frequency,
    optimum_frequency_bootstrap,
    optimum_frequency_of,
)
from .point_intervals import (
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
from .pr_interpolation import achievable_pr_curve, interpolate_pr
from .precision_recall import (
    PrCurve,
    average_precision,
    average_precision_from_curve,
    iso_f1_curves,
    pr_auc_interpolated,
    precision_recall_curve,
)
from .precision_recall_gain import prg_curve
from .soft_labels import (  # noqa: E402
    soft_auc_interval,
    soft_auc_variance,
    soft_class_totals,
    soft_roc_auc,
    soft_roc_curve,
)
from .statistics import (
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
from .threshold_costs import (
    Flatness,
    ThresholdProfile,
    cost_at_thresholds,
    thin_profile,
    threshold_profile,
)
from .uncertainty import (
    DecisionUncertainty,
    Spread,
    decision_uncertainty,
    uncertainty_from_bootstrap,
    uncertainty_from_folds,
)

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
