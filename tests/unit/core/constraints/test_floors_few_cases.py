"""Floors whose best point flags fewer than one case in expectation (flc001): the best hull
point's count of cases is derived, not typed, so a count below one is not refused as "a
fraction"; the threshold is checked against a brute force over the single thresholds."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.core.constraints import Floor, floor_decision
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.roc.curves import roc_curve


def _brute(y, s, p, share):
    """Least expected cost (c(FP) = c(FN) = 1) over the single thresholds flagging at most
    ``share`` of the cases at prior ``p``: ``(cost, threshold)``."""
    best = (np.inf, None)
    for t in [np.inf, *np.unique(s)]:
        tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
        if p * tpr + (1 - p) * fpr <= share + 1e-12:
            best = min(best, (p * (1 - tpr) + (1 - p) * fpr, t), key=lambda b: b[0])
    return best


def test_flc001_a_best_point_flagging_under_one_case_is_chosen():
    rng = np.random.default_rng(3)
    y = np.r_[True, rng.random(499) < 0.5]
    s = np.r_[10.0, rng.normal(size=499) + 0.3 * y[1:]]  # one sure positive, then weak
    p = 0.1
    d = floor_decision(roc_curve(y, s), (Floor("flagged", "<=", 0.2),), prior_pos=p,
                       economics=Economics(cost_fp=1.0, cost_fn=1.0))
    # the best point acts on p·TPR·n = 0.1 · (1/P) · 500 < 1 case
    assert p * (1 / y.sum()) * y.size < 1
    cost, threshold = _brute(y, s, p, 0.2)
    assert d.threshold == pytest.approx(threshold)
    assert d.expected_cost == pytest.approx(cost)
    assert d.best is not None
