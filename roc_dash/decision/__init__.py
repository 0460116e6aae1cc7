"""Decision records: what a team decided, on which data, under which conditions.

A decision record is a small JSON document written by ``roc-dash decide`` and the page's
*Download decision*: the model, the threshold and its tie rule, the costs, benefits and
prior, what the threshold does on the data (rates, precision at the prior, expected cost,
the confusion matrix with bootstrap intervals), a fingerprint of the data, the roc-dash
version, the time and a note. :func:`load` reads one back (validated);
:meth:`DecisionRecord.classifier` turns it into scikit-learn's ``FixedThresholdClassifier``
for deployment; ``roc-dash check --decision`` re-checks it on new data
(:func:`roc_dash.decision.gate.recheck_decision`).

The threshold rule is roc-dash's everywhere (Fawcett 2004, section 4, Algorithm 1:
``f(i) >= t``): **a case is flagged positive iff its score is >= the threshold**, so a score
equal to the threshold is flagged. When the optimum is tied along a hull segment, the
record takes the conservative end, flagging fewer cases (:func:`roc_dash.core.roc.hull.optimal_point`).

The package: building, saving and loading records (here), the record itself and its JSON
form (:mod:`.record`), the criteria of ``roc-dash check`` and their JUnit XML (:mod:`.gate`).

Example
-------
>>> from roc_dash import decision
>>> record = decision.load("decision.json")                   # doctest: +SKIP
>>> clf = record.classifier(fitted_estimator)                 # doctest: +SKIP
>>> clf.predict(X_new)                                        # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__
from ..core.analysis_types import Analysis
from ..core.constraints.recalibration import Recalibration, fit_recalibration
from ..core.decisions.data_fingerprint import FINGERPRINT_METHOD, data_fingerprint
from ..core.decisions.decision_summary import decision_summary
from ..core.decisions.drift import CHOICE_METHOD, COUNTS_METHOD, reference_from_counts
from ..core.decisions.economics import (
    Economics,
    expected_cost_per_case,
    flagged_at_prior,
    precision_at_prior,
)
from ..core.decisions.point_intervals import (
    BOUNDARY_METHOD,
    PointUncertainty,
    point_intervals,
    replicate_interval,
)
from ..core.decisions.uncertainty import uncertainty_from_bootstrap
from ..core.roc.confusion import ConfusionCounts, confusion_at_threshold
from ..core.roc.curves import roc_curve
from ..core.roc.hull import normalized_expected_cost
from .record import (  # noqa: F401 - the record's names, as the package exports them
    BASE_SCHEMA_VERSION,
    CHOICE_METRICS,
    RESPONSE_METHODS,
    SCHEMA,
    SCHEMA_VERSION,
    TIE_RULE,
    WEIGHTED_COUNTS_NOTE,
    ChoiceIntervals,
    DecisionIntervals,
    DecisionMetrics,
    DecisionRecord,
    DriftReference,
)

__all__ = ["DecisionRecord", "DecisionMetrics", "DecisionIntervals", "ChoiceIntervals",
           "DriftReference", "DecisionFileError",
           "build_decision", "save", "load", "from_dict", "data_fingerprint",
           "model_rows", "SCHEMA", "SCHEMA_VERSION", "TIE_RULE", "FINGERPRINT_METHOD",
           "WEIGHTED_COUNTS_NOTE"]


#: The largest decision record :func:`load` reads (a record is a few kilobytes).
MAX_RECORD_BYTES = 4 * 1024 * 1024


class DecisionFileError(ValueError):
    """A decision record that cannot be read or is not valid; the message says which file,
    which key and what to do."""


def model_rows(table: pd.DataFrame, model: str):
    """``(labels, scores, weights)`` of one model's rows of a canonical table (weights
    ``None`` when all are 1); ``ValueError`` naming the models when it has none."""
    rows = table[table["model"].astype(str) == model]
    if rows.empty:
        names = ", ".join(repr(str(m)) for m in pd.unique(table["model"]))
        raise ValueError(f"model {model!r} is not in the data (models: {names})")
    w = rows["weight"].to_numpy(dtype=np.float64)
    return (rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy(dtype=np.float64),
            None if bool((w == 1.0).all()) else w)


# ---------------------------------------------------------------------------- building
def _economics_of(analysis: Analysis) -> Economics:
    """The analysis' costs and benefits (its conditions hold net costs with benefits)."""
    c = analysis.conditions
    return Economics(cost_fp=c.cost_fp - c.benefit_tn, cost_fn=c.cost_fn - c.benefit_tp,
                     benefit_tp=c.benefit_tp, benefit_tn=c.benefit_tn)


def _metrics(counts: ConfusionCounts, auc: float, p: float, e: Economics) -> DecisionMetrics:
    fpr, tpr = counts.fpr, counts.tpr
    return DecisionMetrics(
        tpr=tpr, fpr=fpr, precision=float(precision_at_prior(fpr, tpr, p)),
        flagged=float(flagged_at_prior(fpr, tpr, p)), accuracy=counts.accuracy,
        expected_cost=float(expected_cost_per_case(fpr, tpr, p, e)),
        normalized_expected_cost=float(normalized_expected_cost(
            fpr, tpr, cost_fp=e.net_cost_fp, cost_fn=e.net_cost_fn, prior_pos=p)),
        auc=float(auc), tp=counts.tp, fp=counts.fp, fn=counts.fn, tn=counts.tn)


def _bootstrap_intervals(y, s, w, threshold, p, e, *, replicates, seed, level):
    try:
        u = uncertainty_from_bootstrap(y, s, threshold, p, e, weights=w, n_boot=replicates,
                                       seed=seed, level=level)
    except ValueError as exc:
        return None, (f"No bootstrap intervals: {exc}.",)
    pair = {k: (getattr(u, k).low, getattr(u, k).high)
            for k in ("tpr", "fpr", "precision", "flagged", "expected_cost")}
    return DecisionIntervals(method="bootstrap", level=u.level, replicates=replicates,
                             seed=seed, interval=u.expected_cost.interval, **pair), u.notes


def _pin_point(y, s, w, threshold, p, e, *, replicates, seed, level):
    """A pin's :class:`~roc_dash.core.decisions.point_intervals.PointUncertainty` as the
    page's "How sure?" table and ``roc-dash report --pin`` compute it (positives and
    negatives resampled, the same seed and replicates), so that ``roc-dash decide
    --threshold`` writes their intervals (stranger review 10: it resampled rows, and its
    intervals differed from the page's for the same point); None when that bootstrap cannot
    be made (then the rows are resampled, as before)."""
    from ..core.decisions.point_intervals import point_intervals

    try:
        return point_intervals(y, s, p, e, pins=(threshold,), weights=w, n_boot=replicates,
                               seed=seed, level=level).pins[0]
    except (ValueError, IndexError):
        return None


def _pin_intervals(u: PointUncertainty, *, replicates, seed):
    """The record's :class:`DecisionIntervals` from the page's intervals of a pin at its
    threshold (:class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`): the numbers
    its "How sure?" table shows; the share flagged, ``p·TPR + (1−p)·FPR``, from the same
    replicates. Its notes."""
    p = u.prior_pos
    flagged = replicate_interval(p * u.tpr.values + (1 - p) * u.fpr.values,
                                 p * u.tpr.estimate + (1 - p) * u.fpr.estimate, u.level)
    low, high = flagged.low, flagged.high
    if u.method == BOUNDARY_METHOD:  # the rates' intervals were widened: so is the share
        low = min(low, p * u.tpr.low + (1 - p) * u.fpr.low)
        high = max(high, p * u.tpr.high + (1 - p) * u.fpr.high)
    pair = {k: (getattr(u, k).low, getattr(u, k).high)
            for k in ("tpr", "fpr", "precision", "expected_cost")}
    return DecisionIntervals(method=u.method, level=u.level, replicates=replicates, seed=seed,
                             interval=u.expected_cost.interval, flagged=(low, high), **pair), \
        tuple(n for n in u.notes if not n.startswith("A pin's threshold is fixed"))


def _choice_intervals(y, s, w, p, e, *, replicates, seed, level, given=None):
    """The optimum's intervals of :func:`~roc_dash.core.decisions.point_intervals.point_intervals`
    (the page's "How sure?" column; ``given``: the page's own, already computed), with its
    notes, and the optimum's :class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`
    (None without)."""
    if replicates <= 0:
        return None, (), None
    u = given
    if u is None:
        try:
            u = point_intervals(y, s, p, e, weights=w, n_boot=replicates, seed=seed,
                                level=level).optimum
        except ValueError as exc:
            return None, (f"No intervals of the choice: {exc}.",), None
    pair = {k: (getattr(u, k).low, getattr(u, k).high) for k in CHOICE_METRICS}
    o = u.optimism
    return ChoiceIntervals(
        method=u.method, level=u.level, replicates=replicates, replicates_used=u.n_boot_used,
        seed=seed, kinds=tuple(getattr(u, k).interval for k in CHOICE_METRICS),
        in_bag_cost=o.in_bag, out_of_bag_cost=o.out_of_bag, **pair), \
        tuple(f"Intervals of the choice: {n}" for n in u.notes), u


def _optimum_intervals(u, replicates: int, seed: int) -> DecisionIntervals:
    """The record's intervals at its optimum: those of the choice, corrected for it."""
    pair = {k: (getattr(u, k).low, getattr(u, k).high)
            for k in ("tpr", "fpr", "precision", "flagged", "expected_cost")}
    return DecisionIntervals(method=u.method, level=u.level, replicates=replicates, seed=seed,
                             interval=u.expected_cost.interval, **pair)


def _drift_reference(u, counts: ConfusionCounts, p: float, e: Economics, *, replicates: int,
                     seed: int) -> DriftReference | None:
    """What ``check --decision`` compares with: at the optimum, the cost corrected for the
    choice (None when the bootstrap could not correct it); at a pin, the counts'."""
    if u is not None:
        c = u.expected_cost.correction
        if c is None:
            return None
        return DriftReference(method=CHOICE_METHOD, cost=c.estimate + c.optimism,
                              optimism=c.optimism, std_error=c.std_error,
                              replicates=replicates, seed=seed)
    ref = reference_from_counts(0.0, counts.tp, counts.fp, counts.fn, counts.tn,
                                prior_pos=p, economics=e)
    return DriftReference(method=COUNTS_METHOD, cost=ref.cost, optimism=0.0,
                          std_error=math.sqrt(ref.variance), replicates=0, seed=0)


def _response_method(scores: np.ndarray, given: str) -> str:
    """``given``, or for ``"auto"`` ``predict_proba`` when every score lies in [0, 1] else
    ``decision_function``; ``ValueError`` for ``predict_proba`` with a score beyond [0, 1]
    (probabilities cannot be)."""
    in_unit = bool(((scores >= 0) & (scores <= 1)).all())
    if given == "predict_proba" and not in_unit:
        raise ValueError(
            f"response_method 'predict_proba': the scores are not probabilities (they range "
            f"from {float(np.min(scores)):.6g} to {float(np.max(scores)):.6g}, beyond [0, 1]); "
            "use 'decision_function' (or 'auto')")
    if given in RESPONSE_METHODS:
        return given
    if given != "auto":
        raise ValueError(f"response_method must be 'auto' or one of {RESPONSE_METHODS}, "
                         f"got {given!r}")
    return "predict_proba" if in_unit else "decision_function"


def build_decision(analysis: Analysis, table: pd.DataFrame, *, pinned: dict | None = None,
                   economics: Economics | None = None, note: str = "",
                   response_method: str = "auto", replicates: int = 200, seed: int = 0,
                   level: float | None = None, created_utc: str | None = None,
                   recalibration: str | Recalibration | None = None,
                   point: PointUncertainty | None = None,
                   choice: PointUncertainty | None = None) -> DecisionRecord:
    """The decision record of an analysis' chosen point.

    The point is :func:`~roc_dash.core.decisions.decision_summary.decision_summary`'s: the pinned one
    (``{"model", "threshold"}``, threshold ``None`` = ``+inf``; its threshold is kept as
    given) or the optimum of the joint hull under ``economics`` at the analysis' prior (the
    threshold of the optimal vertex, a score of the data). Its metrics are counted on the
    model's rows of ``table`` (:func:`~roc_dash.core.roc.confusion.confusion_at_threshold`),
    with seeded bootstrap intervals. At a pinned threshold, ``intervals`` are of the metrics
    of that fixed threshold (:func:`~roc_dash.core.decisions.uncertainty.uncertainty_from_bootstrap`).
    At the optimum, ``choice_intervals`` are those of the procedure "pick the optimum on
    this data" (:func:`~roc_dash.core.decisions.point_intervals.point_intervals`, the choice made
    again in every replicate, with the out-of-bag cost; with the page's replicates and seed,
    the numbers of its "How sure?" table), and ``intervals`` the same corrected intervals of
    the rates, precision, share flagged and cost: a threshold chosen on the data looks
    better there than it is, and an interval around the apparent cost covers the chosen
    threshold's true cost less often than it says (:mod:`~roc_dash.core.decisions.choice_correction`).
    ``drift_reference`` is what ``roc-dash check --decision`` tests new data against
    (:mod:`~roc_dash.core.decisions.drift`).

    Parameters
    ----------
    analysis : Analysis
    table : DataFrame
        The canonical table the analysis was made from (the chosen model's rows are used).
    pinned : dict, optional
    economics : Economics, optional
        Costs and benefits; default: the analysis' (its conditions carry net costs).
    response_method : {"auto", "predict_proba", "decision_function"}
        What the scores are; ``"auto"``: ``predict_proba`` when every score of the model
        lies in [0, 1], else ``decision_function``.
    replicates, seed : int
        Bootstrap replicates (0: no intervals) and seed.
    level : float, optional
        Interval level; default the analysis'.
    created_utc : str, optional
        Default: now, ``YYYY-MM-DDTHH:MM:SSZ``.
    recalibration : {"logistic", "platt", "isotonic"} or Recalibration, optional
        A recalibration of the model's scores (fitted on its rows,
        :func:`~roc_dash.core.constraints.recalibration.fit_recalibration`) stored beside
        the threshold; the record's classifier returns its probabilities.
    point, choice : PointUncertainty, optional
        Already computed (the page's, :mod:`roc_dash.app.chosen_points`): the intervals of a
        pin at the record's threshold (a pinned record's ``intervals`` are then exactly the
        numbers of the page's "How sure?" table), and of the optimum's choice (an optimum
        record); those not given are computed with ``replicates``, ``seed`` and ``level``.

    Raises
    ------
    ValueError
        No model, a pinned model not in the analysis, a chosen model without rows,
        ``predict_proba`` for scores beyond [0, 1].
    """
    names = [m.name for m in analysis.models]
    if not names:
        raise ValueError("no model to decide on: the analysis is empty")
    if pinned and pinned.get("model") not in names:
        raise ValueError(f"model {pinned.get('model')!r} is not in the data "
                         f"(models: {', '.join(map(repr, names))})")
    e = economics or _economics_of(analysis)
    summary = decision_summary(analysis, pinned, e)
    p = summary.prior_pos
    if summary.pinned:
        t = pinned.get("threshold")
        threshold = math.inf if t is None else float(t)
    else:
        threshold = summary.threshold
    y, s, w = model_rows(table, summary.model)
    counts = confusion_at_threshold(y, s, threshold, weights=w)
    model = analysis.model(summary.model)
    lv = analysis.conditions.level if level is None else level
    if summary.pinned:
        choice, choice_notes, u = None, (), None
        if point is None and replicates > 0:  # one computation: the page's and the report's
            point = _pin_point(y, s, w, pinned.get("threshold"), p, e, replicates=replicates,
                               seed=seed, level=lv)
        if point is not None and replicates > 0:
            intervals, boot_notes = _pin_intervals(point, replicates=replicates, seed=seed)
        else:
            intervals, boot_notes = _bootstrap_intervals(y, s, w, threshold, p, e,
                                                         replicates=replicates, seed=seed,
                                                         level=lv)
    else:  # the intervals of what the chosen threshold gives, corrected for its choice
        choice, choice_notes, u = _choice_intervals(y, s, w, p, e, replicates=replicates,
                                                    seed=seed, level=lv, given=choice)
        intervals = None if u is None else _optimum_intervals(u, replicates, seed)
        boot_notes = ()
    notes = list(summary.notes) + list(boot_notes) + list(choice_notes)
    drift = None if (not summary.pinned and u is None) else _drift_reference(
        u, counts, p, e, replicates=replicates, seed=seed)
    if drift is None and not summary.pinned:
        notes.append("No correction of the expected cost for the choice of the threshold "
                     "(no bootstrap): `roc-dash check --decision` cannot account for it.")
    if summary.tied and not summary.pinned:
        notes.append("The optimum is tied along a hull segment: the points between this "
                     "threshold and the segment's other end cost the same; the record takes "
                     "the conservative end (fewer cases flagged).")
    if w is not None:
        notes.append(WEIGHTED_COUNTS_NOTE)
    positives = table.attrs.get("positive_labels") or {}
    positive = positives.get(summary.model)
    recal = _recalibration(recalibration, y, s, w, threshold, notes)
    return DecisionRecord(
        model=summary.model, threshold=float(threshold),
        response_method=_response_method(s, response_method),
        how_chosen="pinned" if summary.pinned else "optimum",
        optimum_on_segment=bool(summary.tied and not summary.pinned),
        cost_fp=float(e.cost_fp), cost_fn=float(e.cost_fn), benefit_tp=float(e.benefit_tp),
        benefit_tn=float(e.benefit_tn), prior_pos=float(p), unit=e.unit,
        metrics=_metrics(counts, model.auc, p, e), intervals=intervals,
        positive_label=None if positive is None else str(positive),
        fingerprint=data_fingerprint(y, s, w), n_rows=int(model.n_rows),
        n_pos=counts.n_pos, n_neg=counts.n_neg,
        prevalence=counts.n_pos / (counts.n_pos + counts.n_neg),
        roc_dash_version=__version__,
        created_utc=created_utc or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        note=str(note or ""), notes=tuple(notes), choice_intervals=choice,
        drift_reference=drift, recalibration=recal,
        schema_version=SCHEMA_VERSION if recal is not None else BASE_SCHEMA_VERSION)


def _recalibration(given, y, s, w, threshold, notes: list) -> Recalibration | None:
    """(constraints) The record's recalibration: fitted on the model's rows when named."""
    if given is None:
        return None
    rec = given if isinstance(given, Recalibration) else fit_recalibration(
        roc_curve(y, s, weights=w), given)
    at = f" (probability {float(rec.apply(threshold)):.6g} at the threshold)" \
        if math.isfinite(threshold) else ""
    notes.append(f"Recalibrated ({rec.method}): the classifier's predict_proba returns the "
                 f"recalibrated probabilities; its decisions still threshold the raw score"
                 f"{at}.")
    return rec


def save(record: DecisionRecord, path) -> Path:
    """Write ``record`` as JSON to ``path`` (``OSError`` when it cannot be written); also a
    :class:`~roc_dash.decision.multiclass.MulticlassDecisionRecord`, whose module offers it."""
    target = Path(path)
    target.write_text(json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n",
                      encoding="utf-8")
    return target


def load(path) -> DecisionRecord:
    """Read and validate a decision record.

    Raises
    ------
    DecisionFileError
        The file cannot be read, is not JSON, not a decision record, from a newer roc-dash,
        or a key is missing or of the wrong kind; the message names the file and the key.
    """
    name = str(path)
    written_by = "give the JSON file written by `roc-dash decide` or the page's Download decision"
    try:
        size = Path(path).stat().st_size
        if size > MAX_RECORD_BYTES:
            raise DecisionFileError(
                f"{name}: {size:,} bytes, too large for a decision record (at most "
                f"{MAX_RECORD_BYTES:,}); {written_by}")
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DecisionFileError(f"{name}: cannot read the decision record "
                                f"({exc.strerror or exc}); check the path") from None
    except UnicodeDecodeError:
        raise DecisionFileError(f"{name}: not a text file; {written_by}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DecisionFileError(f"{name}: not JSON ({exc.msg} at line {exc.lineno}, "
                                f"column {exc.colno}); {written_by}") from None
    except RecursionError:
        raise DecisionFileError(f"{name}: JSON nested too deeply to be a decision record; "
                                f"{written_by}") from None
    except ValueError as exc:  # e.g. a whole number of more than 4,300 digits
        raise DecisionFileError(f"{name}: not a JSON roc-dash can read ({exc}); "
                                f"{written_by}") from None
    return from_dict(doc, source=name)


# ---------------------------------------------------------------------------- validation
class _Reader:
    """Typed access to a JSON document with messages naming the file and the key."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, what: str):
        raise DecisionFileError(
            f"{self.source}: {key!r} {what}. Write the record again with `roc-dash decide` "
            "or the page's Download decision (or correct that key).")

    def section(self, doc: dict, key: str) -> dict:
        v = doc.get(key)
        if not isinstance(v, dict):
            self.fail(key, "is missing or not an object")
        return v

    def optional(self, doc: dict, key: str) -> dict | None:
        """The object at ``key``, or None where the record has none (records written before
        it was added)."""
        v = doc.get(key)
        if v is not None and not isinstance(v, dict):
            self.fail(key, "must be an object or null")
        return v

    def bootstrap(self, doc: dict, where: str) -> dict:
        """A bootstrap's ``method``, ``level``, ``replicates`` and ``seed``."""
        return {"method": self.text(doc, "method", where),
                "level": self.number(doc, "level", where, low=0, high=1),
                "replicates": int(self.number(doc, "replicates", where, low=0)),
                "seed": int(self.number(doc, "seed", where))}

    def number(self, doc: dict, key: str, where: str, *, low=-math.inf, high=math.inf,
               nullable=False) -> float:
        v = doc.get(key)
        if v is None and nullable:
            return math.nan
        x = _as_float(v)
        if x is None:
            self.fail(f"{where}{key}",
                      f"must be a number (finite, of at most ±1.8e308), got {_shown(v)}")
        if not low <= x <= high:
            self.fail(f"{where}{key}", f"must lie in [{low:g}, {high:g}], got {_shown(v)}")
        return x

    def text(self, doc: dict, key: str, where: str = "", *, nullable=False) -> str | None:
        v = doc.get(key)
        if v is None and nullable:
            return None
        if not isinstance(v, str):
            self.fail(f"{where}{key}", f"must be a text, got {_shown(v)}")
        return v


def _as_float(v) -> float | None:
    """``v`` as a finite float, or None: not a number (a bool is not), infinite, or a whole
    number too large for a float."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    try:
        x = float(v)
    except OverflowError:
        return None
    return x if math.isfinite(x) else None


def _shown(v, limit: int = 60) -> str:
    """``repr(v)`` cut to ``limit`` characters (a 5,000-digit number is not echoed whole)."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10 ** limit:
        return f"a whole number of {len(str(abs(v))):,} digits"
    text = repr(v)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _pairs(raw: dict, keys, where: str, r: _Reader) -> dict:
    """``{key: (low, high)}`` from ``[low, high]`` lists (``null`` read as NaN)."""
    pairs = {}
    for k in keys:
        v = raw.get(k)
        if not (isinstance(v, list) and len(v) == 2 and all(
                x is None or isinstance(x, float) or _as_float(x) is not None for x in v)):
            r.fail(f"{where}{k}", f"must be [low, high] (numbers or null), got {_shown(v)}")
        pairs[k] = tuple(math.nan if x is None else float(x) for x in v)
    return pairs


def _read_choice(doc: dict, r: _Reader) -> ChoiceIntervals | None:
    raw = r.optional(doc, "choice_intervals")
    if raw is None:
        return None
    w = "choice_intervals."
    kinds = raw.get("interval")
    if not (isinstance(kinds, dict) and all(isinstance(kinds.get(k), str)
                                            for k in CHOICE_METRICS)):
        r.fail(f"{w}interval", "must map each metric to its interval kind (a text)")
    return ChoiceIntervals(
        **r.bootstrap(raw, w), replicates_used=int(r.number(raw, "replicates_used", w, low=0)),
        kinds=tuple(kinds[k] for k in CHOICE_METRICS),
        in_bag_cost=r.number(raw, "in_bag_cost", w, nullable=True),
        out_of_bag_cost=r.number(raw, "out_of_bag_cost", w, nullable=True),
        **_pairs(raw, CHOICE_METRICS, w, r))


def _read_drift(doc: dict, r: _Reader) -> DriftReference | None:
    raw = r.optional(doc, "drift_reference")
    if raw is None:
        return None
    w = "drift_reference."
    method = r.text(raw, "method", w)
    if method not in (CHOICE_METHOD, COUNTS_METHOD):
        r.fail(f"{w}method", f"must be one of {(CHOICE_METHOD, COUNTS_METHOD)}, got "
                             f"{_shown(method)}")
    return DriftReference(
        method=method, cost=r.number(raw, "cost", w), optimism=r.number(raw, "optimism", w),
        std_error=r.number(raw, "std_error", w, low=0),
        replicates=int(r.number(raw, "replicates", w, low=0)),
        seed=int(r.number(raw, "seed", w)))


def _read_intervals(doc: dict, r: _Reader) -> DecisionIntervals | None:
    raw = r.optional(doc, "intervals")
    if raw is None:
        return None
    pairs = _pairs(raw, ("tpr", "fpr", "precision", "flagged", "expected_cost"),
                   "intervals.", r)
    return DecisionIntervals(**r.bootstrap(raw, "intervals."),
                             interval=r.text(raw, "interval", "intervals."), **pairs)


def _read_recalibration(doc: dict, r: _Reader) -> Recalibration | None:
    """(constraints) The optional recalibration (records before it have none)."""
    raw = doc.get("recalibration")
    if raw is None:
        return None
    try:
        return Recalibration.from_dict(raw)
    except ValueError as exc:
        r.fail("recalibration", f"is not a valid recalibration ({exc})")


def _read_constraints(doc: dict, r: _Reader) -> dict | None:
    """(constraints) The optional capacity or floors the threshold was chosen under."""
    return r.optional(doc, "constraints")


def from_dict(doc, *, source: str = "decision record") -> DecisionRecord:
    """A :class:`DecisionRecord` from its JSON document, validated (see :func:`load`)."""
    r = _Reader(source)
    # (constraints) a decision among several classes has its own record and reader
    if isinstance(doc, dict) and doc.get("schema") == "roc-dash multiclass decision":
        raise DecisionFileError(
            f"{source}: a decision among several classes (a cost matrix), not on one score; "
            "read it with roc_dash.decision.multiclass.load")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise DecisionFileError(
            f"{source}: not a roc-dash decision record (no \"schema\": \"{SCHEMA}\"); give "
            "the file written by `roc-dash decide` or the page's Download decision")
    version = doc.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        r.fail("schema_version", f"must be a whole number >= 1, got {_shown(version)}")
    if version > SCHEMA_VERSION:
        raise DecisionFileError(
            f"{source}: written by a newer roc-dash (decision schema {_shown(version)}; this roc-dash "
            f"{__version__} reads schema {SCHEMA_VERSION} and older); upgrade roc-dash")
    rule, cond = r.section(doc, "rule"), r.section(doc, "conditions")
    met, cm, data = r.section(doc, "metrics"), r.section(doc, "confusion_matrix"), \
        r.section(doc, "data")
    if "threshold" not in rule:
        r.fail("rule.threshold", "is missing (a number, or null for +infinity: flag nothing)")
    t = rule["threshold"]
    threshold = math.inf if t is None else r.number(rule, "threshold", "rule.")
    method = r.text(rule, "response_method", "rule.")
    if method not in RESPONSE_METHODS:
        r.fail("rule.response_method", f"must be one of {RESPONSE_METHODS}, got {_shown(method)}")
    fingerprint = r.text(data, "fingerprint", "data.")
    if not (fingerprint.startswith("sha256:") and len(fingerprint) == 71
            and all(ch in "0123456789abcdef" for ch in fingerprint[7:])):
        r.fail("data.fingerprint", "must be 'sha256:' and 64 hexadecimal digits")
    rate = {"low": 0.0, "high": 1.0}
    metrics = DecisionMetrics(
        **{k: r.number(met, k, "metrics.", nullable=k == "precision", **rate)
           for k in ("tpr", "fpr", "precision", "flagged", "accuracy", "auc")},
        expected_cost=r.number(met, "expected_cost", "metrics."),
        normalized_expected_cost=r.number(met, "normalized_expected_cost", "metrics."),
        **{k: r.number(cm, k, "confusion_matrix.", low=0) for k in ("tp", "fp", "fn", "tn")})
    notes = doc.get("notes", [])
    if not (isinstance(notes, list) and all(isinstance(n, str) for n in notes)):
        r.fail("notes", "must be a list of texts")
    record = DecisionRecord(
        model=r.text(doc, "model"), threshold=threshold, response_method=method,
        how_chosen=r.text(rule, "how_chosen", "rule."),
        optimum_on_segment=bool(rule.get("optimum_on_segment", False)),
        cost_fp=r.number(cond, "cost_fp", "conditions.", low=0),
        cost_fn=r.number(cond, "cost_fn", "conditions.", low=0),
        benefit_tp=r.number(cond, "benefit_tp", "conditions.", low=0),
        benefit_tn=r.number(cond, "benefit_tn", "conditions.", low=0),
        prior_pos=r.number(cond, "prior_pos", "conditions.", **rate),
        unit=r.text(cond, "unit", "conditions.", nullable=True) or "",
        metrics=metrics, intervals=_read_intervals(doc, r),
        positive_label=r.text(doc, "positive_label", nullable=True),
        fingerprint=fingerprint, n_rows=int(r.number(data, "n_rows", "data.", low=0)),
        n_pos=r.number(data, "n_pos", "data.", low=0),
        n_neg=r.number(data, "n_neg", "data.", low=0),
        prevalence=r.number(data, "prevalence", "data.", **rate),
        roc_dash_version=r.text(doc, "roc_dash_version"),
        created_utc=r.text(doc, "created_utc"), note=r.text(doc, "note", nullable=True) or "",
        notes=tuple(notes), schema_version=version, choice_intervals=_read_choice(doc, r),
        drift_reference=_read_drift(doc, r),
        recalibration=_read_recalibration(doc, r), constraints=_read_constraints(doc, r))
    if not 0.0 < record.prior_pos < 1.0:
        r.fail("conditions.prior_pos", f"must lie strictly between 0 and 1, got "
                                       f"{record.prior_pos!r}")
    try:
        record.economics  # noqa: B018 -- validates the costs and benefits
    except ValueError as exc:
        r.fail("conditions", f"holds impossible costs or benefits ({exc})")
    return record

