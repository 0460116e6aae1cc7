"""Browser tests: dash_duo drives Debian's headless Chromium (``pytest --headless``)."""

import os
from pathlib import Path

import pytest

from roc_dash.app import create_app

ARTIFACTS = Path(os.environ.get("ROC_DASH_ARTIFACTS", "/tmp/dash_artifacts"))


@pytest.fixture
def app(tmp_path):
    return create_app(data_dir=tmp_path / "data")


@pytest.fixture
def shot(dash_duo):
    """Save a full-window screenshot under ``$ROC_DASH_ARTIFACTS`` for a human to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        dash_duo.driver.save_screenshot(str(path))
        return path

    return take
