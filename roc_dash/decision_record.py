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

from .core.data_fingerprint import FINGERPRINT_METHOD
from .core.economics import (
    Economics,
)

#: The ``"schema"`` value of every decision record.
SCHEMA = "roc-dash decision"


#: The version this roc-dash writes and the highest it reads.
SCHEMA_VERSION = 1


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
    "the metrics of the shipped fixed threshold: rows resampled, the threshold held fixed "
    "(what deploying this threshold on data like these gives)")

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
    """Bootstrap intervals of the metrics at the fixed threshold: rows resampled with
    replacement, the prior fixed; the choice of the threshold itself is not resampled
    (:data:`FIXED_THRESHOLD_WHAT`). From the page: its intervals of a pin at that threshold
    (:func:`~roc_dash.core.point_intervals.point_intervals`, positives and negatives
    resampled, ``method`` says so), the numbers its "How sure?" table shows; from
    ``roc-dash decide``: :func:`~roc_dash.core.uncertainty.uncertainty_from_bootstrap`
    (``method`` ``"bootstrap"``). Each metric is ``(low, high)``; ``interval`` is the
    expected cost's kind (``"percentile"``, ``"range"`` or ``"boundary"``)."""

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
class ChoiceIntervals:
    """Bootstrap intervals of the whole choice "pick the optimum on this data"
    (:func:`~roc_dash.core.point_intervals.point_intervals`, its ``optimum``): the
    numbers the page's "How sure?" table shows at the optimum, with the same replicates and
    seed (:data:`CHOICE_WHAT`). Only for a record whose threshold is the optimum.

    Attributes
    ----------
    method : str
        :attr:`~roc_dash.core.point_intervals.PointUncertainty.method`.
    level : float
    replicates, replicates_used, seed : int
    threshold, tpr, fpr, precision, npv, lr_pos, lr_neg, expected_cost : (float, float)
        ``(low, high)``; precision and NPV at the prior, expected cost per case.
        ``inf`` and NaN (undefined) limits are written as ``null``.
    kinds : tuple of str
        Per metric of :data:`CHOICE_METRICS`, its
        :attr:`~roc_dash.core.point_intervals.PointInterval.interval` (``"percentile"``,
        ``"range"``, ``"boundary"``, ``"none"``).
    in_bag_cost, out_of_bag_cost : float
        :class:`~roc_dash.core.point_intervals.ChoiceOptimism`'s means (NaN: undefined).
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
        At the shipped fixed threshold.
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
    schema_version: int = SCHEMA_VERSION
    choice_intervals: ChoiceIntervals | None = None

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
def _num(v):
    """A JSON-safe number: ``None`` for None, NaN and infinities."""
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


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
            "what": FIXED_THRESHOLD_WHAT,
            "method": i.method, "level": i.level, "replicates": i.replicates,
            "seed": i.seed, "interval": i.interval,
            **{k: [_num(v) for v in getattr(i, k)] for k in (
                "tpr", "fpr", "precision", "flagged", "expected_cost")}},
        "choice_intervals": _choice_dict(r.choice_intervals),
        "data": {"fingerprint": r.fingerprint, "fingerprint_method": FINGERPRINT_METHOD,
                 "n_rows": r.n_rows, "n_pos": _count(r.n_pos), "n_neg": _count(r.n_neg),
                 "prevalence": _num(r.prevalence)},
        "notes": list(r.notes),
    }


def _choice_dict(c: ChoiceIntervals | None) -> dict | None:
    if c is None:
        return None
    return {"what": CHOICE_WHAT, "method": c.method, "level": c.level,
            "replicates": c.replicates, "replicates_used": c.replicates_used, "seed": c.seed,
            **{k: [_num(v) for v in getattr(c, k)] for k in CHOICE_METRICS},
            "interval": dict(zip(CHOICE_METRICS, c.kinds, strict=True)),
            "in_bag_cost": _num(c.in_bag_cost), "out_of_bag_cost": _num(c.out_of_bag_cost)}
