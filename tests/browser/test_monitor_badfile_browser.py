"""A bad window file in the Monitor tab, by real gestures (fxb001; stranger review 11, items
1, 8 and 15): good windows uploaded and cut by month, then a window file of bad dates: it is
refused naming the file, its column, rows and values, it is not ticked, and the table and
the figures stay; "Over the windows" fits its card at 1600x1000 and in presentation mode
at 1280x720; the "Pin a threshold" box is a normal width."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from roc_dash.app import ids
from tests.monitoring_example import frame

from .gestures import open_tab, scroll_into_view, wait_idle, wait_until
from .test_monitor_browser import _text, _upload
from .test_monitor_files_browser import _send_windows
from .test_slicepage_browser import _pick
from .test_trust_browser import start

_FITS = """
const card = document.getElementById(arguments[0]).closest('.card').getBoundingClientRect();
const svg = document.getElementById(arguments[0]).querySelector('.main-svg')
    .getBoundingClientRect();
return [svg.top >= card.top - 1, svg.bottom <= card.bottom + 1, svg.height, card.bottom,
        svg.bottom];
"""


def _ticked(d):
    return d.execute_script(
        f"return [...document.querySelectorAll('#{ids.MON_WINDOWS} label')]"
        ".filter(l => l.querySelector('input').checked).map(l => l.textContent.trim())")


def test_fxb001_a_window_file_of_bad_dates_is_refused_and_the_windows_stay(
        dash_duo, app, tmp_path, shot):
    ref = tmp_path / "ref.csv"
    frame(3000, 0.3, seed=1).to_csv(ref, index=False)
    good = frame(2000, 0.3, seed=2)
    good["time"] = ["2026-07-15"] * 1000 + ["2026-08-15"] * 1000
    good.to_csv(tmp_path / "good.csv", index=False)
    bad = tmp_path / "bad_dates.csv"
    bad.write_text("model,label,score,time\nrf,0,0.3,notadate\nrf,1,0.4,2026-13-45\n")
    start(dash_duo, app, size=(1600, 1000))
    d = dash_duo.driver
    _upload(dash_duo, ref)
    open_tab(dash_duo, "monitor")
    _send_windows(dash_duo, tmp_path / "good.csv")
    dash_duo.wait_for_contains_text(f"#{ids.MON_WINDOW_STATUS}", "Window file: good.csv")
    _pick(dash_duo, ids.MON_TIME, "time")
    _pick(dash_duo, ids.MON_EVERY, "each month")
    wait_until(lambda: "2026-08" in _text(dash_duo, ids.MON_TABLE),
               message="the windows cut by month")
    wait_idle(dash_duo)
    table = _text(dash_duo, ids.MON_TABLE)
    assert [r.split()[0] for r in table.splitlines()[1:]] == ["2026-07", "2026-08"]
    # the bad file: refused by name, with its rows and values; not ticked; nothing lost
    _send_windows(dash_duo, bad)
    dash_duo.wait_for_contains_text(f"#{ids.MON_WINDOW_STATUS}", "bad_dates.csv")
    said = _text(dash_duo, ids.MON_WINDOW_STATUS)
    assert ("bad_dates.csv: column 'time' has 2 values that are not a date or time "
            "(rows 2, 3): '2026-13-45', 'notadate'") in said, said
    assert "Window file: good.csv" not in said  # the last upload's files only
    wait_idle(dash_duo)
    assert _ticked(d) == ["good.csv (window file)"]
    assert _text(dash_duo, ids.MON_TABLE) == table
    assert "Checked:" in _text(dash_duo, ids.MON_STATUS)
    # the number box of "Pin a threshold" is a normal width
    box = d.find_element(By.ID, ids.MON_PIN_THRESHOLD)
    card = d.find_element(By.CSS_SELECTOR, ".monitor-card")
    assert box.size["width"] < 0.3 * card.size["width"], (box.size, card.size)
    # "Over the windows" inside its card, the x-axis labels too
    graph = d.find_element(By.ID, ids.MON_TIME_GRAPH)
    scroll_into_view(d, graph)
    fits = d.execute_script(_FITS, ids.MON_TIME_GRAPH)
    assert fits[0] and fits[1], fits
    shot("fxb001_monitor_bad_dates")
    # presentation mode at 1280x720: still inside
    d.set_window_size(1280, 720)
    dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}")
               .get_attribute("class"), message="presentation mode")
    wait_idle(dash_duo, quiet=1.0)
    for graph_id in (ids.MON_ROC, ids.MON_TIME_GRAPH):
        scroll_into_view(d, d.find_element(By.ID, graph_id))
        fits = wait_until(lambda g=graph_id: (lambda f: f if f[0] and f[1] else None)(
            d.execute_script(_FITS, g)), message=f"{graph_id} inside its card")
        assert fits[2] > 250, fits  # not squashed
    shot("fxb001_monitor_presentation_1280x720")
