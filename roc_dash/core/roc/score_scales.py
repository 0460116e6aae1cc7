"""Are the folds' scores on one scale? Threshold averaging (Fawcett 2004, section 6.2) pools
thresholds across folds, which only makes sense when the folds' scores are comparable.

Split from :mod:`.averaging`, which re-exports these names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .curves import RocCurve

MIN_RANGE_OVERLAP = 0.5
"""Score ranges of two curves overlapping by less than this fraction of the narrower range
are incommensurate (see :func:`check_score_scales`)."""


MAX_SCALE_RATIO = 10.0
"""Score ranges of two curves whose widths differ by more than this factor are
incommensurate (see :func:`check_score_scales`)."""


class ScoreScaleWarning(UserWarning):
    """Threshold averaging of curves whose scores do not look comparable (Fawcett section 3.1).

    Scores of different model classes need not share a scale, so averaging their curves at
    common thresholds may be misleading (section 6.2, last paragraph).
    """


def _as_curves(curves) -> tuple[list[str], list[RocCurve]]:
    if isinstance(curves, RocCurve):
        curves = [curves]
    if isinstance(curves, Mapping):
        names = [str(k) for k in curves]
        items = list(curves.values())
    elif isinstance(curves, Sequence) or hasattr(curves, "__iter__"):
        items = list(curves)
        names = [str(i) for i in range(len(items))]
    else:
        raise TypeError("curves must be a sequence or mapping of RocCurve")
    if not items:
        raise ValueError("no curves to average")
    for name, c in zip(names, items, strict=True):
        if not isinstance(c, RocCurve):
            raise TypeError(f"curve {name!r} is not a RocCurve")
        if c.fpr.ndim != 1 or c.fpr.shape != c.tpr.shape or c.fpr.size < 2:
            raise ValueError(f"curve {name!r}: fpr and tpr must be 1-D of equal length >= 2")
    return names, items


def check_score_scales(curves) -> str | None:
    """Whether the curves' scores look incommensurate (Fawcett 2004, sections 3.1 and 6.2).

    Each curve's score range ``[lo, hi]`` (min and max of its finite thresholds) is compared
    with the range spanned by all the *other* curves together (for two curves: with the
    other curve's range). The scores are flagged when, for some curve,

    * the two ranges overlap by less than ``MIN_RANGE_OVERLAP`` (0.5) of the narrower one
      (a range of a single score counts as overlapped when it lies inside the other), or
    * both ranges have positive width and the widths differ by more than
      ``MAX_SCALE_RATIO`` (10).

    Comparing with the other curves together rather than pair by pair keeps small folds of
    one model, whose ranges scatter within the model's range, from being flagged. Folds of
    one model on representative samples pass; probabilities in [0, 1] against margins in
    [-50, 50] (width ratio 100) or against scores in [100, 1000] (disjoint) are flagged.

    Returns
    -------
    str or None
        A message naming the first offending curve, or None if the scores look comparable
        (always None for a single curve).
    """
    names, items = _as_curves(curves)
    k = len(items)
    if k < 2:
        return None
    ranges = np.empty((k, 2))
    for idx, c in enumerate(items):
        finite = c.thresholds[np.isfinite(c.thresholds)]
        ranges[idx] = (finite.min(), finite.max()) if finite.size else (np.nan, np.nan)
    valid = np.isfinite(ranges[:, 0])
    for i in np.flatnonzero(valid):
        others = valid.copy()
        others[i] = False
        if not others.any():
            continue
        lo, hi = ranges[i]
        rest_lo, rest_hi = ranges[others, 0].min(), ranges[others, 1].max()
        width, rest_width = hi - lo, rest_hi - rest_lo
        narrower, wider = min(width, rest_width), max(width, rest_width)
        overlap = min(hi, rest_hi) - max(lo, rest_lo)
        frac = overlap / narrower if narrower > 0 else float(overlap >= 0)
        ratio = wider / narrower if narrower > 0 else 1.0
        if frac < MIN_RANGE_OVERLAP or ratio > MAX_SCALE_RATIO:
            rest = "the other curves" if k > 2 else repr(names[int(np.flatnonzero(others)[0])])
            return (
                f"scores of curve {names[i]!r} [{lo:.4g}, {hi:.4g}] and of {rest} "
                f"[{rest_lo:.4g}, {rest_hi:.4g}] look incommensurate (range overlap "
                f"{max(frac, 0.0):.0%} of the narrower, width ratio {ratio:.3g}); threshold "
                "averaging assumes comparable scores (Fawcett 2004, section 3.1) -- prefer "
                "vertical averaging"
            )
    return None
