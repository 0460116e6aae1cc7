"""The decision record: what a team decided (model, threshold and tie rule, costs, prior,
metrics with intervals, the data's fingerprint), as frozen dataclasses, its JSON form, and the
scikit-learn classifier that applies it. Built, written and read by :mod:`roc_dash.decision`,
which re-exports these names.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from ..core.constraints.recalibration import Recalibration
from ..core.decisions.data_fingerprint import FINGERPRINT_METHOD
from ..core.decisions.economics import (
    Economics,
)

#: The ``"schema"`` value of every decision record.
SCHEMA = "roc-dash decision"


#: The highest version this roc-dash reads, and the one it writes for a record with a
#: recalibration (an older roc-dash would ignore the recalibration, so it refuses it).
SCHEMA_VERSION = 2

#: The version of a record without a recalibration (what every roc-dash reads).
BASE_SCHEMA_VERSION = 1


#: How a score equal to the threshold is decided (written into every record).
TIE_RULE = "a score equal to the threshold is flagged positive (positive iff score >= threshold)"


#: The note of a record counted with weights.
WEIGHTED_COUNTS_NOTE = (
    "The rows carry weights: the confusion matrix and n_pos, n_neg are weighted counts (a "
    "weight counts as that many cases), so n_pos + n_neg need not equal n_rows. "
    "classifier() predicts row by row: on the decision's rows it reproduces the unweighted "
    "counts, which equal these only when every weight is 1.")


#: What ``response_method`` may be (scikit-learn's names).
RESPONSE_METHODS = ("predict_proba", "decision_function")


# ---------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class DecisionMetrics:
    """What the threshold does on the data the decision was taken on.

    ``tpr``, ``fpr``, ``accuracy`` and the counts are on the data (its class mix);
    ``precision`` (NaN when nothing is flagged) and ``flagged`` at the record's prior;
    ``expected_cost`` per case at the prior, errors minus benefits (negative for a net
    gain); ``normalized_expected_cost`` divided by its maximum (Drummond & Holte).
    """

    tpr: float
    fpr: float
    precision: float
    flagged: float
    accuracy: float
    expected_cost: float
    normalized_expected_cost: float
    auc: float
    tp: float
    fp: float
    fn: float
    tn: float


#: What the record's ``intervals`` are (written beside them).
FIXED_THRESHOLD_WHAT = (
    "the metrics of the shipped fixed threshold: positives and negatives resampled "
    "separately, the threshold held fixed (what deploying this threshold on data like these "
    "gives; the page's 'How sure?' column of the pin, and roc-dash report --pin)")

#: What the ``intervals`` of a record at its optimum are (written beside them).
CHOSEN_THRESHOLD_WHAT = (
    "the metrics of the shipped threshold, chosen as the optimum of these data: what "
    "deploying it on data like these gives, each the estimate corrected for the optimism of "
    "choosing the threshold on the same data (out of bag) +- the bootstrap spread, from the "
    "bootstrap that chooses the optimum again in every replicate (the page's 'How sure?' "
    "column 'Optimum')")

#: What the record's ``drift_reference`` is (written beside it).
DRIFT_WHAT = (
    "what `roc-dash check --decision` compares new data with: the expected cost per case "
    "of the threshold (corrected for its choice on these data when it was chosen as their "
    "optimum) and the standard error of that estimate; with the new data's binomial error, "
    "a one-sided test whose false alarms under no change are at most its level")

#: What the record's ``choice_intervals`` are (written beside them).
CHOICE_WHAT = (
    "the procedure 'pick the optimum on this data': positives and negatives resampled "
    "separately, the optimum chosen again in every replicate (the page's 'How sure?' "
    "column 'Optimum'); the out-of-bag cost is that of each replicate's choice on the rows "
    "it did not draw")

#: The metrics of ``choice_intervals``, in order.
CHOICE_METRICS = ("threshold", "tpr", "fpr", "precision", "npv", "lr_pos", "lr_neg",
                  "expected_cost")


@dataclass(frozen=True)
class DecisionIntervals:
    """Bootstrap intervals of the metrics at the shipped threshold. A pinned threshold's:
    positives and negatives resampled, the prior fixed (:data:`FIXED_THRESHOLD_WHAT`), the
    numbers the page's "How sure?" table and ``roc-dash report --pin`` show, from
    ``roc-dash decide`` too (rows resampled, :func:`~roc_dash.core.decisions.uncertainty.
    uncertainty_from_bootstrap`, only when that bootstrap cannot be made; ``method`` says). The optimum's: from the
    bootstrap that chooses the optimum again in every replicate, each metric corrected for
    the optimism of the choice (:data:`CHOSEN_THRESHOLD_WHAT`,
    :mod:`~roc_dash.core.decisions.choice_correction`). Each metric is ``(low, high)``; ``interval``
    is ``"percentile"``, ``"range"``, ``"corrected"`` or ``"boundary"``."""

    method: str
    level: float
    replicates: int
    seed: int
    interval: str
    tpr: tuple[float, float]
    fpr: tuple[float, float]
    precision: tuple[float, float]
    flagged: tuple[float, float]
    expected_cost: tuple[float, float]


@dataclass(frozen=True)
class DriftReference:
    """What ``roc-dash check --decision`` compares new data with
    (:class:`~roc_dash.core.decisions.drift.CostReference`, :data:`DRIFT_WHAT`).

    Attributes
    ----------
    method : str
        :data:`~roc_dash.core.decisions.drift.CHOICE_METHOD` (a threshold chosen as the optimum,
        corrected) or :data:`~roc_dash.core.decisions.drift.COUNTS_METHOD` (a pinned threshold).
    cost : float
        The reference expected cost per case: the record's plus ``optimism``.
    optimism : float
        What choosing the threshold on these data hides (0 for a pinned threshold).
    std_error : float
        Of ``cost``'s error.
    replicates, seed : int
        Of the bootstrap (0 for a pinned threshold).
    """

    method: str
    cost: float
    optimism: float
    std_error: float
    replicates: int
    seed: int


@dataclass(frozen=True)
class ChoiceIntervals:
    """Bootstrap intervals of the whole choice "pick the optimum on this data"
    (:func:`~roc_dash.core.decisions.point_intervals.point_intervals`, its ``optimum``): the
    numbers the page's "How sure?" table shows at the optimum, with the same replicates and
    seed (:data:`CHOICE_WHAT`). Only for a record whose threshold is the optimum.

    Attributes
    ----------
    method : str
        :attr:`~roc_dash.core.decisions.point_intervals.PointUncertainty.method`.
    level : float
    replicates, replicates_used, seed : int
    threshold, tpr, fpr, precision, npv, lr_pos, lr_neg, expected_cost : (float, float)
        ``(low, high)``; precision and NPV at the prior, expected cost per case.
        ``inf`` and NaN (undefined) limits are written as ``null``.
    kinds : tuple of str
        Per metric of :data:`CHOICE_METRICS`, its
        :attr:`~roc_dash.core.decisions.point_intervals.PointInterval.interval` (``"percentile"``,
        ``"range"``, ``"boundary"``, ``"none"``).
    in_bag_cost, out_of_bag_cost : float
        :class:`~roc_dash.core.decisions.point_intervals.ChoiceOptimism`'s means (NaN: undefined).
    """

    method: str
    level: float
    replicates: int
    replicates_used: int
    seed: int
    threshold: tuple[float, float]
    tpr: tuple[float, float]
    fpr: tuple[float, float]
    precision: tuple[float, float]
    npv: tuple[float, float]
    lr_pos: tuple[float, float]
    lr_neg: tuple[float, float]
    expected_cost: tuple[float, float]
    kinds: tuple[str, ...]
    in_bag_cost: float
    out_of_bag_cost: float


@dataclass(frozen=True)
class DecisionRecord:
    """A shipped decision (see the module docstring; JSON layout in :meth:`to_dict`).

    Attributes
    ----------
    model : str
    threshold : float
        Flag a case iff its score is >= ``threshold`` (``+inf``: flag nothing).
    response_method : str
        What the scores were: ``"predict_proba"`` (the positive class's probability) or
        ``"decision_function"``; it tells :meth:`classifier` which scikit-learn method to
        threshold.
    how_chosen : str
        ``"optimum"`` (the least expected cost under the conditions) or ``"pinned"``.
    optimum_on_segment : bool
        The optimum was tied along a hull segment; the record has its conservative end.
    cost_fp, cost_fn, benefit_tp, benefit_tn : float
    prior_pos : float
        The deployment prior p(+) of the precision, share flagged and expected cost.
    unit : str
    metrics : DecisionMetrics
    intervals : DecisionIntervals or None
        At the shipped threshold: for a pinned one, of the fixed threshold's metrics; for
        the optimum, of what the chosen threshold gives on new data, corrected for the
        choice (:data:`CHOSEN_THRESHOLD_WHAT`).
    drift_reference : DriftReference or None
        What the re-check compares new data with; None in records written before it (the
        re-check then works from the confusion matrix and says what it cannot account for).
    choice_intervals : ChoiceIntervals or None
        Of the procedure that chose it (an optimum record with replicates only).
    positive_label : str or None
        The label value taken as positive in the data.
    fingerprint : str
        :func:`data_fingerprint` of the model's rows.
    n_rows : int
    n_pos, n_neg, prevalence : float
    roc_dash_version, created_utc, note : str
    notes : tuple of str
    schema_version : int
        :data:`BASE_SCHEMA_VERSION`, or :data:`SCHEMA_VERSION` with a recalibration.
    recalibration : Recalibration or None
        A map of the raw score to a probability, stored beside the threshold: the
        classifier's ``predict_proba`` applies it, its decisions still threshold the raw
        score (the map is non-decreasing).
    constraints : dict or None
        The capacity or floors the threshold was chosen under (``how_chosen`` ``"capacity"``
        or ``"floors"``), with how sure they are to hold: the JSON of
        :func:`roc_dash.report.constraints.model_constraints_dict` without its gains.
    """

    model: str
    threshold: float
    response_method: str
    how_chosen: str
    optimum_on_segment: bool
    cost_fp: float
    cost_fn: float
    benefit_tp: float
    benefit_tn: float
    prior_pos: float
    unit: str
    metrics: DecisionMetrics
    intervals: DecisionIntervals | None
    positive_label: str | None
    fingerprint: str
    n_rows: int
    n_pos: float
    n_neg: float
    prevalence: float
    roc_dash_version: str
    created_utc: str
    note: str = ""
    notes: tuple[str, ...] = field(default=())
    schema_version: int = BASE_SCHEMA_VERSION
    choice_intervals: ChoiceIntervals | None = None
    drift_reference: DriftReference | None = None
    recalibration: Recalibration | None = None
    constraints: dict | None = None

    @property
    def economics(self) -> Economics:
        """The record's costs and benefits."""
        return Economics(cost_fp=self.cost_fp, cost_fn=self.cost_fn,
                         benefit_tp=self.benefit_tp, benefit_tn=self.benefit_tn,
                         unit=self.unit)

    def to_dict(self) -> dict:
        """The JSON document (``null`` for NaN and for the ``+inf`` threshold)."""
        return _to_dict(self)

    def classifier(self, estimator, *, pos_label=None, response_method=None):
        """scikit-learn's ``FixedThresholdClassifier`` deciding as this record does.

        Parameters
        ----------
        estimator : scikit-learn classifier
            The model whose scores the decision was taken on, fitted (it is used as it is;
            ``fit`` on the wrapper refits a clone).
        pos_label : optional
            The estimator's class that is positive. Default: the class whose text equals
            the record's ``positive_label`` when the fitted estimator has exactly one such
            class, else scikit-learn's default (the greater class, ``classes_[1]``).
        response_method : {"predict_proba", "decision_function"}, optional
            Default: the record's.

        Returns
        -------
        sklearn.model_selection.FixedThresholdClassifier
            With a :attr:`recalibration`, around :class:`~roc_dash.decision.estimators.Recalibrated`
            (its ``predict_proba`` recalibrated, the threshold applied to the raw score as
            its ``decision_function``).
            Predicts the positive class iff the score is ``>= threshold``: scikit-learn's
            rule (``_threshold_scores_to_class_labels``) is roc-dash's, so
            the threshold is passed unchanged and the predictions on the decision's rows
            reproduce the record's confusion matrix, ties included (without weights: a
            weighted record's counts are weighted, the predictions give the rows'
            unweighted counts). A ``+inf`` threshold
            predicts the negative class for every finite score.

        Raises
        ------
        ImportError
            scikit-learn is missing or older than 1.6 (the message names the installed
            version).
        """
        try:
            from sklearn.model_selection import FixedThresholdClassifier
        except ImportError:  # not installed, or older than 1.5
            raise ImportError(
                f"DecisionRecord.classifier needs scikit-learn {_SKLEARN_MIN} or later "
                "(sklearn.model_selection.FixedThresholdClassifier): "
                f"pip install 'scikit-learn>={_SKLEARN_MIN}'") from None
        _require_sklearn_version()
        method = response_method or self.response_method
        if method not in RESPONSE_METHODS:
            raise ValueError(f"response_method must be one of {RESPONSE_METHODS}, "
                             f"got {method!r}")
        if pos_label is None:
            pos_label = _matching_class(estimator, self.positive_label)
        if self.recalibration is not None:  # (constraints) probabilities recalibrated
            from .estimators import Recalibrated

            estimator = Recalibrated(estimator, recalibration=self.recalibration,
                                     pos_label=pos_label, response_method=method)
            method = "decision_function"
        return FixedThresholdClassifier(estimator, threshold=float(self.threshold),
                                        pos_label=pos_label, response_method=method)


#: The oldest scikit-learn whose ``FixedThresholdClassifier`` predicts with a prefitted
#: estimator (1.5 raises ``NotFittedError`` unless the wrapper itself is fitted).
_SKLEARN_MIN = "1.6"


def _version_tuple(text: str) -> tuple[int, ...]:
    """``(major, minor)`` of a version text such as ``"1.6.1"`` or ``"1.7.dev0"``."""
    parts = re.findall(r"\d+", str(text))[:2]
    return tuple(int(p) for p in parts)


def _require_sklearn_version() -> None:
    import sklearn

    installed = getattr(sklearn, "__version__", "unknown")
    if _version_tuple(installed) < _version_tuple(_SKLEARN_MIN):
        raise ImportError(
            f"DecisionRecord.classifier needs scikit-learn {_SKLEARN_MIN} or later "
            f"(scikit-learn {installed} is installed; its FixedThresholdClassifier cannot "
            f"predict with an already fitted estimator): pip install "
            f"'scikit-learn>={_SKLEARN_MIN}'")


def _matching_class(estimator, positive_label):
    classes = getattr(estimator, "classes_", None)
    if positive_label is None or classes is None:
        return None
    hits = [c for c in np.asarray(classes).tolist() if str(c) == positive_label]
    return hits[0] if len(hits) == 1 else None


# ---------------------------------------------------------------------------- JSON
def json_number(v):
    """A JSON-safe number: ``None`` for None, NaN and infinities (records, reports and the
    Monitor's JSON write numbers with it)."""
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


_num = json_number


def _count(v):
    """A count: a whole number as an integer (the usual case: no weights)."""
    v = _num(v)
    return int(v) if v is not None and v.is_integer() and abs(v) < 2**53 else v


def _to_dict(r: DecisionRecord) -> dict:
    m, i = r.metrics, r.intervals
    return {
        "schema": SCHEMA,
        "schema_version": r.schema_version,
        "roc_dash_version": r.roc_dash_version,
        "created_utc": r.created_utc,
        "note": r.note,
        "model": r.model,
        "positive_label": r.positive_label,
        "rule": {"threshold": None if math.isinf(r.threshold) and r.threshold > 0
                 else float(r.threshold),
                 "positive_if": "score >= threshold", "ties": TIE_RULE,
                 "response_method": r.response_method, "how_chosen": r.how_chosen,
                 "optimum_on_segment": r.optimum_on_segment},
        "conditions": {"cost_fp": r.cost_fp, "cost_fn": r.cost_fn,
                       "benefit_tp": r.benefit_tp, "benefit_tn": r.benefit_tn,
                       "prior_pos": r.prior_pos, "unit": r.unit},
        "metrics": {k: _num(getattr(m, k)) for k in (
            "tpr", "fpr", "precision", "flagged", "accuracy", "expected_cost",
            "normalized_expected_cost", "auc")},
        "confusion_matrix": {k: _count(getattr(m, k)) for k in ("tp", "fp", "fn", "tn")},
        "intervals": None if i is None else {
            "what": CHOSEN_THRESHOLD_WHAT if i.interval == "corrected"
            else FIXED_THRESHOLD_WHAT,
            "method": i.method, "level": i.level, "replicates": i.replicates,
            "seed": i.seed, "interval": i.interval,
            **{k: [_num(v) for v in getattr(i, k)] for k in (
                "tpr", "fpr", "precision", "flagged", "expected_cost")}},
        "choice_intervals": _choice_dict(r.choice_intervals),
        "drift_reference": None if r.drift_reference is None else {
            "what": DRIFT_WHAT, "method": r.drift_reference.method,
            "cost": _num(r.drift_reference.cost), "optimism": _num(r.drift_reference.optimism),
            "std_error": _num(r.drift_reference.std_error),
            "replicates": r.drift_reference.replicates, "seed": r.drift_reference.seed},
        "data": {"fingerprint": r.fingerprint, "fingerprint_method": FINGERPRINT_METHOD,
                 "n_rows": r.n_rows, "n_pos": _count(r.n_pos), "n_neg": _count(r.n_neg),
                 "prevalence": _num(r.prevalence)},
        "notes": list(r.notes),
        **_recalibration_dict(r),
        **({} if r.constraints is None else {"constraints": r.constraints}),
    }


def _recalibration_dict(r: DecisionRecord) -> dict:
    """(constraints) The ``recalibration`` key, only in a record that has one."""
    if r.recalibration is None:
        return {}
    q = r.recalibration.apply(r.threshold) if math.isfinite(r.threshold) else math.nan
    return {"recalibration": {**r.recalibration.to_dict(), "applies_to": "predict_proba",
                              "threshold_probability": _num(q)}}


def _choice_dict(c: ChoiceIntervals | None) -> dict | None:
    if c is None:
        return None
    return {"what": CHOICE_WHAT, "method": c.method, "level": c.level,
            "replicates": c.replicates, "replicates_used": c.replicates_used, "seed": c.seed,
            **{k: [_num(v) for v in getattr(c, k)] for k in CHOICE_METRICS},
            "interval": dict(zip(CHOICE_METRICS, c.kinds, strict=True)),
            "in_bag_cost": _num(c.in_bag_cost), "out_of_bag_cost": _num(c.out_of_bag_cost)}
