"""Each owner's share of the uploads arriving (ROC_DASH_MAX_INCOMING_PER_OWNER_MB): one owner
who parks uploads cannot make everybody else's "busy" (stranger review of issue 14); a batch
belongs to the owner who sent its first file."""

import io
import threading

import pytest

from roc_dash.app.server.auth import OWNER_HEADER
from roc_dash.app.server.incoming_share import (
    claim_batch,
    max_incoming_per_owner_bytes,
)
from roc_dash.app.server.upload_route import take_batch

MB = 2**20
KEY_A = "a" * 20 + "SecretKeyOfAna"
KEY_B = "b" * 20 + "SecretKeyOfBen"
#: 0.9 MB: under the 1 MB upload limit; two fit into a 2 MB share, three do not
PART = int(0.9 * MB)


@pytest.fixture
def app(app_with):
    return app_with(ROC_DASH_MAX_UPLOAD_MB="1",
                    ROC_DASH_MAX_INCOMING_MB="4",  # share: half of it, 2 MB
                    ROC_DASH_MAX_INCOMING_PER_OWNER_MB=None)


def _token(tag: str, n: int = 0) -> str:
    return f"{tag}{n:02d}".ljust(32, "x")


def _post(client, token, key, data, index=0, name="part.csv", **kw):
    headers = {OWNER_HEADER: key} if key else {}
    return client.post(f"/upload?batch={token}&index={index}&name={name}", data=data,
                       headers=headers, **kw)


def _incoming_files(app):
    return [p for p in (app.store.root / "incoming").rglob("*") if p.is_file()]


def test_ish001_one_owner_fills_their_share_others_still_upload(app):
    client = app.server.test_client()
    share = 0.5 * 4 * MB  # independent of the code: half of ROC_DASH_MAX_INCOMING_MB
    sent = 0
    for n in range(2):
        assert _post(client, _token("A", n), KEY_A, b"1" * PART).status_code == 200
        sent += PART
    assert sent + PART > share  # a third would pass Ana's share (not the cap for all)
    r = _post(client, _token("A", 2), KEY_A, b"1" * PART, name="third.csv")
    assert r.status_code == 429
    error = r.get_json()["error"]
    assert "third.csv" in error and "ROC_DASH_MAX_INCOMING_PER_OWNER_MB" in error
    assert f"share of {share / MB:.1f} MB" in error and "cancel" in error
    assert f"would hold {(sent + PART) / MB:.1f} MB" in error
    assert 0 < int(r.headers["Retry-After"]) <= 900 + 120  # her oldest upload's expiry
    assert not (app.store.root / "incoming" / _token("A", 2)).exists()
    # Ben is not made to wait for Ana's parked uploads
    r = _post(client, _token("B"), KEY_B, b"2" * PART)
    assert r.status_code == 200, r.get_json()
    # Ana's first upload is read: she can upload again
    assert take_batch(app.store, _token("A", 0)) == [("part.csv", b"1" * PART)]
    assert _post(client, _token("A", 3), KEY_A, b"3" * PART).status_code == 200
    assert _post(client, _token("A", 4), KEY_A, b"4" * PART).status_code == 429
    # ... or cancels one
    assert client.delete(f"/upload?batch={_token('A', 1)}",
                         headers={OWNER_HEADER: KEY_A}).status_code == 200
    assert _post(client, _token("A", 4), KEY_A, b"4" * PART).status_code == 200


def test_ish002_a_body_without_length_is_held_to_the_share_as_it_arrives(app):
    """Chunked (no Content-Length): the share is checked per chunk; only the file refused
    goes, the drop's file that arrived stays."""
    client = app.server.test_client()
    assert _post(client, _token("A", 0), KEY_A, b"1" * PART).status_code == 200
    assert _post(client, _token("A", 1), KEY_A, b"1" * (MB // 2)).status_code == 200
    first = b"label,score\n1,0.9\n"
    assert _post(client, _token("A", 2), KEY_A, first, name="first.csv").status_code == 200
    # 1.4 MB parked, under the 2 MB share: with no length, only the bytes tell
    r = client.post(f"/upload?batch={_token('A', 2)}&index=1&name=stream.csv",
                    input_stream=io.BytesIO(b"1" * PART),
                    headers={OWNER_HEADER: KEY_A},
                    environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 429 and "stream.csv" in r.get_json()["error"]
    assert take_batch(app.store, _token("A", 2)) == [("first.csv", first)]


def test_ish003_the_batch_records_a_hash_never_the_key_or_the_name(app, monkeypatch):
    client = app.server.test_client()
    assert _post(client, _token("A"), KEY_A, b"label,score\n1,0.5\n").status_code == 200
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")  # sign-in, from 127.0.0.1
    r = client.post(f"/upload?batch={_token('U')}&index=0&name=u.csv", data=b"x",
                    headers={"X-Forwarded-User": "ana.lopez@example.org"})
    assert r.status_code == 200
    files = _incoming_files(app)
    assert len([p for p in files if p.name == "owner"]) == 2
    for path in files:
        raw = path.read_bytes()
        assert b"SecretKeyOfAna" not in raw and b"ana.lopez" not in raw, path


def test_ish004_only_the_batch_owner_adds_cancels_or_reads_it(app):
    client = app.server.test_client()
    token = _token("A")
    assert _post(client, token, KEY_A, b"label,score\n1,0.5\n", name="a.csv").status_code == 200
    for key in (KEY_B, None):  # another browser, or a client sending no key
        r = _post(client, token, key, b"label,score\n0,0.1\n", index=1, name="evil.csv")
        assert r.status_code == 403 and "someone else" in r.get_json()["error"]
        assert client.delete(f"/upload?batch={token}",
                             headers={OWNER_HEADER: key} if key else {}).status_code == 403
    with app.server.test_request_context(headers={OWNER_HEADER: KEY_B}):
        assert take_batch(app.store, token) is None  # Ben's page cannot read Ana's upload
    with app.server.test_request_context(headers={OWNER_HEADER: KEY_A}):
        assert take_batch(app.store, token) == [("a.csv", b"label,score\n1,0.5\n")]


def test_ish005_with_sign_in_made_up_keys_share_one_share(app, monkeypatch):
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    client = app.server.test_client()

    def post(n, user, key):
        return client.post(f"/upload?batch={_token('S', n)}&index=0&name=s.csv",
                           data=b"1" * PART,
                           headers={"X-Forwarded-User": user, OWNER_HEADER: key})

    assert post(0, "mallory", "k" * 30).status_code == 200
    assert post(1, "mallory", "l" * 30).status_code == 200
    assert post(2, "mallory", "m" * 30).status_code == 429  # a new key is still mallory
    assert post(3, "ben", "m" * 30).status_code == 200


def test_ish006_the_default_share(monkeypatch):
    for var in ("ROC_DASH_MAX_INCOMING_PER_OWNER_MB", "ROC_DASH_MAX_INCOMING_MB",
                "ROC_DASH_MAX_UPLOAD_MB"):
        monkeypatch.delenv(var, raising=False)
    assert max_incoming_per_owner_bytes() == 2 * 200 * MB  # half of 4 x 200 MB
    monkeypatch.setenv("ROC_DASH_MAX_INCOMING_MB", "100")
    assert max_incoming_per_owner_bytes() == 200 * MB  # never below one upload
    monkeypatch.setenv("ROC_DASH_MAX_INCOMING_MB", "1000")
    assert max_incoming_per_owner_bytes() == 500 * MB
    monkeypatch.setenv("ROC_DASH_MAX_INCOMING_PER_OWNER_MB", "3")
    assert max_incoming_per_owner_bytes() == 3 * MB  # set explicitly: as it is
    monkeypatch.setenv("ROC_DASH_MAX_INCOMING_PER_OWNER_MB", "lots")
    assert max_incoming_per_owner_bytes() == 500 * MB


def test_ish007_of_owners_racing_for_a_new_batch_exactly_one_wins(tmp_path):
    batch = tmp_path / "incoming" / _token("R")
    batch.parent.mkdir()
    start = threading.Barrier(8)
    won = [None] * 8

    def claim(i):
        start.wait()
        won[i] = claim_batch(batch, f"{i:032x}")

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert won.count(True) == 1
    winner = won.index(True)
    assert claim_batch(batch, f"{winner:032x}") and not claim_batch(batch, f"{8:032x}")
