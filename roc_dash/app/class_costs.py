"""The cost matrix and prior of several classes as the page takes them (typed on the *Beyond
binary* tab: :mod:`.features.cost_matrix`), and the decisions under them, for that card and
for the exports (the HTML report), which do not import each other. The decisions are
:func:`roc_dash.decision.multiclass.build_multiclass_decision`'s, the record ``roc-dash
decide --cost-matrix`` writes."""

from __future__ import annotations

import re

import numpy as np

from ..core.constraints.cost_matrix import check_cost_matrix
from ..core.kinds.canonical_kinds import classes_of
from ..text.rounding import sig
from .core_words import not_used
from .page_state import PageState, key_ref

__all__ = ["default_matrix", "parse_matrix", "parse_prior", "model_decision", "model_record", "model_classes",
           "page_decisions", "page_cost_matrix_html"]


def default_matrix(k: int) -> np.ndarray:
    """0 on the diagonal, 1 off it."""
    return 1.0 - np.eye(k)


def _numbers(text: str) -> list[str]:
    return [t for t in re.split(r"[,\s]+", text.strip()) if t]


def parse_matrix(text, classes) -> tuple[np.ndarray | None, str]:
    """``(matrix, message)``: the cost matrix typed (the default when empty) or None with
    what is wrong (which row or cell, and what to write)."""
    classes = [str(c) for c in classes]
    k = len(classes)
    if not isinstance(text, str) or not text.strip():
        return default_matrix(k), ""
    rows = [_numbers(r) for r in re.split(r"[;\n]", text) if r.strip()]
    shape = (f"the {k} classes ({', '.join(classes)}) need {k} rows of {k} costs (row: the "
             "true class, column: the class decided; rows separated by ;)")
    if len(rows) != k or any(len(r) != k for r in rows):
        sizes = ", ".join(str(len(r)) for r in rows)
        return None, (f"Cost matrix not used: it has {len(rows)} row(s) of {sizes} "
                      f"number(s), but {shape}.")
    try:
        c = np.array([[float(v) for v in r] for r in rows])
    except ValueError:
        bad = next(v for r in rows for v in r if not _is_number(v))
        return None, f"Cost matrix not used: {bad!r} is not a number; {shape}."
    if not np.isfinite(c).all():
        return None, "Cost matrix not used: every cost must be a finite number."
    if (c < 0).any():
        i, j = (int(v) for v in np.argwhere(c < 0)[0])
        return None, (f"Cost matrix not used: a cost cannot be negative (true {classes[i]}, "
                      f"decided {classes[j]}: {sig(c[i, j])}); write 0 for no cost.")
    try:
        check_cost_matrix(c, k, classes)
    except ValueError as exc:
        return None, not_used("Cost matrix", exc)
    return c, ""


def _is_number(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


def parse_prior(text, classes) -> tuple[np.ndarray | None, str, str]:
    """``(prior, message, note)``: the prior typed, normalised to sum 1 (None: the data's
    shares, when empty or refused), what is wrong with it, and the note when it was
    normalised. Shares may be written as percentages (``20%``)."""
    classes = [str(c) for c in classes]
    k = len(classes)
    if not isinstance(text, str) or not text.strip():
        return None, "", ""
    items = [t for t in re.split(r"[,;\s]+", text.strip()) if t]
    if len(items) != k:
        return None, (f"Prior not used: {len(items)} share(s) typed, but the {k} classes "
                      f"({', '.join(classes)}) need one each, in that order."), ""
    try:
        p = np.array([float(t[:-1]) / 100 if t.endswith("%") else float(t) for t in items])
    except ValueError:
        return None, ("Prior not used: every share must be a number (0.2 or 20%), one per "
                      f"class ({', '.join(classes)})."), ""
    if not np.isfinite(p).all() or (p < 0).any() or not (p > 0).any():
        return None, ("Prior not used: the shares must be non-negative, at least one "
                      "above 0."), ""
    total = float(p.sum())
    note = ""
    if abs(total - 1.0) > 1e-9:
        p = p / total
        note = (f"The prior's shares summed to {sig(total)}: normalised to "
                + ", ".join(f"{c} {sig(v)}" for c, v in zip(classes, p, strict=True)) + ".")
    return p, "", note


def _ref(key):
    ref = key_ref(key)
    if ref is None:
        raise ValueError(f"no model {key!r}")
    return ref


def model_decision(cache, key: str, matrix, prior):
    """``(n_rows, CostMatrixDecision)`` of the model ``key`` (dataset id / name) of a
    multi-class file (:func:`~roc_dash.core.constraints.cost_matrix.cost_matrix_decision`),
    made once per matrix and prior and kept, on the model's rows prepared once per data
    (:func:`~roc_dash.core.constraints.cost_matrix_rows.class_rows`); the record (with the data's fingerprint, a
    sort of every row) is made on download only (:func:`model_record`)."""
    from ..core.constraints.cost_matrix import class_rows, decide_on_rows
    from ..decision.multiclass import model_probabilities

    ref = _ref(key)
    present = cache.store.present([ref.dataset])

    def rows():
        _, classes, p, labels, w = model_probabilities(cache.store.get(ref.dataset), ref.name)
        return class_rows(p, labels, classes=classes, sample_weight=w)

    def make():
        # the model's rows once per data, checked, their fitting subset and argmax drawn
        # (a new matrix or prior only decides again)
        kept = cache.cache.get_or_make(("cmx-class-rows", present, ref.name), rows,
                                       shared=False)
        return len(kept.probabilities), decide_on_rows(kept, matrix, prior=prior)

    return cache.cache.get_or_make(
        ("cmx", present, ref.name,
         tuple(map(tuple, np.asarray(matrix).tolist())),
         None if prior is None else tuple(np.asarray(prior).tolist())), make, shared=False)


def model_record(cache, key: str, matrix, prior, created_utc: str):
    """The decision record of the model ``key`` under ``matrix`` and ``prior``
    (:func:`~roc_dash.decision.multiclass.build_multiclass_decision`, as ``roc-dash decide
    --cost-matrix``)."""
    from ..decision.multiclass import build_multiclass_decision

    ref = _ref(key)
    return build_multiclass_decision(cache.store.get(ref.dataset), matrix, model=ref.name,
                                     prior=prior, created_utc=created_utc)[0]


def model_classes(cache, key) -> list[str]:
    ref = key_ref(key)
    return [] if ref is None else [str(c) for c in classes_of(cache.store.get(ref.dataset))]


def page_decisions(cache, page: PageState, keys) -> dict:
    """``{model name: CostMatrixDecision}`` under the page's matrix and prior of the models
    ``keys`` of multi-class files (those whose classes the matrix fits), for the report;
    ``{}`` when neither the matrix nor the prior is set."""
    if not (page.cost_matrix.strip() or page.class_prior.strip()):
        return {}
    out = {}
    for key in keys:
        classes = model_classes(cache, key)
        if len(classes) < 3:
            continue
        matrix, _ = parse_matrix(page.cost_matrix, classes)
        prior, _, _ = parse_prior(page.class_prior, classes)
        if matrix is None:
            continue
        try:
            out[key_ref(key).name] = model_decision(cache, key, matrix, prior)[1]
        except ValueError:
            continue
    return out


def page_cost_matrix_html(cache, page: PageState, keys) -> str:
    """The HTML report's section of the page's cost matrix (as ``roc-dash report
    --cost-matrix`` writes it), ``""`` without one."""
    from ..report.constraints_html import cost_matrix_html

    decisions = page_decisions(cache, page, keys)
    return cost_matrix_html(decisions) if decisions else ""


