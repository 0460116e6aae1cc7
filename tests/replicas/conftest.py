"""Fixtures of the replicas' tests: a ``redis-server`` of their own (started here on a free
loopback port, nothing saved; ``make redis-deps`` installs it) and ``ROC_DASH_REDIS_URL``
pointing at it for the tests that run the app in this process; and what the tests of
replicas behind nginx share (:func:`replica_set`, a user's page on a replica, a CSV)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
import pytest

from tests.hostile.conftest import Page, start_server, stop_server
from tests.hostile.test_nginx import nginx_in_front
from tools.dash_requests import VIEWS_CALLBACK, views_values
from tools.redis_server import REDIS_SERVER, redis_server

#: The header a sign-in proxy sets (believed from 127.0.0.1).
SIGNED = "X-Forwarded-User"
#: Who can sign in at nginx.
FRONT_USERS = ("cleo", "fay", "hal", "ivy", "jon")
#: Seconds after its last use that a dataset expires on the replicas.
TTL_SECONDS = 8


def replica_env(redis_url: str, **more) -> dict:
    """What replicas sharing ``redis_url`` run with: sign-in by header from 127.0.0.1, a
    dataset expiring :data:`TTL_SECONDS` after its last use, a sweep that may run every
    second, one user keeping about two 30,000-row datasets; and ``more``."""
    return dict(ROC_DASH_REDIS_URL=redis_url, ROC_DASH_USER_HEADER=SIGNED,
                ROC_DASH_TRUSTED_PROXIES="127.0.0.1",
                ROC_DASH_DATASET_TTL_DAYS=TTL_SECONDS / 86400, ROC_DASH_SWEEP_SECONDS=1,
                ROC_DASH_USER_QUOTA_MB=0.75, **more)


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


def check_seen_on_both(on_a: Page, on_b: Page, dataset: str) -> None:
    """What ``on_a`` uploaded (``dataset``, model ``shared``) is viewed and pinned on
    ``on_b``; a note written on b is read on a, a view saved on a is listed on b."""
    assert "shared" in figure_text(on_b, ["shared"])
    pin = {"dataset": dataset, "model": "shared", "threshold": 0.5, "label": "A"}
    values = {**views_values(on_b.datasets, ["shared"]), "pinned.data": [pin]}
    pinned = on_b.response(VIEWS_CALLBACK, values, ["pinned.data"])
    assert "shared" in json.dumps(pinned["roc-graph"]["figure"]["data"])
    on_b.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "decided on b"})
    assert on_a.notes()["note"]["value"] == "decided on b"
    on_a.notes("save-view.n_clicks", **{"save-view.n_clicks": 1, "view-name.value": "v1",
                                        "url.search": "?cfn=3"})
    assert [v["name"] for v in on_b.notes()["views-data"]["data"]] == ["v1"]


def check_quota_across(r, stored: Callable[[str], bool]) -> None:
    """One user uploads 3 x ~0.35 MB through a, b, a over a 0.75 MB quota: the oldest
    dataset is removed, the two newest stay (``stored(dataset)``: its table is kept)."""
    dan_a, dan_b = user_page(r.a, "dan"), user_page(r.b, "dan")
    uploaded = []
    for k, page in enumerate((dan_a, dan_b, dan_a)):
        page.datasets = list(uploaded)
        out = page.upload(f"dan{k}.csv", csv_rows(30 + k, 30_000))
        assert "Loaded" in out["upload-status"]["children"], out
        uploaded.append(page.datasets[-1])
    on = {d: stored(d) for d in uploaded}
    assert on[uploaded[2]] and sum(on.values()) == 2, on


def check_retention_across(r, stored: Callable[[str], bool], ttl: float) -> None:
    """A dataset looked at through b stays; one uploaded through a and left idle expires
    after about ``ttl`` seconds (``stored(dataset)``: its table is kept)."""
    eve_a = user_page(r.a, "eve")
    eve_a.upload("watched.csv", csv_rows(40))
    watched = eve_a.datasets[-1]
    eve_a.upload("idle.csv", csv_rows(41))
    idle = eve_a.datasets[-1]
    eve_b = user_page(r.b, "eve", [watched])
    t0 = time.monotonic()
    while stored(idle):
        assert time.monotonic() - t0 < 6 * ttl, "the idle dataset did not expire"
        assert "watched" in figure_text(eve_b, ["watched"])
        time.sleep(0.5)
    assert time.monotonic() - t0 > ttl / 2
    assert "watched" in figure_text(eve_b, ["watched"])
    assert stored(watched)


def kill_a_mid_request(r, fay_a: Page, kept: str) -> Page:
    """Replica ``a`` killed (SIGKILL: no clean-up) while it answers ``fay_a``'s request;
    then fay's page through nginx (only b left) still has the dataset ``kept`` and the
    note written before the crash. Returns that page."""
    in_flight = []
    request = threading.Thread(target=lambda: in_flight.append(
        attempt(lambda: fay_a.views(["kept"]))))
    request.start()
    os.killpg(r.a.proc.pid, signal.SIGKILL)
    r.a.proc.wait(timeout=30)
    request.join(60)
    assert not request.is_alive()
    fay = user_page(r.front, "fay", [kept])
    assert fay.notes()["note"]["value"] == "before the crash"
    assert "kept" in figure_text(fay, ["kept"])
    return fay


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
