"""The Monitor tab in headless Chromium, driven by real gestures (mtb101): three uploads
(the reference and two months), the tab opened, the months ticked as windows, a cost typed,
the labels set aside; the link carries the tab's settings and reopens it; a decision record
uploaded in the tab (a bad one refused, one of roc-dash decide checked)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from selenium.webdriver.common.by import By
from sklearn.metrics import roc_curve

from roc_dash.app import ids
from roc_dash.cli import main
from roc_dash.figures.style import format_threshold
from tests.monitoring_example import frame

from .gestures import (
    centre,
    click,
    keys_paced,
    open_tab,
    scroll_into_view,
    type_into,
    wait_idle,
    wait_until,
)
from .test_trust_browser import start


def _upload(dash_duo, path):
    field = dash_duo.driver.find_element(By.CSS_SELECTOR, f"#{ids.UPLOAD} input[type=file]")
    field.send_keys(str(path))
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", path.name)
    wait_idle(dash_duo)


def _tick(dash_duo, container, text):
    """Click the label of the checkbox whose text holds ``text`` (as a person does)."""
    d = dash_duo.driver
    label = next(e for e in d.find_elements(By.CSS_SELECTOR, f"#{container} label")
                 if text in e.text)
    scroll_into_view(d, label)
    click(d, centre(d, label))


def _text(dash_duo, element_id) -> str:
    return dash_duo.find_element(f"#{element_id}").text


def _reopen(dash_duo, link, table, what) -> None:
    """A colleague opens ``link`` (a fresh session): the Monitor tab shows, with ``table``
    (``what`` names it in the message)."""
    d = dash_duo.driver
    d.execute_script("sessionStorage.clear();")
    d.get(link)
    wait_until(lambda: d.find_element(By.ID, ids.TAB_PANEL + "monitor").is_displayed(),
               message="the Monitor tab shown")
    wait_until(lambda: _text(dash_duo, ids.MON_TABLE) == table,
               message=f"the same {what} from the link")


def _optimum(path, prior, c_fp, c_fn) -> float:
    """The least-cost threshold of a file's rows, by brute force over scikit-learn's ROC."""
    import pandas as pd

    f = pd.read_csv(path)
    fpr, tpr, thr = roc_curve(f["label"], f["score"])
    return float(thr[int(np.argmin(c_fp * (1 - prior) * fpr + c_fn * prior * (1 - tpr)))])


@pytest.fixture
def months(tmp_path):
    paths = {}
    for name, prior, seed in (("ref", 0.3, 1), ("jan", 0.3, 2), ("feb", 0.1, 3)):
        paths[name] = tmp_path / f"{name}.csv"
        frame(3000, prior, seed=seed).to_csv(paths[name], index=False)
    return paths


def test_mtb101_pick_windows_change_a_cost_and_reopen_the_link(dash_duo, app, months, shot):
    start(dash_duo, app, size=(1400, 1100))
    d = dash_duo.driver
    for name in ("ref", "jan", "feb"):
        _upload(dash_duo, months[name])
    open_tab(dash_duo, "monitor")
    dash_duo.wait_for_contains_text(f"#{ids.MON_STATUS}", "Tick the datasets")
    _tick(dash_duo, ids.MON_WINDOWS, "jan.csv")
    _tick(dash_duo, ids.MON_WINDOWS, "feb.csv")
    wait_until(lambda: "feb" in _text(dash_duo, ids.MON_TABLE), message="the windows' table")
    wait_idle(dash_duo)
    scroll_into_view(d, d.find_element(By.CSS_SELECTOR, ".monitor-card h2"), block="start")
    shot("mtb101_monitor_controls")
    prior = float(np.mean(frame(3000, 0.3, seed=1)["label"]))  # ref.csv's prevalence
    threshold = _optimum(months["ref"], prior, 1.0, 1.0)
    status = _text(dash_duo, ids.MON_STATUS)
    assert f"score ≥ {format_threshold(threshold)}" in status, status
    rows = {r.split()[0]: r for r in _text(dash_duo, ids.MON_TABLE).splitlines()[1:]}
    assert set(rows) == {"jan", "feb"}
    path = wait_until(lambda: d.execute_script(
        f"return document.getElementById('{ids.MON_ROC}').querySelector('.js-plotly-plot')"
        ".data.filter(t => (t.name || '').startsWith('windows')).length"),
        message="the operating point's path")
    assert path == 1
    table_before = _text(dash_duo, ids.MON_TABLE)
    # a cost typed in the sidebar: the decision, its path and the table follow
    type_into(d.find_element(By.ID, ids.COST_FN), "4")
    moved = _optimum(months["ref"], prior, 1.0, 4.0)
    assert moved != threshold
    wait_until(lambda: f"score ≥ {format_threshold(moved)}" in _text(dash_duo, ids.MON_STATUS),
               message="the decision at the new cost")
    wait_until(lambda: _text(dash_duo, ids.MON_TABLE) != table_before,
               message="the table at the new cost")
    # the labels set aside: each window's prior estimated (EM)
    _tick(dash_duo, ids.MON_LABELS, "labels aside")
    wait_until(lambda: "(EM)" in _text(dash_duo, ids.MON_TABLE), message="EM estimates")
    wait_idle(dash_duo)
    scroll_into_view(d, d.find_element(By.ID, ids.MON_STATUS), block="start")
    shot("mtb101_monitor_tab")
    link = wait_until(lambda: d.current_url if "mnolab=1" in d.current_url else None,
                      message="the tab's settings in the link")
    assert "tab=monitor" in link and "mwin=" in link and "cfn=4" in link
    table = _text(dash_duo, ids.MON_TABLE)
    # a colleague opens the link: the same tab, windows and table
    _reopen(dash_duo, link, table, "table")
    checked = d.execute_script(
        f"return [...document.querySelectorAll('#{ids.MON_WINDOWS} input')]"
        ".filter(i => i.checked).length")
    assert checked == 2
    # a record uploaded in the tab: a bad one is refused and the table stays; one that
    # roc-dash decide wrote is checked
    bad = months["ref"].with_name("bad.json")
    bad.write_text("{not json")
    upload_field = f"#{ids.MON_UPLOAD} input[type=file]"
    d.find_element(By.CSS_SELECTOR, upload_field).send_keys(str(bad))
    dash_duo.wait_for_contains_text(f"#{ids.MON_RECORD}-name", "bad.json: not JSON")
    assert _text(dash_duo, ids.MON_TABLE) == table
    record = months["ref"].with_name("rec.json")
    assert main(["decide", str(months["ref"]), "--cost-fn", "9", "--replicates", "50",
                 "-o", str(record)]) == 0
    d.find_element(By.CSS_SELECTOR, upload_field).send_keys(str(record))
    dash_duo.wait_for_contains_text(f"#{ids.MON_STATUS}", "Checked: rec.json")
    threshold = json.loads(record.read_text())["rule"]["threshold"]
    assert f"score ≥ {format_threshold(threshold)}" in _text(dash_duo, ids.MON_STATUS)
    wait_until(lambda: "mref=upload" in d.current_url, message="the record's choice linked")


@pytest.fixture
def dated(tmp_path):
    """A reference and later predictions with a date column over two months."""
    paths = {"ref": tmp_path / "ref.csv", "later": tmp_path / "later.csv"}
    frame(3000, 0.3, seed=1).to_csv(paths["ref"], index=False)
    later = frame(2000, 0.3, seed=2)
    later["date"] = np.array(["2025-01-05", "2025-01-20", "2025-02-05", "2025-02-20"])[
        np.arange(2000) % 4]
    later.to_csv(paths["later"], index=False)
    return paths


def _months_shown(dash_duo) -> bool:
    rows = [r.split()[0] for r in _text(dash_duo, ids.MON_TABLE).splitlines()[1:] if r]
    return rows == ["2025-01", "2025-02"]


def _type_in_dropdown(d, dropdown_id, text):
    """Focus the dropdown (as Tab would), type ``text`` and Enter: a person's keys."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    target = d.find_element(By.CSS_SELECTOR, f"#{dropdown_id}")
    scroll_into_view(d, target)
    d.execute_script("arguments[0].focus()", target)
    wait_until(lambda: d.execute_script(
        "return document.activeElement === arguments[0]", target), message="the focus")
    keys_paced(d, text, 0.15)  # the first key opens the list and its search
    wait_until(lambda: d.find_elements(By.CSS_SELECTOR, ".dash-dropdown-content input"),
               message=f"{dropdown_id}'s list open with its search")
    ActionChains(d).send_keys(Keys.ENTER).perform()
    ActionChains(d).send_keys(Keys.ESCAPE).perform()  # the list closed, as a person would
    wait_until(lambda: not d.find_elements(By.CSS_SELECTOR, ".dash-dropdown-content input"),
               message=f"{dropdown_id}'s list closed")


def _later_as_a_window(dash_duo, app, dated):
    """The page with ``ref.csv`` and ``later.csv`` loaded, the Monitor tab open and
    ``later.csv`` ticked as a window; its driver."""
    start(dash_duo, app, size=(1400, 1100))
    for name in ("ref", "later"):
        _upload(dash_duo, dated[name])
    open_tab(dash_duo, "monitor")
    _tick(dash_duo, ids.MON_WINDOWS, "later.csv")
    return dash_duo.driver


def test_mtb120_the_period_dropdown_is_chosen_by_typing(dash_duo, app, dated):
    """Stranger review 10: typing "month" and Enter in "each day / week / month" chose
    nothing (the dropdown had no search)."""
    d = _later_as_a_window(dash_duo, app, dated)
    wait_until(lambda: "later" in _text(dash_duo, ids.MON_TABLE), message="one window")
    _type_in_dropdown(d, ids.MON_TIME, "date")
    wait_until(lambda: "2025-02-20" in _text(dash_duo, ids.MON_TABLE),
               message="a window per date")
    _type_in_dropdown(d, ids.MON_EVERY, "month")
    wait_until(lambda: _months_shown(dash_duo), message="a window per month, by the keys")
    assert "each month" in d.find_element(By.ID, ids.MON_EVERY).text


def test_mtb121_the_cut_by_month_survives_a_reload_and_a_fresh_link(dash_duo, app, dated):
    """Stranger review 10: mtime and mevery were lost after F5 and when a link naming them
    was opened (the time column's option arrived after its value, which the dropdown
    cleared)."""
    d = _later_as_a_window(dash_duo, app, dated)
    link = wait_until(lambda: d.current_url if "mwin=" in d.current_url else None,
                      message="the window in the link")
    link += "&mtime=date&mevery=month"
    # a colleague opens the link (a fresh session)
    d.execute_script("sessionStorage.clear();")
    d.get(link)
    wait_until(lambda: d.find_element(By.ID, ids.TAB_PANEL + "monitor").is_displayed(),
               message="the Monitor tab shown")
    wait_until(lambda: _months_shown(dash_duo), message="the link's cut by month")
    wait_idle(dash_duo)
    assert "mtime=date" in d.current_url and "mevery=month" in d.current_url
    # F5
    d.refresh()
    wait_until(lambda: d.find_element(By.ID, ids.TAB_PANEL + "monitor").is_displayed(),
               message="the Monitor tab shown again")
    wait_until(lambda: _months_shown(dash_duo), message="the cut by month after a reload")
    wait_idle(dash_duo)
    assert "mtime=date" in d.current_url and "mevery=month" in d.current_url
    assert "each month" in d.find_element(By.ID, ids.MON_EVERY).text
