"""Decisions under constraints on the page, in a real headless Chromium driven by real keys
and clicks: the summary strip's headline and the operating card follow the Decide tab's
capacity (and come back without it); the Beyond binary tab's cost matrix for a multi-class
file (typed matrix and prior, bad input's message, the rules compared, the link). Numbers
read off the page are checked against brute force over the data read with pandas."""

from pathlib import Path

import numpy as np
import pandas as pd

from roc_dash.app import ids
from roc_dash.figures.style import format_threshold
from roc_dash.text.rounding import sig

from . import gestures
from .gestures import open_tab, type_into, wait_idle, wait_until
from .test_kinds_browser import _example
from .test_views_browser import start

DATA = Path(__file__).resolve().parents[2] / "roc_dash" / "data"
DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]


def _headline(dash_duo):
    return dash_duo.find_element(f"#{ids.SUMMARY} .summary-main").text


def _brute(fits):
    """``(cost, model, threshold)`` of least expected cost at the demo's prevalence under the
    page's default costs (1 and 1) over every threshold of every model that ``fits``
    (flagged share)."""
    rows = pd.read_csv(DATA / "demo_predictions.csv")
    best = (np.inf, None, None)
    for m in DEMO_MODELS:
        r = rows[rows["model"] == m]
        y, s = (r["label"] == "pos").to_numpy(), r["score"].to_numpy(float)
        prior = y.mean()
        for t in [np.inf, *np.unique(s)]:
            tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
            cost = prior * (1 - tpr) + (1 - prior) * fpr
            if fits(prior * tpr + (1 - prior) * fpr) and cost < best[0] - 1e-12:
                best = (cost, m, t)
    return best


def test_cst101_strip_headline_and_card_follow_the_capacity(dash_duo, app, shot):
    start(dash_duo, app)
    free = _brute(lambda flagged: True)
    wait_until(lambda: _headline(dash_duo).startswith(
        f"Use {free[1]} at score ≥ {format_threshold(free[2])}:"), message="the optimum")
    capacity = dash_duo.find_element(f"#{ids.DCT_CAPACITY}")
    gestures.scroll_into_view(dash_duo.driver, capacity)
    type_into(capacity, "5%")
    cost, model, t = _brute(lambda flagged: flagged <= 0.05 + 1e-12)
    want = f"Use {model} at score ≥ {format_threshold(t)} under the capacity of 5% cases:"
    wait_until(lambda: _headline(dash_duo).startswith(want), message="the constrained headline")
    assert "more per case than the optimum without it" in _headline(dash_duo)
    card = dash_duo.find_element(f"#{ids.OPERATING}").text
    assert "least expected cost under the capacity of 5% cases" in card
    assert format_threshold(t) in card and sig(cost)[:4] in card
    wait_idle(dash_duo.driver)
    dash_duo.driver.execute_script("window.scrollTo(0, 0);")
    shot("cst101_strip_under_capacity")
    # 800 cases out of 4,000 (the volume typed): flagging at most 20%
    type_into(dash_duo.find_element(f"#{ids.DCT_CAPACITY}"), "800")
    type_into(dash_duo.find_element(f"#{ids.DCT_VOLUME}"), "4000")
    cost = _brute(lambda flagged: flagged <= 0.2 + 1e-12)[0]
    wait_until(lambda: " under the capacity of 800 cases out of 4,000:" in _headline(dash_duo),
               message="the capacity out of the volume")
    # the least cost flagging at most 20% (two thresholds tie at it: either is the optimum)
    at = _cost_at(*_chosen(_headline(dash_duo)))
    assert at[1] <= 0.2 + 1e-12 and abs(at[0] - cost) < 1e-9
    assert dash_duo.find_element(f"#{ids.DCT_CAPACITY_MSG}").text == ""
    wait_idle(dash_duo.driver)
    dash_duo.find_element(f"#{ids.DCT_CARD}").screenshot(
        str(shot("cst101_volume").with_name("cst101_volume_card.png")))
    # cleared: the optimum again, in the strip and the card
    type_into(dash_duo.find_element(f"#{ids.DCT_CAPACITY}"), "")
    wait_until(lambda: _headline(dash_duo).startswith(
        f"Use {free[1]} at score ≥ {format_threshold(free[2])}:"), message="the optimum back")
    wait_until(lambda: "optimal for the current costs and prior" in
               dash_duo.find_element(f"#{ids.OPERATING}").text, message="the card's optimum")


def _cmx_text(dash_duo, element_id):
    return dash_duo.find_element(f"#{element_id}").text


def test_cmx101_cost_matrix_typed_bad_input_and_link(dash_duo, app, shot):
    start(dash_duo, app)
    _example(dash_duo, "multi-class")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Multi-class file: 3 classes")
    open_tab(dash_duo, "beyond")
    wait_until(lambda: dash_duo.find_element(f"#{ids.CMX_CARD}").is_displayed(),
               message="the cost-matrix card")
    wait_until(lambda: "Argmax" in _cmx_text(dash_duo, ids.CMX_RESULT)
               or "argmax" in _cmx_text(dash_duo, ids.CMX_RESULT), message="the rules")
    matrix = dash_duo.find_element(f"#{ids.CMX_MATRIX}")
    gestures.scroll_into_view(dash_duo.driver, matrix)
    type_into(matrix, "0 1 5; 2 0 1; 10 1 0")
    type_into(dash_duo.find_element(f"#{ids.CMX_PRIOR}"), "1 1 2")
    wait_until(lambda: "normalised" in _cmx_text(dash_duo, ids.CMX_MSG),
               message="the prior's note")
    wait_until(lambda: "10" in _cmx_text(dash_duo, ids.CMX_TABLE), message="the matrix read")
    # the argmax's cost at the prior by hand (the data read with pandas)
    rows = pd.read_csv(DATA / "multiclass_demo.csv")
    model = dash_duo.find_element(f"#{ids.MC_MODEL}").text.strip()
    r = rows[rows["model"] == model]
    classes = ["class_0", "class_1", "class_2"]
    y = r["class"].astype(str).to_numpy()
    p = r[[f"score_{c}" for c in classes]].to_numpy(float)
    c = np.array([[0, 1, 5], [2, 0, 1], [10, 1, 0]], float)
    prior = np.array([0.25, 0.25, 0.5])
    decided = np.argmax(p, axis=1)
    rates = np.array([[np.mean(decided[y == a] == j) for j in range(3)] for a in classes])
    argmax_cost = float(np.sum(prior[:, None] * rates * c))
    wait_until(lambda: sig(argmax_cost) in _cmx_text(dash_duo, ids.CMX_RESULT),
               message="the argmax's cost under the typed matrix")
    shown = _cmx_text(dash_duo, ids.CMX_RESULT)
    gestures.scroll_into_view(dash_duo.driver, dash_duo.find_element(f"#{ids.CMX_CARD}"),
                              block="start")
    wait_idle(dash_duo.driver)
    shot("cmx101_cost_matrix_card")
    dash_duo.find_element(f"#{ids.CMX_CARD}").screenshot(
        str(shot("cmx101_page").with_name("cmx101_card.png")))
    # bad input: a negative cost, a message; the result stays
    type_into(dash_duo.find_element(f"#{ids.CMX_MATRIX}"), "0 1 5; 2 0 -1; 10 1 0")
    wait_until(lambda: "negative" in _cmx_text(dash_duo, ids.CMX_MSG),
               message="the negative cost's message")
    assert _cmx_text(dash_duo, ids.CMX_RESULT) == shown
    # the download: a real click, its status line
    type_into(dash_duo.find_element(f"#{ids.CMX_MATRIX}"), "0 1 5; 2 0 1; 10 1 0")
    wait_until(lambda: "negative" not in _cmx_text(dash_duo, ids.CMX_MSG), message="fixed")
    dash_duo.find_element(f"#{ids.CMX_EXPORT}").click()
    wait_until(lambda: "Downloaded the decision of" in _cmx_text(dash_duo, ids.CMX_STATUS),
               message="the download's status")
    # the link carries the matrix and the prior into a fresh load
    wait_until(lambda: "cmx=" in dash_duo.driver.current_url, message="the link")
    url = dash_duo.driver.current_url
    dash_duo.driver.get(url)
    wait_until(lambda: dash_duo.find_element(f"#{ids.CMX_MATRIX}").get_attribute("value")
               == "0 1 5; 2 0 1; 10 1 0", message="the matrix from the link")
    assert dash_duo.find_element(f"#{ids.CMX_PRIOR}").get_attribute("value") == "1 1 2"


def _cost_at(model, t):
    """``(expected cost, flagged share)`` of ``s >= t`` at the demo's prevalence, costs 1, 1."""
    rows = pd.read_csv(DATA / "demo_predictions.csv")
    r = rows[rows["model"] == model]
    y, s = (r["label"] == "pos").to_numpy(), r["score"].to_numpy(float)
    prior, tpr, fpr = y.mean(), (s[y] >= t).mean(), (s[~y] >= t).mean()
    return prior * (1 - tpr) + (1 - prior) * fpr, prior * tpr + (1 - prior) * fpr


def _chosen(headline):
    """``(model, threshold)`` of a headline "Use M at score ≥ t under …"."""
    model, rest = headline[len("Use "):].split(" at score ≥ ", 1)
    return model, float(rest.split(" ", 1)[0].rstrip(":"))


def _recall_bound(model, t, confidence=0.95):
    """The exact one-sided (Clopper-Pearson) lower bound of the recall at ``s >= t``."""
    from scipy.stats import beta

    rows = pd.read_csv(DATA / "demo_predictions.csv")
    r = rows[rows["model"] == model]
    y, s = (r["label"] == "pos").to_numpy(), r["score"].to_numpy(float)
    k, n = int((s[y] >= t).sum()), int(y.sum())
    return float(beta.ppf(1 - confidence, k, n - k + 1)) if k else 0.0


def test_cst102_floors_held_with_confidence_typed(dash_duo, app, shot):
    start(dash_duo, app)
    floors = dash_duo.find_element(f"#{ids.DCT_FLOORS}")
    gestures.scroll_into_view(dash_duo.driver, floors)
    type_into(floors, "recall >= 0.97")
    wait_until(lambda: "under the floor recall ≥ 0.97:" in _headline(dash_duo),
               message="the floor's headline")
    plain = _chosen(_headline(dash_duo))
    assert _recall_bound(*plain) < 0.97  # on the data's rates: not sure to hold
    type_into(dash_duo.find_element(f"#{ids.DCT_FLOOR_CONF}"), "95%")
    wait_until(lambda: "(held with 95% confidence):" in _headline(dash_duo),
               message="the headline on exact bounds")
    sure = _chosen(_headline(dash_duo))
    assert sure != plain and _recall_bound(*sure) >= 0.97
    assert format_threshold(sure[1]) in dash_duo.find_element(f"#{ids.DCT_SUMMARY}").text
    # a confidence that is none: its message; the floors chosen on the rates again
    type_into(dash_duo.find_element(f"#{ids.DCT_FLOOR_CONF}"), "2")
    wait_until(lambda: "Confidence not used" in
               dash_duo.find_element(f"#{ids.DCT_FLOORS_MSG}").text, message="the message")
    wait_until(lambda: _chosen(_headline(dash_duo)) == plain, message="the rates' choice")
    wait_until(lambda: "fconf=2" in dash_duo.driver.current_url, message="the link")
    wait_idle(dash_duo.driver)
    shot("cst102_floors_confidence")
