"""Two replicas of the app (each its own gunicorn, as the Dockerfile runs it) that share no
folder: each has a data folder of its own, and they share a ``redis-server`` and an
S3-compatible store (moto's server), both started here on loopback, with nginx in front
taking them in turn. What one replica stored, the other reads from the bucket.

Every test fails with the objects kept in each replica's own folder (``ROC_DASH_STORE_URL``
unset): the dataset uploaded through one is unknown to the other."""

from __future__ import annotations

import base64
import contextlib
import json
import secrets
import time
from types import SimpleNamespace

import pytest

from roc_dash.app.page_state import ModelRef, PageState
from roc_dash.app.state import ControlState
from tests.card_inputs import page_values
from tests.hostile.conftest import wildcard_id
from tests.monitoring_example import frame
from tests.replicas import conftest as rc
from tools.redis_server import redis_server
from tools.s3_server import object_keys, s3_client, s3_server, store_env

BUCKET = "roc-shared"
PREFIX = "team"


@pytest.fixture(scope="module")
def s3_replicas(tmp_path_factory):
    """Replicas ``a`` and ``b`` (2 workers each), each with its own data folder, on one
    Redis and one S3 bucket; ``front``: nginx taking them in turn. Sign-in by header from
    127.0.0.1; a dataset expires ``TTL_SECONDS`` after its last use, the sweep may run
    every second, one user may keep about two 30,000-row datasets."""
    root = tmp_path_factory.mktemp("s3-replicas")
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(redis_server(root / "redis"))
        s3 = stack.enter_context(s3_server(root / "moto", buckets=(BUCKET,)))
        env = rc.replica_env(url, **store_env(s3, f"s3://{BUCKET}/{PREFIX}"))
        r = stack.enter_context(rc.replica_set(
            root, {"a": root / "data-a", "b": root / "data-b"}, **env))
        yield SimpleNamespace(a=r.a, b=r.b, front=r.front, s3=s3)


def _stored(r) -> dict[str, int]:
    """``{key under the prefix: size}`` of the bucket, read with boto3."""
    return {k[len(PREFIX) + 1:]: v for k, v in object_keys(r.s3, BUCKET, PREFIX).items()}


def _has_table(r, dataset: str) -> bool:
    return f"datasets/{dataset}.parquet" in _stored(r)


def test_scl040_uploaded_on_one_viewed_pinned_noted_removed_on_another(s3_replicas):
    r = s3_replicas
    on_a = rc.user_page(r.a, "ana")
    out = on_a.upload("shared.csv", rc.csv_rows(1))
    assert "Loaded" in out["upload-status"]["children"], out
    dataset = on_a.datasets[-1]
    assert _has_table(r, dataset)
    assert not list(r.b.data_dir.rglob(f"{dataset}.*"))  # b has nothing of it on disk
    on_b = rc.user_page(r.b, "ana", [dataset])
    rc.check_seen_on_both(on_a, on_b, dataset)
    assert any(k.startswith("views/") for k in _stored(r))
    ben = rc.user_page(r.b, "ben", [dataset])  # another owner: reads, cannot change or delete
    refused = ben.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "defaced"})
    assert "Only the uploader" in refused["note-status"]["children"]
    ben.remove(dataset)
    assert _has_table(r, dataset)
    on_b.remove(dataset)  # kept for the undo window, carried out by a
    key = f"{PREFIX}/removals/{dataset}.json"
    client = s3_client(r.s3)
    user = json.loads(client.get_object(Bucket=BUCKET, Key=key)["Body"].read())["user"]
    client.put_object(Bucket=BUCKET, Key=key, Body=json.dumps({"due": 0, "user": user}))
    on_a.datasets = []
    on_a.upload("other.csv", rc.csv_rows(2))
    assert not _has_table(r, dataset)
    on_a.datasets = [dataset]
    banner = on_a.response("missing-banner.children", {"datasets.data": on_a.datasets},
                           ["datasets.data"])
    assert "shared.csv" in json.dumps(banner)


def test_scl041_crafted_ids_through_both_replicas_and_nginx(s3_replicas):
    r = s3_replicas
    owner = rc.user_page(r.a, "kim")
    owner.upload("kims.csv", rc.csv_rows(5))
    dataset = owner.datasets[-1]
    before = _stored(r)
    for server in (r.a, r.b, r.front):
        assert "kims" in rc.figure_text(owner, ["kims"])  # used: it does not expire meanwhile
        crafted = ["*" * 24, f"../{dataset}", f"..%2F{dataset}", f"{dataset[:8]}/{dataset[9:]}",
                   dataset[:-1] + "*"]
        page = rc.user_page(server, "cleo" if server is r.front else "lou", crafted)
        text = json.dumps(page.views(["kims"]))
        assert "kims" not in text
        for bad in crafted:  # its × and Remove: nothing deleted, no error
            out = page.response("datasets.data", {"datasets.data": page.datasets,
                                                  "remove-yes.n_clicks": [(bad, 1)]},
                                [f"{wildcard_id('remove-yes', bad)}.n_clicks"])
            assert dataset not in json.dumps(out)
        page.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "crafted"})
        other = rc.user_page(server, "cleo" if server is r.front else "lou", [dataset])
        other.remove(dataset)  # someone else's: only taken off their page
    # the earlier tests' datasets may expire meanwhile (TTL_SECONDS) on a busy machine: the
    # notes their deletion leaves (gone/<id>.json) are not this test's writes
    after = {k: v for k, v in _stored(r).items()
             if not (k.startswith("gone/") and dataset not in k)}
    assert set(after) <= set(before) and _has_table(r, dataset)  # nothing written or deleted
    assert {k: v for k, v in after.items() if k.startswith("views/")} == \
        {k: v for k, v in before.items() if k.startswith("views/")}
    assert owner.notes()["note"]["value"] == ""


def test_scl042_a_users_quota_holds_across_replicas(s3_replicas):
    rc.check_quota_across(s3_replicas, lambda d: _has_table(s3_replicas, d))


def test_scl043_retention_holds_across_replicas(s3_replicas):
    rc.check_retention_across(s3_replicas, lambda d: _has_table(s3_replicas, d), rc.TTL_SECONDS)


def test_scl045_a_window_file_uploaded_on_one_replica_is_monitored_on_another(s3_replicas):
    """A label-less window file given to the Monitor tab on a is checked on b (the page's
    decision on a reference uploaded on a): b reads it from the bucket; crafted ids are
    not windows, an id never handed out is told gone, and neither changes the bucket."""
    r = s3_replicas
    on_a = rc.user_page(r.a, "gus")
    on_a.upload("ref.csv", frame(3000, 0.3, seed=1).to_csv(index=False).encode())
    ref = on_a.datasets[-1]
    window = frame(3000, 0.1, seed=3, labels=False).to_csv(index=False).encode()
    got = on_a.response("mon-files.data", {
        "mon-window-upload.contents": ["data:text/csv;base64,"
                                       + base64.b64encode(window).decode()],
        "mon-window-upload.filename": ["feb.csv"], "mon-files.data": [],
        "mon-windows.value": []}, ["mon-window-upload.contents"])
    assert "Window file: feb.csv" in json.dumps(got["mon-window-status"]), got
    file_id = got["mon-files"]["data"][-1]
    assert {f"monitor/{file_id}.bin", f"monitor/{file_id}.json"} <= set(_stored(r))
    assert not (r.b.data_dir / "monitor" / file_id).exists()
    on_b = rc.user_page(r.b, "gus", [ref])
    # the Monitor tab shown (its gate, tab-gate-monitor, says so); the windows as sent
    page = PageState(datasets=(ref,), models=(ModelRef(ref, "rf"),), tab="monitor",
                     conditions=ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3,
                                             prior_mode="manual"))

    def monitored(windows):
        return json.dumps(on_b.response("mon-status.children", page_values(
            page, **{"mon-windows.value": windows}), ["mon-windows.value"]))

    text = monitored([file_id])
    assert "feb" in text and "gone from the server" not in text, text[:2000]
    assert (r.b.data_dir / "monitor" / file_id / "feb.csv").read_bytes() == window
    before = _stored(r)
    for bad in ("*" * 32, f"..%2F{file_id}", f"../{file_id}", file_id[:-1] + "*"):
        assert "feb" not in monitored([bad])  # not an id: not a window
    assert "gone from the server" in monitored(["Z" * 32])  # an id never handed out
    assert _stored(r) == before


def test_scl046_a_drop_posted_to_one_replica_is_read_on_the_other(s3_replicas):
    """The page's two requests of an upload sent to different replicas (no shared folder,
    no sticky sessions): the file POSTed to a, the callback that reads it answered by b;
    another user on b can neither read, add to nor cancel it; crafted tokens are refused
    on both; nothing is left in the bucket."""
    r = s3_replicas
    batch = secrets.token_urlsafe(24)
    hal = {rc.SIGNED: "hal"}
    assert r.a.upload(batch, "split.csv", rc.csv_rows(70), headers=hal).status == 200
    assert f"incoming/{batch}.00.data" in _stored(r)
    assert not list(r.b.data_dir.rglob(f"*{batch}*"))  # b has nothing of it on disk

    def read_on_b(user):
        page = rc.user_page(r.b, user, [])
        out = page.response("datasets.data", {
            "streamed-upload.data": {"batch": batch, "stamp": time.time()},
            "datasets.data": [], "url.search": ""}, ["streamed-upload.data"])
        return out

    assert "did not reach the server" in json.dumps(read_on_b("ivy"))  # not ivy's upload
    ivy = {rc.SIGNED: "ivy"}
    assert r.b.request("DELETE", f"/upload?batch={batch}", headers=ivy).status == 403
    assert r.b.upload(batch, "evil.csv", rc.csv_rows(71), 1, headers=ivy).status == 403
    before = _stored(r)
    for server in (r.a, r.b):
        for bad in ("*" * 32, f"../{batch}", f"..%2F{batch}", batch[:-1] + "*"):
            assert server.upload(bad, "x.csv", b"1", headers=hal).status == 400
            assert server.request("DELETE", f"/upload?batch={bad}", headers=hal).status == 400
    assert _stored(r) == before
    out = read_on_b("hal")
    assert "Loaded" in out["upload-status"]["children"], out
    dataset = out["datasets"]["data"][-1]
    assert _has_table(r, dataset)
    assert not any(k.startswith("incoming/") for k in _stored(r))
    assert "split" in rc.figure_text(rc.user_page(r.a, "hal", [dataset]), ["split"])


def test_scl044_a_replica_killed_mid_request_loses_nothing(s3_replicas):
    """Last in the module (replica a stays dead). A dataset and its note were given to a;
    a is killed (SIGKILL) while it answers a request; through nginx everything then goes to
    b, which reads all of it from the bucket."""
    r = s3_replicas
    fay_a = rc.user_page(r.a, "fay")
    fay_a.upload("kept.csv", rc.csv_rows(50))
    kept = fay_a.datasets[-1]
    fay_a.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "before the crash"})
    fay = rc.kill_a_mid_request(r, fay_a, kept)
    assert not any(k.endswith(".tmp") for k in _stored(r))
    for _ in range(6):
        assert fay.server.request("GET", "/health").status == 200
    assert "Traceback" not in r.b.log_text()
