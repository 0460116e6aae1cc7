"""Partial area under the ROC curve over FPR in [0, a], raw and standardised (McClish 1989).

Split from :mod:`.statistics`, which re-exports both functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._sums import dot
from ..roc.curves import RocCurve, auc, roc_curve


@dataclass(frozen=True)
class PartialAuc:
    """Area under the ROC curve restricted to ``FPR <= fpr_max``.

    Attributes
    ----------
    fpr_max : float
        The upper FPR bound ``a`` in ``(0, 1]``.
    raw : float
        The area over ``[0, a]``, in ``[0, a]``.
    mcclish : float
        McClish's standardisation ``(1 + (raw - a**2/2) / (a - a**2/2)) / 2``: 0.5 for a
        chance (diagonal) curve, 1 for a perfect one over the restricted range.
    """

    fpr_max: float
    raw: float
    mcclish: float


def partial_auc_from_curve(curve: RocCurve, max_fpr: float) -> PartialAuc:
    """Partial area of a ready ROC curve over ``FPR in [0, max_fpr]``.

    The curve is integrated by trapezoids up to the last vertex with ``FPR <= max_fpr`` and
    closed by the point of the next segment at ``FPR = max_fpr``, interpolated linearly
    (the same construction as scikit-learn's ``roc_auc_score(max_fpr=...)``). The McClish
    (1989) standardisation maps the raw area ``A`` linearly so that the area of the chance
    diagonal, ``max_fpr**2 / 2``, becomes 0.5 and the maximal area ``max_fpr`` becomes 1::

        mcclish = 0.5 * (1 + (A - max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2))

    Parameters
    ----------
    curve : RocCurve
        As returned by :func:`roc_dash.core.roc.curves.roc_curve`.
    max_fpr : float
        Upper FPR bound in ``(0, 1]``. ``max_fpr = 1`` gives ``raw = mcclish = AUC``.

    Returns
    -------
    PartialAuc

    Raises
    ------
    ValueError
        If ``max_fpr`` is not in ``(0, 1]``.

    References
    ----------
    D. K. McClish, "Analyzing a portion of the ROC curve", Med. Decis. Making 9:190-195, 1989.
    """
    a = float(max_fpr)
    if not 0.0 < a <= 1.0:
        raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    if a == 1.0:
        raw = auc(curve)
    else:
        fpr, tpr = curve.fpr, curve.tpr
        # fpr[stop - 1] <= a < fpr[stop]; stop <= len - 1 because fpr[-1] == 1 > a.
        stop = int(np.searchsorted(fpr, a, side="right"))
        x0, x1 = fpr[stop - 1], fpr[stop]
        y0, y1 = tpr[stop - 1], tpr[stop]
        y_end = y0 + (a - x0) / (x1 - x0) * (y1 - y0)
        head = dot(np.diff(fpr[:stop]), tpr[1:stop] + tpr[: stop - 1]) / 2.0
        raw = head + (a - x0) * (y0 + y_end) / 2.0
    min_area = a * a / 2.0
    max_area = a
    mcclish = 0.5 * (1.0 + (raw - min_area) / (max_area - min_area))
    return PartialAuc(fpr_max=a, raw=float(raw), mcclish=float(mcclish))


def partial_auc(labels, scores, *, max_fpr: float, weights=None, pos_label=None) -> PartialAuc:
    """Partial area under the ROC curve over ``FPR in [0, max_fpr]`` (McClish 1989).

    Builds the curve with :func:`roc_dash.core.roc.curves.roc_curve` and calls
    :func:`partial_auc_from_curve`; ``mcclish`` equals scikit-learn's
    ``roc_auc_score(labels, scores, max_fpr=max_fpr, sample_weight=weights)``.

    Parameters
    ----------
    labels, scores, weights, pos_label
        As in :func:`roc_dash.core.roc.curves.roc_curve`.
    max_fpr : float
        Upper FPR bound in ``(0, 1]``.

    Returns
    -------
    PartialAuc
    """
    curve = roc_curve(labels, scores, weights=weights, pos_label=pos_label)
    return partial_auc_from_curve(curve, max_fpr)
