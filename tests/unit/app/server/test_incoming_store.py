"""Uploads arriving kept in the object store (``ROC_DASH_STORE_URL``), against moto's S3
server on loopback: two apps with data folders of their own (two replicas without a shared
volume) share the bucket; a drop's files POSTed to one are read by the other, the caps count
what the store holds, only the batch's owner adds to it, cancels or reads it, and a batch
never read is removed by any replica (the bucket checked with boto3)."""

from __future__ import annotations

import pytest

from roc_dash.app.server.auth import OWNER_HEADER
from roc_dash.app.server.objects import BadKey, check_key
from roc_dash.app.server.upload_route import take_batch
from tests.unit.app.server.conftest import S3_BUCKET
from tools.s3_server import object_keys, s3_client

pytestmark = [pytest.mark.slow, pytest.mark.server]

MB = 2**20
KEY_A = "a" * 20 + "SecretKeyOfAna"
KEY_B = "b" * 20 + "SecretKeyOfBen"
CSV = b"label,score\n1,0.9\n0,0.2\n"


@pytest.fixture
def replicas(s3, tmp_path, monkeypatch):
    """Two apps on the same bucket prefix, each with its own data folder; uploads capped
    at 1 MB, 3 MB arriving for everybody, 2 MB per owner."""
    from roc_dash.app import create_app

    for name, value in (("ROC_DASH_MAX_UPLOAD_MB", "1"), ("ROC_DASH_MAX_INCOMING_MB", "3"),
                        ("ROC_DASH_MAX_INCOMING_PER_OWNER_MB", "2")):
        monkeypatch.setenv(name, value)
    return create_app(data_dir=tmp_path / "a"), create_app(data_dir=tmp_path / "b")


def _post(app, token, key, data, index=0, name="part.csv"):
    return app.server.test_client().post(
        f"/upload?batch={token}&index={index}&name={name}", data=data,
        headers={OWNER_HEADER: key} if key else {})


def _incoming(s3_env, prefix) -> dict[str, int]:
    return {k[len(prefix) + 1:]: v for k, v in object_keys(s3_env, S3_BUCKET, prefix).items()
            if k[len(prefix) + 1:].startswith("incoming/")}


def _taken(app, key, token):
    with app.server.test_request_context(headers={OWNER_HEADER: key}):
        return take_batch(app.store, token)


def test_ist001_posted_to_one_replica_read_on_the_other(replicas, s3, s3_env):
    a, b = replicas
    token = "T" * 32
    assert _post(a, token, KEY_A, CSV, 0, "../first.csv").status_code == 200
    assert _post(b, token, KEY_A, b"x" * 5000, 1, "second.csv").status_code == 200
    stored = _incoming(s3_env, s3)
    assert {f"incoming/{token}.00.data": len(CSV), f"incoming/{token}.01.data": 5000}.items() \
        <= stored.items() and f"incoming/{token}.owner" in stored
    assert not [p for p in (a.store.root / "incoming").rglob("*.data")]  # none kept locally
    assert _taken(b, KEY_B, token) is None  # not Ben's: neither read nor removed
    assert _taken(b, KEY_A, token) == [("first.csv", CSV), ("second.csv", b"x" * 5000)]
    assert _incoming(s3_env, s3) == {}  # taken once, then gone from the store
    assert _taken(a, KEY_A, token) is None


def test_ist002_only_the_owner_adds_cancels_across_replicas(replicas, s3, s3_env):
    a, b = replicas
    token = "C" * 32
    assert _post(a, token, KEY_A, CSV).status_code == 200
    r = _post(b, token, KEY_B, b"label,score\n0,0.1\n", 1, "evil.csv")
    assert r.status_code == 403 and "someone else" in r.get_json()["error"]
    client = b.server.test_client()
    assert client.delete(f"/upload?batch={token}",
                         headers={OWNER_HEADER: KEY_B}).status_code == 403
    assert f"incoming/{token}.00.data" in _incoming(s3_env, s3)
    assert client.delete(f"/upload?batch={token}",
                         headers={OWNER_HEADER: KEY_A}).status_code == 200
    assert _incoming(s3_env, s3) == {}  # cancelled on b, what a received is gone
    assert _taken(a, KEY_A, token) is None


def test_ist003_the_caps_count_what_the_store_holds(replicas, s3, s3_env):
    a, b = replicas
    part = b"1" * int(0.9 * MB)
    for n, app in enumerate((a, b)):  # two batches of Ana's, one on each replica: 1.8 MB
        assert _post(app, f"A{n}".ljust(32, "x"), KEY_A, part).status_code == 200
    r = _post(a, "A2".ljust(32, "x"), KEY_A, part)  # her share (2 MB) counted on a
    assert r.status_code == 429 and "ROC_DASH_MAX_INCOMING_PER_OWNER_MB" in r.get_json()["error"]
    assert _post(b, "B0".ljust(32, "x"), KEY_B, part).status_code == 200  # 2.7 MB in all
    r = _post(a, "B1".ljust(32, "x"), KEY_B, part)  # past 3 MB for everybody: busy
    assert r.status_code == 503 and r.headers["Retry-After"]
    big = _post(b, "A0".ljust(32, "x"), KEY_A, part, 1)  # the drop past the upload limit
    assert big.status_code in (413, 429)
    assert len([k for k in _incoming(s3_env, s3) if k.endswith(".data")]) <= 3


def test_ist004_a_batch_never_read_is_removed_by_any_replica(replicas, s3, s3_env,
                                                            monkeypatch):
    a, b = replicas
    old = "O" * 32
    assert _post(a, old, KEY_A, CSV).status_code == 200
    client = s3_client(s3_env)
    lone = f"{s3}/incoming/{'L' * 32}.00.data"  # a content whose name never came
    client.put_object(Bucket=S3_BUCKET, Key=lone, Body=b"x")
    monkeypatch.setenv("ROC_DASH_UPLOAD_TIMEOUT", "0")
    from roc_dash.app.server import limits

    monkeypatch.setattr(limits, "unclaimed_seconds", lambda: -5.0)  # everything is old
    monkeypatch.setattr("roc_dash.app.server.upload_route.unclaimed_seconds", lambda: -5.0)
    new = "N" * 32
    assert _post(b, new, KEY_B, CSV).status_code == 200  # b's next upload sweeps the store
    left = set(_incoming(s3_env, s3))
    assert not any(old in k or "L" * 32 in k for k in left), left
    assert _taken(a, KEY_A, old) is None


def test_ist005_crafted_keys_are_refused(replicas, s3, s3_env):
    a, _ = replicas
    token = "K" * 32
    assert _post(a, token, KEY_A, CSV).status_code == 200
    before = _incoming(s3_env, s3)
    for bad in ("*" * 32, f"../{token}", f"..%2F{token}", f"{token[:8]}/{token[9:]}",
                token[:-1] + "*"):
        assert _post(a, bad, KEY_A, CSV).status_code == 400
        assert a.server.test_client().delete(f"/upload?batch={bad}").status_code == 400
        assert _taken(a, KEY_A, bad) is None
        for tail in ("00.data", "owner"):
            with pytest.raises(BadKey):
                check_key(f"incoming/{bad}.{tail}")
    with pytest.raises(BadKey):
        check_key(f"incoming/{token}.0.data")
    assert _incoming(s3_env, s3) == before


def test_ist006_a_rejected_upload_kept_on_one_replica_is_read_again_on_another(
        replicas, s3, s3_env, monkeypatch):
    a, b = replicas
    sources = [("first.csv", CSV), ("second.csv", b"label,score\nyes,0.3\n")]
    token = a.store.put_pending(sources)
    keys = {k for k in object_keys(s3_env, S3_BUCKET, s3) if "/pending/" in k}
    assert keys == {f"{s3}/pending/{token}.00.bin", f"{s3}/pending/{token}.01.bin",
                    f"{s3}/pending/{token}.json"}
    assert not (a.store.root / "pending").exists()  # nothing of it in a's folder
    assert b.store.get_pending(token) == sources
    b.store.drop_pending(token)
    assert a.store.get_pending(token) is None
    assert not {k for k in object_keys(s3_env, S3_BUCKET, s3) if "/pending/" in k}
    for bad in ("*" * 32, f"../{token}", f"..%2F{token}", token[:-1] + "*"):
        assert b.store.get_pending(bad) is None
        b.store.drop_pending(bad)
    old = a.store.put_pending(sources)
    monkeypatch.setattr("roc_dash.app.server.limits.unclaimed_seconds", lambda: -5.0)
    b.store.put_pending(sources[:1])  # everything counts as too old: b prunes a's
    assert a.store.get_pending(old) is None


def test_ist007_a_store_that_does_not_take_the_file_gets_it_sent_again(replicas, s3,
                                                                       monkeypatch):
    a, _ = replicas
    monkeypatch.setenv("ROC_DASH_STORE_URL", "s3://no-such-bucket-here/p")
    token = "S" * 32
    r = _post(a, token, KEY_A, CSV, 0, "late.csv")
    assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0
    assert "no-such-bucket-here" in r.get_json()["error"]
    assert _taken(a, KEY_A, token) is None  # "did not reach the server": no traceback
    assert not [p for p in (a.store.root / "incoming").rglob("*") if p.is_file()
                and p.suffix in (".data", ".part", ".name")]


def test_ist008_a_store_that_does_not_answer_keeps_no_rejected_upload_and_raises_nothing(
        replicas, s3, monkeypatch):
    a, _ = replicas
    monkeypatch.setenv("ROC_DASH_STORE_URL", "s3://no-such-bucket-here/p")
    from roc_dash.app.server.store import DatasetStore

    store = DatasetStore(a.store.root)
    assert store.put_pending([("x.csv", CSV)]) is None
    assert store.get_pending("P" * 32) is None
    store.drop_pending("P" * 32)
