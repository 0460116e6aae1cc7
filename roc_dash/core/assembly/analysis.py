"""Everything the report and the dashboard show, computed from one canonical table.

One call, :func:`analyse`, turns the table produced by :mod:`roc_dash.io` (columns ``label``,
``score``, ``model``, ``fold``, ``weight`` and optionally ``id``; an aggregated table, from
:mod:`roc_dash.io.engines`, has a ``rows`` column instead: input rows per row, with the
weights summed) and the operating
conditions (costs, deployment prior, FPR limit) into small frozen result objects. Each number
comes from the module named after what it computes; this module only assembles them.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
import types
import warnings

import numpy as np
import pandas as pd

from ..analysis_types import Analysis, Comparison, Conditions, ModelAnalysis, Operating
from ..inference.cross_validation import cross_validated_auc_from_curves
from ..inference.model_comparison import (
    OptimalRanges,
    PairwiseComparison,
    compare_models,
    optimal_ranges,
    pairwise_from_tests,
)
from ..inference.statistics import (
    AucInterval,
    delong_paired_test,
    delong_variance_of_counts,
    gini,
    partial_auc_from_curve,
    wald_auc_interval,
)
from ..kinds.canonical_kinds import is_soft, soft_instances
from ..kinds.soft_labels import soft_auc_interval
from ..roc.averaging import (
    ScoreScaleWarning,
    threshold_average,
    vertical_average,
)
from ..roc.curves import auc
from ..roc.fold_thresholds import thresholds_at_fpr
from ..roc.hull import (
    RocHull,
    convex_hull,
    expected_cost,
    hull_of_curves,
    normalized_expected_cost,
    optimal_point,
)
from ..roc.per_fold_curves import pooled_and_fold_curves
from ..roc.precision_recall import average_precision_from_curve, pr_auc_interpolated
from ..table_groups import groups_of

__all__ = ["analyse", "with_conditions", "prevalence", "paired_rows", "AnalysisTimeout",
           "partial_auc_comparison", "models_by_dataset", "folds_by_dataset"]


class AnalysisTimeout(TimeoutError):
    """:func:`analyse` passed its ``deadline``; the message says how far it got."""


def _check_deadline(deadline: float | None, done: int, total: int, what: str) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise AnalysisTimeout(f"the analysis ran out of time after {done} of {total} {what}")


def prevalence(table: pd.DataFrame) -> float:
    """Weighted share of positives in the table."""
    w = table["weight"].to_numpy(dtype=np.float64)
    return float(w[table["label"].to_numpy(dtype=bool)].sum() / w.sum())


def dataset_prevalences(table: pd.DataFrame) -> dict[str, float]:
    """Prevalence of each dataset of a table with a ``dataset`` column (in order of first
    appearance); empty when there is no such column.

    Each dataset is one test set; its prevalence is the weighted share of positives over its
    rows. (A dataset with several models counts each model's rows: with every model scored on
    the same rows this is the test set's prevalence.)
    """
    if "dataset" not in table.columns:
        return {}
    return {name: prevalence(rows) for name, rows in groups_of(table, "dataset").items()}


def models_by_dataset(models) -> dict[str, list]:
    """The models (each with ``name`` and ``dataset``) of each dataset, in order of first
    appearance; a model without a dataset is one of its own (keyed by its name). The one
    grouping of models by dataset: a dataset is one test set, as :func:`dataset_prevalences`
    takes a table's rows by dataset."""
    groups: dict[str, list] = {}
    for m in models:
        groups.setdefault(m.dataset or m.name, []).append(m)
    return groups


def folds_by_dataset(models) -> dict[str, int]:
    """The folds of each dataset of ``models`` (:func:`models_by_dataset`): the most of its
    models' ``n_folds``, 1 without folds. The folds the views' captions
    (:func:`roc_dash.figures.style.fold_counts`) and the operating card name."""
    return {key: max([1, *(m.n_folds for m in group)])
            for key, group in models_by_dataset(models).items()}


def inverted_note(name: str, auc_ci: AucInterval | None, positive: str | None = None) -> str | None:
    """A warning when a model's AUC interval lies entirely below 0.5: its scores rank the
    negatives above the positives, which usually means the wrong class was taken as
    positive (or the scores are "lower = more positive")."""
    if auc_ci is None or not auc_ci.high < 0.5:
        return None
    label = f"positive label {positive!r}" if positive else "the chosen positive label"
    return (f"{name}: scores look inverted for {label} (AUC {auc_ci.auc:.3f}, "
            f"{auc_ci.level:.0%} CI [{auc_ci.low:.3f}, {auc_ci.high:.3f}] entirely below 0.5) "
            "— is the positive label right?")


def _weights(frame: pd.DataFrame) -> np.ndarray | None:
    w = frame["weight"].to_numpy(dtype=np.float64)
    return None if bool((w == 1.0).all()) else w


def _operating(hull: RocHull, cond: Conditions) -> Operating:
    opt = optimal_point(hull, cond.slope)
    kw = {"cost_fp": cond.cost_fp, "cost_fn": cond.cost_fn, "prior_pos": cond.prior_pos}
    return Operating(optimum=opt,
                     expected_cost=expected_cost(opt.fpr, opt.tpr, **kw)
                     - cond.benefit_per_case(),
                     normalized_expected_cost=normalized_expected_cost(opt.fpr, opt.tpr, **kw))


def _skipped_folds_note(name: str, skipped: dict[str, str], positive: str | None) -> str:
    listed = ", ".join(
        f"fold {k!r} has no {what} rows"
        + (f" (class {positive!r})" if positive and what == "positive" else "")
        for k, what in skipped.items())
    return (f"{name}: {listed}, so {'its' if len(skipped) == 1 else 'their'} own ROC "
            f"{'curve is' if len(skipped) == 1 else 'curves are'} undefined; the per-fold views "
            "(fold curves, vertical and threshold averages, fold AUCs and the cross-validated AUC) leave "
            f"{'it' if len(skipped) == 1 else 'them'} out. The pooled curve, AUC and optimum "
            "use every fold.")


def _analyse_model(name: str, frame: pd.DataFrame, cond: Conditions,
                   positive: str | None = None) -> ModelAnalysis:
    y = frame["label"].to_numpy(dtype=bool)
    s = frame["score"].to_numpy(dtype=np.float64)
    w = _weights(frame)
    # the pooled curve, its counts for DeLong and each fold's curve: each fold sorted once
    split = pooled_and_fold_curves(y, s, frame["fold"], weights=w)
    curve, pos, neg = split.pooled, split.positives, split.negatives
    folds, skipped = split.folds, split.one_class
    del split
    notes = []
    soft = is_soft(frame)
    n_rows = int(frame["rows"].sum()) if "rows" in frame.columns else len(frame)
    try:
        if soft:  # Qin's soft labels: the interval over instances, not over the split rows
            p, si, wi = soft_instances(frame)
            n_rows = len(p)
            ci = soft_auc_interval(p, si, weights=wi, level=cond.level)
        else:
            d = delong_variance_of_counts(pos, neg)
            ci = wald_auc_interval(d.auc, d.std_error, level=cond.level)
    except ValueError as exc:  # e.g. a single positive: the variance is undefined
        ci = None
        notes.append(f"{name}: no AUC confidence interval ({exc}).")
    inverted = inverted_note(name, ci, positive)
    if inverted:
        notes.append(inverted)
    if skipped:
        notes.append(_skipped_folds_note(name, skipped, positive))
    curves = folds if len(folds) > 1 else {"pooled": curve}
    vertical = vertical_average(curves, n_samples=cond.n_samples, level=cond.level,
                                band=cond.band)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ScoreScaleWarning)
        threshold = threshold_average(curves, n_samples=cond.n_samples, level=cond.level)
    notes.extend(f"{name}: {c.message}" for c in caught
                 if issubclass(c.category, ScoreScaleWarning))
    hull = convex_hull(curve, model=name)
    cv = (cross_validated_auc_from_curves(folds, level=cond.level)
          if len(folds) > 1 and not _fractional(frame) else None)
    return ModelAnalysis(
        name=name,
        n_rows=n_rows,
        n_pos=curve.n_pos,
        n_neg=curve.n_neg,
        n_folds=len(folds) + len(skipped),
        curve=curve,
        auc=auc(curve),
        auc_ci=ci,
        gini=gini(auc(curve)),
        partial_auc=partial_auc_from_curve(curve, cond.fpr_max),
        average_precision=average_precision_from_curve(curve),
        pr_auc_interpolated=pr_auc_interpolated(curve),
        hull=hull,
        optimal=_operating(hull, cond),
        folds=folds,
        vertical=vertical,
        threshold=threshold,
        notes=tuple(notes),
        dataset=str(frame["dataset"].iloc[0]) if "dataset" in frame.columns else None,
        cross_validation=cv,
        vertical_thresholds=thresholds_at_fpr(curves, vertical.fpr),
    )


def paired_rows(a: pd.DataFrame, b: pd.DataFrame):
    """Pair two models' rows: by ``id`` when both have unique ids, else by row order.

    Returns ``(labels, scores_a, scores_b, weights, paired_by)`` or ``None`` when the rows
    cannot be paired (different ids or labels, duplicated ids, different lengths).
    """
    if ("id" in a.columns and a["id"].notna().all() and b["id"].notna().all()
            and a["id"].is_unique and b["id"].is_unique):
        joined = a.merge(b, on="id", suffixes=("_a", "_b"), how="inner")
        if len(joined) != len(a) or len(joined) != len(b):
            return None
        if not (joined["label_a"].to_numpy() == joined["label_b"].to_numpy()).all():
            return None
        if not np.array_equal(joined["weight_a"].to_numpy(), joined["weight_b"].to_numpy()):
            return None
        w = joined["weight_a"].to_numpy(dtype=np.float64)
        return (joined["label_a"].to_numpy(dtype=bool), joined["score_a"].to_numpy(np.float64),
                joined["score_b"].to_numpy(np.float64), None if (w == 1).all() else w, "id")
    if len(a) != len(b):
        return None
    ya, yb = a["label"].to_numpy(dtype=bool), b["label"].to_numpy(dtype=bool)
    wa, wb = a["weight"].to_numpy(np.float64), b["weight"].to_numpy(np.float64)
    if not (np.array_equal(ya, yb) and np.array_equal(wa, wb)):
        return None
    return (ya, a["score"].to_numpy(np.float64), b["score"].to_numpy(np.float64),
            None if (wa == 1).all() else wa, "row order")


def _compare(groups: dict[str, pd.DataFrame], deadline: float | None = None
             ) -> list[Comparison]:
    out = []
    pairs = list(itertools.combinations(groups, 2))
    for k, (a, b) in enumerate(pairs):
        _check_deadline(deadline, k, len(pairs), "paired comparisons")
        if _fractional(groups[a]) or _fractional(groups[b]):
            continue  # DeLong's paired test is for hard labels (soft rows are split)
        pair = paired_rows(groups[a], groups[b])
        if pair is None:
            continue
        y, sa, sb, w, how = pair
        try:
            test = delong_paired_test(y, sa, sb, weights=w)
        except ValueError:
            continue
        out.append(Comparison(a=a, b=b, paired_by=how, n_rows=len(y), test=test))
    return out


def _fractional(frame: pd.DataFrame) -> bool:
    """True for soft-label rows with a label strictly between 0 and 1."""
    if not is_soft(frame):
        return False
    p = frame["label_prob"].to_numpy(dtype=np.float64)
    return bool(((p > 0) & (p < 1)).any())


def analyse(table: pd.DataFrame, conditions: Conditions | None = None, *,
            max_compared: int | None = None, deadline: float | None = None) -> Analysis:
    """Analyse every model of a canonical table under the given conditions.

    Per model: the pooled ROC curve (Fawcett 2004 Algorithm 2), AUC with DeLong interval,
    Gini, partial AUC (McClish), average precision and interpolated PR area, the convex hull
    and its optimal vertex for the iso-performance slope of the conditions, and vertical and
    threshold averages across folds (section 6). Across models: the joint hull, the overall
    optimum and DeLong's paired test for every pair of models scored on the same rows.

    ``max_compared`` bounds the work of the pairwise tests (their number grows with the
    square of the number of models): with more models than that none is computed and a note
    says so (None: always compare every pair).
    """
    cond = conditions or Conditions()
    by_dataset = dataset_prevalences(table)
    data_prior = next(iter(by_dataset.values())) if by_dataset else prevalence(table)
    if cond.prior_pos is None:
        cond = dataclasses.replace(cond, prior_pos=data_prior)
    positives = table.attrs.get("positive_labels") or {}  # per model, as in its file
    groups = groups_of(table, "model")
    models = []
    for k, (name, frame) in enumerate(groups.items()):
        _check_deadline(deadline, k, len(groups), "models")
        models.append(_analyse_model(name, frame, cond, positives.get(name)))
    hull = joint_hull(models)
    notes = [n for m in models for n in m.notes]
    if max_compared is not None and len(groups) > max_compared:
        comparisons = []
        notes.append(f"Paired DeLong tests are computed for at most {max_compared} models; "
                     f"{len(groups)} are shown. Tick fewer models to compare them.")
    elif "rows" in table.columns:
        # counts per (model, fold, score, label): which rows belong together is lost, and
        # pairing groups "by row order" would be meaningless (DeLong 1988 needs instances)
        comparisons = []
        if len(groups) > 1:
            notes.append(AGGREGATED_NOTE)
    else:
        comparisons = _compare(groups, deadline)
        if len(groups) > 1 and any(_fractional(g) for g in groups.values()):
            notes.append("Paired DeLong tests are not computed for models with soft labels "
                         "(fractional labels split each row in two); compare their soft AUC "
                         "intervals instead.")
    if len(by_dataset) > 1:
        notes.insert(0, spanning_note(by_dataset))
    return Analysis(
        conditions=cond,
        models=models,
        hull=hull,
        optimal=_operating(hull, cond),
        comparisons=comparisons,
        notes=tuple(notes),
        data_prevalence=data_prior,
        dataset_prevalence=by_dataset,
        model_comparison=_model_comparison(models, comparisons),
        optimal_ranges=_optimal_ranges(models, hull, cond),
    )


def _model_comparison(models: list[ModelAnalysis], comparisons: list[Comparison]
                      ) -> PairwiseComparison | None:
    if len(models) < 2 or not comparisons:
        return None
    return pairwise_from_tests([m.name for m in models],
                               {(c.a, c.b): c.test for c in comparisons})


def joint_hull(models: list[ModelAnalysis]) -> RocHull:
    """The hull across models (:func:`~roc_dash.core.roc.hull.hull_of_curves`) from each model's
    own hull vertices: a point of the joint hull is a point of its own model's hull, so the
    vertices are the same as from every point of every curve, and a 10^7-row table's four
    curves (~10^6 points each) come down to a few hundred points. The curves' totals go
    with them, so that collinearity is decided exactly as before."""
    return hull_of_curves({m.name: types.SimpleNamespace(
        fpr=m.hull.fpr, tpr=m.hull.tpr, thresholds=m.hull.thresholds,
        n_neg=getattr(m.curve, "n_neg", None), n_pos=getattr(m.curve, "n_pos", None))
        for m in models})


def _optimal_ranges(models: list[ModelAnalysis], hull: RocHull, cond: Conditions
                    ) -> OptimalRanges | None:
    if len(models) < 2 or not 0.0 < cond.prior_pos < 1.0:
        return None
    return optimal_ranges({m.name: m.curve for m in models}, prior_pos=cond.prior_pos,
                          hull=hull)


def partial_auc_comparison(table: pd.DataFrame, fpr_max: float, *, n_boot: int = 2000,
                           seed: int = 0) -> PairwiseComparison | None:
    """Every pair of the table's models compared on the partial AUC over ``FPR <= fpr_max``
    by the paired stratified bootstrap of :func:`~roc_dash.core.inference.model_comparison.compare_models`.

    The models paired with the first one (:func:`paired_rows`: by id, else by row order) are
    compared, on the first model's rows; None when fewer than two are, for an aggregated
    table (no instances) and for soft labels with fractional values.
    """
    if "rows" in table.columns:
        return None
    groups = groups_of(table, "model")
    if len(groups) < 2 or any(_fractional(g) for g in groups.values()):
        return None
    first, *others = groups
    scores, y, w = {}, None, None
    for name in others:
        pair = paired_rows(groups[first], groups[name])
        if pair is None:
            continue
        y, scores[first], scores[name], w, _ = pair
    if len(scores) < 2:
        return None
    return compare_models(y, scores, weights=w, max_fpr=fpr_max, n_boot=n_boot, seed=seed)


#: Why an aggregated table (a ``rows`` column) gets no paired comparisons.
AGGREGATED_NOTE = (
    "No paired DeLong tests between models: the input was aggregated to counts per (model, "
    "fold, score, label), which keeps each model's ROC curve, AUC and its DeLong interval "
    "exact but not which rows two models scored in common. Use --engine memory (input within "
    "the in-memory limits, with an id column or rows in the same order) for the paired tests."
)


def spanning_note(by_dataset: dict[str, float]) -> str:
    """The warning shown whenever the joint hull and optimum span several test sets."""
    names = ", ".join(f"{k} (prevalence {v:.3f})" for k, v in by_dataset.items())
    return (f"The shown models come from {len(by_dataset)} different test sets: {names}. "
            "The joint hull and the overall optimum compare models evaluated on different "
            "data; compare them with care, or show one dataset's models at a time.")


def _settings(c: Conditions) -> tuple:
    return (c.fpr_max, c.level, c.n_samples, c.band)


def with_conditions(analysis: Analysis, conditions: Conditions) -> Analysis:
    """The same analysis under other costs or prior, without recomputing anything else.

    Curves, statistics, hulls and averages do not depend on costs and class mix (that is the
    point of ROC analysis, Fawcett 2004 section 7.1); only the optimal points do. The
    analysis settings (``fpr_max``, ``level``, ``n_samples``, ``band``) must be unchanged.
    """
    if _settings(conditions) != _settings(analysis.conditions):
        raise ValueError("with_conditions changes costs and prior only; call analyse() for "
                         "other analysis settings")
    cond = conditions
    if cond.prior_pos is None:
        cond = dataclasses.replace(cond, prior_pos=analysis.data_prevalence)
    models = [dataclasses.replace(m, optimal=_operating(m.hull, cond)) for m in analysis.models]
    return dataclasses.replace(analysis, conditions=cond, models=models,
                               optimal=_operating(analysis.hull, cond),
                               optimal_ranges=_optimal_ranges(models, analysis.hull, cond))
