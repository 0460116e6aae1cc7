"""A long-form file names at most ``ROC_DASH_MAX_MODELS`` models in its model column (stranger
review, 26 Nov: 800k rows naming 400k models were accepted, and the page's model lists then
sent 46 MB per request). Wide form was capped before (lim011); the model column is now too,
on every reading path, before the names reach a page."""

from __future__ import annotations

import pandas as pd
import pytest
from dash import no_update

from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.features.data import apply_upload
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.io import load_predictions
from roc_dash.io.errors import LimitError


def _long(n_models: int, per_model: int = 2) -> bytes:
    rows = "".join(f"{i % 2},0.{(i * 7) % 97 + 1:02d},m{i // per_model}\n"
                   for i in range(n_models * per_model))
    return ("label,score,model\n" + rows).encode()


def test_lmc001_model_column_names_at_most_the_limit(monkeypatch):
    with pytest.raises(LimitError) as info:
        load_predictions([("many.csv", _long(300))])
    text = str(info.value)
    assert text.startswith("many.csv: column 'model' names 300 models, more than the 200 "
                           "models accepted per file")
    assert info.value.variable == "ROC_DASH_MAX_MODELS" and info.value.column == "model"
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "300")
    table = load_predictions([("many.csv", _long(300))]).table
    assert table["model"].nunique() == pd.Series([f"m{i}" for i in range(300)]).nunique()
    assert len(load_predictions([("few.csv", _long(200))]).table) == 400  # at the limit


def test_lmc002_a_refused_upload_keeps_the_page_as_it_was(tmp_path):
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    before = model_names(cache, [DEMO_ID])
    out = apply_upload(store, [("many.csv", _long(250))], [DEMO_ID])
    assert out.dataset_ids is no_update  # the page's datasets are left as they were
    assert "many.csv" in out.error and "ROC_DASH_MAX_MODELS" in out.error
    assert model_names(cache, [DEMO_ID]) == before
    assert not list((tmp_path / "datasets").glob("*.parquet"))  # nothing stored


def test_lmc003_a_grouping_engine_counts_them_too(tmp_path, monkeypatch):
    from roc_dash.io.engines import aggregate_predictions

    path = tmp_path / "many.csv"
    path.write_bytes(_long(12))
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "10")
    with pytest.raises(LimitError) as info:
        aggregate_predictions([str(path)], engine="duckdb")
    assert "names 12 models, more than the 10 models accepted per file" in str(info.value)
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "12")
    assert aggregate_predictions([str(path)], engine="duckdb").table["model"].nunique() == 12


def test_lmc004_files_read_together_name_at_most_the_limit_between_them(monkeypatch):
    """Stranger review 2 (N2): the cap was per file, so one drop of 20 files of 200 models
    made a dataset of 4,000 (and 20 such datasets, a page's most, answers of 100 MB). Files
    read as one dataset share the cap; files named after themselves count one each."""
    def part(k: int, n: int) -> tuple[str, bytes]:
        rows = "".join(f"{i % 2},0.{(i * 7) % 97 + 1:02d},f{k}m{i // 2}\n" for i in range(2 * n))
        return f"part{k}.csv", ("label,score,model\n" + rows).encode()

    with pytest.raises(LimitError) as info:
        load_predictions([part(0, 150), part(1, 150)])
    text = str(info.value)
    assert text.startswith("part0.csv, part1.csv: these 2 files name 300 models together, more "
                           "than the 200 models accepted per dataset")
    assert info.value.variable == "ROC_DASH_MAX_MODELS"
    assert load_predictions([part(0, 100), part(1, 100)]).table["model"].nunique() == 200
    plain = [(f"m{i}.csv", f"label,score\n1,0.9{i}\n0,0.2\n".encode()) for i in range(3)]
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "3")  # three files named after themselves
    assert load_predictions(plain).table["model"].nunique() == 3
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "2")
    with pytest.raises(LimitError, match="these 3 files name 3 models together"):
        load_predictions(plain)
