"""Decisions under the constraints teams state: a capacity, a floor on a metric, a cost
matrix over several classes, and calibration with its uncertainty.

* :mod:`.capacity` -- "we can review K cases a day": the best point under the capacity
  (Fawcett's budget on the hull), queue rate, precision@K and recall@K, cumulative gains,
  lift, the CAP curve and its accuracy ratio, the KS statistic
* :mod:`.floors` -- "precision ≥ 0.9", "recall ≥ 0.95", "FPR ≤ 1%": the feasible region,
  the best hull point and the best single threshold under the costs inside it
* :mod:`.floor_confidence` -- how sure a floor is to hold on new data: the metric's interval
  at the chosen threshold, the share of bootstrap replicates in which it holds, and the
  share in which the choice made again holds on the data; the replicates themselves
  (:func:`resample_thresholds`), made once per model and shared with the PR bands
* :mod:`.cost_matrix` -- several classes: the Bayes decision under a cost matrix and a
  prior, the class weights of least expected cost on the data, one-vs-rest thresholds
* :mod:`.calibration_intervals` -- bands on the reliability diagram, calibration slope and
  intercept with intervals, Spiegelhalter's z test
* :mod:`.recalibration` -- logistic, Platt or isotonic recalibration to store in a decision
* :mod:`.pr_bands` -- fold and bootstrap bands on the PR curve at the deployment prevalence

Every result is a frozen dataclass of numpy arrays; nothing here imports Dash or Plotly.
"""

from .calibration_intervals import (
    CalibrationFit,
    CalibrationUncertainty,
    ReliabilityBands,
    SpiegelhalterTest,
    calibration_fit,
    calibration_uncertainty,
    reliability_bands,
    spiegelhalter_test,
)
from .capacity import (
    AtK,
    CapacityPoint,
    GainsCurve,
    KsStatistic,
    at_k,
    capacity_point,
    gains_curve,
    ks_statistic,
)
from .cost_matrix import (
    CostMatrixDecision,
    bayes_decisions,
    cost_matrix_decision,
    fit_class_weights,
    one_vs_rest_thresholds,
)
from .floor_confidence import (
    FloorConfidence,
    FloorHold,
    ThresholdReplicates,
    floor_confidence,
    procedure_shares,
    replicate_choices,
    resample_thresholds,
)
from .floors import (
    METRICS,
    FeasibleRegion,
    Floor,
    FloorDecision,
    feasible_region,
    floor_decision,
    metric_values,
    parse_floor,
)
from .pr_bands import PrBand, pr_bootstrap_band, pr_fold_band
from .recalibration import Recalibration, fit_recalibration

__all__ = [
    "AtK", "CapacityPoint", "GainsCurve", "KsStatistic", "at_k", "capacity_point",
    "gains_curve", "ks_statistic",
    "METRICS", "FeasibleRegion", "Floor", "FloorDecision", "feasible_region",
    "floor_decision", "metric_values", "parse_floor",
    "FloorConfidence", "FloorHold", "ThresholdReplicates", "floor_confidence", "procedure_shares",
    "replicate_choices", "resample_thresholds",
    "CostMatrixDecision", "bayes_decisions", "cost_matrix_decision", "fit_class_weights",
    "one_vs_rest_thresholds",
    "CalibrationFit", "CalibrationUncertainty", "ReliabilityBands", "SpiegelhalterTest",
    "calibration_fit", "calibration_uncertainty", "reliability_bands", "spiegelhalter_test",
    "Recalibration", "fit_recalibration", "PrBand", "pr_bootstrap_band", "pr_fold_band",
]
