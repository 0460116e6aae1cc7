"""What the first review meeting tripped over (issue 15, section 2), with real input.

Files go to the page's file input, dropdowns and buttons are clicked by WebDriver, drags and
clicks on plots are mouse events dispatched by Chromium, keys are typed; every wait waits for
the event it needs.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from roc_dash.app import ids
from roc_dash.app.features import exports
from roc_dash.app.state import display
from roc_dash.text.rounding import sig

from .gestures import js_graph, open_tab, wait_until
from .test_trust_browser import start, value
from .test_upload_browser import upload


def predictions(n: int, prevalence: float, *, seed: int,
                models=("logistic regression", "naive Bayes")) -> pd.DataFrame:
    """``n`` rows per model with about ``prevalence`` positives, scored by each model."""
    rng = np.random.default_rng(seed)
    label = (rng.random(n) < prevalence).astype(int)
    parts = []
    for k, model in enumerate(models):
        score = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + (1.5 - 0.4 * k) * label)))
        parts.append(pd.DataFrame({"model": model, "label": label,
                                   "score": np.round(score, 5)}))
    return pd.concat(parts, ignore_index=True)


def exact_prevalence(frame: pd.DataFrame) -> float:
    first = frame[frame["model"] == frame["model"].iloc[0]]
    return float(first["label"].mean())


def table_rows(dash_duo) -> list[list[str]]:
    return dash_duo.driver.execute_script(
        f"return [...document.querySelectorAll('#{ids.MODEL_TABLE} table.models:not(.pairs)"
        " > tbody > tr')].map(r => [...r.cells].map(c => c.textContent));")


def table_head(dash_duo) -> list[str]:
    return dash_duo.driver.execute_script(
        f"return [...document.querySelectorAll('#{ids.MODEL_TABLE} table.models:not(.pairs)"
        " > thead th')].map(c => c.textContent);")


def compare_table(dash_duo, ready, message) -> tuple[list[list[str]], list[str]]:
    """The model table's rows and head once ``ready(rows)``, read on the Compare tab (the
    table is drawn when that tab shows), then back on Decide."""
    open_tab(dash_duo, "compare")
    wait_until(lambda: ready(table_rows(dash_duo)), message=message)
    rows, head = table_rows(dash_duo), table_head(dash_duo)
    open_tab(dash_duo, "decide")
    return rows, head


def status(dash_duo) -> str:
    return dash_duo.find_element(f"#{ids.UPLOAD_STATUS}").text


# -- 1. a second dataset keeps the prior --------------------------------------------------
def test_rvw101_a_second_upload_keeps_the_prior_and_the_link_keeps_its_source(
        dash_duo, app, tmp_path, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    first = predictions(300, 0.37, seed=1)
    second = predictions(400, 0.1, seed=2)
    p1, p2 = exact_prevalence(first), exact_prevalence(second)
    first.to_csv(tmp_path / "breast.csv", index=False)
    second.to_csv(tmp_path / "digits.csv", index=False)
    upload(dash_duo, tmp_path / "breast.csv")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "replaces the demo")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p1), message="p(+) of breast.csv")
    rows, head = compare_table(dash_duo, lambda rows: len(rows) == 2, "two models in the table")
    threshold_before = rows[0][head.index("Optimal threshold")]

    upload(dash_duo, tmp_path / "digits.csv")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", f"stays p(+) = {display(p1)}")
    text = status(dash_duo)
    assert f"p(+) = {display(p2)}" in text and "digits.csv" in text and "to switch" in text
    rows, head = compare_table(dash_duo, lambda rows: len(rows) == 4, "four models in the table")
    assert value(dash_duo, ids.PRIOR) == display(p1)
    row = dash_duo.find_element(f"#{ids.PRIOR_SOURCE_ROW}")
    assert row.is_displayed() and "breast.csv" in row.text and "digits.csv" not in row.text
    # breast.csv's model keeps its threshold
    assert rows[0][head.index("Optimal threshold")] == threshold_before
    assert "psrc=" in d.execute_script("return location.search")
    shot("rvw101_second_upload")

    # the user switches, with the list beside "Use the data's prevalence"
    dash_duo.select_dcc_dropdown(f"#{ids.PRIOR_SOURCE}", f"digits.csv ({sig(p2)})")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p2), message="p(+) of digits.csv")
    wait_until(lambda: "now follows the prevalence" in dash_duo.find_element(
        f"#{ids.CONTROL_MSG}").text, message="the switch is said")
    search = d.execute_script("return location.search")
    assert "prior=" not in search  # the prior follows the data: the link names whose
    data = re.search(r"data=([^&]+)", search).group(1).split("%2C")
    assert re.search(r"psrc=([^&]+)", search).group(1) == data[1]  # digits.csv's id

    # the link opens with the same source in a fresh page
    link = d.current_url
    d.execute_script("window.sessionStorage.clear()")
    d.get(link)
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p2), message="p(+) from the link")
    wait_until(lambda: "digits.csv" in dash_duo.find_element(f"#{ids.PRIOR_SOURCE_ROW}").text,
               message="the link's source shown")
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.layout.meta.slope") == pytest.approx(
        (1 - p2) / p2, rel=1e-9), message="the iso line at digits.csv's prior")


# -- 2. the demo beside an upload; every model tagged -------------------------------------
def legend_texts(dash_duo, graph) -> list[str]:
    return dash_duo.driver.execute_script(
        f"return [...document.querySelectorAll('#{graph} .legendtext')]"
        ".map(e => e.textContent);")


def test_rvw203_load_demo_after_an_upload_adds_it_and_tags_every_model(
        dash_duo, app, tmp_path, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    predictions(300, 0.3, seed=3).to_csv(tmp_path / "mine.csv", index=False)
    upload(dash_duo, tmp_path / "mine.csv")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "replaces the demo")
    _, head = compare_table(dash_duo, lambda rows: len(rows) == 2, "the upload's two models")
    assert "Dataset" not in head

    button = dash_duo.find_element(f"#{ids.LOAD_DEMO}")
    button.click()
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Added the demo data beside "
                                    "mine.csv (nothing was replaced)")
    assert "×" in status(dash_duo)
    rows, head = compare_table(dash_duo, lambda rows: len(rows) == 6, "six models in the table")
    models = ["logistic regression (mine.csv)", "naive Bayes (mine.csv)",
              "logistic regression (demo)", "naive Bayes (demo)", "decision tree (demo)",
              "gradient boosting (demo)"]
    # legends of the ROC, PR and cost views
    for graph in (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH):
        wait_until(lambda graph=graph: all(any(t.startswith(m) for t in legend_texts(
            dash_duo, graph)) for m in models), message=f"tagged legend of {graph}")
    # the model table's Dataset column (the model's own name beside it)
    assert head[:2] == ["Model", "Dataset"]
    assert sorted((r[0].strip(), r[1]) for r in rows) == sorted(
        (m.rsplit(" (", 1)[0], m.rsplit(" (", 1)[1].rstrip(")")) for m in models)
    # the summary strip names a tagged model
    summary = dash_duo.find_element(f"#{ids.SUMMARY}").text
    assert "(demo)" in summary or "(mine.csv)" in summary
    # the pin dropdown: every option carries its dataset
    dash_duo.find_element(f"#{ids.PIN_MODEL}").click()
    options = wait_until(lambda: [e.text for e in d.find_elements(
        "css selector", ".dash-dropdown-options .dash-dropdown-option")], message="options")
    assert options == models
    d.find_element("css selector", "body").send_keys("\ue00c")  # Escape closes the menu
    shot("rvw203_demo_beside_upload")

    # removing the demo (its × in the list) brings back the plain names
    dash_duo.find_element(f"#{ids.DATASET_LIST} button[aria-label^='Remove Demo']").click()
    dash_duo.wait_for_element(f"#{ids.REMOVAL} .confirm button.danger").click()  # "Remove"
    _, head = compare_table(dash_duo, lambda rows: [r[0] for r in rows] == [
        "logistic regression", "naive Bayes"], "the demo removed: plain names again")
    assert "Dataset" not in head


# -- 3. the ring is a fixed marker; the iso line stays draggable when zoomed ---------------
def digits_like(n=1800, prevalence=0.1, seed=9) -> pd.DataFrame:
    """Three well-separated models (AUC about 0.99) at about 10% positives, like issue 15's
    digits data (9 against the rest): the optimum lies at a small FPR."""
    rng = np.random.default_rng(seed)
    label = (rng.random(n) < prevalence).astype(int)
    parts = []
    for model, sep in (("logistic regression", 3.3), ("naive Bayes", 2.5),
                       ("gradient boosting", 3.0)):
        score = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + sep * label - 2.5)))
        parts.append(pd.DataFrame({"model": model, "label": label,
                                   "score": np.round(score, 6)}))
    return pd.concat(parts, ignore_index=True)


def ring(driver) -> dict:
    return js_graph(driver, ids.ROC_GRAPH,
                    "(a => a && {x: a.x, y: a.y, size: a.font.size, symbol: a.text})"
                    "(gd.layout.annotations.find(a => a.name === 'optimum ring'))")


def iso_line(driver) -> list[float]:
    return js_graph(driver, ids.ROC_GRAPH,
                    "[gd.layout.shapes[0].x0, gd.layout.shapes[0].y0, gd.layout.shapes[0].x1,"
                    " gd.layout.shapes[0].y1]")


def _ring_and_line_direction(driver):
    """The ring, its centre on screen and the iso line's unit direction on screen."""
    from .gestures import to_screen

    r = ring(driver)
    x0, y0, x1, y1 = iso_line(driver)
    cx, cy = to_screen(driver, ids.ROC_GRAPH, r["x"], r["y"])
    ax, ay = to_screen(driver, ids.ROC_GRAPH, x0, y0)
    bx, by = to_screen(driver, ids.ROC_GRAPH, x1, y1)
    norm = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    return r, (cx, cy), ((bx - ax) / norm, (by - ay) / norm)


def test_rvw301_the_zoomed_line_drags_by_its_middle_and_the_ring_stays_a_ring(
        dash_duo, app, tmp_path, shot):
    from .gestures import drag, to_screen, type_into, wait_idle, wait_steady

    start(dash_duo, app)
    d = dash_duo.driver
    digits_like().to_csv(tmp_path / "digits.csv", index=False)
    upload(dash_duo, tmp_path / "digits.csv")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "replaces the demo")
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "10")
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "10", message="c(FN) = 10")
    type_into(dash_duo.find_element(f"#{ids.PRIOR}"), "0.05")
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.layout.meta.slope") == pytest.approx(
        0.95 / 0.5, rel=1e-9), message="iso slope at c(FN)=10, p=0.05")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    # the ring is an annotation (a ◯ glyph) at the optimal vertex, the line the only
    # (editable) shape but the interval boxes (shapes that take no pointer: point_regions)
    r = ring(d)
    assert r["symbol"] == "◯"
    assert js_graph(d, ids.ROC_GRAPH, "gd.layout.shapes.filter(s => !(s.name || '')"
                                      ".startsWith('point-region-')).length") == 1

    # box-zoom to FPR < 0.12 with the mouse (from below right of the line to the top left)
    top_left = to_screen(d, ids.ROC_GRAPH, 0.0, 1.0)
    corner = to_screen(d, ids.ROC_GRAPH, 0.12, 0.55)
    drag(d, corner, (top_left[0] + 1, top_left[1] + 1))
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range[1]") < 0.13,
               message="zoomed to FPR < 0.12")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    shot("rvw301_zoomed")
    # the line where it passes the optimal vertex (5 px from it, where the ring used to
    # cover it), pulled sideways: a drag of the line's middle, read as a rotation
    r, (cx, cy), (ux, uy) = _ring_and_line_direction(d)
    near = (cx + 5 * ux, cy + 5 * uy)
    drag(d, near, (near[0] + 30, near[1] + 20))
    wait_until(lambda: value(dash_duo, ids.COST_FP) != "1",
               message="c(FP) follows a drag of the line at the ring")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    before = value(dash_duo, ids.COST_FP)
    # the middle of the line as seen in the zoomed plot, pulled sideways
    (xa, xb), (ya, yb) = js_graph(d, ids.ROC_GRAPH,
                                  "[gd._fullLayout.xaxis.range, gd._fullLayout.yaxis.range]")
    x0, y0, x1, y1 = iso_line(d)
    m = (y1 - y0) / (x1 - x0)
    lo = max(xa, x0, x0 + (ya - y0) / m)
    hi = min(xb, x1, x0 + (yb - y0) / m)
    mid = (lo + hi) / 2
    px, py = to_screen(d, ids.ROC_GRAPH, mid, y0 + m * (mid - x0))
    drag(d, (px, py), (px - 30, py - 20))
    wait_until(lambda: value(dash_duo, ids.COST_FP) != before,
               message="c(FP) follows a drag of the zoomed line's middle")
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range[1]") < 0.13,
               message="the zoom is kept")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)

    # press the ring's edge (its farthest point from the line, which plotly's grab zone of
    # the line still reaches) and pull 80 px: the ring is not deformed or moved off its vertex
    r, (cx, cy), (ux, uy) = _ring_and_line_direction(d)
    edge = (cx - 9 * uy, cy + 9 * ux)
    drag(d, edge, (edge[0] + 80, edge[1] + 30))
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    after = ring(d)
    assert (after["size"], after["symbol"]) == (r["size"], r["symbol"])
    star = js_graph(d, ids.ROC_GRAPH, "(a => [a.x, a.y])(gd.layout.annotations.find("
                    "a => a.name === 'optimum'))")
    assert [after["x"], after["y"]] == star  # still on the (possibly new) optimum
    assert js_graph(d, ids.ROC_GRAPH, "gd.layout.shapes.filter(s => !(s.name || '')"
                                      ".startsWith('point-region-')).length") == 1


# -- 5. the recommendation stays the headline, in the page and in the report --------------
def test_rvw502_pins_never_replace_the_recommendation_in_the_summary_or_the_report(
        dash_duo, app, shot):
    import html as html_lib
    from pathlib import Path

    from .gestures import wait_file
    from .test_meeting_browser import pin_two_vertices

    start(dash_duo, app)
    summary = dash_duo.find_element(f"#{ids.SUMMARY}")
    headline = summary.text.splitlines()[0]
    assert headline.startswith("Use logistic regression at score ≥ 0.510192")
    pin_two_vertices(dash_duo, app)
    wait_until(lambda: "B: naive Bayes" in summary.text, message="pins compared in the strip")
    lines = summary.text.splitlines()
    assert lines[0] == headline  # the recommendation is still the headline
    assert any("stays optimal while" in x for x in lines)  # its sensitivity stays
    assert lines[-1].startswith("Pinned A: decision tree at score ≥ ")
    shot("rvw502_summary_with_pins")

    dash_duo.find_element(f"#{ids.EXPORT_HTML}").click()
    page = html_lib.unescape(wait_file(Path(dash_duo.download_path),
                                       "roc-dash-report.html")[0].read_text())
    decision = page.split("<h2>Decision</h2>", 1)[1]
    box = decision.split('<p class="summary">', 1)[1].split("</p>", 1)[0]
    assert box.startswith("Use logistic regression at score ≥ 0.510192")
    assert "stays optimal while" in box and "Pinned" not in box
    after = decision.split("</p>", 1)[1]
    assert "Pinned A: decision tree" in after and "B: naive Bayes" in after
    assert after.index("Pinned A") < after.index("Operating points compared")
    assert "Operating point (optimal for these conditions)" in page


# -- 6. pins: letters above the curves, clear of the read-off, picked by keyboard ---------
def _rects(driver, graph, selector) -> list[list[float]]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => {"
        " const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });",
        f"#{graph} {selector}")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_rvw601_pin_letters_read_off_and_the_model_list_by_keyboard(dash_duo, app, shot,
                                                                   monkeypatch):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    from .gestures import scroll_into_view, type_into, wait_idle
    from .test_meeting_browser import pin_two_vertices

    start(dash_duo, app, size=(1280, 720))
    d = dash_duo.driver
    pin_two_vertices(dash_duo, app)
    wait_idle(dash_duo)
    # ROC: the pins are painted last (above every curve), each letter inside its circle
    names = js_graph(d, ids.ROC_GRAPH, "gd.data.map(t => t.name)")
    assert [n[:8] for n in names[-2:]] == ["pinned A", "pinned B"]
    scroll_into_view(d, d.find_element("css selector", f"#{ids.ROC_GRAPH}"))
    groups = d.execute_script(
        f"return [...document.querySelectorAll('#{ids.ROC_GRAPH} .scatterlayer .trace')]"
        ".map(g => g.querySelector('.textpoint text') ? g.querySelector('.textpoint text')"
        ".textContent : '');")
    assert groups[-2:] == ["A", "B"]  # the last groups painted
    for letter in "AB":
        k = names.index(next(n for n in names if n.startswith(f"pinned {letter}")))
        text = _rects(d, ids.ROC_GRAPH, f".scatterlayer .trace:nth-child({k + 1}) .textpoint")
        ring_ = _rects(d, ids.ROC_GRAPH, f".scatterlayer .trace:nth-child({k + 1}) .point")
        (t,), (c,) = text, ring_
        assert c[0] <= t[0] and t[2] <= c[2] and c[1] <= t[1] and t[3] <= c[3], letter
    assert js_graph(d, ids.ROC_GRAPH, "gd.data[gd.data.length - 1].textfont.shadow")
    shot("rvw601_roc_pins")

    # cost curves: the read-off box covers neither pin nor letter
    scroll_into_view(d, d.find_element("css selector", f"#{ids.COST_GRAPH}"))
    wait_idle(dash_duo)
    box = _rects(d, ids.COST_GRAPH, ".annotation[data-index='1'] .annotation-text-g")
    assert box, "the read-off box"
    pins = (_rects(d, ids.COST_GRAPH, ".scatterlayer .trace .textpoint")
            + _rects(d, ids.COST_GRAPH, ".scatterlayer .trace:nth-last-child(-n+4) .point"))
    assert len(pins) >= 4  # two letters, two markers
    assert not any(_overlap(box[0], p) for p in pins), (box, pins)
    shot("rvw601_cost_pins")

    # the pin row by keyboard: "gradient" + Enter picks gradient boosting, even when the
    # list already holds another model; Enter in the threshold box then pins it
    # Clear pins downloads nothing (the operating card's ↓ buttons going once fell through
    # to the HTML report)
    reports = []
    monkeypatch.setattr(exports, "html_download", lambda *a, **k: reports.append(a))
    dash_duo.find_element(f"#{ids.UNPIN}").click()
    wait_until(lambda: "pinned" not in " ".join(js_graph(
        d, ids.ROC_GRAPH, "gd.data.map(t => t.name)")), message="pins cleared")
    wait_idle(dash_duo)
    assert reports == [] and not list(Path(dash_duo.download_path).glob("*.html"))
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", "naive Bayes")
    type_into(dash_duo.find_element(f"#{ids.PIN_THRESHOLD}"), "0.5")
    wait_until(lambda: any((n or "").startswith("pinned A: naive Bayes") for n in js_graph(
        d, ids.ROC_GRAPH, "gd.data.map(t => t.name)")), message="A: naive Bayes")
    dash_duo.find_element(f"#{ids.PIN_MODEL}").click()
    ActionChains(d).send_keys("gradient").perform()
    wait_until(lambda: [e.text for e in d.find_elements(
        "css selector", ".dash-dropdown-option")] == ["gradient boosting"],
        message="the list filtered by the typed name")
    ActionChains(d).send_keys(Keys.ENTER).perform()
    # choosing the model pins nothing: the threshold box takes the focus, to confirm
    wait_until(lambda: d.switch_to.active_element.get_attribute("id") == ids.PIN_THRESHOLD,
               message="the threshold box focused")
    wait_idle(dash_duo)
    assert not any((n or "").startswith("pinned B") for n in js_graph(
        d, ids.ROC_GRAPH, "gd.data.map(t => t.name)"))
    ActionChains(d).send_keys(Keys.ENTER).perform()  # the threshold confirmed: pinned
    wait_until(lambda: any((n or "").startswith("pinned B: gradient boosting") for n in
                           js_graph(d, ids.ROC_GRAPH, "gd.data.map(t => t.name)")),
               message="B: gradient boosting, the typed model")
    assert dash_duo.find_element(f"#{ids.PIN_MODEL}").text == "gradient boosting"
    assert "B: gradient boosting at score ≥ " in dash_duo.find_element(f"#{ids.SUMMARY}").text


# -- 7. averaging -------------------------------------------------------------------------
def test_rvw701_threshold_averaging_is_readable_and_pr_says_it_pools(dash_duo, app, shot):
    from .gestures import scroll_into_view, wait_idle, wait_steady

    start(dash_duo, app, size=(1280, 900))
    d = dash_duo.driver
    radio = next(e for e in dash_duo.find_elements(f"#{ids.AVERAGING} label")
                 if e.text == "threshold")
    radio.click()
    wait_until(lambda: "threshold average" in (js_graph(
        d, ids.ROC_GRAPH, "gd.layout.title && gd.layout.title.text") or ""),
        message="threshold averaging drawn")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    # the error bars: a few per model, drawn by plotly as .errorbar groups
    bars = d.execute_script(
        f"return [...document.querySelectorAll('#{ids.ROC_GRAPH} .scatterlayer .trace')]"
        ".map(g => g.querySelectorAll('.errorbar').length).filter(n => n > 0);")
    assert len(bars) == 4 and all(4 <= n <= 6 for n in bars), bars
    title = js_graph(d, ids.PR_GRAPH, "gd._fullLayout.title.text")
    assert title == ("10 folds pooled: the ROC's threshold averaging does not apply to "
                     "precision-recall")
    shown = d.find_element("css selector", f"#{ids.PR_GRAPH} .gtitle")
    assert shown.is_displayed() and "does not apply" in shown.text
    scroll_into_view(d, d.find_element("css selector", f"#{ids.ROC_GRAPH}"))
    shot("rvw701_threshold_averaging")


# -- 8. layout ----------------------------------------------------------------------------
_TITLE_BOX = """
const gd = document.querySelector('#' + arguments[0] + ' .js-plotly-plot');
const svg = gd.querySelector('.main-svg').getBoundingClientRect();
const texts = [...gd.querySelectorAll('.g-gtitle text, .g-gtitle-subtitle text, .gtitle, .gtitle-subtitle')];
const boxes = texts.map(t => t.getBoundingClientRect()).filter(r => r.height > 0);
const head = gd.closest('.card').querySelector('.card-head').getBoundingClientRect();
return {svg_top: svg.top, plot_top: svg.top + gd._fullLayout._size.t, head_bottom: head.bottom,
        top: Math.min(...boxes.map(r => r.top)), bottom: Math.max(...boxes.map(r => r.bottom)),
        n: boxes.length, text: texts.map(t => t.textContent).join(' | ')};
"""

_PLACEHOLDER_FITS = """
const e = document.getElementById(arguments[0]), s = getComputedStyle(e);
const c = document.createElement('canvas').getContext('2d');
c.font = s.font;
const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
return [c.measureText(e.placeholder).width, room, e.placeholder];
"""


@pytest.mark.parametrize("width", [1280, 1024])
def test_rvw801_titles_placeholders_table_and_the_det_hint_fit(dash_duo, app, tmp_path, shot,
                                                               width):
    from .gestures import open_tab, scroll_into_view, wait_idle, wait_steady

    start(dash_duo, app, size=(width, 720))
    d = dash_duo.driver
    # the threshold view's title and note: whole, below the card's radio row, above the plot
    scroll_into_view(d, d.find_element("css selector", f"#{ids.THRESHOLD_GRAPH}"))
    wait_steady(d, ids.THRESHOLD_GRAPH)
    box = d.execute_script(_TITLE_BOX, ids.THRESHOLD_GRAPH)
    assert "overall optimum" in box["text"], box
    assert box["top"] >= box["svg_top"] and box["top"] >= box["head_bottom"] - 0.5, box
    assert box["bottom"] <= box["plot_top"] + 0.5, box
    shot(f"rvw801_threshold_{width}")
    # "Which model is cheaper?": every placeholder shown whole
    open_tab(dash_duo, "compare")
    for input_id in (ids.SUP_LOW, ids.SUP_MODE, ids.SUP_HIGH):
        need, room, text = d.execute_script(_PLACEHOLDER_FITS, input_id)
        assert need <= room, f"{text!r} needs {need:.0f} px, has {room:.0f}"
    scroll_into_view(d, d.find_element("css selector", f"#{ids.SUP_GRAPH}"))
    shot(f"rvw801_superiority_{width}")
    # the model table: no sideways scrolling
    table = d.find_element("css selector", f"#{ids.MODEL_TABLE}")
    scroll_into_view(d, table)
    assert d.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1",
                            table), d.execute_script(
        "return [arguments[0].scrollWidth, arguments[0].clientWidth]", table)
    shot(f"rvw801_table_{width}")
    assert d.execute_script("return document.documentElement.scrollWidth <= "
                            "document.documentElement.clientWidth"), "the page scrolls sideways"
    # DET axes draw the iso line as a curve (a trace, no shape to drag), and the hint no
    # longer asks to drag one
    open_tab(dash_duo, "decide")
    hint = dash_duo.find_element(f"#{ids.ROC_HINT}")
    assert hint.text.startswith("drag the red line")
    dash_duo.find_element(f"#{ids.DET} input").click()
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.layout.meta && gd.layout.meta.det"),
               message="DET axes")
    wait_until(lambda: "DET axes" in hint.text, message="the DET hint")
    assert "drag the red line" not in d.find_element(
        "css selector", f"#{ids.ROC_GRAPH}").find_element("xpath", "ancestor::div[contains("
                                                          "@class, 'card')]").text
    assert not js_graph(d, ids.ROC_GRAPH, "(gd.layout.shapes || []).length")
    wait_idle(dash_duo)
    dash_duo.find_element(f"#{ids.DET} input").click()
    wait_until(lambda: hint.text.startswith("drag the red line"), message="the ROC hint back")


def test_rvw802_long_names_wrap_in_the_sidebar(dash_duo, app, tmp_path, shot):
    """A 180-character model name in an 88-character file name, and an error quoting a
    2,000-character name, wrap in the sidebar and the summary strip: the views keep their
    width. (Plotly's legend still runs past its graph for such a name: open.)"""
    from .gestures import wait_idle

    start(dash_duo, app, size=(1280, 900))
    d = dash_duo.driver
    long_model = "M" * 180
    frame = predictions(600, 0.3, seed=7, models=(long_model,))
    path = tmp_path / ("churn_predictions_" + "x" * 66 + ".csv")
    frame.to_csv(path, index=False)
    upload(dash_duo, path)
    wait_until(lambda: long_model[:40] in d.find_element(
        "css selector", f"#{ids.DATASET_LIST}").text, message="the long-named dataset")
    bad = tmp_path / "bad_name.csv"
    frame.assign(model="N" * 2000).to_csv(bad, index=False)
    upload(dash_duo, bad)
    wait_until(lambda: "at most 256 characters" in d.find_element("tag name", "body").text,
               message="the refusal of the 2,000-character name")
    wait_idle(dash_duo)
    shot("rvw802_long_names")
    sidebar = d.execute_script(
        "return document.querySelector('.sidebar').getBoundingClientRect().width")
    roc = d.execute_script(
        "return document.getElementById(arguments[0]).getBoundingClientRect().width",
        ids.ROC_GRAPH)
    assert sidebar <= 331, sidebar
    assert roc >= 300, roc
    # the headline wraps the name instead of running off the strip
    assert d.execute_script("const e = document.querySelector('.summary .summary-main');"
                            "return e.scrollWidth <= e.clientWidth + 1")
