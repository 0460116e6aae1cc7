"""The summary strip's intervals and the partial-AUC matrix in a real headless Chromium
(issue 17 items 2-3): the strip's line appears after the views, holds the operating card's
threshold interval and follows a change of costs typed in; the Model comparison card's
"partial AUC (bootstrap)" choice, clicked, shows the ΔpAUC matrix whose differences equal
scikit-learn's McClish partial AUCs on the demo's rows read here with pandas. The decision
downloaded carries the card's interval of the choice."""

import json
from pathlib import Path

import pandas as pd
from sklearn.metrics import roc_auc_score

from roc_dash.app import ids
from roc_dash.decision.record import CHOSEN_THRESHOLD_WHAT
from roc_dash.text.rounding import sig, signed

from .gestures import click, open_tab, scroll_into_view, type_into, wait_file, wait_until
from .shots import SHOTS
from .test_views_browser import start

DEMO = Path(__file__).resolve().parents[2] / "roc_dash" / "data" / "demo_predictions.csv"


def _line(dash_duo) -> str:
    found = dash_duo.driver.find_elements("css selector", f"#{ids.SUMMARY} .summary-intervals")
    return found[0].text if found else ""


def _card_threshold(dash_duo) -> str:
    """The operating card's threshold cell (optimum), once its intervals are computed."""
    if dash_duo.find_element(f"#{ids.POINT_INTERVALS_STATUS}").text:
        return ""
    for tr in dash_duo.driver.find_elements("css selector", f"#{ids.POINT_INTERVALS} tbody tr"):
        if tr.find_element("css selector", "th").text == "Threshold":
            return tr.find_element("css selector", "td").text
    return ""


def _agree(dash_duo) -> bool:
    """The strip's threshold interval is the card's: "0.412 [0.300–0.500]" ~ "0.300–0.500"."""
    cell, line = _card_threshold(dash_duo), _line(dash_duo)
    if "[" not in cell or not line:
        return False
    return f"threshold {cell.split('[')[1].rstrip(']')}," in line


def _rect_click(dash_duo, element):
    scroll_into_view(dash_duo.driver, element)
    r = dash_duo.driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height];",
        element)
    click(dash_duo.driver, (r[0] + r[2] / 2, r[1] + r[3] / 2))


def test_pci101_strip_intervals_then_the_partial_auc_matrix(dash_duo, app):
    start(dash_duo, app)
    wait_until(lambda: _agree(dash_duo), message="the strip's line of intervals")
    first = _line(dash_duo)
    # the decision downloaded: its interval of the choice is the card's (6 significant digits)
    folder = Path(dash_duo.download_path)
    _rect_click(dash_duo, dash_duo.find_element(f"#{ids.EXPORT_DECISION}"))
    doc = json.loads(wait_file(folder, "roc-dash-decision*.json")[0].read_text())
    low, high = doc["choice_intervals"]["threshold"]
    shown = _card_threshold(dash_duo).split("[")[1].rstrip("]")
    assert shown == f"{sig(low)}–{sig(high)}"
    # the headline is the optimum of these data: its intervals are corrected for that choice
    assert doc["rule"]["how_chosen"] == "optimum"
    assert doc["intervals"]["what"] == CHOSEN_THRESHOLD_WHAT
    assert first.startswith("How sure: 95% intervals of the choice")
    assert "expected cost" in first and "per case" in first and "out of bag" in first
    # other costs, typed: the line goes with the old views and comes back with the new
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "4")
    wait_until(lambda: _line(dash_duo) not in ("", first) and _agree(dash_duo),
               message="the strip's line for c(FN) = 4")
    # the partial-AUC matrix, chosen with a click
    dash_duo.driver.set_window_size(1280, 900)
    open_tab(dash_duo, "compare")
    label = next(el for el in dash_duo.driver.find_elements(
        "css selector", f"#{ids.CMP_MEASURE} label") if "partial AUC" in el.text)
    _rect_click(dash_duo, label)

    def caption():
        found = dash_duo.driver.find_elements(
            "css selector", f"#{ids.COMPARISON_RESULT} caption")
        return found[0].text if found else ""

    wait_until(lambda: "ΔpAUC" in caption(), message="the partial-AUC matrix")
    assert "2000 replicates" in caption()
    frame = pd.read_csv(DEMO)
    table = dash_duo.find_element(f"#{ids.COMPARISON_RESULT} table")
    heads = [th.get_attribute("title") for th in table.find_elements("css selector",
                                                                      "thead th")[1:]]
    rows = table.find_elements("css selector", "tbody tr")
    pauc = {}
    for name in heads:
        g = frame[frame["model"] == name]
        pauc[name] = roc_auc_score(g["label"] == "pos", g["score"], max_fpr=0.2)
    for i, tr in enumerate(rows):
        cells = tr.find_elements("css selector", "td")
        for j, td in enumerate(cells):
            if i == j:
                continue
            diff = td.find_element("css selector", ".diff").text
            assert diff == f"{signed(pauc[heads[i]] - pauc[heads[j]])}", (heads[i], heads[j])
    card = dash_duo.find_element(".comparison-card")
    scroll_into_view(dash_duo.driver, card, block="start")
    wait_until(lambda: _line(dash_duo), message="the strip's line on the Compare tab")
    SHOTS.mkdir(parents=True, exist_ok=True)
    dash_duo.driver.save_screenshot(str(SHOTS / "pointci.png"))
