"""Monitoring a shipped decision after deployment, with and without labels.

A decision (a threshold chosen under costs and a prior) is checked window by window against
its reference (:mod:`.reference`): with labels, what the threshold did and whether its cost
drifted (:mod:`.labelled`; the drift test is the CI gate's, :mod:`roc_dash.core.decisions.drift`);
without them, the window's prior estimated
from its scores (:mod:`.quantification`: EM, PACC, ACC); in both, the choice re-derived on
the reference's hull at the window's prior (:mod:`.rederive`) and the score distribution
compared with what the prior explains (:mod:`.shift`). :func:`monitor` runs it all
(:mod:`.monitor`). Pure numpy: no Dash, Plotly or anything above the core.
"""

from .estimates import Estimate, percentile_estimate
from .labelled import LabelledMetrics, confusion_of, labelled_metrics
from .monitor import (
    CRITERIA,
    FAIL,
    PASS,
    WARN,
    Finding,
    MonitorResult,
    MonitorSettings,
    WindowResult,
    failing_tests,
    monitor,
    monitor_window,
    run_replicates,
)
from .quantification import (
    ESTIMATORS,
    PrevalenceEstimate,
    ReferenceReplicates,
    adjusted_count,
    em_prior,
    estimate_prevalence,
    mle_prior,
    reference_replicates,
)
from .rederive import Choice, Rederived, choice_at_prior, prior_range, rederive
from .reference import (
    MAX_BINS,
    Reference,
    ScoreGrid,
    curve_of_counts,
    reference_from_counts,
    reference_from_curve,
    reference_from_scores,
)
from .shift import COMPARISONS, ScoreShift, score_shift
from .window_pins import WindowPin, pin_window
from .windows import WindowCounts, window_from_counts, window_from_curve, window_from_rows

__all__ = [
    "CRITERIA", "COMPARISONS", "ESTIMATORS", "FAIL", "MAX_BINS", "PASS", "WARN",
    "Choice", "Estimate", "Finding", "LabelledMetrics", "MonitorResult",
    "MonitorSettings", "PrevalenceEstimate", "Rederived", "Reference", "ReferenceReplicates",
    "ScoreGrid", "ScoreShift", "WindowCounts", "WindowResult",
    "adjusted_count", "choice_at_prior", "confusion_of", "curve_of_counts", "em_prior",
    "estimate_prevalence", "failing_tests", "labelled_metrics", "mle_prior", "monitor",
    "monitor_window", "percentile_estimate", "prior_range", "rederive", "run_replicates",
    "reference_from_counts", "reference_from_curve", "reference_from_scores",
    "reference_replicates", "score_shift", "window_from_counts", "window_from_curve", "window_from_rows",
    "WindowPin", "pin_window",
]
