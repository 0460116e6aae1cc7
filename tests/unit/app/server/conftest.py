"""Fixtures of the server tests: a Flask test client on the module's ``app`` fixture (each
module says which app: the limits, prefix or hardening it tests)."""

from __future__ import annotations

import time

import pytest

#: The bucket of the object-store tests' moto server (:func:`s3_env`).
S3_BUCKET = "roc-dash"


@pytest.fixture
def client(app):
    return app.server.test_client()


@pytest.fixture
def app_with(tmp_path, monkeypatch):
    """``app_with(NAME=value, ...)``: the dashboard on ``tmp_path / "data"`` built after setting
    those environment variables for the test (a value of None removes the variable), so that
    each module's ``app`` says only the settings it tests."""
    from roc_dash.app import create_app

    def build(**env):
        for name, value in env.items():
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        return create_app(data_dir=tmp_path / "data")

    return build


@pytest.fixture(scope="module")
def s3_env(tmp_path_factory):
    """A moto S3 server on loopback (one per test module) with :data:`S3_BUCKET`: the
    environment (endpoint, credentials) that reaches it."""
    from tools.s3_server import s3_server

    with s3_server(tmp_path_factory.mktemp("moto"), buckets=(S3_BUCKET,)) as env:
        yield env


@pytest.fixture
def s3(s3_env, monkeypatch, request):
    """``ROC_DASH_STORE_URL`` on a prefix of this test's own in the moto bucket."""
    prefix = f"t-{request.node.name[5:11]}-{time.monotonic_ns()}"
    for name, value in s3_env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("ROC_DASH_STORE_URL", f"s3://{S3_BUCKET}/{prefix}")
    return prefix
