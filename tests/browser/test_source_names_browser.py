"""A server source whose file name holds a right-to-left override (U+202E), in a real
Chromium: the list of sources, the status line and the loaded dataset's label show the name
without it (it drew the rest of each reversed), and the file opened is that very file."""

import numpy as np
import pandas as pd
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from roc_dash.app import create_app, ids
from roc_dash.app.server.sources import SOURCES_VAR
from roc_dash.text.invisible import invisible_characters

from .gestures import wait_until

NAME = "run\u202etxt.parquet"  # drawn "runtxt.parquet" reversed after the override


@pytest.fixture
def folder(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    label = (rng.random(3000) < 0.3).astype(int)
    score = np.round(1 / (1 + np.exp(-(rng.normal(0, 1, 3000) + 1.5 * label))), 3)
    preds = tmp_path / "served" / "preds"
    preds.mkdir(parents=True)
    pd.DataFrame({"model": "named model", "label": label, "score": score}).to_parquet(
        preds / NAME)
    monkeypatch.setenv(SOURCES_VAR, str(preds))
    return preds


def test_snb001_a_name_with_a_direction_override_is_shown_plainly(dash_duo, tmp_path, folder,
                                                                 shot):
    hidden = set(invisible_characters())
    dash_duo.driver.set_window_size(1280, 900)
    dash_duo.start_server(create_app(data_dir=tmp_path / "data"))
    dash_duo.wait_for_element(f"#{ids.SRC_PANEL} h2")
    dash_duo.find_element(f"#{ids.SRC_CHOICE}").click()  # open the list, as a person would
    options = wait_until(lambda: [e.text for e in dash_duo.driver.find_elements(
        "css selector", f"#{ids.SRC_CHOICE} .dash-dropdown-option, .dash-dropdown-option")
        if e.text], message="the list of sources")
    assert "preds/runtxt.parquet" in options, options
    assert not any(hidden & set(text) for text in options), options
    ActionChains(dash_duo.driver).send_keys(Keys.ESCAPE).perform()  # closed again
    wait_until(lambda: not dash_duo.driver.find_elements(
        "css selector", ".dash-dropdown-options, .dash-dropdown-content"),
        message="the list closed")
    dash_duo.select_dcc_dropdown(f"#{ids.SRC_CHOICE}", "preds/runtxt.parquet")
    ActionChains(dash_duo.driver).send_keys(Keys.ESCAPE).perform()
    dash_duo.find_element(f"#{ids.SRC_OPEN}").click()
    status = wait_until(lambda: (lambda t: t if t.startswith("Loaded") else None)(
        dash_duo.find_element(f"#{ids.SRC_STATUS}").text), message="the file loaded")
    assert status.startswith("Loaded preds/runtxt.parquet: model(s) named model.")
    assert not hidden & set(status)
    listed = wait_until(lambda: (lambda t: t if "runtxt" in t else None)(
        dash_duo.find_element(f"#{ids.DATASET_LIST}").text), message="the dataset's label")
    assert not hidden & set(listed), listed
    wait_until(lambda: "named model" in dash_duo.find_element(f"#{ids.MODELS}").text,
               message="the file's model in the model list")
    shot("source-names")
