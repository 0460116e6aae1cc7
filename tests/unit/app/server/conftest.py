"""Fixtures of the server tests: a Flask test client on the module's ``app`` fixture (each
module says which app: the limits, prefix or hardening it tests)."""

from __future__ import annotations

import pytest


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
