"""Two replicas of the app (each its own gunicorn, as the Dockerfile runs it) that share no
folder: each has a data folder of its own, and they share a ``redis-server`` and an
S3-compatible store (moto's server), both started here on loopback, with nginx in front
taking them in turn. What one replica stored, the other reads from the bucket.

Every test fails with the objects kept in each replica's own folder (``ROC_DASH_STORE_URL``
unset): the dataset uploaded through one is unknown to the other."""

from __future__ import annotations

import contextlib
import json
from types import SimpleNamespace

import pytest

from tests.hostile.conftest import start_server, stop_server, wildcard_id
from tests.hostile.test_nginx import nginx_in_front
from tests.replicas.test_replicas import (
    FRONT_USERS,
    SIGNED,
    _csv,
    _figure_text,
    _killed_mid_request,
    _page,
    _quota_holds_across_replicas,
    _removal_carried_out_by_a,
    _retention_holds_across_replicas,
    _uploaded_on_a,
    _viewed_pinned_noted_on_b,
)
from tools.redis_server import redis_server
from tools.s3_server import object_keys, s3_client, s3_server

BUCKET = "roc-shared"
PREFIX = "team"
TTL_SECONDS = 8


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
        env = dict(ROC_DASH_REDIS_URL=url, ROC_DASH_STORE_URL=f"s3://{BUCKET}/{PREFIX}",
                   ROC_DASH_USER_HEADER=SIGNED, ROC_DASH_TRUSTED_PROXIES="127.0.0.1",
                   ROC_DASH_DATASET_TTL_DAYS=TTL_SECONDS / 86400, ROC_DASH_SWEEP_SECONDS=1,
                   ROC_DASH_USER_QUOTA_MB=0.75, **s3)
        servers = {}
        for name in ("a", "b"):
            servers[name] = start_server(root / f"data-{name}", root / f"gunicorn-{name}.log",
                                         workers=2, **env)
            stack.callback(stop_server, servers[name])
        users = root / "htpasswd"
        users.write_text("".join(f"{u}:{{PLAIN}}pw-{u}\n" for u in FRONT_USERS))
        front = stack.enter_context(nginx_in_front(
            SimpleNamespace(port=[servers["a"].port, servers["b"].port],
                            data_dir=root / "data-a"), root / "nginx", basic_auth=users))
        yield SimpleNamespace(a=servers["a"], b=servers["b"], front=front, s3=s3)


def _stored(r) -> dict[str, int]:
    """``{key under the prefix: size}`` of the bucket, read with boto3."""
    return {k[len(PREFIX) + 1:]: v for k, v in object_keys(r.s3, BUCKET, PREFIX).items()}


def _has_table(r, dataset: str) -> bool:
    return f"datasets/{dataset}.parquet" in _stored(r)


def test_scl040_uploaded_on_one_viewed_pinned_noted_removed_on_another(s3_replicas):
    r = s3_replicas
    on_a, dataset = _uploaded_on_a(r)
    assert _has_table(r, dataset)
    assert not list(r.b.data_dir.rglob(f"{dataset}.*"))  # b has nothing of it on disk
    on_b = _page(r.b, "ana", [dataset])
    ben = _page(r.b, "ben", [dataset])  # another owner: reads, cannot change or delete
    _viewed_pinned_noted_on_b(on_a, on_b, ben, dataset)
    assert any(k.startswith("views/") for k in _stored(r))
    ben.remove(dataset)
    assert _has_table(r, dataset)
    on_b.remove(dataset)  # kept for the undo window, carried out by a
    key = f"{PREFIX}/removals/{dataset}.json"
    client = s3_client(r.s3)
    user = json.loads(client.get_object(Bucket=BUCKET, Key=key)["Body"].read())["user"]
    client.put_object(Bucket=BUCKET, Key=key, Body=json.dumps({"due": 0, "user": user}))
    _removal_carried_out_by_a(on_a, dataset, lambda d: _has_table(r, d))


def test_scl041_crafted_ids_through_both_replicas_and_nginx(s3_replicas):
    r = s3_replicas
    owner = _page(r.a, "kim")
    owner.upload("kims.csv", _csv(5))
    dataset = owner.datasets[-1]
    before = _stored(r)
    for server in (r.a, r.b, r.front):
        assert "kims" in _figure_text(owner, ["kims"])  # used: it does not expire meanwhile
        crafted = ["*" * 24, f"../{dataset}", f"..%2F{dataset}", f"{dataset[:8]}/{dataset[9:]}",
                   dataset[:-1] + "*"]
        page = _page(server, "cleo" if server is r.front else "lou", crafted)
        text = json.dumps(page.views(["kims"]))
        assert "kims" not in text
        for bad in crafted:  # its × and Remove: nothing deleted, no error
            out = page.response("datasets.data", {"datasets.data": page.datasets,
                                                  "remove-yes.n_clicks": [(bad, 1)]},
                                [f"{wildcard_id('remove-yes', bad)}.n_clicks"])
            assert dataset not in json.dumps(out)
        page.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "crafted"})
        other = _page(server, "cleo" if server is r.front else "lou", [dataset])
        other.remove(dataset)  # someone else's: only taken off their page
    after = _stored(r)
    assert set(after) <= set(before) and _has_table(r, dataset)  # nothing written or deleted
    assert {k: v for k, v in after.items() if k.startswith("views/")} == \
        {k: v for k, v in before.items() if k.startswith("views/")}
    assert owner.notes()["note"]["value"] == ""


def test_scl042_a_users_quota_holds_across_replicas(s3_replicas):
    _quota_holds_across_replicas(s3_replicas, lambda d: _has_table(s3_replicas, d))


def test_scl043_retention_holds_across_replicas(s3_replicas):
    _retention_holds_across_replicas(s3_replicas, lambda d: _has_table(s3_replicas, d))


def test_scl044_a_replica_killed_mid_request_loses_nothing(s3_replicas):
    """Last in the module (replica a stays dead). A dataset and its note were given to a;
    a is killed (SIGKILL) while it answers a request; through nginx everything then goes to
    b, which reads all of it from the bucket."""
    r = s3_replicas
    fay = _killed_mid_request(r)
    assert not any(k.endswith(".tmp") for k in _stored(r))
    for _ in range(6):
        assert fay.server.request("GET", "/health").status == 200
    assert "Traceback" not in r.b.log_text()
