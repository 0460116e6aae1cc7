"""The Slices card's model follows the headline (slh001): with a weak model listed first
and a strong one beside it in a dataset with a group column, the card starts on the model
the page recommends (the least expected cost over single thresholds, by brute force), not
on the first one listed."""

from __future__ import annotations

import numpy as np
import pandas as pd

from roc_dash.app.analysis import AnalysisCache, model_refs
from roc_dash.app.features.slices import headline_key, model_choice
from roc_dash.app.page_state import PageState
from roc_dash.app.state import ControlState
from roc_dash.io import ReadOptions, load_predictions
from roc_dash.io.slice_columns import slice_choices
from tests.conftest import make_predictions


def _cheapest(frame, p=0.3):
    """The model whose best single threshold costs least (c(FP) = c(FN) = 1, prior p)."""
    costs = {}
    for name, rows in frame.groupby("model"):
        y, s = rows["label"].to_numpy() == 1, rows["score"].to_numpy(float)
        costs[name] = min(p * (1 - (s[y] >= t).mean()) + (1 - p) * (s[~y] >= t).mean()
                          for t in [np.inf, *np.unique(s)])
    return min(costs, key=costs.get)


def test_slh001_the_card_starts_on_the_headlines_model(store):
    weak = make_predictions(400, seed=1, model="aweak", separation=0.3)
    strong = make_predictions(400, seed=1, model="strong", separation=3.0)
    frame = pd.concat([weak, strong], ignore_index=True)
    frame["group"] = np.where(np.arange(len(frame)) % 2, "north", "south")
    result = load_predictions([("g.csv", frame.to_csv(index=False).encode())],
                              options=ReadOptions(keep_slice_columns=True))
    dataset = store.put(result.table, files=["g.csv"]).id
    cache = AnalysisCache(store)
    refs = model_refs(cache, [dataset])
    keys = list(refs)
    assert refs[keys[0]].startswith("aweak")  # the first listed is the weak one
    page = PageState(datasets=(dataset,), conditions=ControlState(
        cost_fp=1.0, cost_fn=1.0, prior=0.3, prior_mode="manual"))
    choices = slice_choices(cache.table([dataset]))
    chosen = model_choice(store, keys, None, None, choices, [choices.default],
                          lambda: headline_key(cache, page, refs))
    assert refs[chosen].startswith(_cheapest(frame)) and _cheapest(frame) == "strong"
