"""Fixtures shared by the unit tests: a dataset store on ``tmp_path`` and the analysis cache
on it (the demo dataset is always there); a module's cache and its analysis of the demo's
models at prior 0.3."""

from __future__ import annotations

import pytest

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions
from tests.conftest import DEMO_MODELS


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


@pytest.fixture(scope="module")
def demo_cache(tmp_path_factory):
    """An analysis cache shared by a module's tests (do not add datasets to it)."""
    return AnalysisCache(DatasetStore(tmp_path_factory.mktemp("demo-cache")))


@pytest.fixture(scope="module")
def demo_analysis(demo_cache):
    """The analysis of the demo's four models at prior p(+) = 0.3 (read once per module)."""
    return demo_cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.3))
