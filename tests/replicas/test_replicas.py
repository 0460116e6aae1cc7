"""Two replicas of the app, each its own gunicorn with the project's ``gunicorn.conf.py`` (as
the Dockerfile runs it), sharing a data folder and a ``redis-server`` (started here, on
loopback), behind ``deploy/nginx.conf`` with both as its upstream (no sticky sessions): what
one replica was told, the other knows. Bounded in count and time, loopback only.

Every test fails with two replicas that do not share (separate data folders, no Redis): the
dataset uploaded through one is unknown to the other (``docs/scaling.md``)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import signal
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from tests.hostile.conftest import Page, start_server, stop_server
from tests.hostile.test_nginx import nginx_in_front
from tools.dash_requests import VIEWS_CALLBACK, views_values
from tools.redis_server import redis_server

SIGNED = "X-Forwarded-User"
TTL_SECONDS = 8
#: Who can sign in at nginx.
FRONT_USERS = ("cleo", "fay", "hal", "ivy", "jon")


def _csv(seed: int, n: int = 2000) -> bytes:
    rng = np.random.default_rng(seed)
    rows = "".join(f"{int(rng.random() < 0.4)},{rng.random():.6f}\n" for _ in range(n))
    return ("label,score\n" + rows).encode()


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
        env = dict(ROC_DASH_REDIS_URL=url, ROC_DASH_USER_HEADER=SIGNED,
                   ROC_DASH_TRUSTED_PROXIES="127.0.0.1",
                   ROC_DASH_DATASET_TTL_DAYS=TTL_SECONDS / 86400, ROC_DASH_SWEEP_SECONDS=1,
                   ROC_DASH_USER_QUOTA_MB=0.75)
        servers = {}
        for name in ("a", "b"):
            servers[name] = start_server(data, root / f"gunicorn-{name}.log", workers=2, **env)
            stack.callback(stop_server, servers[name])
        users = root / "htpasswd"  # nginx signs people in (and sets the user header)
        users.write_text("".join(f"{u}:{{PLAIN}}pw-{u}\n" for u in FRONT_USERS))
        front = stack.enter_context(nginx_in_front(
            SimpleNamespace(port=[servers["a"].port, servers["b"].port], data_dir=data),
            root / "nginx", basic_auth=users))
        yield SimpleNamespace(a=servers["a"], b=servers["b"], front=front, data=data,
                              redis_url=url)


def _page(server, user: str, datasets=None) -> Page:
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


def _on_disk(r):
    """``has_table(dataset)``: whether the dataset's table is in the replicas' data folder."""
    return lambda dataset: (r.data / "datasets" / f"{dataset}.parquet").exists()


def _figure_text(page: Page, models: list[str]) -> str:
    return json.dumps(page.views(models)["roc-graph"]["figure"]["data"])


def test_scl010_uploaded_on_one_viewed_pinned_noted_removed_on_another(replicas):
    r = replicas
    on_a, dataset = _uploaded_on_a(r)
    on_b = _page(r.b, "ana", [dataset])
    ben = _page(r.b, "ben", [dataset])  # another user on b may read but not change it
    _viewed_pinned_noted_on_b(on_a, on_b, ben, dataset)
    ben.remove(dataset)
    assert (r.data / "datasets" / f"{dataset}.parquet").exists()
    # removed on b by its owner (kept for the undo window), carried out by a
    on_b.remove(dataset)
    pending = r.data / "removals" / f"{dataset}.json"
    assert pending.exists() and (r.data / "datasets" / f"{dataset}.parquet").exists()
    pending.write_text(json.dumps({"due": 0, "user": json.loads(pending.read_text())
                                   ["user"]}))  # as if the window had passed
    _removal_carried_out_by_a(on_a, dataset, _on_disk(r))


def _uploaded_on_a(r):
    """ana's page on replica a, with ``shared.csv`` uploaded there, and its dataset id."""
    on_a = _page(r.a, "ana")
    out = on_a.upload("shared.csv", _csv(1))
    assert "Loaded" in out["upload-status"]["children"], out
    return on_a, on_a.datasets[-1]


def _viewed_pinned_noted_on_b(on_a, on_b, ben, dataset):
    """What ana uploaded on replica a is viewed, pinned and noted on b, a note and a saved
    view cross both ways, and another user on b (``ben``) may not change the notes."""
    # viewed: the curve of the upload, computed on b (or read from the shared cache)
    assert "shared" in _figure_text(on_b, ["shared"])
    # pinned: a pinned model is drawn from b with its dataset's id
    pin = {"dataset": dataset, "model": "shared", "threshold": 0.5, "label": "A"}
    values = {**views_values(on_b.datasets, ["shared"]), "pinned.data": [pin]}
    pinned = on_b.response(VIEWS_CALLBACK, values, ["pinned.data"])
    assert "shared" in json.dumps(pinned["roc-graph"]["figure"]["data"])
    # noted on b, read on a (and the reverse: saved views)
    on_b.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "decided on b"})
    assert on_a.notes()["note"]["value"] == "decided on b"
    on_a.notes("save-view.n_clicks", **{"save-view.n_clicks": 1, "view-name.value": "v1",
                                        "url.search": "?cfn=3"})
    assert [v["name"] for v in on_b.notes()["views-data"]["data"]] == ["v1"]
    refused = ben.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "defaced"})
    assert "Only the uploader" in refused["note-status"]["children"]


def _removal_carried_out_by_a(on_a, dataset, has_table):
    """A removal whose undo window has passed is carried out by a's next request of the
    datasets callback (``has_table(dataset)`` turns false), and a's page then names what is
    missing."""
    on_a.datasets = []
    on_a.upload("other.csv", _csv(2))  # a's next request of the datasets callback
    assert not has_table(dataset)
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
    page = _page(r.front, "cleo")
    for k in range(3):
        out = page.upload(f"via-nginx-{k}.csv", _csv(20 + k))
        assert "Loaded" in out["upload-status"]["children"], out
        assert f"via-nginx-{k}" in _figure_text(page, [f"via-nginx-{k}"])
    after = {n: s.log_text().count('"POST /_dash-update-component')
             for n, s in (("a", r.a), ("b", r.b))}
    assert all(after[n] > before[n] for n in after), (before, after)
    assert len(page.datasets) == 3


def test_scl012_a_users_quota_holds_across_replicas(replicas):
    _quota_holds_across_replicas(replicas, _on_disk(replicas))


def test_scl013_retention_holds_across_replicas(replicas):
    """A dataset looked at through b stays; one uploaded through a and left idle expires
    (whichever replica's turn the sweep is)."""
    _retention_holds_across_replicas(replicas, _on_disk(replicas))


def _quota_holds_across_replicas(r, has_table):
    """dan uploads through a, b, a, past his quota: the oldest goes (``has_table(id)``
    says whether a dataset's table is stored)."""
    dan_a, dan_b = _page(r.a, "dan"), _page(r.b, "dan")
    uploaded = []
    for k, page in enumerate((dan_a, dan_b, dan_a)):  # 3 x ~0.35 MB over a 0.75 MB quota
        page.datasets = list(uploaded)
        out = page.upload(f"dan{k}.csv", _csv(30 + k, 30_000))
        assert "Loaded" in out["upload-status"]["children"], out
        uploaded.append(page.datasets[-1])
    on = {d: has_table(d) for d in uploaded}
    assert on[uploaded[2]] and sum(on.values()) == 2, on


def _retention_holds_across_replicas(r, has_table):
    eve_a = _page(r.a, "eve")
    eve_a.upload("watched.csv", _csv(40))
    watched = eve_a.datasets[-1]
    eve_a.upload("idle.csv", _csv(41))
    idle = eve_a.datasets[-1]
    eve_b = _page(r.b, "eve", [watched])
    t0 = time.monotonic()
    while has_table(idle):
        assert time.monotonic() - t0 < 6 * TTL_SECONDS, "the idle dataset did not expire"
        assert "watched" in _figure_text(eve_b, ["watched"])
        time.sleep(0.5)
    assert time.monotonic() - t0 > TTL_SECONDS / 2
    assert "watched" in _figure_text(eve_b, ["watched"])
    assert has_table(watched)


def test_scl016_concurrent_uploads_through_nginx_lose_nothing(replicas):
    """Three signed-in people upload two files each at once through nginx (spread over
    both replicas): every upload is stored once, on each person's page, and no replica
    logged a traceback."""
    from concurrent.futures import ThreadPoolExecutor

    r = replicas
    people = {user: _page(r.front, user) for user in ("hal", "ivy", "jon")}

    def upload(user: str, k: int):
        page = Page(r.front, headers=people[user].headers)
        out = page.upload(f"{user}-{k}.csv", _csv(70 + k + 10 * len(user)))
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
    batch = secrets.token_urlsafe(24)
    fay = _killed_mid_request(r, lambda: r.a.upload(batch, "late.csv", _csv(51),
                                                     headers={SIGNED: "fay"}))
    out = fay.response("datasets.data", {
        "streamed-upload.data": {"batch": batch, "stamp": time.time()},
        "datasets.data": fay.datasets, "url.search": ""}, ["streamed-upload.data"])
    assert "Loaded" in out["upload-status"]["children"], out
    fay.datasets = out["datasets"]["data"]
    assert "late" in _figure_text(fay, ["kept", "late"])
    for _ in range(6):  # nginx no longer sends anything to the dead replica
        assert fay.server.request("GET", "/health").status == 200


def _killed_mid_request(r, before_kill=None):
    """fay uploads ``kept.csv`` to replica a and notes it (then ``before_kill()``, which must
    answer 200); a is killed (SIGKILL: no clean-up) while it answers her request; her page
    through nginx, on b, still has the dataset and its note. Returns that page."""
    fay_a = _page(r.a, "fay")
    fay_a.upload("kept.csv", _csv(50))
    kept = fay_a.datasets[-1]
    fay_a.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "before the crash"})
    if before_kill is not None:
        assert before_kill().status == 200
    in_flight = []
    request = threading.Thread(target=lambda: in_flight.append(
        _try(lambda: fay_a.views(["kept"]))))
    request.start()
    os.killpg(r.a.proc.pid, signal.SIGKILL)
    r.a.proc.wait(timeout=30)
    request.join(60)
    assert not request.is_alive()
    fay = _page(r.front, "fay", [kept])
    assert fay.notes()["note"]["value"] == "before the crash"
    assert "kept" in _figure_text(fay, ["kept"])
    return fay


def _try(call):
    try:
        return call()
    except (AssertionError, OSError) as exc:  # the connection cut by the kill
        return exc


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
        page = _page(server, "gus")
        out = page.upload("alone.csv", _csv(60))
        assert "Loaded" in out["upload-status"]["children"], out
        assert "alone" in _figure_text(page, ["alone"])
        assert "Traceback" not in server.log_text()
    finally:
        stop_server(server)
