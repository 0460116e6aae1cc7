"""Shared fixtures (small prediction files built in the tests, an isolated data folder, an app
on it) and the test tiers.

The tiers: every test that starts a server (gunicorn, nginx, a subprocess serving the app),
drives a browser (``dash_duo``), runs a Jupyter kernel or a JVM (Spark), or takes more than a
few seconds on its own is marked ``slow`` here (with ``browser``, ``server``, ``kernel`` or
``spark`` saying why), by its folder, by the fixtures it uses, or by an explicit mark in its
module. ``make test`` runs ``-m "not slow"`` (the quick tier), ``make test-all`` runs all.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

TESTS = Path(__file__).resolve().parent
#: The package's data folder (the demo predictions and the examples).
DATA = TESTS.parent / "roc_dash" / "data"
#: The demo dataset's models, in its order.
DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
#: Every test under these folders is in the slow tier, with this reason.
SLOW_FOLDERS = {"browser": "browser", "hostile": "server", "replicas": "server"}
#: Fixtures that start a browser, a server or a kernel: a test using one is slow.
SLOW_FIXTURES = {"dash_duo": "browser", "dash_br": "browser", "dash_thread_server": "server",
                 "dash_process_server": "server", "dash_multi_process_server": "server",
                 "open_server": "server", "signed_in_server": "server"}
#: The reasons a test is slow (each also marks it ``slow``).
REASONS = ("browser", "server", "kernel", "spark")


def slow_reasons(path: Path, fixtures, marks) -> set[str]:
    """Why a test at ``path`` using ``fixtures`` with ``marks`` (names) is in the slow tier:
    its folder, its fixtures, its explicit marks; empty for a quick test."""
    reasons = {SLOW_FIXTURES[f] for f in fixtures if f in SLOW_FIXTURES}
    parts = path.relative_to(TESTS).parts if path.is_relative_to(TESTS) else ()
    if parts and parts[0] in SLOW_FOLDERS:
        reasons.add(SLOW_FOLDERS[parts[0]])
    reasons |= set(marks) & set(REASONS)
    if reasons or "slow" in marks:
        reasons.add("slow")
    return reasons


def pytest_collection_modifyitems(config, items):
    for item in items:
        marks = {m.name for m in item.iter_markers()}
        for name in sorted(slow_reasons(Path(item.path), item.fixturenames, marks) - marks):
            item.add_marker(getattr(pytest.mark, name))


def make_predictions(n: int = 200, *, seed: int = 0, model: str | None = None,
                     separation: float = 1.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.random(n) < 0.4
    score = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + separation * label)))
    frame = pd.DataFrame({"label": label.astype(int), "score": np.round(score, 4)})
    if model is not None:
        frame.insert(0, "model", model)
    return frame


def binormal(seed: int, n: int, prevalence: float, shift: float):
    """``(y, s)``: labels positive with probability ``prevalence`` and normal scores, the
    positives' shifted up by ``shift`` (drawn in that order from ``default_rng(seed)``)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    return y, rng.normal(size=n) + shift * y


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


@pytest.fixture
def app(tmp_path):
    """The dashboard on an empty data folder under ``tmp_path``."""
    from roc_dash.app import create_app

    return create_app(data_dir=tmp_path / "data")
