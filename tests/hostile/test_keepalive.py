"""nginx and gunicorn agree on idle connections (deploy/nginx.conf, gunicorn.conf.py).

nginx keeps idle connections to the app open for reuse (``keepalive 16`` in its upstream).
When gunicorn closed an idle one first (its default after 2 s), a request nginx had just sent
on it was lost: nginx retries a GET elsewhere but not a POST, so Dash's callbacks and uploads
got the "roc-dash is starting or busy" 503 now and then (17-23 of 432 POSTs sent 1.97-2.00 s
after a burst). The app now keeps idle connections longer than nginx does, so nginx is always
the one that closes them.

The probe: bursts of parallel POSTs through nginx, each followed by another burst sent just
as gunicorn's old 2 s would close the idle connections. gunicorn closes expired idle
connections when its loop wakes, once a second after its last event: 2 s after a worker's
last request, give or take the few ms between its answer and the client's. One worker makes
that moment sharp: with the old settings 25 of 432 POSTs were refused (3 workers, each on its
own clock: 4 of 432). The wait before the second burst is the probe itself, not a wait for
an event."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import start_server, stop_server
from .test_nginx import nginx_in_front

#: Parallel POSTs per burst (nginx then holds about that many idle connections to the app).
PARALLEL = 12
#: When the second burst of a round leaves, seconds after the first one's answers: just
#: before gunicorn's former keep-alive (2 s), where its closing of idle connections met new
#: requests (the old settings: 3-10 of 72 refused at each of these).
DELAYS = (1.975, 1.98, 1.985, 1.99, 1.995)
ROUNDS = 36
REFUSED = {502, 503, 504}


@pytest.fixture(scope="module")
def app_and_proxy(tmp_path_factory):
    root = tmp_path_factory.mktemp("keepalive")
    app = start_server(root / "data", root / "gunicorn.log", workers=1)
    try:
        with nginx_in_front(app, root / "nginx") as front:
            yield app, front
    finally:
        stop_server(app)


def _burst(front, pool) -> list[int]:
    """PARALLEL POSTs at once (a request the app answers at once, 405: any answer of the
    app's is fine; only nginx's own refusals count); their statuses."""
    def post(_):
        return front.request("POST", "/", b"{}", {"Content-Type": "application/json"},
                             timeout=30).status

    return list(pool.map(post, range(PARALLEL)))


def test_kpa001_posts_as_the_app_used_to_close_idle_connections_are_never_refused(
        app_and_proxy):
    app, front = app_and_proxy
    statuses: list[int] = []
    deadline = time.monotonic() + 180
    with ThreadPoolExecutor(PARALLEL) as pool:
        _burst(front, pool)  # the connections to the app, opened
        for k in range(ROUNDS):
            if time.monotonic() > deadline:
                break
            _burst(front, pool)
            idle_since = time.monotonic()
            time.sleep(max(0.0, idle_since + DELAYS[k % len(DELAYS)] - time.monotonic()))
            statuses += _burst(front, pool)
    refused = [s for s in statuses if s in REFUSED]
    assert len(statuses) >= PARALLEL * 12, "too few rounds to say anything"
    assert not refused, (f"{len(refused)} of {len(statuses)} POSTs refused by nginx "
                         f"({sorted(set(refused))})\n{front.log_text()[-1500:]}")
    assert set(statuses) == {405}, set(statuses)  # each one answered by the app
