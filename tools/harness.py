"""One way to start the app and a headless Chromium, for the browser tests, the README's
screenshots (``scripts/screenshots.py``) and the browser benchmark (``bench/bench_browser.py``).

It is dash's own test composite (``dash.testing``: a threaded server and a Selenium browser,
what ``dash_duo`` is), set up in one place with the suite's wait limit (``ROC_DASH_TEST_WAIT``)
for every wait, the page load and the server's start. ``tests/browser/conftest.py`` applies
:func:`configure` to ``dash_duo``; scripts open a session with :func:`dash_session`.
"""

from __future__ import annotations

import contextlib
import os
from functools import partial

#: The one limit of every wait of a browser test or session, in seconds: a busy machine only
#: makes a test slower, not red.
WAIT = float(os.environ.get("ROC_DASH_TEST_WAIT", "60"))

__all__ = ["WAIT", "configure", "dash_session"]


def configure(duo):
    """Give a dash test composite (``dash_duo``) one generous wait limit, :data:`WAIT`, for
    its element/text waits, the page load and the test server's start."""
    duo.wait_timeout = WAIT
    duo.wait_for_page = partial(type(duo).wait_for_page, duo, timeout=WAIT)
    start = duo.start_server
    duo.start_server = lambda app, **kw: start(app, **{"start_timeout": WAIT, **kw})
    return duo


@contextlib.contextmanager
def dash_session(app, *, size=(1500, 1300), download_path: str = ""):
    """Serve ``app`` on a free loopback port and open it in headless Chromium; yields the
    composite (``.driver``, ``.server_url``, ``.wait_for_*``) and stops both on exit."""
    from dash.testing.application_runners import ThreadedRunner
    from dash.testing.composite import DashComposite

    with ThreadedRunner() as server, DashComposite(
            server, browser="chrome", headless=True, download_path=download_path,
            percy_run=False, percy_finalize=False) as duo:
        configure(duo)
        duo.driver.set_window_size(*size)
        duo.start_server(app)
        yield duo
