"""Uploads streamed into the object store as they arrive (``ROC_DASH_STORE_URL``), against
moto's S3 server on loopback: a file larger than one block (``ROC_DASH_S3_BLOCK_MB``) goes
into the bucket as a multipart upload while its body is still arriving, with no more than a
block of it in the replica's memory and none of its bytes on the replica's disk, and arrives
intact (read back with boto3 and by another replica); an upload refused or cut short while
streaming leaves nothing in the store (no object, no multipart upload left open)."""

from __future__ import annotations

import hashlib
import tracemalloc

import numpy as np
import pytest

from roc_dash.app.server.auth import OWNER_HEADER
from roc_dash.app.server.upload_route import take_batch
from tests.unit.app.server.conftest import S3_BUCKET
from tools.s3_server import object_keys, s3_client

pytestmark = [pytest.mark.slow, pytest.mark.server]

MB = 2**20
BLOCK_MB = 5  # S3's smallest part
KEY = "k" * 20 + "StreamingOwner"


class Body:
    """A request body of ``size`` random bytes made as it is read (never held whole), its
    SHA-256 kept; ``at_half(read_so_far)`` is called once, when half of it has been read."""

    def __init__(self, size: int, seed: int, at_half=None, stop_at: int | None = None):
        self.size, self.sent, self.rng = size, 0, np.random.default_rng(seed)
        self.sha, self.at_half, self.stop_at = hashlib.sha256(), at_half, stop_at
        self._at_end = False

    def tell(self) -> int:  # the test client measures the body: its declared end
        return self.size if self._at_end else self.sent

    def seek(self, offset: int, whence: int = 0) -> None:
        self._at_end = whence == 2

    def read(self, n: int = -1) -> bytes:
        end = self.size if self.stop_at is None else self.stop_at
        n = end - self.sent if n is None or n < 0 else min(n, end - self.sent)
        data = self.rng.bytes(n)
        self.sha.update(data)
        self.sent += n
        if self.at_half is not None and self.sent >= self.size // 2:
            self.at_half(self.sent)
            self.at_half = None
        return data


@pytest.fixture
def apps(s3, tmp_path, monkeypatch):
    """Two apps on one bucket prefix, each with a data folder of its own; parts of 5 MiB,
    uploads up to 40 MB."""
    from roc_dash.app import create_app

    monkeypatch.setenv("ROC_DASH_S3_BLOCK_MB", str(BLOCK_MB))
    monkeypatch.setenv("ROC_DASH_MAX_UPLOAD_MB", "40")
    return create_app(data_dir=tmp_path / "a"), create_app(data_dir=tmp_path / "b")


def _post(app, token, body: Body, index=0):
    return app.server.test_client().post(
        f"/upload?batch={token}&index={index}&name=big.bin", input_stream=body,
        content_type="application/octet-stream", headers={OWNER_HEADER: KEY})


def _disk_bytes(folder) -> int:
    """Bytes of disk the files under ``folder`` take (blocks, not lengths)."""
    return sum(p.stat().st_blocks * 512 for p in folder.rglob("*") if p.is_file())


def _left_behind(s3_env, prefix, token) -> list:
    """Objects of batch ``token`` but its owner mark, and multipart uploads still open."""
    keys = [k for k in object_keys(s3_env, S3_BUCKET, prefix)
            if token in k and not k.endswith(".owner")]
    open_uploads = s3_client(s3_env).list_multipart_uploads(
        Bucket=S3_BUCKET, Prefix=prefix).get("Uploads", [])
    return keys + [u["Key"] for u in open_uploads]


def test_isf001_a_file_of_several_blocks_streams_into_the_store_intact(apps, s3, s3_env):
    a, b = apps
    token = "F" * 32
    seen, client = {}, s3_client(s3_env)
    assert _post(a, "W" * 32, Body(1000, seed=0)).status_code == 200  # clients made

    def at_half(sent):  # while the body arrives: what is already in the store, on disk
        seen["disk"] = _disk_bytes(a.store.root / "incoming")
        uploads = client.list_multipart_uploads(Bucket=S3_BUCKET, Prefix=s3)
        seen["uploading"] = [u["Key"] for u in uploads.get("Uploads", [])]
        seen["sent"] = sent

    body = Body(32 * MB + 12345, seed=1, at_half=at_half)
    tracemalloc.start()
    try:
        r = _post(a, token, body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.status_code == 200 and r.get_json()["bytes"] == body.size
    assert seen["sent"] > 2 * BLOCK_MB * MB
    assert seen["uploading"] == [f"{s3}/incoming/{token}.00.data"]  # parts sent meanwhile
    assert seen["disk"] < MB  # none of its bytes on the replica's disk (a sparse count)
    # a block being filled, the part sent (a copy) and the client's own: ~3 blocks at most
    assert peak < 4 * BLOCK_MB * MB < body.size / 1.5
    got = client.get_object(Bucket=S3_BUCKET, Key=f"{s3}/incoming/{token}.00.data")
    data = got["Body"].read()
    assert got["ETag"].strip('"').endswith("-7")  # 7 parts: 6 blocks and the rest
    assert hashlib.sha256(data).hexdigest() == body.sha.hexdigest()
    assert {p.name for p in (a.store.root / "incoming").rglob("*")
            if p.is_file()} == {"owner"}  # no placeholder left
    with b.server.test_request_context(headers={OWNER_HEADER: KEY}):
        files = take_batch(b.store, token)  # read on the other replica
    assert [(n, hashlib.sha256(d).hexdigest()) for n, d in files] == [
        ("big.bin", body.sha.hexdigest())]
    assert _left_behind(s3_env, s3, token) == []


def test_isf002_an_upload_refused_or_cut_short_while_streaming_leaves_nothing(
        apps, s3, s3_env, monkeypatch):
    a, _ = apps
    cut = "X" * 32  # declared 12 MB, the connection closed after 11 MB (two parts sent)
    r = _post(a, cut, Body(12 * MB, seed=2, stop_at=11 * MB))
    assert r.status_code == 400 and "interrupted" in r.get_json()["error"]
    assert _left_behind(s3_env, s3, cut) == []
    monkeypatch.setenv("ROC_DASH_MAX_UPLOAD_MB", "14")
    big = "Y" * 32  # a drop of 3 + 12 MB: refused in its second file, two parts sent
    assert _post(a, big, Body(3 * MB, seed=3)).status_code == 200
    r = _post(a, big, Body(12 * MB, seed=4), index=1)
    assert r.status_code == 413 and "ROC_DASH_MAX_UPLOAD_MB" in r.get_json()["error"]
    assert _left_behind(s3_env, s3, big) == []
    assert not [p for p in (a.store.root / "incoming").rglob("*") if p.is_file()
                and p.name != "owner"]
