"""The model list of loaded datasets (app.analysis.model_datasets): every model, in order of
first appearance, with its dataset, against pandas' ``unique`` of the combined table."""

import numpy as np
import pandas as pd

from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.features.data import apply_upload
from roc_dash.app.server.store import DatasetStore


def _csv(models, n=400, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    return pd.DataFrame({"label": y.astype(int), "score": np.round(rng.random(n), 3),
                         "model": rng.choice(models, n)}).to_csv(index=False).encode()


def test_mlo001_models_in_order_of_first_appearance_with_their_dataset(tmp_path):
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    first = apply_upload(store, [("one.csv", _csv(["zeta", "alpha", "mu"], seed=1))], [])
    both = apply_upload(store, [("two.csv", _csv(["beta", "omega"], seed=2))],
                        first.dataset_ids)
    assert first.error == "" and both.error == ""
    table = cache.table(both.dataset_ids)
    expected = [str(m) for m in pd.unique(table["model"].astype(str))]
    assert model_names(cache, both.dataset_ids) == expected
    datasets = cache.model_datasets(both.dataset_ids)
    for model in expected:  # the dataset of the model's first row
        assert datasets[model] == str(table["dataset"][table["model"] == model].iloc[0])
    assert set(datasets.values()) == set(map(str, table["dataset"].unique()))
