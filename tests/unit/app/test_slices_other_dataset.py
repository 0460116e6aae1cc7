"""The report's and the CSV's slices leave out the models of a dataset without the column."""

from __future__ import annotations

import numpy as np

from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.features.exports import sliced, slices_for_report
from roc_dash.app.state import ControlState
from roc_dash.core.analysis_types import Conditions
from roc_dash.io import ReadOptions, load_predictions
from tests.conftest import make_predictions


def _put(store, name, frame):
    result = load_predictions([(name, frame.to_csv(index=False).encode())],
                              options=ReadOptions(keep_slice_columns=True))
    return store.put(result.table, files=[name]).id


def test_sod001_a_dataset_without_the_group_column_is_not_one_group_missing(store):
    plain = make_predictions(300, seed=1)
    grouped = make_predictions(300, seed=2)
    grouped["group"] = np.where(np.arange(len(grouped)) % 2, "north", "south")
    a, b = _put(store, "plain.csv", plain), _put(store, "grouped.csv", grouped)
    cache = AnalysisCache(store)
    table = cache.table([a, b])
    models = model_names(cache, [a, b])
    assert len(models) == 2 and set(table["model"].astype(str)) == set(models)
    shown = ControlState(cost_fp=1.0, cost_fn=1.0, prior=0.3, prior_mode="manual").to_store()
    rows = sliced(table, models, shown, ["group"], None)
    assert [m for m, *_ in rows] == [m for m in models if "grouped" in m]
    report = slices_for_report(table, models, Conditions(prior_pos=0.3), ("group",))
    text = str(report)
    assert "(missing)" not in text and "north" in text
    assert not any(m in text for m in models if "plain" in m)
