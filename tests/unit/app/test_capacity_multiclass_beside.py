"""A capacity with a multi-class dataset beside a binary one (cmb001): the multi-class
model's class view has a lone top-scored positive, so its best point under the capacity
acts on fewer than one case in expectation at a low prior; the summary strip still
chooses under the capacity (as a brute force over the binary model's single thresholds
does) and shows no argument names of the core."""

from __future__ import annotations

import numpy as np
import pandas as pd

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.components import plain_text
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.text.rounding import sig
from tests.conftest import make_predictions
from tests.unit.app.uploads import upload_frames

PRIOR, SHARE = 0.1, 0.2


def _multiclass(n=600, seed=4):
    rng = np.random.default_rng(seed)
    cls = rng.integers(0, 3, n)
    raw = rng.random((n, 3))  # the others uninformative: the hull turns flat after it
    raw[0] = [50.0, 0.0, 0.0]  # one sure case of class c0, scored above all others
    cls[0] = 0
    p = raw / raw.sum(axis=1, keepdims=True)
    return pd.DataFrame({"model": "lr", "class": [f"c{k}" for k in cls],
                         **{f"score_c{k}": np.round(p[:, k], 6) for k in range(3)}})


def _brute(frame):
    """The least expected cost (c(FP) = c(FN) = 1) over single thresholds flagging at most
    SHARE of the cases at PRIOR."""
    y, s = frame["label"].to_numpy() == 1, frame["score"].to_numpy(float)
    best = np.inf
    for t in [np.inf, *np.unique(s)]:
        tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
        if PRIOR * tpr + (1 - PRIOR) * fpr <= SHARE + 1e-12:
            best = min(best, PRIOR * (1 - tpr) + (1 - PRIOR) * fpr)
    return best


def test_cmb001_a_capacity_beside_a_multiclass_dataset_still_chooses(tmp_path, monkeypatch):
    binary = make_predictions(2000, seed=1, model="rf", separation=3.0)
    store = DatasetStore(tmp_path)
    ids_ = upload_frames(store, {"grp.csv": binary, "mc.csv": _multiclass()}, monkeypatch)
    page = PageState(datasets=tuple(ids_), prior_source=ids_[0], capacity="20%",
                     conditions=ControlState(cost_fp=1.0, cost_fn=1.0, prior=PRIOR,
                                             prior_mode="manual"))
    strip = strip_update(AnalysisCache(store), page, "dct-capacity")
    ops = {tuple(o["location"]): plain_text(o["params"]["value"])
           for o in strip["summary"].to_plotly_json()["operations"] if "value" in o["params"]}
    text = " ".join(ops.values())
    assert "budget=" not in text and "fraction=" not in text and "n_total" not in text
    assert "under the capacity of 20% cases" in ops[(0,)]
    assert ops[(0,)].startswith("Use rf (grp.csv)")
    assert f"expected cost {sig(_brute(binary))} per case" in ops[(0,)]
