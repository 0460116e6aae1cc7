"""Download decision in a real headless Chromium: the record of the optimum, then of a pin,
checked against the demo file counted here with pandas."""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from roc_dash.app import ids

from .gestures import wait_file, wait_until
from .test_views_browser import start

DEMO = Path(__file__).resolve().parents[2] / "roc_dash" / "data" / "demo_predictions.csv"


def _download(dash_duo, button=None):
    """Click *Download decision* (or another decision ``button``) and read the JSON it saves
    (the folder emptied first)."""
    folder = Path(dash_duo.download_path)
    for old in folder.glob("roc-dash-decision*.json"):
        old.unlink()
    (button or dash_duo.find_element(f"#{ids.EXPORT_DECISION}")).click()
    return json.loads(wait_file(folder, "roc-dash-decision*.json")[0].read_text())


def _counts(frame, model, threshold):
    rows = frame[frame["model"] == model]
    flagged = rows["score"].to_numpy() >= threshold
    y = rows["label"].to_numpy() == "pos"
    return {"tp": int((flagged & y).sum()), "fp": int((flagged & ~y).sum()),
            "fn": int((~flagged & y).sum()), "tn": int((~flagged & ~y).sum())}


def _cheapest(frame, prior):
    """The cheapest (model, threshold) under unit costs at the prior, by brute force."""
    best = None
    for model, rows in frame.groupby("model"):
        y = rows["label"].to_numpy() == "pos"
        s = rows["score"].to_numpy()
        for t in np.unique(s):
            cost = prior * (1 - (s[y] >= t).mean()) + (1 - prior) * (s[~y] >= t).mean()
            if best is None or cost < best[0] - 1e-12:
                best = (cost, model, t)
    return best


def test_shb001_download_decision_of_the_optimum_then_of_a_pin(dash_duo, app, shot):
    frame = pd.read_csv(DEMO)
    start(dash_duo, app)
    doc = _download(dash_duo)
    prior = float((frame["label"] == "pos").mean())
    cost, model, threshold = _cheapest(frame, prior)
    assert doc["schema"] == "roc-dash decision" and doc["rule"]["how_chosen"] == "optimum"
    assert doc["model"] == model and doc["rule"]["threshold"] == threshold
    assert abs(doc["conditions"]["prior_pos"] - prior) < 1e-12
    assert abs(doc["metrics"]["expected_cost"] - cost) < 1e-12
    assert doc["confusion_matrix"] == _counts(frame, model, threshold)
    assert doc["data"]["fingerprint"].startswith("sha256:")

    # pin naive Bayes at 0.5 by hand: Download decision still gives the recommendation; the
    # pin's own button in the operating card gives the pin, at the vertex the page shows
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", "naive Bayes")
    dash_duo.find_element(f"#{ids.PIN_THRESHOLD}").send_keys("0.5")
    dash_duo.find_element(f"#{ids.PIN_BUTTON}").click()
    wait_until(lambda: "naive Bayes" in dash_duo.find_element(f"#{ids.OPERATING}").text
               and "pinned" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="naive Bayes pinned")
    again = _download(dash_duo)
    assert (again["model"], again["rule"]["how_chosen"]) == (model, "optimum")
    pinned = _download(dash_duo, dash_duo.find_element(
        f"#{ids.OPERATING} button.decision-point[aria-label$=' A']"))
    assert pinned["model"] == "naive Bayes" and pinned["rule"]["how_chosen"] == "pinned"
    scores = frame.loc[frame["model"] == "naive Bayes", "score"]
    vertex = float(scores[scores >= 0.5].min())  # the lowest score at or above 0.5
    assert pinned["rule"]["threshold"] == vertex
    assert pinned["confusion_matrix"] == _counts(frame, "naive Bayes", 0.5)
    assert pinned["data"]["fingerprint"] != doc["data"]["fingerprint"]  # another model's rows
    shot("shb001_download_decision")
