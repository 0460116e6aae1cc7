"""Plain-text wording of the cross-validated AUC, the k-model comparison and the optimal cost
ranges, shared by the page (model table, Model comparison card) and the HTML report so they
say the same thing in the same words.

Every AUC says what it is computed from: *pooled* (all folds' rows as one test set, the
curve, hull and optimum the page draws) or *fold mean* (each fold's own AUC, averaged; the
interval of the mean by LeDell, Petersen & van der Laan 2015, "Computationally efficient
confidence intervals for cross-validated area under the ROC curve estimates", Electronic
Journal of Statistics 9(1), 1583-1607).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.inference.cross_validation import CrossValidatedAuc
from ..core.inference.model_comparison import NEVER_OPTIMAL, OptimalRange, PairwiseComparison
from ..text.rounding import sig, signed

__all__ = ["P_KINDS", "cv_auc_text", "fold_lines", "optimal_range_text", "p_text",
           "pair_cell", "ties_text", "unpaired_note"]

#: The p-values a comparison cell can show: (key, attribute, label).
P_KINDS: tuple[tuple[str, str, str], ...] = (
    ("raw", "p_value", "raw p"), ("holm", "p_holm", "Holm-adjusted p"),
    ("bh", "p_bh", "Benjamini-Hochberg-adjusted p"))


def _f(v: float, digits: int = 3) -> str:
    """The one rounding rule (:func:`roc_dash.text.rounding.sig`); ``digits`` is no longer used."""
    return "n/a" if v is None or not math.isfinite(v) else sig(v)


def cv_auc_text(cv: CrossValidatedAuc | None) -> str:
    """``"0.925 ± 0.021 [95% CI 0.901–0.949]"``: the mean of the folds' own AUCs ± their SD
    and the LeDell et al. (2015) interval of the cross-validated AUC; ``""`` without folds."""
    if cv is None:
        return ""
    return (f"{_f(cv.auc_mean)} ± {_f(cv.auc_sd)} [{cv.level:.0%} CI "
            f"{_f(cv.ci_low)}–{_f(cv.ci_high)}]")


def fold_lines(cv: CrossValidatedAuc | None) -> list[tuple[str, str, str]]:
    """Per fold ``(fold, AUC, AP)`` as text, in the folds' order; ``[]`` without folds."""
    if cv is None:
        return []
    return [(str(f), _f(a), _f(ap))
            for f, a, ap in zip(cv.folds, cv.auc, cv.average_precision, strict=True)]


def p_text(p: float) -> str:
    """A p-value: three significant digits, ``"< 0.001"`` below 0.001, ``"—"`` untested."""
    if p is None or not math.isfinite(p):
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3g}"


def pair_cell(c: PairwiseComparison, i: int, j: int) -> tuple[str, str]:
    """Cell ``[i, j]`` of the matrix (row minus column): ``("+0.012", tooltip)`` where the
    tooltip gives the standard error and all three p-values; ``("—", why)`` off the tested
    pairs (the diagonal and pairs not scored on the same rows)."""
    a, b = c.models[i], c.models[j]
    if i == j:
        return "—", f"{a} compared with itself"
    d = float(c.difference[i, j])
    if not math.isfinite(d):
        return "—", f"{a} and {b} are not scored on the same rows: not tested"
    tip = (f"AUC({a}) − AUC({b}) = {signed(d)}, SE {_f(float(c.std_error[i, j]), 4)}, "
           f"z {_f(float(c.z[i, j]), 2)}; " + "; ".join(
               f"{label} {p_text(float(getattr(c, attr)[i, j]))}" for _, attr, label in P_KINDS)
           + f" ({c.n_tests} tests)")
    return f"{signed(d)}", tip


def unpaired_note(c: PairwiseComparison | None, n_models: int) -> str:
    """Why some (or all) pairs of models are not compared; ``""`` when every pair is."""
    if n_models < 2:
        return ""
    if c is None:
        return ("No pair of models is scored on the same rows (same ids, or the same labels "
                "in the same order), so no paired test is possible.")
    missing = c.untested
    if not missing:
        return ""
    pairs = ", ".join(f"{a} / {b}" for a, b in missing)
    return (f"Not paired (not scored on the same rows), so not tested: {pairs}. The adjusted "
            f"p-values correct over the {c.n_tests} tested pairs.")


def _ratio(v: float) -> str:
    return "∞" if math.isinf(v) else f"{sig(v)}"


def ties_text(r: OptimalRange) -> str:
    """``"ties with B at every cost (the same optimal ROC points: both optimal)"``, with
    ``"; ties with C on part of it"``, or ``""`` without a tie."""
    parts = []
    if r.ties_at_every_cost:
        parts.append(f"ties with {_names(r.ties_at_every_cost)} at every cost (the same "
                     "optimal ROC points: both optimal)")
    if r.ties_in_part:
        parts.append(f"ties with {_names(r.ties_in_part)} on part of it (shared optimal "
                     "ROC points)")
    return "; ".join(parts)


def _names(names) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def optimal_range_text(r: OptimalRange) -> str:
    """``"optimal for c(FN)/c(FP) between 0.55 and 4 at prior p(+) = 0.3"`` (several
    intervals joined by "or"), or :data:`NEVER_OPTIMAL` (Fawcett 2004, section 7.1), with
    the models it ties with (:func:`ties_text`). The page
    states cost ratios as c(FN)/c(FP) everywhere (the summary, the superiority view), so the
    core's c(FP)/c(FN) intervals are inverted here."""
    if r.never_optimal:
        return NEVER_OPTIMAL
    ties = ties_text(r)
    return f"{_range_text(r)}; {ties}" if ties else _range_text(r)


def _range_text(r: OptimalRange) -> str:
    if r.cost_ratio_low.size == 1 and r.cost_ratio_low[0] <= 0 and np.isinf(
            r.cost_ratio_high[0]):
        return f"optimal for any c(FN)/c(FP) at prior p(+) = {sig(r.prior_pos)}"
    spans = []
    for fp_lo, fp_hi in reversed(list(zip(r.cost_ratio_low, r.cost_ratio_high, strict=True))):
        lo = 0.0 if np.isinf(fp_hi) else 1.0 / fp_hi
        hi = np.inf if fp_lo <= 0 else 1.0 / fp_lo
        if np.isinf(hi):
            spans.append(f"above {_ratio(lo)}")
        elif lo <= 0:
            spans.append(f"below {_ratio(hi)}")
        else:
            spans.append(f"between {_ratio(lo)} and {_ratio(hi)}")
    return (f"optimal for c(FN)/c(FP) {' or '.join(spans)} at prior p(+) = "
            f"{sig(r.prior_pos)}")
