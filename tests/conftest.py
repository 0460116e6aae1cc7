"""Shared fixtures: small prediction files built in the tests, an isolated data folder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


def make_predictions(n: int = 200, *, seed: int = 0, model: str | None = None,
                     separation: float = 1.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.random(n) < 0.4
    score = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + separation * label)))
    frame = pd.DataFrame({"label": label.astype(int), "score": np.round(score, 4)})
    if model is not None:
        frame.insert(0, "model", model)
    return frame


@pytest.fixture(autouse=True, scope="session")
def _writes_stay_in_the_session_tmp(tmp_path_factory):
    """What falls back to a default folder (the app's data folder, per-user caches and
    settings of Chromium, gunicorn, Spark) writes into this session's pytest temporary
    directory, never into the real $HOME."""
    root = tmp_path_factory.mktemp("session-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(root))
        mp.setenv("ROC_DASH_DATA_DIR", str(root / "roc-dash-data"))
        mp.setenv("XDG_CACHE_HOME", str(root / ".cache"))
        mp.setenv("XDG_CONFIG_HOME", str(root / ".config"))
        yield root


@pytest.fixture(autouse=True)
def _environment_ends_with_its_test():
    """The process environment as it was before each test, whatever the test did to it:
    several tests run ``gunicorn.conf.py`` in this process, which sets variables for the
    workers it configures (pyarrow's allocator, BLAS threads). Left behind, they reached
    later tests' child processes: the gzip bomb's read then measured 355 MB instead of
    ~170 MB on a fresh-clone run (bomb004)."""
    import os

    saved = dict(os.environ)
    yield
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def _cache_writes_end_with_their_test():
    """Big analyses go to the disk cache from a thread (``SharedCache.get_or_make``): wait
    for them after each test, so that none runs on into the next one (whose memory
    measurements would count it)."""
    yield
    from roc_dash.app.server.cache import SharedCache

    SharedCache.flush(60)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    path = tmp_path / "roc-dash-data"
    monkeypatch.setenv("ROC_DASH_DATA_DIR", str(path))
    return path
