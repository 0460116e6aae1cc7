"""The Monitor tab's window files in headless Chromium, by real gestures (mtb102): the
reference uploaded as a dataset, two label-less months uploaded through the tab's window
upload (each one's share of positives estimated by EM), a file without a score column
refused with its name while the table stays; a decision record of roc-dash decide uploaded
in the tab; the link copied and opened afresh shows the same windows and the same record
(kept on the server by id)."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from roc_dash.cli import main
from roc_dash.figures.style import format_threshold
from tests.monitoring_example import frame

from .gestures import centre, click, open_tab, scroll_into_view, type_into, wait_idle, wait_until
from .test_monitor_browser import _reopen, _text, _upload
from .test_trust_browser import start


def _send_windows(dash_duo, *paths):
    field = dash_duo.driver.find_element(
        By.CSS_SELECTOR, f"#{ids.MON_WINDOW_UPLOAD} input[type=file]")
    field.send_keys("\n".join(str(p) for p in paths))


@pytest.fixture
def label_less(tmp_path):
    """The reference predictions (labelled) and two months without labels."""
    ref = tmp_path / "ref.csv"
    frame(3000, 0.3, seed=1).to_csv(ref, index=False)
    months = []
    for name, prior, seed in (("jan", 0.3, 2), ("feb", 0.1, 3)):
        months.append(tmp_path / f"{name}.csv")
        frame(3000, prior, seed=seed, labels=False).to_csv(months[-1], index=False)
    return ref, months


def test_mtb102_upload_label_less_windows_see_their_estimated_prior_and_reopen_the_link(
        dash_duo, app, label_less, tmp_path, shot):
    ref, months = label_less
    start(dash_duo, app, size=(1400, 1100))
    d = dash_duo.driver
    _upload(dash_duo, ref)
    open_tab(dash_duo, "monitor")
    dash_duo.wait_for_contains_text(f"#{ids.MON_STATUS}", "Tick the datasets")
    _send_windows(dash_duo, *months)
    wait_until(lambda: "feb" in _text(dash_duo, ids.MON_TABLE), message="the windows' table")
    wait_until(lambda: _text(dash_duo, ids.MON_TABLE).count("(EM)") == 2,
               message="each window's prior estimated by EM")
    wait_idle(dash_duo)
    assert "Window file: feb.csv" in _text(dash_duo, ids.MON_WINDOW_STATUS)
    rows = {r.split()[0]: r for r in _text(dash_duo, ids.MON_TABLE).splitlines()[1:]}
    assert set(rows) == {"jan", "feb"}
    prior = {k: float(r.split()[2].replace(",", "")) for k, r in rows.items()}
    assert prior["feb"] < prior["jan"]  # february's fewer positives, seen without labels
    ticked = d.execute_script(
        f"return [...document.querySelectorAll('#{ids.MON_WINDOWS} label')]"
        ".filter(l => l.querySelector('input').checked).map(l => l.textContent.trim())")
    assert ticked == ["jan.csv (window file)", "feb.csv (window file)"]
    table = _text(dash_duo, ids.MON_TABLE)
    # a file without a score column: refused by name, nothing lost
    bad = tmp_path / "noscore.csv"
    bad.write_text("id,when\n1,2024-01-01\n")
    _send_windows(dash_duo, bad)  # the picker keeps jan and feb in its list: not twice
    dash_duo.wait_for_contains_text(f"#{ids.MON_WINDOW_STATUS}", "noscore.csv")
    assert "score" in _text(dash_duo, ids.MON_WINDOW_STATUS)
    assert _text(dash_duo, ids.MON_TABLE) == table
    # a record that roc-dash decide wrote (another cost), uploaded in the tab
    record = tmp_path / "rec.json"
    assert main(["decide", str(ref), "--cost-fn", "9", "--replicates", "50",
                 "-o", str(record)]) == 0
    d.find_element(By.CSS_SELECTOR, f"#{ids.MON_UPLOAD} input[type=file]").send_keys(
        str(record))
    dash_duo.wait_for_contains_text(f"#{ids.MON_STATUS}", "Checked: rec.json")
    threshold = format_threshold(json.loads(record.read_text())["rule"]["threshold"])
    assert f"score ≥ {threshold}" in _text(dash_duo, ids.MON_STATUS)
    wait_until(lambda: _text(dash_duo, ids.MON_TABLE) != table, message="the record's table")
    wait_idle(dash_duo)
    table = _text(dash_duo, ids.MON_TABLE)
    scroll_into_view(d, d.find_element(By.CSS_SELECTOR, ".monitor-card h2"), block="start")
    shot("mtb102_monitor_window_files")
    link = wait_until(lambda: d.current_url if "mrec=" in d.current_url else None,
                      message="the record and the window files in the link")
    assert "mwin=" in link and link.count("%2C") == 1  # two windows, each once
    _reopen(dash_duo, link, table, "table")
    assert "Record: rec.json" in _text(dash_duo, ids.MON_RECORD + "-name")
    assert f"score ≥ {threshold}" in _text(dash_duo, ids.MON_STATUS)


def test_mtb103_pin_a_threshold_for_a_window_and_see_it_from_the_link(
        dash_duo, app, label_less, shot):
    """Pin 0.6 for february with real clicks and typing, and february's re-derived
    threshold for january (the box left empty): the table and the ROC path show them;
    the link copied and opened afresh shows them again."""
    from .test_slicepage_browser import _pick

    ref, months = label_less
    start(dash_duo, app, size=(1400, 1100))
    d = dash_duo.driver
    _upload(dash_duo, ref)
    open_tab(dash_duo, "monitor")
    _send_windows(dash_duo, *months)
    wait_until(lambda: _text(dash_duo, ids.MON_TABLE).count("(EM)") == 2,
               message="the windows' table")
    wait_idle(dash_duo)
    _pick(dash_duo, ids.MON_PIN_WINDOW, "feb")
    type_into(d.find_element(By.ID, ids.MON_PIN_THRESHOLD), "0.6", enter=False)
    click(d, centre(d, d.find_element(By.ID, ids.MON_PIN_ADD)))
    wait_until(lambda: "≥ 0.6: cost" in _text(dash_duo, ids.MON_TABLE),
               message="the pin in the table")
    rows = {r.split()[0]: r for r in _text(dash_duo, ids.MON_TABLE).splitlines()[1:]}
    words = rows["jan"].split()
    jan_threshold = words[words.index("(EM)") + 1]  # its re-derived threshold
    _pick(dash_duo, ids.MON_PIN_WINDOW, "jan")
    type_into(d.find_element(By.ID, ids.MON_PIN_THRESHOLD), "", enter=False)
    click(d, centre(d, d.find_element(By.ID, ids.MON_PIN_ADD)))
    wait_until(lambda: f"≥ {jan_threshold}: cost" in _text(dash_duo, ids.MON_TABLE),
               message="january pinned at its re-derived threshold")
    pins = wait_until(lambda: d.execute_script(
        f"return document.getElementById('{ids.MON_ROC}').querySelector('.js-plotly-plot')"
        ".data.filter(t => t.name === 'pinned thresholds').map(t => t.x.length)[0]"),
        message="the pins on the ROC path")
    assert pins == 2
    wait_idle(dash_duo)
    scroll_into_view(d, d.find_element(By.ID, ids.MON_STATUS), block="start")
    shot("mtb103_monitor_pins")
    table = _text(dash_duo, ids.MON_TABLE)
    link = wait_until(lambda: d.current_url if "mpin=" in d.current_url else None,
                      message="the pins in the link")
    _reopen(dash_duo, link, table, "pins")
