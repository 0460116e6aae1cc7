"""Big analyses on a team server do not take every thread of a worker (issue 14, "a team server
that no one can knock over"; roc_dash.app.server.budget.TIED): one worker of 4 threads, an
upload of 1,000,000 rows (40 models) that counts as big (``ROC_DASH_HEAVY_ROWS`` set low),
and more views callbacks at once than the worker has threads, each for other models (each
its own analysis of ~1 s or more, one at a time per worker). Before, every thread ended up
waiting for the big-analysis slot and /health queued behind them; now at most three are
tied, the others are answered 503 + Retry-After at once, /health stays fast, and requests
sent again after Retry-After (as the page does) get their views.
"""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.server.budget import TIED_RETRY_AFTER
from tools.dash_requests import VIEWS_CALLBACK, views_values

from .conftest import HealthWatch, Page, start_server, stop_server

MODELS = 40
ROWS = 25_000  # per model
CALLS = 9  # views callbacks sent at once: more than the 4 threads


@pytest.fixture(scope="module")
def busy_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("tied")
    server = start_server(root / "data", root / "gunicorn.log", workers=1,
                          ROC_DASH_THREADS=4, ROC_DASH_HEAVY_ROWS=1000)
    try:
        yield server
    finally:
        stop_server(server)


def _wide_csv() -> bytes:
    """One label column and a score column per model (seeded)."""
    rng = np.random.default_rng(14)
    label = rng.integers(0, 2, ROWS)
    columns = {"label": label}
    for j in range(MODELS):
        columns[f"m{j:02d}"] = np.round(label * (0.2 + j / MODELS) + rng.normal(0, 1, ROWS), 4)
    return pd.DataFrame(columns).to_csv(index=False).encode()


def test_tie101_surplus_views_get_503_and_health_stays_fast(busy_server):
    page = Page(busy_server, secrets.token_urlsafe(24))
    out = page.upload("wide.csv", _wide_csv())
    assert "1,000,000 rows" in out["upload-status"]["children"], out
    names = [f"m{j:02d}" for j in range(MODELS)]
    # each callback its own models (all but one): its own big analysis
    wanted = [[m for m in names if m != names[i]] for i in range(CALLS)]

    def views(models):
        return busy_server.callback(VIEWS_CALLBACK, views_values(page.datasets, models),
                                    ["datasets.data"], page.headers)

    with HealthWatch(busy_server, every=0.2) as health, ThreadPoolExecutor(CALLS) as pool:
        first = list(pool.map(views, wanted))
        statuses = [r.status for r in first]
        assert set(statuses) <= {200, 503}, [(r.status, r.body[:200]) for r in first]
        refused = [r for r in first if r.status == 503]
        assert refused, statuses  # at most three of the four threads tied
        for r in refused:
            assert r.headers["Retry-After"] == str(TIED_RETRY_AFTER)
            assert "finishing a large analysis" in r.error and "Traceback" not in r.error
        # sent again after Retry-After, as the page does: each gets its views
        again = list(pool.map(
            lambda i: Page.call(page, VIEWS_CALLBACK,
                                views_values(page.datasets, wanted[i]), ["datasets.data"]),
            [i for i, r in enumerate(first) if r.status == 503]))
    assert [r.status for r in again] == [200] * len(refused)
    for r in [*first, *again]:
        if r.status == 200:
            assert len(r.json()["response"]["roc-graph"]["figure"]["data"]) >= MODELS - 1
    health.assert_fast()
    log = busy_server.log_text()
    assert "Traceback" not in log, log[-3000:]
