"""The Table CSV's cross-validation columns (issue 17 items 1 and 8, tcv001-tcv002): each
model's fold-mean AUC and SD against scikit-learn's ``roc_auc_score`` per fold, and the
LeDell et al. (2015) interval against its formula evaluated row by row (placement values
by brute force, ties one half)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features.exports import table_csv
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.report.exports import CV_COLUMNS
from tests.conftest import DEMO_MODELS


def _ledell_naive(y, s, folds, level):
    """cvAUC's interval, one row at a time (LeDell et al. 2015, i.i.d. case)."""
    p = y.mean()
    n = y.size
    mean_squares, aucs = [], []
    for f in np.unique(folds):
        yy, ss = y[folds == f], s[folds == f]
        pos, neg = ss[yy], ss[~yy]
        a = roc_auc_score(yy, ss)
        aucs.append(a)
        ic = []
        for yi, si in zip(yy, ss, strict=True):
            if yi:
                below = np.mean((neg < si) + 0.5 * (neg == si))
                ic.append((below - a) / p)
            else:
                above = np.mean((pos > si) + 0.5 * (pos == si))
                ic.append((above - a) / (1 - p))
        mean_squares.append(np.mean(np.square(ic)))
    se = np.sqrt(np.mean(mean_squares) / n)
    z = norm.ppf(0.5 + level / 2)
    m = np.mean(aucs)
    return aucs, max(0.0, m - z * se), min(1.0, m + z * se)


def test_tcv001_demo_table_csv_has_the_cv_auc_of_each_model(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    analysis = cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3))
    table = cache.table([DEMO_ID])
    csv = pd.read_csv(io.StringIO(table_csv(analysis)))
    assert list(csv["model"]) == DEMO_MODELS
    assert set(CV_COLUMNS) <= set(csv.columns)
    for _, row in csv.iterrows():
        t = table[table["model"] == row["model"]]
        y, s = t["label"].to_numpy(dtype=bool), t["score"].to_numpy(dtype=float)
        folds = t["fold"].astype(str).to_numpy()
        aucs, low, high = _ledell_naive(y, s, folds, 0.95)
        assert row["cv_folds"] == len(aucs) == 10
        assert row["cv_auc_mean"] == pytest.approx(np.mean(aucs), abs=1e-12)
        assert row["cv_auc_sd"] == pytest.approx(np.std(aucs, ddof=1), abs=1e-12)
        assert (row["cv_auc_ci_low"], row["cv_auc_ci_high"]) == pytest.approx((low, high),
                                                                              abs=1e-10)


def test_tcv002_no_folds_leaves_the_cv_columns_empty():
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.4
    frame = pd.DataFrame({"label": y, "score": rng.normal(y * 1.0), "model": "m",
                          "fold": "1", "weight": 1.0})
    csv = pd.read_csv(io.StringIO(table_csv(analyse(frame, Conditions(prior_pos=0.4)))))
    assert csv[list(CV_COLUMNS)].isna().all(axis=None)
    assert csv["auc"].iloc[0] == pytest.approx(roc_auc_score(y, frame["score"]))
