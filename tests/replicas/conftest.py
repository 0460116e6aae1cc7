"""Fixtures of the replicas' tests: a ``redis-server`` of their own (started here on a free
loopback port, nothing saved; ``make redis-deps`` installs it) and ``ROC_DASH_REDIS_URL``
pointing at it for the tests that run the app in this process."""

from __future__ import annotations

import pytest

from tools.redis_server import REDIS_SERVER, redis_server


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A running redis-server's URL (one per test module; the tests flush it as they need)."""
    if REDIS_SERVER is None:
        pytest.fail("redis-server is not installed: make redis-deps")
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def shared_env(redis_url, monkeypatch):
    """``ROC_DASH_REDIS_URL`` set for this test, and Redis emptied before it."""
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    monkeypatch.setenv("ROC_DASH_REDIS_URL", redis_url)
    return redis_url
