"""Fixtures shared by the unit tests: a dataset store on ``tmp_path`` and the analysis cache
on it (the demo dataset is always there)."""

from __future__ import annotations

import pytest

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.server.store import DatasetStore


@pytest.fixture
def store(tmp_path):
    return DatasetStore(tmp_path)


@pytest.fixture
def cache(store):
    return AnalysisCache(store)


@pytest.fixture(scope="module")
def demo():
    """The demo dataset's canonical table (read once per module; do not change it)."""
    from roc_dash.app.server.store import load_demo

    return load_demo().table
