"""roc-dash behind a real nginx at a sub-path (issue 19, item 3), in headless Chromium.

The project's gunicorn configuration serves the app with ``ROC_DASH_URL_PREFIX=/roc/``; the
system's nginx runs ``deploy/nginx-subpath.conf`` (only its "# test:" lines replaced) in front
of it. Through nginx's port only: the page at ``/roc/``, a file uploaded through the page's
file field (it streams to ``/roc/upload``), a cost typed, the share link copied with the
page's button and opened afresh: the uploaded model and the cost come back. No request of the
page failed, and every one nginx passed on was under ``/roc/``.
"""

import re
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from tests.conftest import make_predictions
from tests.hostile.conftest import ROOT, start_server, stop_server
from tests.hostile.test_nginx import nginx_in_front
from tools.nginx import NGINX

from .gestures import js_graph, type_into, wait_idle, wait_until

PREFIX = "/roc/"
CONF = ROOT / "deploy" / "nginx-subpath.conf"


@pytest.fixture
def proxied(tmp_path):
    """gunicorn (2 workers) under /roc/, and nginx at a sub-path in front of it."""
    if NGINX is None:
        pytest.skip("nginx is not installed (make nginx-deps)")
    app = start_server(tmp_path / "data", tmp_path / "gunicorn.log", workers=2,
                       ROC_DASH_URL_PREFIX=PREFIX)
    try:
        with nginx_in_front(app, tmp_path / "nginx", conf=CONF) as front:
            yield app, front
    finally:
        stop_server(app)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def _legend(driver) -> list[str]:
    return driver.execute_script(
        f"return [...document.querySelectorAll('#{ids.ROC_GRAPH} .legendtext')]"
        ".map(e => e.textContent);")


def _failed_requests(driver) -> list[str]:
    return driver.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.responseStatus && e.responseStatus >= 400)"
        ".map(e => e.name + ' ' + e.responseStatus);")


def _model_drawn(driver, name: str):
    return wait_until(lambda: (lambda names: names if any(
        n.startswith(f"{name} (AUC") for n in names) else None)(_legend(driver)),
        message=f"{name} in the ROC legend")


def test_pxb001_upload_and_a_shared_link_through_nginx_at_a_subpath(dash_duo, proxied,
                                                                      tmp_path, shot):
    app, front = proxied
    base = f"http://127.0.0.1:{front.port}"
    # the probes answer through nginx under the prefix; the root is not the app's
    assert _status(base + PREFIX + "ready") == 200
    assert _status(base + PREFIX + "health") == 200
    assert _status(base + "/") == 404 and _status(base + "/health") == 404
    d = dash_duo.driver
    d.set_window_size(1280, 900)
    d.get(base + "/roc")  # without its slash: nginx sends the browser on to /roc/
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.data.length") or 0, message="ROC view")
    assert urlsplit(d.current_url).path == PREFIX
    wait_idle(dash_duo)

    data = tmp_path / "proxied model.csv"
    frame = make_predictions(300, seed=19, model="proxied model", separation=2.0)
    frame.to_csv(data, index=False)
    field = d.find_element(By.CSS_SELECTOR, f"#{ids.UPLOAD} input[type=file]")
    field.send_keys(str(data))  # the file chooser's gesture: the page streams the file
    _model_drawn(d, "proxied model")
    dash_duo.wait_for_contains_text(f"#{ids.DATASET_LIST}", "proxied model.csv")
    wait_idle(dash_duo)

    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "5")
    wait_until(lambda: "cfn=5" in d.current_url, message="the cost in the page's link")
    wait_idle(dash_duo)
    dash_duo.find_element(f"#{ids.COPY_LINK}").click()
    dash_duo.wait_for_contains_text(f"#{ids.COPY_STATUS}", "ink")
    link = d.execute_script("return window._rocCopied")
    assert link.startswith(base + PREFIX + "?") and "cfn=5" in link and "data=" in link
    d.execute_script("window.scrollTo(0, 0);")
    wait_idle(dash_duo)
    shot("prefix")

    d.get("about:blank")
    d.get(link)  # the copied link, opened afresh through nginx
    _model_drawn(d, "proxied model")
    dash_duo.wait_for_contains_text(f"#{ids.DATASET_LIST}", "proxied model.csv")
    wait_until(lambda: dash_duo.find_element(f"#{ids.COST_FN}").get_attribute("value") == "5",
               message="the link's cost")
    wait_idle(dash_duo)
    assert urlsplit(d.current_url).path == PREFIX
    assert _failed_requests(d) == []

    # what nginx passed on: the upload streamed to /roc/upload, nothing outside /roc/
    # but the test's own probes of the root
    requests = re.findall(r'"(GET|POST|DELETE) (\S+) HTTP', front.log_text())
    assert ("POST", f"{PREFIX}upload") in {(m, p.split("?")[0]) for m, p in requests}
    outside = [p for _, p in requests if not p.startswith(PREFIX)]
    assert sorted(set(outside)) == ["/", "/health", "/roc"]
    assert " 500 " not in app.log_text()
