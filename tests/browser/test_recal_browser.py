"""The recalibration the decision stores, chosen on the calibration card in a real headless
Chromium (rcb001): a click on *logistic recalibration*, *Download decision*, the file read
back and its map checked against statsmodels' logistic fit on the demo file's rows; the
choice in the link and back after a reload."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy.special import logit

from roc_dash.app import ids
from roc_dash.core.constraints.calibration_intervals import EPS

from .gestures import open_tab, wait_file, wait_idle, wait_until
from .test_views_browser import start

DEMO = Path(__file__).resolve().parents[2] / "roc_dash" / "data" / "demo_predictions.csv"
CHECKED = f"return (document.querySelector('#{ids.CAL_RECALIBRATE} input:checked') || {{}}).value"


def test_rcb001_logistic_recalibration_chosen_downloaded_and_linked(dash_duo, app, shot):
    frame = pd.read_csv(DEMO)
    start(dash_duo, app)
    open_tab(dash_duo, "compare")
    wait_until(lambda: "Calibration slope" in dash_duo.find_element(f"#{ids.CAL_TABLE}").text,
               message="the calibration card's slopes")
    label = next(e for e in dash_duo.driver.find_elements(
        "css selector", f"#{ids.CAL_RECALIBRATE} label") if "logistic" in e.text)
    label.click()
    wait_until(lambda: "recal=logistic" in dash_duo.driver.current_url,
               message="the choice in the link")

    folder = Path(dash_duo.download_path)
    for old in folder.glob("roc-dash-decision*.json"):
        old.unlink()
    dash_duo.find_element(f"#{ids.EXPORT_DECISION}").click()
    doc = json.loads(wait_file(folder, "roc-dash-decision*.json")[0].read_text())
    assert doc["schema_version"] == 2 and doc["recalibration"]["method"] == "logistic"
    wait_until(lambda: "logistic recalibration" in dash_duo.find_element(
        f"#{ids.EXPORT_STATUS}").text, message="the status names the recalibration")
    rows = frame[frame["model"] == doc["model"]]
    y = (rows["label"] == "pos").to_numpy(int)
    x = logit(np.clip(rows["score"].to_numpy(float), EPS, 1 - EPS))
    a, b = sm.GLM(y, sm.add_constant(x), family=sm.families.Binomial()).fit().params
    assert abs(doc["recalibration"]["intercept"] - a) < 1e-6
    assert abs(doc["recalibration"]["slope"] - b) < 1e-6
    dash_duo.driver.set_window_size(1280, 1000)
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start'});"
        "window.scrollBy(0, -140);", ids.CAL_CARD)
    wait_idle(dash_duo.driver)
    shot("recal_calibration_card")

    # the link opens with the choice made
    dash_duo.driver.get(dash_duo.driver.current_url)
    open_tab(dash_duo, "compare")
    wait_until(lambda: dash_duo.driver.execute_script(CHECKED) == "logistic",
               message="the choice back from the link")
