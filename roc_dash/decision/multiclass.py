"""The decision record of several classes under a cost matrix: the classes, the cost matrix,
the prior, the class weights of the rule, its confusion matrix and expected cost beside
those of the Bayes rule, one-vs-rest thresholds and the argmax, and a fingerprint of the
data; its JSON form; and the scikit-learn classifier that applies it
(:class:`~roc_dash.decision.estimators.CostWeightedClassifier`).

Written by ``roc-dash decide`` for multi-class input with ``--cost-matrix``; read back by
:func:`load` (:func:`roc_dash.decision.load` reads the binary records and names this one).

Example
-------
>>> from roc_dash.decision import multiclass
>>> record = multiclass.load("decision.json")                    # doctest: +SKIP
>>> clf = record.classifier(fitted_estimator)                   # doctest: +SKIP
>>> clf.predict(X_new)                                          # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from hashlib import sha256
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__
from ..core.constraints.cost_matrix import CostMatrixDecision, cost_matrix_decision
from ..core.kinds.canonical_kinds import CLASS_COLUMN, class_score_column, classes_of
from . import DecisionFileError, save
from .record import json_number as _num

__all__ = ["SCHEMA", "SCHEMA_VERSION", "RULES", "MulticlassDecisionRecord",
           "build_multiclass_decision", "model_probabilities", "multiclass_fingerprint", "to_dict", "from_dict",
           "save", "load", "read_cost_matrix"]

#: The ``"schema"`` value of a multi-class decision record.
SCHEMA = "roc-dash multiclass decision"
#: The version this roc-dash writes and the highest it reads.
SCHEMA_VERSION = 1
#: How the class weights are chosen: fitted on the data, or the Bayes rule's.
RULES = ("fitted", "bayes")
#: The serialization of :func:`multiclass_fingerprint`.
FINGERPRINT_METHOD = "roc-dash-multiclass-v1"


@dataclass(frozen=True)
class MulticlassDecisionRecord:
    """A decision among several classes (JSON layout in :meth:`to_dict`).

    Attributes
    ----------
    model : str
    classes : tuple of str
        In the order of the cost matrix's rows and columns and of the weights.
    cost_matrix : tuple of tuples
        ``C[i][j]``: the cost of deciding ``classes[j]`` when the truth is ``classes[i]``.
    prior, data_prior : tuple of float
        The deployment prior of the expected costs, the data's class shares.
    class_weights : tuple of float
        The rule decides ``argmin_j Σ_i w_i·p_i·C[i][j]`` on the classifier's probabilities.
    rule : str
        ``"fitted"`` (the weights of least expected cost on the data) or ``"bayes"``
        (``prior / data_prior``).
    weights_method : str
        How fitted weights were found (``"exact"`` or coordinate descent).
    confusion_matrix : tuple of tuples
        Of the rule on the data (rows: truth, columns: decision; weighted counts).
    expected_cost, bayes_cost, ovr_cost, argmax_cost : float
        Per case at the prior: the rule's, the Bayes rule's, one-vs-rest thresholds' and
        the argmax's.
    ovr_thresholds : tuple of float
    fingerprint : str
    n_rows : int
    roc_dash_version, created_utc, note : str
    notes : tuple of str
    schema_version : int
    """

    model: str
    classes: tuple[str, ...]
    cost_matrix: tuple[tuple[float, ...], ...]
    prior: tuple[float, ...]
    data_prior: tuple[float, ...]
    class_weights: tuple[float, ...]
    rule: str
    weights_method: str
    confusion_matrix: tuple[tuple[float, ...], ...]
    expected_cost: float
    bayes_cost: float
    ovr_cost: float
    argmax_cost: float
    ovr_thresholds: tuple[float, ...]
    fingerprint: str
    n_rows: int
    roc_dash_version: str
    created_utc: str
    note: str = ""
    notes: tuple[str, ...] = field(default=())
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict:
        return to_dict(self)

    def classifier(self, estimator, *, classes=None):
        """scikit-learn's estimator deciding as this record does: a
        :class:`~roc_dash.decision.estimators.CostWeightedClassifier` on ``estimator`` (fitted: used
        as it is). ``classes``: the estimator's labels of the record's classes, in the
        record's order (default: the record's class names, matched to the estimator's
        ``classes_`` as text)."""
        from .estimators import CostWeightedClassifier

        return CostWeightedClassifier(
            estimator, cost_matrix=np.array(self.cost_matrix),
            class_weights=np.array(self.class_weights),
            classes=list(self.classes) if classes is None else list(classes))


def multiclass_fingerprint(codes: np.ndarray, probabilities: np.ndarray, classes,
                           weights: np.ndarray | None = None) -> str:
    """A sha256 of the rows independent of their order: the text ``roc-dash-multiclass-v1``,
    the class names, then the rows of weight > 0 sorted by (scores, class), each as its
    class index (8-byte little-endian), scores and weight (float64 little-endian)."""
    p = np.asarray(probabilities, dtype=np.float64) + 0.0
    w = np.ones(p.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    keep = w > 0
    c, p, w = np.asarray(codes, dtype=np.int64)[keep], p[keep], w[keep]
    order = np.lexsort((w, c, *p.T[::-1]))
    head = (FINGERPRINT_METHOD + "\n" + "\n".join(map(str, classes)) + "\n").encode("utf-8")
    body = np.column_stack((c[order].astype("<f8"), p[order], w[order])).astype("<f8")
    return "sha256:" + sha256(head + body.tobytes()).hexdigest()


def _model_rows(table: pd.DataFrame, model: str | None):
    names = [str(m) for m in pd.unique(table["model"])]
    if model is None:
        if len(names) != 1:
            raise ValueError(f"the data hold {len(names)} models ({', '.join(map(repr, names))}): "
                             "choose one")
        model = names[0]
    if model not in names:
        raise ValueError(f"model {model!r} is not in the data (models: "
                         f"{', '.join(map(repr, names))})")
    return model, table[table["model"].astype(str) == model]


def model_probabilities(table: pd.DataFrame, model: str | None = None):
    """``(model, classes, probabilities, labels, weights)`` of one model of a multi-class
    canonical table (weights None when all are 1), as
    :func:`~roc_dash.core.constraints.cost_matrix.cost_matrix_decision` takes them."""
    classes = classes_of(table)
    if len(classes) < 2 or CLASS_COLUMN not in table.columns:
        raise ValueError("a decision among classes needs multi-class predictions: a class "
                         "column and one score column per class")
    model, rows = _model_rows(table, model)
    p = rows[[class_score_column(c) for c in classes]].to_numpy(dtype=np.float64)
    labels = rows[CLASS_COLUMN].astype(str).to_numpy(dtype=object)
    w = rows["weight"].to_numpy(dtype=np.float64) if "weight" in rows else None
    if w is not None and bool((w == 1.0).all()):
        w = None
    return model, classes, p, labels, w


def build_multiclass_decision(table: pd.DataFrame, cost_matrix, *, model: str | None = None,
                              prior=None, rule: str = "fitted", note: str = "",
                              created_utc: str | None = None
                              ) -> tuple[MulticlassDecisionRecord, CostMatrixDecision]:
    """The record of one model of a multi-class canonical table (columns ``class`` and
    ``score_<c>``, :mod:`roc_dash.core.kinds.canonical_kinds`) under ``cost_matrix`` (rows and
    columns in the table's class order), and the analysis it was made from
    (:func:`~roc_dash.core.constraints.cost_matrix.cost_matrix_decision`)."""
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    model, classes, p, labels, w = model_probabilities(table, model)
    d = cost_matrix_decision(p, labels, cost_matrix, classes=classes, prior=prior,
                             sample_weight=w)
    bayes = rule == "bayes"
    codes = pd.Index(classes).get_indexer(labels)
    tup = lambda a: tuple(float(v) for v in a)  # noqa: E731
    record = MulticlassDecisionRecord(
        model=model, classes=tuple(classes),
        cost_matrix=tuple(tup(r) for r in d.cost_matrix), prior=tup(d.prior),
        data_prior=tup(d.data_prior),
        class_weights=tup(d.bayes_weights if bayes else d.weights), rule=rule,
        weights_method="prior / data prior" if bayes else d.method,
        confusion_matrix=tuple(tup(r) for r in (d.bayes_confusion if bayes else d.confusion)),
        expected_cost=d.bayes_cost if bayes else d.expected_cost, bayes_cost=d.bayes_cost,
        ovr_cost=d.ovr_cost, argmax_cost=d.argmax_cost, ovr_thresholds=tup(d.ovr_thresholds),
        fingerprint=multiclass_fingerprint(codes, p, classes, w), n_rows=int(len(p)),
        roc_dash_version=__version__,
        created_utc=created_utc or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        note=str(note or ""), notes=d.notes)
    return record, d


def _count(v):
    v = float(v)
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def to_dict(r: MulticlassDecisionRecord) -> dict:
    """The JSON document (infinite one-vs-rest thresholds as ``null``)."""
    return {
        "schema": SCHEMA, "schema_version": r.schema_version,
        "roc_dash_version": r.roc_dash_version, "created_utc": r.created_utc, "note": r.note,
        "model": r.model, "classes": list(r.classes),
        "rule": {"decide": "argmin_j sum_i class_weights[i] * p_i * cost_matrix[i][j]",
                 "how_chosen": r.rule, "weights_method": r.weights_method,
                 "class_weights": list(r.class_weights), "response_method": "predict_proba",
                 "ties": "the first class in the record's order"},
        "conditions": {"cost_matrix": [list(row) for row in r.cost_matrix],
                       "cost_matrix_rows": "true class", "cost_matrix_columns": "decision",
                       "prior": list(r.prior)},
        "confusion_matrix": [[_count(v) for v in row] for row in r.confusion_matrix],
        "expected_cost": r.expected_cost,
        "compared": {"bayes": r.bayes_cost, "one_vs_rest": r.ovr_cost, "argmax": r.argmax_cost,
                     "one_vs_rest_thresholds": [_num(v) for v in r.ovr_thresholds]},
        "data": {"fingerprint": r.fingerprint, "fingerprint_method": FINGERPRINT_METHOD,
                 "n_rows": r.n_rows, "class_shares": list(r.data_prior)},
        "notes": list(r.notes),
    }


def _fail(source: str, key: str, what: str):
    raise DecisionFileError(f"{source}: {key!r} {what}. Write the record again with "
                            "`roc-dash decide` (or correct that key).")


def _matrix(raw, k: int, source: str, key: str) -> tuple:
    rows = raw if isinstance(raw, list) else None
    ok = rows is not None and len(rows) == k and all(
        isinstance(row, list) and len(row) == k and all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in row) for row in rows)
    if not ok:
        _fail(source, key, f"must be a {k} x {k} matrix of numbers")
    return tuple(tuple(float(v) for v in row) for row in rows)


def _vector(raw, k: int, source: str, key: str, *, positive: bool = True) -> tuple:
    if not (isinstance(raw, list) and len(raw) == k and all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            and (v > 0 or not positive) for v in raw)):
        _fail(source, key, f"must be a list of {k} {'positive ' if positive else ''}numbers")
    return tuple(float(v) for v in raw)


def from_dict(doc, *, source: str = "decision record") -> MulticlassDecisionRecord:
    """A :class:`MulticlassDecisionRecord` from its JSON document, validated."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        _fail(source, "schema", f"must be {SCHEMA!r}")
    version = doc.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        _fail(source, "schema_version", f"must be a whole number >= 1, got {version!r}")
    if version > SCHEMA_VERSION:
        raise DecisionFileError(f"{source}: written by a newer roc-dash (multi-class "
                                f"decision schema {version}); upgrade roc-dash")
    classes = doc.get("classes")
    if not (isinstance(classes, list) and len(classes) >= 2
            and all(isinstance(c, str) for c in classes) and len(set(classes)) == len(classes)):
        _fail(source, "classes", "must list two or more distinct class names")
    k = len(classes)
    rule, cond, data = doc.get("rule"), doc.get("conditions"), doc.get("data")
    for key, sec in (("rule", rule), ("conditions", cond), ("data", data)):
        if not isinstance(sec, dict):
            _fail(source, key, "is missing or not an object")
    compared = doc.get("compared") if isinstance(doc.get("compared"), dict) else {}
    cost = doc.get("expected_cost")
    if isinstance(cost, bool) or not isinstance(cost, int | float):
        _fail(source, "expected_cost", "must be a number")
    ovr = compared.get("one_vs_rest_thresholds") or [None] * k
    return MulticlassDecisionRecord(
        model=str(doc.get("model", "")), classes=tuple(classes),
        cost_matrix=_matrix(cond.get("cost_matrix"), k, source, "conditions.cost_matrix"),
        prior=_vector(cond.get("prior"), k, source, "conditions.prior"),
        data_prior=_vector(data.get("class_shares"), k, source, "data.class_shares"),
        class_weights=_vector(rule.get("class_weights"), k, source, "rule.class_weights"),
        rule=str(rule.get("how_chosen", "fitted")),
        weights_method=str(rule.get("weights_method", "")),
        confusion_matrix=_matrix(doc.get("confusion_matrix"), k, source, "confusion_matrix"),
        expected_cost=float(cost),
        bayes_cost=float(compared.get("bayes", math.nan)),
        ovr_cost=float(compared.get("one_vs_rest", math.nan)),
        argmax_cost=float(compared.get("argmax", math.nan)),
        ovr_thresholds=tuple(math.inf if v is None else float(v) for v in ovr),
        fingerprint=str(data.get("fingerprint", "")), n_rows=int(data.get("n_rows", 0)),
        roc_dash_version=str(doc.get("roc_dash_version", "")),
        created_utc=str(doc.get("created_utc", "")), note=str(doc.get("note") or ""),
        notes=tuple(str(n) for n in doc.get("notes", [])), schema_version=version)


def load(path) -> MulticlassDecisionRecord:
    """Read and validate a multi-class decision record (:class:`DecisionFileError` naming
    the file and the key when it cannot be read or is not one)."""
    name = str(path)
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise DecisionFileError(f"{name}: cannot read the decision record "
                                f"({exc.strerror or exc}); check the path") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise DecisionFileError(f"{name}: not a JSON decision record; give the file written "
                                "by `roc-dash decide`") from None
    return from_dict(doc, source=name)


def read_cost_matrix(path, classes) -> np.ndarray:
    """A cost matrix from a CSV file: a header row and a first column naming the classes
    (rows: the true class, columns: the decision; any order, matched to ``classes`` as
    text), a header row only (the rows in the header's order), or ``k`` rows of ``k``
    numbers in the classes' order. ``ValueError`` naming the
    file and what is wrong."""
    name = str(path)
    try:
        frame = pd.read_csv(path, header=None, dtype=str, skipinitialspace=True)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"{name}: cannot read the cost matrix ({exc}); give a CSV file") \
            from None
    k = len(classes)
    names = [str(c) for c in classes]
    cells = frame.to_numpy(dtype=object)
    if cells.shape == (k + 1, k + 1):
        cols = [str(v).strip() for v in cells[0, 1:]]
        rows = [str(v).strip() for v in cells[1:, 0]]
        if sorted(cols) != sorted(names) or sorted(rows) != sorted(names):
            raise ValueError(f"{name}: the header and first column must name the classes "
                             f"{', '.join(names)} (found {', '.join(cols)} and "
                             f"{', '.join(rows)})")
        body = cells[1:, 1:]
        body = body[[rows.index(c) for c in names]][:, [cols.index(c) for c in names]]
    elif cells.shape == (k + 1, k):  # a header row only
        cols = [str(v).strip() for v in cells[0]]
        if sorted(cols) != sorted(names):
            raise ValueError(f"{name}: the header must name the classes {', '.join(names)} "
                             f"(found {', '.join(cols)}); the rows are then in that order")
        order = [cols.index(c) for c in names]
        body = cells[1:][order][:, order]
    elif cells.shape == (k, k):
        body = cells
    else:
        raise ValueError(f"{name}: the cost matrix has {cells.shape[0]} rows and "
                         f"{cells.shape[1]} columns; the {k} classes ({', '.join(names)}) "
                         f"need {k} x {k} numbers, with or without a header row and column "
                         "of class names (rows: the true class, columns: the decision)")
    try:
        out = body.astype(np.float64)
    except ValueError:
        raise ValueError(f"{name}: every cost must be a number") from None
    if not np.isfinite(out).all():
        raise ValueError(f"{name}: every cost must be a finite number")
    return out
