"""Issue 14 ("a team server that no one can knock over or empty") against the real gunicorn:
one owner who parks uploads and never claims them fills only their own share of the uploads
arriving (ROC_DASH_MAX_INCOMING_PER_OWNER_MB), never everybody's; a batch is its sender's
alone, whichever worker each request reaches (the workers share only the data folder)."""

from __future__ import annotations

import json
import secrets
import time

import pytest

from .conftest import Page, start_server, stop_server, unharmed

SIGNED = "X-Forwarded-User"
MB = 2**20
PART = int(0.9 * MB)  # under the 1 MB upload limit; two fit into a 2 MB share, three do not


@pytest.fixture(scope="module")
def share_server(tmp_path_factory):
    """Sign-in; uploads of at most 1 MB, 4 MB arriving for everybody, so 2 MB per user."""
    root = tmp_path_factory.mktemp("incoming-share")
    server = start_server(root / "data", root / "gunicorn.log", workers=2,
                          ROC_DASH_USER_HEADER=SIGNED, ROC_DASH_TRUSTED_PROXIES="127.0.0.1",
                          ROC_DASH_MAX_UPLOAD_MB=1, ROC_DASH_MAX_INCOMING_MB=4)
    try:
        yield server
    finally:
        stop_server(server)


def _csv(rows: int = 200) -> bytes:
    return ("label,score\n" + "".join(f"{i % 2},{(i * 7919 % 1000) / 1000}\n"
                                      for i in range(rows))).encode()


def test_hst060_a_user_parking_uploads_fills_only_their_share(share_server):
    s = share_server
    t0 = time.monotonic()
    mallory = {SIGNED: "mallory"}
    ben = Page(s, headers={SIGNED: "ben"})
    with unharmed(s):
        parked = [secrets.token_urlsafe(24) for _ in range(2)]
        for batch in parked:  # never claimed; the requests reach either worker
            assert s.upload(batch, "parked.csv", b"1" * PART, headers=mallory).status == 200
        for attempt in range(6):  # made-up browser keys do not help a signed-in user
            r = s.upload(secrets.token_urlsafe(24), "more.csv", b"1" * PART,
                         headers={**mallory, "X-Roc-Dash-Owner": secrets.token_urlsafe(24)})
            assert r.status == 429, (attempt, r.status, r.body[:300])
            assert "ROC_DASH_MAX_INCOMING_PER_OWNER_MB" in r.error and "more.csv" in r.error
            assert int(r.headers["Retry-After"]) > 0
        # Ben is not made to wait: his upload is read at once, never "busy"
        raw = s.upload(secrets.token_urlsafe(24), "probe.csv", b"2" * PART, headers=ben.headers)
        assert raw.status == 200, (raw.status, raw.body[:300])
        out = ben.upload("bens.csv", _csv())
        assert "Loaded bens.csv" in json.dumps(out), out
        # Mallory cancels one of hers: she can upload again
        assert s.request("DELETE", f"/upload?batch={parked[0]}", headers=mallory).status == 200
        again = s.upload(secrets.token_urlsafe(24), "again.csv", b"3" * PART, headers=mallory)
        assert again.status == 200, (again.status, again.body[:300])
    assert time.monotonic() - t0 < 120


def test_hst061_nobody_adds_to_cancels_or_reads_another_users_upload(share_server):
    s = share_server
    ana, mallory = Page(s, headers={SIGNED: "ana"}), Page(s, headers={SIGNED: "mallory"})
    batch = secrets.token_urlsafe(24)
    data = _csv(300)
    assert s.upload(batch, "anas.csv", data, headers=ana.headers).status == 200
    with unharmed(s):
        for _ in range(4):  # either worker
            r = s.upload(batch, "evil.csv", _csv(5), index=1, headers=mallory.headers)
            assert r.status == 403 and "someone else" in r.error
            r = s.request("DELETE", f"/upload?batch={batch}", headers=mallory.headers)
            assert r.status == 403
        streamed = {"streamed-upload.data": {"batch": batch, "stamp": time.time()},
                    "url.search": ""}
        out = mallory.response("datasets.data", {**streamed, "datasets.data": ["demo"]},
                               ["streamed-upload.data"])
        assert "did not reach the server" in json.dumps(out)  # Ana's upload is not hers
        out = ana.response("datasets.data", {**streamed, "datasets.data": ["demo"]},
                           ["streamed-upload.data"])
        assert "Loaded anas.csv" in json.dumps(out) and "evil" not in json.dumps(out)
    assert not (s.data_dir / "incoming" / batch).exists()
