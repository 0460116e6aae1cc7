"""Fold counts per dataset (fld001-fld002): a dataset without folds beside one with five;
the ROC's caption puts the folds on the dataset that has them and names the other, and a
pinned point of the dataset without folds says nothing of folds (the counts are read from
the uploaded tables themselves)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from roc_dash.app.analysis import AnalysisCache, shown_analysis
from roc_dash.app.components import operating_panel, plain_text
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.core.decisions.operating import operating_point
from roc_dash.figures.roc import roc_figure
from tests.conftest import make_predictions
from tests.unit.app.uploads import upload_frames

FOLDS = 5


@pytest.fixture
def mixed(tmp_path, monkeypatch):
    """``plain.csv`` (model "p", no fold column) and ``cv.csv`` (model "c", 5 folds)."""
    store = DatasetStore(tmp_path)
    cv = make_predictions(500, seed=2, model="c")
    cv.insert(1, "fold", np.arange(len(cv)) % FOLDS + 1)
    frames = {"plain.csv": make_predictions(400, seed=1, model="p"), "cv.csv": cv}
    ids_ = upload_frames(store, frames, monkeypatch)
    page = PageState(datasets=tuple(ids_), conditions=ControlState(
        cost_fp=1.0, cost_fn=1.0, prior=0.4, prior_mode="manual"))
    return shown_analysis(AnalysisCache(store), page), frames


def test_fld001_the_roc_caption_names_each_datasets_folds(mixed):
    analysis, frames = mixed
    counts = {name: frame["fold"].nunique() if "fold" in frame else 1
              for name, frame in frames.items()}
    assert counts == {"plain.csv": 1, "cv.csv": FOLDS}
    title = roc_figure(analysis).layout.title.text
    assert title.startswith(f"cv.csv: {counts['cv.csv']} folds pooled")
    assert "plain.csv: no folds" in title


def test_fld002_a_pin_speaks_of_its_own_models_folds(mixed):
    analysis, _ = mixed
    by_name = {m.name.split(" ")[0]: m for m in analysis.models}
    texts = {}
    for short, m in by_name.items():
        op = operating_point(analysis, {"model": m.name, "threshold": 0.5})
        op = dataclasses.replace(op, pinned=True, label="A")
        texts[short] = plain_text(operating_panel(op, analysis))
    assert "folds" not in texts["p"]
    assert f"pinned A (pooled predictions of {FOLDS} folds)" in texts["c"]
