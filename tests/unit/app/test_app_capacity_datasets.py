"""A capacity in cases with datasets of different sizes (cap001-cap002): K cases are another
share of each dataset's cases, so each model is held to its own share (as the capacity card
computes it), by brute force; a capacity larger than a dataset is refused alike by the card,
the summary strip and Download decision."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.app.analysis import AnalysisCache, shown_analysis
from roc_dash.app.components import plain_text
from roc_dash.app.constrained import page_constrained
from roc_dash.app.features.data import apply_upload
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState, economics_from_state
from tests.conftest import make_predictions

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=4.0, prior=0.4, prior_mode="manual")


@pytest.fixture
def sizes(tmp_path, monkeypatch):
    """Two uploads: 1,000 rows of model "big" and 300 rows of model "small"."""
    import roc_dash.app.features.data as data
    import roc_dash.app.features.exports as exports

    for module in (data, exports):
        monkeypatch.setattr(module, "current_owner", lambda: "key:ana")
    store = DatasetStore(tmp_path)
    frames = {"big.csv": make_predictions(1000, seed=1, model="big", separation=1.5),
              "small.csv": make_predictions(300, seed=2, model="small", separation=2.5)}
    ids_ = []
    for name, frame in frames.items():
        ids_ = apply_upload(store, [(name, frame.to_csv(index=False).encode())], ids_
                            ).dataset_ids
    return store, AnalysisCache(store), ids_, frames


def _brute(frame, share):
    """The least expected cost at the conditions over the single thresholds flagging at
    most ``share`` of the rows: ``(cost, threshold)``."""
    y, s = frame["label"].to_numpy() == 1, frame["score"].to_numpy(float)
    best = (np.inf, None)
    for t in [np.inf, *np.unique(s)]:
        tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
        if 0.4 * tpr + 0.6 * fpr <= share + 1e-12:
            best = min(best, (0.4 * (1 - tpr) * 4.0 + 0.6 * fpr, t), key=lambda b: b[0])
    return best


def test_cap001_each_model_is_held_to_its_own_share_of_the_cases(sizes):
    store, cache, ids_, frames = sizes
    page = PageState(datasets=tuple(ids_), conditions=CONDITIONS, capacity="150")
    analysis = shown_analysis(cache, page)
    chosen = page_constrained(page, analysis, None, economics_from_state(
        page.control.to_store()), n_boot=0)
    # 150 cases: 15% of big's 1,000 rows, 50% of small's 300
    options = {name: _brute(frames[f"{name}.csv"], 150 / len(frames[f"{name}.csv"]))
               for name in ("big", "small")}
    cost, name = min((c, n) for n, (c, _) in options.items())
    assert chosen.pinned["model"].startswith(name)
    assert chosen.pinned["threshold"] == pytest.approx(options[name][1])
    # the first dataset's share (15%) for both, as before, would choose otherwise
    assert _brute(frames["small.csv"], 0.15)[1] != options["small"][1]


def test_cap002_a_capacity_larger_than_a_dataset_is_refused_alike(sizes):
    from roc_dash.app.constrained import capacity_too_big, parse_settings
    from roc_dash.app.features import exports
    from roc_dash.app.features.constrained_strip import strip_update

    store, cache, ids_, _ = sizes
    page = PageState(datasets=tuple(ids_), conditions=CONDITIONS, capacity="500")
    analysis = shown_analysis(cache, page)
    card = capacity_too_big(parse_settings("500", "")[0], analysis)
    assert card.startswith("Capacity not used: 500 cases is more than the 300 cases of model")
    strip = strip_update(cache, page, "dct-capacity")
    ops = {tuple(o["location"]): o["params"]["value"]
           for o in strip["summary"].to_plotly_json()["operations"]}
    assert card.rstrip(".") in plain_text(ops[(1,)])
    file, status = exports.decision_download(cache, store, page, analysis)
    assert status == f"Nothing was downloaded: {card}"
