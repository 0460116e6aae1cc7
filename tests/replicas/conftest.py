"""Fixtures of the replicas' tests: a ``redis-server`` of their own (started here on a free
loopback port, nothing saved; ``make redis-deps`` installs it) and ``ROC_DASH_REDIS_URL``
pointing at it for the tests that run the app in this process; and what the tests of
replicas behind nginx share (:func:`replica_set`, a user's page on a replica, a CSV)."""

from __future__ import annotations

import base64
import contextlib
import json
from types import SimpleNamespace

import numpy as np
import pytest

from tests.hostile.conftest import Page, start_server, stop_server
from tests.hostile.test_nginx import nginx_in_front
from tools.redis_server import REDIS_SERVER, redis_server

#: The header a sign-in proxy sets (believed from 127.0.0.1).
SIGNED = "X-Forwarded-User"
#: Who can sign in at nginx.
FRONT_USERS = ("cleo", "fay", "hal", "ivy", "jon")


@contextlib.contextmanager
def replica_set(root, data_dirs: dict, **env):
    """Replicas (gunicorn with 2 workers each, ``data_dirs``: ``{name: data folder}``, the
    same folder for replicas that share one) with ``env``, and nginx in front taking them
    in turn, signing in :data:`FRONT_USERS` with a password; yields
    ``SimpleNamespace(<name>=server, ..., front=nginx)``; all stopped on exit."""
    with contextlib.ExitStack() as stack:
        servers = {}
        for name, data in data_dirs.items():
            servers[name] = start_server(data, root / f"gunicorn-{name}.log", workers=2,
                                         **env)
            stack.callback(stop_server, servers[name])
        users = root / "htpasswd"  # nginx signs people in (and sets the user header)
        users.write_text("".join(f"{u}:{{PLAIN}}pw-{u}\n" for u in FRONT_USERS))
        front = stack.enter_context(nginx_in_front(
            SimpleNamespace(port=[s.port for s in servers.values()],
                            data_dir=next(iter(data_dirs.values()))),
            root / "nginx", basic_auth=users))
        yield SimpleNamespace(**servers, front=front)


def csv_rows(seed: int, n: int = 2000) -> bytes:
    """A ``label,score`` CSV of ``n`` random rows."""
    rng = np.random.default_rng(seed)
    rows = "".join(f"{int(rng.random() < 0.4)},{rng.random():.6f}\n" for _ in range(n))
    return ("label,score\n" + rows).encode()


def user_page(server, user: str, datasets=None) -> Page:
    """``user``'s page on a replica (the user header, believed from 127.0.0.1) or, for
    nginx, signed in there with a password."""
    if user in FRONT_USERS and server.workers_wanted == 0:
        token = base64.b64encode(f"{user}:pw-{user}".encode()).decode()
        page = Page(server, headers={"Authorization": f"Basic {token}"})
    else:
        page = Page(server, headers={SIGNED: user})
    if datasets is not None:
        page.datasets = list(datasets)
    return page


def figure_text(page: Page, models: list[str]) -> str:
    """The ROC figure's traces of ``models`` on the page, as JSON text."""
    return json.dumps(page.views(models)["roc-graph"]["figure"]["data"])


def attempt(call):
    """``call()``, or the error of a connection cut by a replica killed meanwhile."""
    try:
        return call()
    except (AssertionError, OSError) as exc:
        return exc


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
