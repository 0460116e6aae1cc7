"""Browser tests: dash_duo drives Debian's headless Chromium (``pytest --headless``)."""

import os
from pathlib import Path

import pytest
from dash.testing.application_runners import BaseDashRunner

from tools.harness import configure

# dash_duo's servers take ports 58050, 58051, ... in each pytest process; two suites run side
# by side (two checkouts) give each a range of its own with ROC_DASH_TEST_PORT.
BaseDashRunner._next_port = int(os.environ.get("ROC_DASH_TEST_PORT", BaseDashRunner._next_port))


@pytest.fixture
def dash_duo(dash_duo):
    """dash_duo with one generous wait limit (``ROC_DASH_TEST_WAIT``) for all of its waits
    (:func:`tools.harness.configure`, shared with the screenshot and benchmark scripts)."""
    return configure(dash_duo)


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    """Where screenshots go: ``$ROC_DASH_ARTIFACTS`` if set (to keep them), else a folder
    of this session's pytest temporary directory."""
    folder = os.environ.get("ROC_DASH_ARTIFACTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("dash_artifacts")


@pytest.fixture(autouse=True, scope="session")
def _screenshots_in_artifacts(artifacts):
    """The folder of :data:`.shots.SHOTS` (tests that name their screenshots' paths)."""
    from .shots import SHOTS

    SHOTS.folder = artifacts


@pytest.fixture
def shot(dash_duo, artifacts):
    """Save a full-window screenshot under :func:`artifacts` for a human to look at."""
    artifacts.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = artifacts / f"{name}.png"
        dash_duo.driver.save_screenshot(str(path))
        return path

    return take


@pytest.fixture(autouse=True)
def _click_in_view(monkeypatch):
    """Click the way a person does: bring the element to the middle of the window first.

    The decision summary stays pinned under the top bar while the page scrolls; WebDriver
    scrolls an element to the very top before clicking, where the strip covers it (a person
    would have scrolled it into view).
    """
    from selenium.webdriver.remote.webelement import WebElement

    plain = WebElement.click

    def click(self):
        self.parent.execute_script(
            "arguments[0].scrollIntoView({block: 'center', inline: 'nearest'});", self)
        return plain(self)

    monkeypatch.setattr(WebElement, "click", click)
