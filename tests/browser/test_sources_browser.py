"""Server data in a real Chromium (issue 19 item 5): the operator's sources are listed beside
the upload; choosing one and pressing Open aggregates it with a progress bar and adds its
models to the views, beside what is loaded; a failing source says why and keeps the rest."""

import duckdb
import numpy as np
import pandas as pd
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from roc_dash.app import create_app, ids
from roc_dash.app.server.sources import SOURCES_VAR

from .gestures import wait_until


@pytest.fixture
def sourced(tmp_path, monkeypatch):
    rng = np.random.default_rng(4)
    n = 20000
    label = (rng.random(n) < 0.2).astype(int)
    parts = []
    for k, model in enumerate(("warehouse forest", "warehouse logit")):
        score = np.round(1 / (1 + np.exp(-(rng.normal(0, 1, n) + (1.2 + k) * label))), 4)
        parts.append(pd.DataFrame({"model": model, "label": label, "score": score}))
    frame = pd.concat(parts, ignore_index=True)
    db = tmp_path / "served" / "warehouse.duckdb"
    db.parent.mkdir()
    con = duckdb.connect(str(db))
    con.register("f", frame)
    con.execute("CREATE TABLE scored AS SELECT * FROM f")
    con.execute("CREATE TABLE broken AS SELECT model, label + 5 AS label, score FROM f")
    con.close()
    monkeypatch.setenv(SOURCES_VAR, str(db))
    return {"db": db, "frame": frame}


def _choose(dash_duo, text):
    """Pick a source from the list, then close the list with Escape, as a person would."""
    dash_duo.select_dcc_dropdown(f"#{ids.SRC_CHOICE}", text)
    ActionChains(dash_duo.driver).send_keys(Keys.ESCAPE).perform()
    wait_until(lambda: not dash_duo.driver.find_elements(
        "css selector", ".dash-dropdown-options, .dash-dropdown-content"),
        message="the list closed")


def _status(dash_duo, element_id):
    return dash_duo.find_element(f"#{element_id}").text


def test_dsb001_open_a_served_table(dash_duo, tmp_path, sourced, shot):
    app = create_app(data_dir=tmp_path / "data")
    dash_duo.driver.set_window_size(1280, 900)
    dash_duo.start_server(app)
    dash_duo.wait_for_element(f"#{ids.SRC_PANEL} h2")
    assert dash_duo.find_element(f"#{ids.SRC_PANEL}").is_displayed()
    # a failing table first: its message names it, and the demo stays
    _choose(dash_duo, "warehouse.duckdb › broken")
    dash_duo.find_element(f"#{ids.SRC_OPEN}").click()
    error = wait_until(lambda: _status(dash_duo, ids.SRC_ERROR) or None,
                       message="the broken table's error")
    assert "broken" in error and "label" in error.lower()
    assert "logistic regression" in dash_duo.find_element(f"#{ids.MODELS}").text
    # then the good one: progress, then its models replace the demo's
    _choose(dash_duo, "warehouse.duckdb › scored")
    dash_duo.find_element(f"#{ids.SRC_OPEN}").click()
    status = wait_until(lambda: (lambda t: t if t.startswith("Loaded") else None)(
        _status(dash_duo, ids.SRC_STATUS)), message="the table loaded")
    assert f"aggregated {len(sourced['frame']):,} rows" in status
    assert _status(dash_duo, ids.SRC_ERROR) == ""
    wait_until(lambda: "warehouse forest" in dash_duo.find_element(f"#{ids.MODELS}").text,
               message="the table's models in the model list")
    legend = wait_until(lambda: (lambda names: names if any("warehouse logit" in n for n in names)
                                 else None)(dash_duo.driver.execute_script(
                                     f"return [...document.querySelectorAll('#{ids.ROC_GRAPH} "
                                     ".legendtext')].map(e => e.textContent);")),
                        message="the ROC legend")
    assert not any("logistic regression" in n for n in legend)  # the demo was replaced
    shot("sources")
    # the stored dataset holds counts, not rows
    ids_ = [p.stem for p in (tmp_path / "data" / "datasets").glob("*.parquet")]
    assert len(ids_) == 1  # the broken table stored nothing
    stored = app.store.get(ids_[0])
    assert len(stored) < len(sourced["frame"]) and stored["weight"].sum() == len(sourced["frame"])
