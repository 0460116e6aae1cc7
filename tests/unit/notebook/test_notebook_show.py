"""roc_dash.show (issue 19 §2): the dashboard served on a DataFrame or a file, preloaded with
the given conditions. Outside Jupyter it serves from a thread: the test talks to it over HTTP
on loopback as the page does (its address, then the page's first callbacks), checks what the
page would draw against scikit-learn on the same rows, and stops it."""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd
import pytest
import requests
from sklearn.metrics import roc_auc_score

import roc_dash
from roc_dash.app.state import parse_query
from tools.dash_requests import callback_body, callback_specs
from tools.processes import free_port

CALLBACK = "_dash-update-component"


def _port() -> int:
    """ROC_DASH_TEST_PORT (each checkout its own), else a free port."""
    return int(os.environ.get("ROC_DASH_TEST_PORT") or free_port())


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(190)
    n = 400
    y = rng.random(n) < 0.3
    return pd.DataFrame({"label": np.where(y, "fraud", "ok"),
                         "score": np.round(rng.normal(y * 1.1, 1.0), 3),
                         "model": np.where(np.arange(n) % 2 == 0, "gbm", "logit")})


@pytest.fixture
def shown(frame, tmp_path):
    dashboard = roc_dash.show(frame, mode="external", port=_port(), data_dir=tmp_path,
                              pos_label="fraud", cost_fp=2, cost_fn=5, prior=0.2,
                              averaging="pooled")
    yield dashboard
    dashboard.stop()


def _post(dashboard, specs, first_output, values, changed=()):
    body = callback_body(specs, first_output, values, list(changed))
    r = requests.post(dashboard.url + CALLBACK, json=body, timeout=60)
    assert r.status_code == 200, r.text[:500]
    return r.json()["response"]


def test_nbs001_the_address_opens_the_data_under_the_conditions(shown):
    r = requests.get(shown.url, allow_redirects=False, timeout=30)
    assert r.status_code == 302
    location = r.headers["Location"]
    assert location.startswith("?")
    assert parse_query(location) == {"data": [shown.dataset_id], "cost_fp": 2.0,
                                     "cost_fn": 5.0, "prior": 0.2, "averaging": "pooled"}
    page = requests.get(shown.url, timeout=30)  # follows the redirect
    assert page.status_code == 200 and "DashRenderer" in page.text
    assert page.url == shown.link
    assert page.headers["X-Frame-Options"] == "SAMEORIGIN"  # not framed: external mode


def test_nbs002_the_pages_first_analysis_is_the_given_data(shown, frame):
    """The page's first callbacks, as its first load sends them: the link's datasets, the
    model list, then the views callback (which restores the link's conditions and draws the
    views for them).
    The ROC view's AUCs are scikit-learn's on the given rows; the iso line has the slope of
    the given costs and prior."""
    specs = callback_specs(shown.app)
    search = "?" + shown.link.split("?", 1)[1]
    out = _post(shown, specs, "datasets.data", {"url.search": search, "datasets.data": ["demo"]},
                ["url.search"])
    datasets = out["datasets"]["data"]
    assert datasets == [shown.dataset_id]
    out = _post(shown, specs, "dataset-list.children", {"datasets.data": datasets,
                                                        "url.search": search})
    models = out["models"]["value"]  # the models' keys: dataset id and name
    assert sorted(models) == [f"{shown.dataset_id}/gbm", f"{shown.dataset_id}/logit"]
    # the views callback's first call: the link's conditions, and the views drawn for them
    out = _post(shown, specs, "cost-fp-slider.value", {
        "datasets.data": datasets, "url.search": search, "models.value": models,
        "averaging.value": "pooled", "level.value": 0.95, "band.value": "pointwise",
        "samples-ok.data": 51, "pinned.data": [], "cost-mode.value": "cost",
        "pr-mode.value": "pr"})
    state = out["conditions"]["data"]
    assert (state["cost_fp"], state["cost_fn"], state["prior"]) == (2.0, 5.0, 0.2)
    roc = out["roc-graph"]["figure"]
    y = frame["label"] == "fraud"
    for name in ("gbm", "logit"):
        rows = frame["model"] == name
        legend = next(t["name"] for t in roc["data"] if t.get("name", "").startswith(name))
        shown_auc = re.search(r"AUC ([\d.]+)", legend).group(1)
        assert shown_auc == format(roc_auc_score(y[rows], frame["score"][rows]), ".6g")
    line = roc["layout"]["shapes"][0]
    slope = (line["y1"] - line["y0"]) / (line["x1"] - line["x0"])
    assert slope == pytest.approx(2 * 0.8 / (5 * 0.2), rel=1e-9)


def test_nbs003_stop_frees_the_port_and_the_temporary_folder(frame):
    port = _port()
    dashboard = roc_dash.show(frame, mode="inline", port=port, pos_label="fraud")
    folder = dashboard.app.store.root
    page = requests.get(dashboard.link, timeout=30)
    # inline: a notebook served from this machine may frame the page
    assert "X-Frame-Options" not in page.headers
    assert "frame-ancestors 'self' http://localhost:*" in page.headers["Content-Security-Policy"]
    dashboard.stop()
    assert not os.path.exists(folder)
    with pytest.raises(requests.ConnectionError):
        requests.get(dashboard.url, timeout=5)


@pytest.mark.parametrize("kwargs, message", [
    ({"cost_fp": 0}, r"cost_fp must be a cost between 1e-06 and 1e\+06; got 0"),
    ({"prior": 1.2}, r"prior must be strictly between 0 and 1"),
    ({"averaging": "mean"}, r"averaging must be one of"),
    ({"costs": 3}, r"does not know the condition\(s\) costs"),
    ({"mode": "window"}, r"mode must be one of"),
])
def test_nbs004_unusable_conditions_are_refused_before_serving(frame, tmp_path, kwargs,
                                                               message):
    with pytest.raises(ValueError, match=message):
        roc_dash.show(frame, port=_port(), data_dir=tmp_path, pos_label="fraud", **kwargs)
    assert not list(tmp_path.iterdir())  # nothing stored


def test_nbs005_bad_data_gets_the_io_message(tmp_path):
    with pytest.raises(ValueError, match=r"only negative labels|only positive labels"):
        roc_dash.show(pd.DataFrame({"label": [0, 0], "score": [0.1, 0.2]}), port=_port(),
                      data_dir=tmp_path)
    with pytest.raises(ValueError, match="file not found"):
        roc_dash.show(tmp_path / "nothing.csv", port=_port(), data_dir=tmp_path)


def test_nbs006_showing_again_on_a_port_replaces_the_dashboard_there(frame, tmp_path):
    """Running the cell again serves the new data on the same address (as Dash does in
    Jupyter), not an error that the port is taken."""
    port = _port()
    first = roc_dash.show(frame, mode="external", port=port, data_dir=tmp_path / "a",
                          pos_label="fraud")
    second = roc_dash.show(frame.iloc[:200], mode="external", port=port,
                           data_dir=tmp_path / "b", pos_label="fraud", cost_fn=3)
    try:
        r = requests.get(second.url, timeout=30)
        assert r.url == second.link and second.dataset_id != first.dataset_id
    finally:
        second.stop()
        first.stop()  # already stopped: nothing happens
