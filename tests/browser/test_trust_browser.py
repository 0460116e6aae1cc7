"""Trust under real use: the dashboard driven as a user drives it.

Every gesture here is real input (mouse events dispatched by Chromium, keys typed into the
page, files given to the file input); no test sets a component property or injects
``relayoutData``/``clickData``.
"""

from pathlib import Path

import numpy as np
import pytest
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from roc_dash.app.gestures import dragged_slope
from roc_dash.core.assembly.analysis import prevalence
from roc_dash.core.roc.hull import iso_performance_slope
from roc_dash.report import build_report

from ..conftest import make_predictions
from .gestures import (
    centre,
    click,
    double_click,
    drag,
    hover_until,
    js_graph,
    to_screen,
    type_into,
    type_paced,
    wait_idle,
    wait_steady,
    wait_until,
)
from .test_upload_browser import upload

GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH)


def start(dash_duo, app, path="", size=(1500, 1300)):
    dash_duo.driver.set_window_size(*size)
    dash_duo.start_server(app)
    if path:
        dash_duo.driver.get(dash_duo.server_url + path)
    wait_until(lambda: all(js_graph(dash_duo.driver, g, "gd.data.length") for g in GRAPHS),
               message="three figures")
    wait_until(lambda: "Model" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="operating point")
    wait_idle(dash_duo)  # the start-up callbacks have all answered


def value(dash_duo, input_id) -> str:
    return dash_duo.find_element(f"#{input_id}").get_attribute("value")


def line(dash_duo):
    return js_graph(dash_duo.driver, ids.ROC_GRAPH,
                    "[gd.layout.shapes[0].x0, gd.layout.shapes[0].y0, gd.layout.shapes[0].x1,"
                    " gd.layout.shapes[0].y1]")


def slope(seg):
    x0, y0, x1, y1 = seg
    return (y1 - y0) / (x1 - x0)


def conditions(dash_duo):
    return (float(value(dash_duo, ids.COST_FP)), float(value(dash_duo, ids.COST_FN)),
            float(value(dash_duo, ids.PRIOR)))


def near_upper_end(driver):
    """A screen point on the line a few pixels inside its upper end (plotly's end handle)."""
    x0, y0, x1, y1 = js_graph(driver, ids.ROC_GRAPH,
                              "[gd.layout.shapes[0].x0, gd.layout.shapes[0].y0,"
                              " gd.layout.shapes[0].x1, gd.layout.shapes[0].y1]")
    (ax, ay), (bx, by) = (to_screen(driver, ids.ROC_GRAPH, x1, y1),
                          to_screen(driver, ids.ROC_GRAPH, x0, y0))
    n = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    return ax + 3 * (bx - ax) / n, ay + 3 * (by - ay) / n


def vertex(dash_duo):
    """The optimal vertex as drawn: the centre of the ring around it (an annotation)."""
    return tuple(js_graph(dash_duo.driver, ids.ROC_GRAPH,
                          "(a => [a.x, a.y])(gd.layout.annotations.find("
                          "a => a.name === 'optimum ring'))"))


def _assert_tangent_at_optimum(dash_duo, expected_slope, rel=0.03):
    """The redrawn line has the slope of the new conditions and passes through the vertex."""
    cfp, cfn, prior = conditions(dash_duo)
    m = iso_performance_slope(cfp, cfn, prior)
    assert m == pytest.approx(expected_slope, rel=rel)
    wait_until(lambda: slope(line(dash_duo)) == pytest.approx(m, rel=2e-3),
               message="line redrawn at the new slope")
    x0, y0, x1, y1 = line(dash_duo)
    f, t = vertex(dash_duo)
    assert y0 + (f - x0) * (y1 - y0) / (x1 - x0) == pytest.approx(t, abs=1e-6)


def test_trs001_dragging_an_end_of_the_iso_line_with_the_mouse(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    before = conditions(dash_duo)
    f, t = vertex(dash_duo)
    # grab the upper end (a few pixels inside it) and pull it down to the right
    target = (f + 0.45, t + 0.3)
    drag(d, near_upper_end(d), to_screen(d, ids.ROC_GRAPH, *target))
    wait_until(lambda: conditions(dash_duo)[0] != before[0], message="c(FP) follows the drag")
    cfp, cfn, prior = conditions(dash_duo)
    assert (cfn, prior) == before[1:]  # the prior and c(FN) stay
    _assert_tangent_at_optimum(dash_duo, 0.3 / 0.45, rel=0.05)
    slider = d.find_element(By.CSS_SELECTOR, f"#{ids.COST_FP_SLIDER} [role=slider]")
    assert float(slider.get_attribute("aria-valuenow")) < 0  # the slider moved too
    shot("trs001_end_drag")


def test_trs002_dragging_the_middle_of_the_line_rotates_it(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    before = conditions(dash_duo)
    x0, y0, x1, y1 = line(dash_duo)
    f, t = vertex(dash_duo)
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    # move the middle to the right: a flatter line about the optimal vertex
    dest = (mid[0] + 0.25, mid[1] - 0.05)
    start_px, end_px = to_screen(d, ids.ROC_GRAPH, *mid), to_screen(d, ids.ROC_GRAPH, *dest)
    drag(d, start_px, end_px)
    wait_until(lambda: conditions(dash_duo)[0] != before[0], message="c(FP) follows the drag")
    # the rotation about the vertex of the middle moved by the drag, its lever at least
    # MIN_LEVER (gestures.dragged_slope; exact rotations: ctl003-ctl005, ctl008)
    dx, dy = dest[0] - mid[0], dest[1] - mid[1]
    moved = {"shapes[0].x0": x0 + dx, "shapes[0].y0": y0 + dy, "shapes[0].x1": x1 + dx,
             "shapes[0].y1": y1 + dy}
    expected = dragged_slope(moved, (x0, y0, x1, y1), (f, t))
    assert expected < iso_performance_slope(*before)
    _assert_tangent_at_optimum(dash_duo, expected, rel=0.08)


def test_trs003_dragging_past_vertical_clamps_and_the_line_snaps_back(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    f, t = vertex(dash_duo)
    drag(d, near_upper_end(d), to_screen(d, ids.ROC_GRAPH, f - 0.05, 1.0))
    wait_until(lambda: value(dash_duo, ids.COST_FP) == "100", message="clamped to 100")
    assert "end of the range" in dash_duo.find_element(f"#{ids.CONTROL_MSG}").text
    _assert_tangent_at_optimum(dash_duo, iso_performance_slope(*conditions(dash_duo)))
    # the same clamped drag again still redraws the line where it belongs
    x0, y0, x1, y1 = line(dash_duo)
    drag(d, to_screen(d, ids.ROC_GRAPH, x0 + 0.5 * (x1 - x0), y0 + 0.5 * (y1 - y0)),
         to_screen(d, ids.ROC_GRAPH, 0.02, 0.98))
    wait_idle(dash_duo)
    _assert_tangent_at_optimum(dash_duo, iso_performance_slope(*conditions(dash_duo)))


def test_trs004_steppers_and_typing_keep_values(dash_duo, app):
    start(dash_duo, app)
    prior0 = float(value(dash_duo, ids.PRIOR))
    dash_duo.find_element(f"#{ids.PRIOR_UP}").click()
    wait_until(lambda: float(value(dash_duo, ids.PRIOR)) == pytest.approx(prior0 + 0.01, abs=1e-4),
               message="prior + 0.01")
    dash_duo.find_element(f"#{ids.COST_FP_DOWN}").click()
    wait_until(lambda: value(dash_duo, ids.COST_FP) == "0.7943", message="c(FP) ÷ 10^0.1")
    dash_duo.find_element(f"#{ids.COST_FP_UP}").click()
    dash_duo.find_element(f"#{ids.COST_FP_UP}").click()
    wait_until(lambda: float(value(dash_duo, ids.COST_FP)) == pytest.approx(10 ** 0.1, rel=1e-3))
    # typing 0 keeps the value and says why; an out-of-range prior is clamped visibly
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "0")
    wait_until(lambda: "must be positive" in dash_duo.find_element(f"#{ids.CONTROL_MSG}").text)
    assert value(dash_duo, ids.COST_FN) == "1"
    # said where the eye is: just under the cost and prior boxes, not below the benefits
    box = dash_duo.find_element(f"#{ids.COST_FN}").rect
    said = dash_duo.find_element(f"#{ids.CONTROL_MSG}").rect
    econ = dash_duo.find_element(".economics > summary").rect
    assert 0 < said["y"] - (box["y"] + box["height"]) < 220, (box, said)
    assert said["y"] + said["height"] <= econ["y"], (said, econ)  # above the benefits, open or not
    type_into(dash_duo.find_element(f"#{ids.PRIOR}"), "1.7")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == "0.999", message="prior clamped")
    assert "strictly between 0 and 1" in dash_duo.find_element(f"#{ids.CONTROL_MSG}").text
    type_into(dash_duo.find_element(f"#{ids.SAMPLES}"), "2000")
    wait_until(lambda: value(dash_duo, ids.SAMPLES) == "1001", message="samples clamped")
    assert "2000" in dash_duo.find_element(f"#{ids.SAMPLES_MSG}").text
    # the reviewer's sequence: 20 is kept, 7.5 rounds to 8, junk keeps 8, 51 clears the note
    samples_msg = lambda: dash_duo.find_element(f"#{ids.SAMPLES_MSG}").text  # noqa: E731
    type_into(dash_duo.find_element(f"#{ids.SAMPLES}"), "20")
    wait_until(lambda: samples_msg() == "", message="20 accepted")
    assert value(dash_duo, ids.SAMPLES) == "20"
    type_into(dash_duo.find_element(f"#{ids.SAMPLES}"), "7.5")
    wait_until(lambda: value(dash_duo, ids.SAMPLES) == "8", message="7.5 rounded")
    assert "whole number" in samples_msg()
    type_into(dash_duo.find_element(f"#{ids.SAMPLES}"), "abc")
    wait_until(lambda: value(dash_duo, ids.SAMPLES) == "8", message="junk keeps 8")
    wait_until(lambda: "kept 8" in samples_msg(), message="junk explained")
    type_into(dash_duo.find_element(f"#{ids.SAMPLES}"), "51")
    wait_until(lambda: samples_msg() == "", message="a valid value clears the message")
    assert not [e for e in dash_duo.get_logs() if "NaN" in e.get("message", "")]


#: A page busy drawing: timers of 0 ms wait 300 ms, while keys are handled at once (Chromium
#: runs input before timers). Installed before the keys of trs018 are typed.
_BUSY_TIMERS = """
const orig = window.setTimeout;
window.setTimeout = function (fn, ms, ...rest) { return orig(fn, ms ? ms : 300, ...rest); };
"""


def test_trs018_keys_typed_while_the_page_is_busy_stay_in_order(dash_duo, app):
    """Issue 15 §1: trs004 failed at "7.5 rounded" on a busy machine. With debounce=True,
    dcc.Input put the caret back with a timer after each keystroke; a key handled before that
    timer ran was followed by a jump back, so "7.5" was typed as "75.". The box is read on
    Enter/blur instead; this replays the race with slow timers."""
    start(dash_duo, app)
    box = dash_duo.find_element(f"#{ids.SAMPLES}")
    type_into(box, "", enter=False)
    dash_duo.driver.execute_script(_BUSY_TIMERS)
    type_paced(box, "7.5", 0.2)  # each key after the previous key's timer is due
    wait_until(lambda: value(dash_duo, ids.SAMPLES) == "7.5", message="7.5 typed in order")
    box.send_keys("\n")
    wait_until(lambda: value(dash_duo, ids.SAMPLES) == "8", message="7.5 rounded")
    assert "whole number" in dash_duo.find_element(f"#{ids.SAMPLES_MSG}").text
    # the other boxes keep debounce=True: the page's script drops the late caret moves
    box = dash_duo.find_element(f"#{ids.COST_FN}")
    type_into(box, "", enter=False)
    type_paced(box, "2.5", 0.2)
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "2.5", message="2.5 typed in order")
    box.send_keys("\n")
    cfp, cfn, prior = conditions(dash_duo)
    assert cfn == 2.5
    wait_until(lambda: slope(line(dash_duo)) == pytest.approx(
        iso_performance_slope(cfp, 2.5, prior), rel=2e-3), message="the line at c(FN) = 2.5")


def test_trs005_second_upload_and_model_name_collision(dash_duo, app, tmp_path, shot):
    start(dash_duo, app)
    first = tmp_path / "first.csv"
    make_predictions(150, seed=1, model="logistic regression").to_csv(first, index=False)
    upload(dash_duo, first)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "replaces the demo")
    wait_until(lambda: "Demo" not in dash_duo.find_element(f"#{ids.DATASET_LIST}").text)
    second = tmp_path / "second.csv"
    make_predictions(160, seed=2, model="logistic regression").to_csv(second, index=False)
    upload(dash_duo, second)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}",
                                    "'logistic regression (second.csv)'")
    def curves():
        names = js_graph(dash_duo.driver, ids.ROC_GRAPH, "gd.data.map(t => t.name)") or []
        named = [n for n in names if "(AUC" in (n or "") and not n.startswith("chance")]
        return named if len(named) == 2 else None

    names = wait_until(curves, message="two curves")
    # with two datasets every model carries its dataset's name (issue 15)
    assert any(n.startswith("logistic regression (first.csv) (AUC") for n in names)
    assert any(n.startswith("logistic regression (second.csv) (AUC") for n in names)
    wait_until(lambda: "different test sets" in dash_duo.find_element(f"#{ids.BANNER}").text,
               message="banner: the hull spans datasets")
    # the prior stays the first dataset's prevalence (the choice is shown), and the status
    # says what the second's would give (issue 15: never a silent switch)
    source = dash_duo.find_element(f"#{ids.PRIOR_SOURCE_ROW}")
    assert source.is_displayed() and "first.csv" in source.text
    first_prev = float(np.mean(make_predictions(150, seed=1)["label"]))
    assert float(value(dash_duo, ids.PRIOR)) == pytest.approx(first_prev, abs=5e-5)
    assert "second.csv's prevalence would give" in dash_duo.find_element(
        f"#{ids.UPLOAD_STATUS}").text
    # the "Reading …" row and its Cancel button are gone once the server has answered
    wait_until(lambda: not dash_duo.find_element(f"#{ids.UPLOAD_PROGRESS}").is_displayed(),
               message="progress row hidden")
    # the demo comes back on request, never blended with the uploads
    dash_duo.find_element(f"#{ids.LOAD_DEMO}").click()
    wait_until(lambda: "logistic regression (demo)" in dash_duo.find_element(
        f"#{ids.MODELS}").text, message="demo models renamed")
    swatches = dash_duo.driver.execute_script(
        f"return [...document.querySelectorAll('#{ids.MODELS} .dash-options-list-option-text')]"
        ".map(e => getComputedStyle(e, '::before').borderTopColor);")
    assert len(swatches) == 6 and len(set(swatches)) == 6  # one colour per model
    shot("trs005_two_uploads")


def _upload_new(dash_duo, path, seed: int):
    """120 random predictions written to ``path`` and dropped on the page, once loaded."""
    make_predictions(120, seed=seed).to_csv(path, index=False)
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", f"Loaded {path.name}")
    return path


def test_trs006_the_same_file_again(dash_duo, app, tmp_path):
    start(dash_duo, app)
    path = _upload_new(dash_duo, tmp_path / "once.csv", seed=3)
    rows_before = dash_duo.find_element(f"#{ids.DATASET_LIST}").text
    upload(dash_duo, path)  # the same file dropped again: the upload fires again
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Already loaded")
    assert dash_duo.find_element(f"#{ids.DATASET_LIST}").text == rows_before
    # two copies in one drop: one is dropped, with a note
    twin = tmp_path / "twin.csv"
    other = tmp_path / "other.csv"
    make_predictions(100, seed=4).to_csv(other, index=False)
    twin.write_bytes(other.read_bytes())
    upload(dash_duo, other, twin)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "identical")
    assert "100 rows" in dash_duo.find_element(f"#{ids.UPLOAD_STATUS}").text


def test_trs007_positive_label_retry_without_a_second_drop(dash_duo, app, tmp_path):
    start(dash_duo, app)
    frame = make_predictions(90, seed=5)
    frame["label"] = np.where(frame["label"] == 1, "cat", "dog")
    pets = tmp_path / "pets.csv"
    frame.to_csv(pets, index=False)
    upload(dash_duo, pets)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_ERROR}", "Positive label box")
    assert "--positive" not in dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text
    type_into(dash_duo.find_element(f"#{ids.POSITIVE_LABEL}"), "cat")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Loaded pets.csv")
    assert dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text == ""
    wait_until(lambda: "pets" in dash_duo.find_element(f"#{ids.MODELS}").text)
    # the box still says "cat" when an ordinary 0/1 file is dropped next: it is read as usual
    plain = tmp_path / "plain.csv"
    make_predictions(80, seed=6).to_csv(plain, index=False)
    upload(dash_duo, plain)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Loaded plain.csv")
    assert "does not apply" in dash_duo.find_element(f"#{ids.UPLOAD_STATUS}").text
    assert dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text == ""


def test_trs008_a_link_whose_data_is_gone(dash_duo, app):
    gone = "Z" * 32
    start(dash_duo, app)
    dash_duo.driver.get(dash_duo.server_url + f"/?data={gone}&cfp=2")
    dash_duo.wait_for_contains_text(f"#{ids.MISSING}", "no longer on the server")
    assert "ZZZZZZZZ" in dash_duo.find_element(f"#{ids.MISSING}").text
    wait_until(lambda: value(dash_duo, ids.COST_FP) == "2", message="the link's settings kept")


def test_trs009_a_shared_link_opens_the_same_datasets(dash_duo, app, tmp_path):
    start(dash_duo, app)
    _upload_new(dash_duo, tmp_path / "shared.csv", seed=6)
    link = wait_until(lambda: dash_duo.driver.current_url if "data=" in
                      dash_duo.driver.current_url else None, message="link with data ids")
    # a colleague opens it in a fresh session (new tab storage)
    dash_duo.driver.execute_script("sessionStorage.clear();")
    dash_duo.driver.get(link)
    wait_until(lambda: "shared" in dash_duo.find_element(f"#{ids.MODELS}").text,
               message="the link's dataset")
    assert "Demo" not in dash_duo.find_element(f"#{ids.DATASET_LIST}").text


def test_trs010_zoom_survives_updates_and_pr_hover_marker(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    # zoom the ROC plot with a drag on empty plot area (a box zoom)
    drag(d, to_screen(d, ids.ROC_GRAPH, 0.55, 0.35), to_screen(d, ids.ROC_GRAPH, 0.95, 0.05))
    zoomed = wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range")
                        if js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range[0]") > 0.4
                        else None, message="zoomed")
    dash_duo.find_element(f"#{ids.COST_FN_UP}").click()
    wait_until(lambda: value(dash_duo, ids.COST_FN) != "1", message="cost changed")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    assert js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range") == pytest.approx(zoomed)
    # hovering the ROC view marks the point in the PR view with the reserved marker
    d.execute_script(f"document.querySelector('#{ids.ROC_GRAPH}').scrollIntoView()")
    labels_before = js_graph(d, ids.PR_GRAPH,
                             "gd.layout.annotations.filter(a => a.name !== 'hover')"
                             ".map(a => [a.x, a.y, a.text])")
    table = app.store.get("demo")
    lr = table[table["model"] == "logistic regression"]
    from roc_dash.core.roc.curves import roc_curve

    curve = roc_curve(lr["label"].to_numpy(), lr["score"].to_numpy())
    k = int(np.searchsorted(curve.fpr, 0.7))
    double_click(d, to_screen(d, ids.ROC_GRAPH, 0.9, 0.1))  # back to the full view
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range[0]") < 0,
               message="zoom reset")
    wait_idle(dash_duo)
    hover_until(d, to_screen(d, ids.ROC_GRAPH, curve.fpr[k], curve.tpr[k]),
                lambda: js_graph(d, ids.PR_GRAPH,
                                 "gd.layout.annotations.find(a => a.name === 'hover').visible"),
                message="hover marker in the PR view")
    assert "score ≥" in js_graph(d, ids.PR_GRAPH,
                                 "gd.layout.annotations.find(a => a.name === 'hover').text")
    assert js_graph(d, ids.PR_GRAPH, "gd.layout.annotations.filter(a => a.name !== 'hover')"
                                     ".map(a => [a.x, a.y, a.text])") == labels_before


@pytest.mark.parametrize("width", [1024, 1366])
def test_trs011_no_horizontal_scroll(dash_duo, app, shot, width):
    start(dash_duo, app, size=(width, 900))
    assert dash_duo.driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")
    shot(f"trs011_{width}")


def test_trs012_page_and_report_agree_on_the_optimum(dash_duo, app):
    start(dash_duo, app)
    table = app.store.get("demo")
    analysis_module = __import__("roc_dash.core.assembly.analysis", fromlist=["analyse"])
    report = build_report(analysis_module.analyse(table))
    assert float(value(dash_duo, ids.PRIOR)) == pytest.approx(prevalence(table), abs=5e-5)
    text = dash_duo.find_element(f"#{ids.OPERATING}").text
    assert report["optimal"]["model"] in text
    assert f"{report['optimal']['threshold']:.6g}" in text


def test_trs013_exported_images_have_distinct_names_and_conditions(dash_duo, app):
    start(dash_duo, app)
    folder = Path(dash_duo.download_path)
    for graph, name in ((ids.ROC_GRAPH, "roc"), (ids.PR_GRAPH, "pr"), (ids.COST_GRAPH, "cost")):
        button = dash_duo.find_element(
            f"#{graph} .modebar-btn[data-title^='Download plot as PNG']")
        dash_duo.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        click(dash_duo.driver, centre(dash_duo.driver, button))
        got = wait_until(lambda n=name: [p for p in folder.glob(f"roc-dash-{n}.png")
                                         if p.stat().st_size > 0],
                         message=f"roc-dash-{name}.png")
        assert got[0].read_bytes()[:4] == b"\x89PNG"
    assert "c(FP) = 1" in js_graph(dash_duo.driver, ids.ROC_GRAPH, "gd.layout.meta.conditions")


def test_trs014_streamed_upload_shows_progress_and_can_be_cancelled(dash_duo, app, tmp_path):
    start(dash_duo, app)
    d = dash_duo.driver
    big = tmp_path / "slow.csv"
    make_predictions(120_000, seed=9).to_csv(big, index=False)  # about 1.5 MB
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 20, "downloadThroughput": -1,
        "uploadThroughput": 150_000})  # bytes per second: the upload takes ~10 s
    try:
        upload(dash_duo, big)
        wait_until(lambda: dash_duo.find_element(f"#{ids.UPLOAD_PROGRESS}").is_displayed(),
                   message="progress bar")
        wait_until(lambda: "%" in dash_duo.find_element(f"#{ids.UPLOAD_PROGRESS}").text,
                   message="percentage")
        click(d, centre(d, dash_duo.find_element(f"#{ids.UPLOAD_CANCEL}")))
        dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "cancelled")
        assert not dash_duo.find_element(f"#{ids.UPLOAD_PROGRESS}").is_displayed()
    finally:
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_idle(dash_duo)
    assert "slow" not in dash_duo.find_element(f"#{ids.MODELS}").text
    assert not list((app.store.root / "incoming").glob("*/*.data"))


def test_trs015_an_upload_over_the_limit_says_so(dash_duo, tmp_path, monkeypatch):
    from roc_dash.app import create_app

    monkeypatch.setenv("ROC_DASH_MAX_UPLOAD_MB", "1")
    app = create_app(data_dir=tmp_path / "data")
    start(dash_duo, app)
    big = tmp_path / "big.csv"
    make_predictions(150_000, seed=10).to_csv(big, index=False)
    assert big.stat().st_size > 2**20
    upload(dash_duo, big)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_ERROR}", "ROC_DASH_MAX_UPLOAD_MB")
    assert "big.csv" in dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text
    assert "Demo" in dash_duo.find_element(f"#{ids.DATASET_LIST}").text  # nothing lost


def test_trs016_a_failed_update_is_retried_then_reported(dash_duo, app):
    """A worker dying mid-request (500s) is retried; if it keeps failing the page says so."""
    from flask import Response, request

    failures = {"left": 0}

    @app.server.before_request
    def flaky():  # what a killed worker looks like from the browser: a 5xx answer
        if "_dash-update-component" in request.path and failures["left"] > 0:
            failures["left"] -= 1
            return Response("worker died", status=502)
        return None

    start(dash_duo, app)
    failures["left"] = 1  # one failure: retried, the page ends up right and says nothing
    dash_duo.find_element(f"#{ids.COST_FN_UP}").click()
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "1.259", message="retried update")
    wait_until(lambda: not dash_duo.find_element(f"#{ids.UPDATE_FAILED}").is_displayed())
    failures["left"] = 50  # the server keeps failing: a visible banner, views greyed out
    dash_duo.find_element(f"#{ids.COST_FN_UP}").click()
    dash_duo.wait_for_contains_text(f"#{ids.UPDATE_FAILED}", "may be out of date")
    assert "stale" in dash_duo.find_element(".views").get_attribute("class")
    failures["left"] = 0  # back: the next change clears it
    dash_duo.find_element(f"#{ids.COST_FN_DOWN}").click()
    wait_until(lambda: not dash_duo.find_element(f"#{ids.UPDATE_FAILED}").is_displayed(),
               message="banner cleared")
    assert "stale" not in dash_duo.find_element(".views").get_attribute("class")


#: Records each callback request's outputs and the size of its answer (dash's renderer
#: sends them with ``fetch``).
_LOG_CALLBACKS = """
if (!window._rdLog) {
  window._rdLog = [];
  const fetch0 = window.fetch;
  window.fetch = async function (url, opts) {
    const r = await fetch0.apply(this, arguments);
    try {
      if (String(url).includes('update-component')) {
        const out = JSON.parse(opts.body).output;
        const text = await r.clone().text();
        window._rdLog.push([out, text.length]);
      }
    } catch (e) { /* not a callback request */ }
    return r;
  };
}
window._rdLog.length = 0;
"""


def test_trs017_one_click_draws_the_views_once(dash_duo, app):
    """A stepper click is one request that returns the controls with the views; no second
    full drawing follows (the views callback must not fire again for the same conditions).
    Other cards that follow the conditions (the capacity card's gains depend on the prior)
    answer in their own requests, without the views."""
    start(dash_duo, app)
    d = dash_duo.driver
    for button in (ids.COST_FP_UP, ids.PRIOR_UP):
        d.execute_script(_LOG_CALLBACKS)
        before = value(dash_duo, ids.COST_FP), value(dash_duo, ids.PRIOR)
        dash_duo.find_element(f"#{button}").click()
        wait_until(lambda b=before: (value(dash_duo, ids.COST_FP),
                                     value(dash_duo, ids.PRIOR)) != b, message="stepped")
        wait_idle(dash_duo)  # everything the click sets off has arrived
        log = d.execute_script("return window._rdLog;")
        views = [size for out, size in log if f"{ids.ROC_GRAPH}.figure" in out]
        assert len(views) == 1, log  # the views came once, with the controls
        assert views[0] > 20000, log  # and drawn whole or patched, in that one answer
