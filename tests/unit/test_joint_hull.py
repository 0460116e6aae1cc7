"""The joint hull from each model's hull vertices equals the hull of every curve point."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.hull import hull_of_curves


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
