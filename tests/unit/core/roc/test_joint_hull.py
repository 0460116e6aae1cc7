"""The joint hull from each model's hull vertices equals the hull of every curve point."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.roc.hull import hull_of_curves


def _table(seed, same_rows, decimals, weights):
    rng = np.random.default_rng(seed)
    parts = []
    n = 400
    y = rng.random(n) < 0.35
    for k, name in enumerate(["a", "b", "c"]):
        if not same_rows:
            n = int(rng.integers(150, 500))
            y = rng.random(n) < rng.uniform(0.2, 0.6)
        score = np.round(rng.normal(y * (0.4 + 0.5 * k), 1.0), decimals)
        parts.append(pd.DataFrame({
            "label": y, "score": score, "model": name,
            "fold": rng.integers(1, 4, len(y)).astype(str),
            "weight": rng.integers(1, 4, len(y)).astype(float) if weights else 1.0}))
    table = pd.concat(parts, ignore_index=True)
    table["model"] = table["model"].astype("str")
    table["fold"] = table["fold"].astype("str")
    return table


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("same_rows", [True, False])
def test_jhl001_joint_hull_from_model_hulls_equals_hull_of_all_points(seed, same_rows):
    table = _table(seed, same_rows, decimals=1 + seed % 3, weights=seed % 2 == 1)
    analysis = analyse(table)
    want = hull_of_curves({m.name: m.curve for m in analysis.models})  # every point
    got = analysis.hull
    for field in ("fpr", "tpr", "thresholds", "slope_high", "slope_low"):
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field), err_msg=field)
    assert list(got.models) == list(want.models)
    assert len(want) < sum(len(m.curve.fpr) for m in analysis.models)  # points were dropped


@pytest.mark.parametrize("seed", range(4))
def test_jhl002_curve_counts_from_one_sort_and_the_interval_from_them(seed):
    from roc_dash.core.inference.statistics import auc_confidence_interval
    from roc_dash.core.roc.curves import roc_curve, roc_curve_with_counts

    rng = np.random.default_rng(seed)
    n = 3000
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(y * 0.8, 1.0), seed)  # seed 0: heavy ties
    w = rng.integers(1, 5, n).astype(float) if seed % 2 else None
    curve, pos, neg = roc_curve_with_counts(y, s, weights=w)
    plain = roc_curve(y, s, weights=w)
    np.testing.assert_array_equal(curve.fpr, plain.fpr)
    np.testing.assert_array_equal(curve.tpr, plain.tpr)
    # naive counts per distinct score, lowest first
    values, inverse = np.unique(s, return_inverse=True)
    ww = np.ones(n) if w is None else w
    np.testing.assert_allclose(pos, np.bincount(inverse, ww * y, len(values)), rtol=0, atol=1e-9)
    np.testing.assert_allclose(neg, np.bincount(inverse, ww * ~y, len(values)), rtol=0,
                               atol=1e-9)
    # the analysis' interval (from the counts) is the row-wise DeLong interval
    table = pd.DataFrame({"label": y, "score": s, "model": pd.array(["m"] * n, dtype="str"),
                          "fold": pd.array(["1"] * n, dtype="str"),
                          "weight": ww})
    got = analyse(table).models[0].auc_ci
    want = auc_confidence_interval(y, s, weights=w, method="delong")
    for field in ("auc", "low", "high", "std_error"):
        assert getattr(got, field) == pytest.approx(getattr(want, field), rel=1e-12, abs=1e-14)
