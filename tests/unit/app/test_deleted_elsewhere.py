"""A dataset its owner deleted is gone from every worker at once (stranger review, 26 Nov):
each worker's memory caches (tables, analyses, overlays) are keyed by the datasets still
stored, so another worker's cached copy is never served again; a file that disappears while
being read is "not found", never a 500."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.features.data import apply_upload
from roc_dash.app.render import render_views
from roc_dash.app.server.store import DatasetNotFound, DatasetStore
from roc_dash.core.analysis_types import Conditions


def _csv(seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 300)
    s = np.clip(0.3 * y + rng.random(300) * 0.7, 0, 1)
    rows = "".join(f"{a},{b:.4f},late\n" for a, b in zip(y, s, strict=True))
    return ("label,score,model\n" + rows).encode()


def _curves(views) -> list[str]:
    return [t.name for t in views[0].data if "(AUC" in (t.name or "")]


def test_dlw001_a_deletion_in_one_worker_empties_the_others_caches(tmp_path):
    one, two = DatasetStore(tmp_path), DatasetStore(tmp_path)  # two workers, one folder
    cache_two = AnalysisCache(two)
    out = apply_upload(one, [("late.csv", _csv(1))], [])
    ids = out.dataset_ids
    names = model_names(cache_two, ids)
    assert "late" in names
    before = render_views(cache_two, ids, names, Conditions(prior_pos=0.4))
    assert _curves(before) and two.get(ids[-1]) is not None  # now in worker two's memory
    assert one.delete(ids[-1])
    rest = [i for i in ids if i != ids[-1]]
    assert "late" not in model_names(cache_two, ids)
    assert model_names(cache_two, ids) == model_names(cache_two, rest)
    after = render_views(cache_two, ids, names, Conditions(prior_pos=0.4))
    assert not any("late" in n for n in _curves(after))
    with pytest.raises(DatasetNotFound):
        two.get(ids[-1])
    assert two.present(ids) == tuple(rest)


def test_dlw002_a_file_that_vanishes_while_read_is_not_found(tmp_path, monkeypatch):
    import roc_dash.app.server.store as store_module

    store = DatasetStore(tmp_path)
    out = apply_upload(store, [("late.csv", _csv(2))], [])
    new = out.dataset_ids[-1]
    fresh = DatasetStore(tmp_path)  # nothing cached
    real = store_module.pd.read_parquet

    def deleted_meanwhile(path, *args, **kwargs):
        for gone in (tmp_path / "datasets").glob(f"{new}.*"):
            gone.unlink()  # the owner's delete, between any check and the read
        return real(path, *args, **kwargs)

    monkeypatch.setattr(store_module.pd, "read_parquet", deleted_meanwhile)
    with pytest.raises(DatasetNotFound):
        fresh.get(new)
    with pytest.raises(DatasetNotFound):
        fresh.info(new)
