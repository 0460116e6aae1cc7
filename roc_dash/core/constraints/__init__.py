"""Decisions under the constraints teams state: a capacity, a floor on a metric, a cost
matrix over several classes, and calibration with its uncertainty.

* :mod:`.capacity` -- "we can review K cases a day": the best point under the capacity
  (Fawcett's budget on the hull), queue rate, precision@K and recall@K, cumulative gains,
  lift, the CAP curve and its accuracy ratio, the KS statistic
* :mod:`.floors` -- "precision ≥ 0.9", "recall ≥ 0.95", "FPR ≤ 1%": the feasible region,
  the best hull point and the best single threshold under the costs inside it
* :mod:`.floor_confidence` -- how sure a floor is to hold on new data: the metric's interval
  at the chosen threshold, the share of bootstrap replicates in which it holds, and the
  share in which the choice made again holds on the rows left out

Every result is a frozen dataclass of numpy arrays; nothing here imports Dash or Plotly.
"""

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
from .floor_confidence import (
    FloorConfidence,
    FloorHold,
    FloorReplicates,
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

__all__ = [
    "AtK", "CapacityPoint", "GainsCurve", "KsStatistic", "at_k", "capacity_point",
    "gains_curve", "ks_statistic",
    "METRICS", "FeasibleRegion", "Floor", "FloorDecision", "feasible_region",
    "floor_decision", "metric_values", "parse_floor",
    "FloorConfidence", "FloorHold", "FloorReplicates", "floor_confidence", "procedure_shares",
    "replicate_choices", "resample_thresholds",
]
