"""Fixtures of the server tests: a Flask test client on the module's ``app`` fixture (each
module says which app: the limits, prefix or hardening it tests)."""

from __future__ import annotations

import pytest


@pytest.fixture
def client(app):
    return app.server.test_client()
