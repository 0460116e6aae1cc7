"""Two replicas of the app, each its own gunicorn with the project's ``gunicorn.conf.py`` (as
the Dockerfile runs it), sharing a data folder and a ``redis-server`` (started here, on
loopback), behind ``deploy/nginx.conf`` with both as its upstream (no sticky sessions): what
one replica was told, the other knows. Bounded in count and time, loopback only.

Every test fails with two replicas that do not share (separate data folders, no Redis): the
dataset uploaded through one is unknown to the other (``docs/scaling.md``)."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from types import SimpleNamespace

import pytest

from tests.hostile.conftest import Page, start_server, stop_server
from tests.replicas.conftest import (
    SIGNED,
    TTL_SECONDS,
    check_quota_across,
    check_retention_across,
    check_seen_on_both,
    csv_rows,
    figure_text,
    kill_a_mid_request,
    replica_env,
    replica_set,
    user_page,
)
from tools.redis_server import redis_server


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    """Replicas ``a`` and ``b`` (2 workers each) on one data folder and one Redis, and
    ``front``: nginx taking them in turn. Sign-in by header from 127.0.0.1; a dataset
    expires ``TTL_SECONDS`` after its last use, the sweep may run every second, one user
    may keep about two 30,000-row datasets."""
    root = tmp_path_factory.mktemp("replicas")
    data = root / "data"
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(redis_server(root / "redis"))
        r = stack.enter_context(replica_set(root, {"a": data, "b": data}, **replica_env(url)))
        yield SimpleNamespace(a=r.a, b=r.b, front=r.front, data=data, redis_url=url)


def test_scl010_uploaded_on_one_viewed_pinned_noted_removed_on_another(replicas):
    r = replicas
    on_a = user_page(r.a, "ana")
    out = on_a.upload("shared.csv", csv_rows(1))
    assert "Loaded" in out["upload-status"]["children"], out
    dataset = on_a.datasets[-1]
    on_b = user_page(r.b, "ana", [dataset])
    check_seen_on_both(on_a, on_b, dataset)
    # another user on b may read but not change it
    ben = user_page(r.b, "ben", [dataset])
    refused = ben.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "defaced"})
    assert "Only the uploader" in refused["note-status"]["children"]
    ben.remove(dataset)
    assert (r.data / "datasets" / f"{dataset}.parquet").exists()
    # removed on b by its owner (kept for the undo window), carried out by a
    on_b.remove(dataset)
    pending = r.data / "removals" / f"{dataset}.json"
    assert pending.exists() and (r.data / "datasets" / f"{dataset}.parquet").exists()
    pending.write_text(json.dumps({"due": 0, "user": json.loads(pending.read_text())
                                   ["user"]}))  # as if the window had passed
    on_a.datasets = []
    on_a.upload("other.csv", csv_rows(2))  # a's next request of the datasets callback
    assert not (r.data / "datasets" / f"{dataset}.parquet").exists()
    on_a.datasets = [dataset]
    banner = on_a.response("missing-banner.children", {"datasets.data": on_a.datasets},
                           ["datasets.data"])
    assert "shared.csv" in json.dumps(banner)


def test_scl011_through_nginx_without_sticky_sessions(replicas):
    """The page's requests through nginx land on both replicas in turn (an upload's body on
    one, the callback that reads it on the other): every one answered."""
    r = replicas
    before = {n: s.log_text().count('"POST /_dash-update-component')
              for n, s in (("a", r.a), ("b", r.b))}
    page = user_page(r.front, "cleo")
    for k in range(3):
        out = page.upload(f"via-nginx-{k}.csv", csv_rows(20 + k))
        assert "Loaded" in out["upload-status"]["children"], out
        assert f"via-nginx-{k}" in figure_text(page, [f"via-nginx-{k}"])
    after = {n: s.log_text().count('"POST /_dash-update-component')
             for n, s in (("a", r.a), ("b", r.b))}
    assert all(after[n] > before[n] for n in after), (before, after)
    assert len(page.datasets) == 3


def test_scl012_a_users_quota_holds_across_replicas(replicas):
    check_quota_across(replicas, lambda d: (replicas.data / "datasets" / f"{d}.parquet").exists())


def test_scl013_retention_holds_across_replicas(replicas):
    """A dataset looked at through b stays; one uploaded through a and left idle expires
    (whichever replica's turn the sweep is)."""
    check_retention_across(
        replicas, lambda d: (replicas.data / "datasets" / f"{d}.parquet").exists(), TTL_SECONDS)


def test_scl016_concurrent_uploads_through_nginx_lose_nothing(replicas):
    """Three signed-in people upload two files each at once through nginx (spread over
    both replicas): every upload is stored once, on each person's page, and no replica
    logged a traceback."""
    from concurrent.futures import ThreadPoolExecutor

    r = replicas
    people = {user: user_page(r.front, user) for user in ("hal", "ivy", "jon")}

    def upload(user: str, k: int):
        page = Page(r.front, headers=people[user].headers)
        out = page.upload(f"{user}-{k}.csv", csv_rows(70 + k + 10 * len(user)))
        return user, page.datasets[-1], out

    with ThreadPoolExecutor(6) as pool:
        done = list(pool.map(lambda a: upload(*a), [(u, k) for u in people for k in (1, 2)]))
    assert all("Loaded" in out["upload-status"]["children"] for _, _, out in done), done
    ids_ = [dataset for _, dataset, _ in done]
    assert len(set(ids_)) == 6
    assert all((r.data / "datasets" / f"{d}.parquet").exists() for d in ids_)
    from roc_dash.app.server.store import DatasetStore

    owners = {DatasetStore(r.data).info(d).owner for d in ids_}
    assert owners == set(people)
    assert "Traceback" not in r.a.log_text() + r.b.log_text()


def test_scl014_a_replica_killed_mid_request_loses_nothing(replicas):
    """Last in the module (replica a stays dead). A note and an upload's body were given to
    a; a is killed (SIGKILL: no clean-up) while it answers a request; through nginx every
    request then goes to b, which has all of it: the earlier dataset, its note, and the
    upload that a received but never read."""
    r = replicas
    fay_a = user_page(r.a, "fay")
    fay_a.upload("kept.csv", csv_rows(50))
    kept = fay_a.datasets[-1]
    fay_a.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "before the crash"})
    batch = secrets.token_urlsafe(24)
    assert r.a.upload(batch, "late.csv", csv_rows(51), headers={SIGNED: "fay"}).status == 200
    fay = kill_a_mid_request(r, fay_a, kept)
    out = fay.response("datasets.data", {
        "streamed-upload.data": {"batch": batch, "stamp": time.time()},
        "datasets.data": fay.datasets, "url.search": ""}, ["streamed-upload.data"])
    assert "Loaded" in out["upload-status"]["children"], out
    fay.datasets = out["datasets"]["data"]
    assert "late" in figure_text(fay, ["kept", "late"])
    for _ in range(6):  # nginx no longer sends anything to the dead replica
        assert fay.server.request("GET", "/health").status == 200


def test_scl015_a_replica_whose_redis_does_not_answer_says_so_and_serves(tmp_path):
    """Redis down (nothing listens at ROC_DASH_REDIS_URL): /ready says not ready and why,
    so that the orchestrator sends the replica no traffic; what reaches it anyway is served
    (each worker computes for itself), with no traceback."""
    from tools.processes import free_port

    server = start_server(tmp_path / "data", tmp_path / "gunicorn.log", workers=1,
                          ROC_DASH_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",
                          ROC_DASH_USER_HEADER=SIGNED, ROC_DASH_TRUSTED_PROXIES="127.0.0.1")
    try:
        assert server.request("GET", "/health").status == 200
        ready = server.request("GET", "/ready", headers={SIGNED: "ops"})
        assert ready.status == 503 and ready.json()["status"] == "not ready"
        assert any("shared analysis cache does not answer" in r
                   for r in ready.json()["reasons"]), ready.json()
        page = user_page(server, "gus")
        out = page.upload("alone.csv", csv_rows(60))
        assert "Loaded" in out["upload-status"]["children"], out
        assert "alone" in figure_text(page, ["alone"])
        assert "Traceback" not in server.log_text()
    finally:
        stop_server(server)
