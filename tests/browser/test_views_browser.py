"""The linked views in a real headless Chromium: every interaction of the dashboard."""

from pathlib import Path
from urllib.parse import quote

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from roc_dash.app import ids
from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.roc.hull import iso_performance_slope

from ..conftest import make_predictions
from . import gestures
from .gestures import open_tab, wait_file, wait_idle, wait_until
from .test_upload_browser import upload

GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH)


def js_graph(dash_duo, graph_id, expression):
    """Evaluate ``expression`` with ``gd`` bound to the graph's plotly div."""
    return gestures.js_graph(dash_duo.driver, graph_id, expression)


def shape(dash_duo, graph_id, k=0):
    return js_graph(dash_duo, graph_id,
                    f"gd.layout.shapes && gd.layout.shapes[{k}] && "
                    f"[gd.layout.shapes[{k}].x0, gd.layout.shapes[{k}].y0,"
                    f" gd.layout.shapes[{k}].x1, gd.layout.shapes[{k}].y1]")


def trace_names(dash_duo, graph_id):
    return js_graph(dash_duo, graph_id, "gd.data.map(t => t.name)") or []


def requests_sent(dash_duo):
    return dash_duo.driver.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('_dash-update-component')).length;")


def start(dash_duo, app, path=""):
    dash_duo.driver.set_window_size(1500, 1300)
    dash_duo.start_server(app)
    if path:
        dash_duo.driver.get(dash_duo.server_url + path)
    wait_until(lambda: all(trace_names(dash_duo, g) for g in GRAPHS), message="three figures")
    wait_until(lambda: "Model" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="operating point")


def slope_of(line):
    x0, y0, x1, y1 = line
    return (y1 - y0) / (x1 - x0)


def test_brw003_all_views_populated_after_upload(dash_duo, app, tmp_path, shot):
    start(dash_duo, app)
    good = tmp_path / "uploaded.csv"
    make_predictions(300, seed=4, separation=1.5).to_csv(good, index=False)
    upload(dash_duo, good)
    wait_until(lambda: any(n.startswith("uploaded (AUC") for n in trace_names(dash_duo, ids.ROC_GRAPH)),
               message="uploaded curve in ROC")
    assert any(n.startswith("uploaded (AP") for n in trace_names(dash_duo, ids.PR_GRAPH))
    assert "uploaded lower envelope" in trace_names(dash_duo, ids.COST_GRAPH)
    open_tab(dash_duo, "compare")
    wait_until(lambda: "uploaded" in dash_duo.find_element(f"#{ids.MODEL_TABLE}").text)
    open_tab(dash_duo, "decide")
    assert "uploaded" in dash_duo.find_element(f"#{ids.MODELS}").text
    # each view carries the optimum, the ROC view the iso line and the hull
    assert "optimal operating point" in trace_names(dash_duo, ids.ROC_GRAPH)
    assert "convex hull (all shown models)" in trace_names(dash_duo, ids.ROC_GRAPH)
    assert "achievable (hull)" in trace_names(dash_duo, ids.PR_GRAPH)
    shot("brw003_views")
    assert dash_duo.get_logs() == []


def test_brw004_slider_moves_iso_line_and_optimum(dash_duo, app, shot):
    start(dash_duo, app)
    before_line = shape(dash_duo, ids.ROC_GRAPH)
    before_op = dash_duo.find_element(f"#{ids.OPERATING}").text
    handle = dash_duo.driver.find_element(By.CSS_SELECTOR, f"#{ids.COST_FN_SLIDER} [role=slider]")
    handle.click()
    handle.send_keys(Keys.PAGE_UP)  # keyboard-operable: +10 steps of 0.01 in log10(cost)
    handle.send_keys(Keys.PAGE_UP)
    handle.send_keys(Keys.PAGE_UP)
    handle.send_keys(Keys.PAGE_UP)
    handle.send_keys(Keys.PAGE_UP)
    wait_until(lambda: float(dash_duo.find_element(f"#{ids.COST_FN}").get_attribute("value")) > 2,
               message="cost of a false negative raised")
    cost_fn = float(dash_duo.find_element(f"#{ids.COST_FN}").get_attribute("value"))
    prior = float(dash_duo.find_element(f"#{ids.PRIOR}").get_attribute("value"))
    expected = iso_performance_slope(1.0, cost_fn, prior)
    # the box shows the prior to 4 digits; the line uses the exact one
    wait_until(lambda: abs(slope_of(shape(dash_duo, ids.ROC_GRAPH)) / expected - 1) < 1e-3,
               message="iso line at the new slope")
    assert slope_of(shape(dash_duo, ids.ROC_GRAPH)) < slope_of(before_line)
    wait_until(lambda: dash_duo.find_element(f"#{ids.OPERATING}").text != before_op,
               message="operating point moved")
    # the optimal vertex moved to a more liberal (higher FPR) point: the ring follows it
    ring_before = before_line  # the line passes through the old optimum
    ring = js_graph(dash_duo, ids.ROC_GRAPH,
                    "gd.layout.annotations.find(a => a.name === 'optimum ring').x")
    assert ring > 0 and ring_before is not None
    shot("brw004_slider")


def test_brw006_prior_changes_pr_and_cost_marker(dash_duo, app, shot):
    start(dash_duo, app)
    before_pr = js_graph(dash_duo, ids.PR_GRAPH, "gd.layout.yaxis.title.text")
    before_pc = shape(dash_duo, ids.COST_GRAPH)[0]
    field = dash_duo.find_element(f"#{ids.PRIOR}")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("0.05", Keys.ENTER)
    wait_until(lambda: "0.05" in js_graph(dash_duo, ids.PR_GRAPH, "gd.layout.yaxis.title.text"),
               message="PR at the new prior")
    assert before_pr != js_graph(dash_duo, ids.PR_GRAPH, "gd.layout.yaxis.title.text")
    expected_pc = Conditions(prior_pos=0.05).pc_pos
    wait_until(lambda: abs(shape(dash_duo, ids.COST_GRAPH)[0] - expected_pc) < 1e-9,
               message="cost marker at the new PC(+)")
    assert shape(dash_duo, ids.COST_GRAPH)[0] != before_pc
    assert "baseline (precision = π = 0.05)" in trace_names(dash_duo, ids.PR_GRAPH)
    shot("brw006_prior")


def _click_vertex(dash_duo, graph_id, x, y):
    area = dash_duo.find_element(f"#{graph_id} .nsewdrag")
    (x0, x1), (y0, y1) = dash_duo.driver.execute_script(
        f"const g = document.querySelector('#{graph_id} .js-plotly-plot');"
        "return [g._fullLayout.xaxis.range, g._fullLayout.yaxis.range];")
    w, h = area.size["width"], area.size["height"]
    px = (x - x0) / (x1 - x0) * w
    py = (1 - (y - y0) / (y1 - y0)) * h
    ActionChains(dash_duo.driver).move_to_element_with_offset(area, px, py).click().perform()


def test_brw007_click_pins_operating_point_everywhere(dash_duo, app, shot):
    start(dash_duo, app)
    curve = next(m.curve for m in app.analysis_cache.analysis(
        [DEMO_ID], ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"],
        Conditions(prior_pos=0.2737)).models if m.name == "decision tree")
    k = len(curve) // 2
    # pick the decision tree's vertex nearest the middle and click it
    _click_vertex(dash_duo, ids.ROC_GRAPH, curve.fpr[k], curve.tpr[k])
    wait_until(lambda: "pinned" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="pinned operating point")
    text = dash_duo.find_element(f"#{ids.OPERATING}").text
    for g in GRAPHS:
        wait_until(lambda g=g: any("pinned" in (n or "") for n in trace_names(dash_duo, g)),
                   message=f"pinned marker in {g}")
    assert "pinned" in dash_duo.driver.current_url or "pin=" in dash_duo.driver.execute_script(
        "return window.location.search")
    shot("brw007_pinned")
    assert text
    dash_duo.find_element(f"#{ids.UNPIN}").click()
    wait_until(lambda: "optimal" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="back to optimum")
    assert not any("pinned" in (n or "") for n in trace_names(dash_duo, ids.ROC_GRAPH))


def test_brw008_threshold_input_pins(dash_duo, app):
    start(dash_duo, app)
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", "naive Bayes")
    dash_duo.find_element(f"#{ids.PIN_THRESHOLD}").send_keys("0.5")
    dash_duo.find_element(f"#{ids.PIN_BUTTON}").click()
    wait_until(lambda: "naive Bayes" in dash_duo.find_element(f"#{ids.OPERATING}").text
               and "pinned" in dash_duo.find_element(f"#{ids.OPERATING}").text)


def test_brw009_url_round_trip(dash_duo, app):
    pin = quote("naive Bayes|0.3")
    start(dash_duo, app, f"/?cfp=3&cfn=0.5&prior=0.1&avg=vertical&band=simultaneous&pin={pin}")
    wait_until(lambda: dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value") == "3",
               message="cost of a FP restored")
    assert dash_duo.find_element(f"#{ids.COST_FN}").get_attribute("value") == "0.5"
    assert dash_duo.find_element(f"#{ids.PRIOR}").get_attribute("value") == "0.1"
    selected = dash_duo.find_element(f"#{ids.AVERAGING} .selected").text
    assert selected == "vertical"
    wait_until(lambda: "simultaneous band" in js_graph(
        dash_duo, ids.ROC_GRAPH, "gd.layout.title.text"),
        message="vertical average with simultaneous band")
    wait_until(lambda: "naive Bayes" in dash_duo.find_element(f"#{ids.OPERATING}").text
               and "pinned" in dash_duo.find_element(f"#{ids.OPERATING}").text)
    expected = iso_performance_slope(3, 0.5, 0.1)
    wait_until(lambda: abs(slope_of(shape(dash_duo, ids.ROC_GRAPH)) - expected) < 1e-6)
    # changing a control rewrites the link, which opens the same state again
    field = dash_duo.find_element(f"#{ids.COST_FN}")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("2", Keys.ENTER)
    wait_until(lambda: "cfn=2" in dash_duo.driver.execute_script("return location.search"),
               message="URL updated")
    link = dash_duo.driver.current_url
    dash_duo.driver.get(link)
    wait_until(lambda: dash_duo.find_element(f"#{ids.COST_FN}").get_attribute("value") == "2")
    assert dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value") == "3"


def _downloaded(dash_duo, pattern):
    return wait_file(Path(dash_duo.download_path), pattern)


def test_brw010_exports_download_files(dash_duo, app):
    start(dash_duo, app)
    dash_duo.find_element(f"#{ids.EXPORT_CURVES}").click()
    curves = _downloaded(dash_duo, "roc-dash-curves.csv")[0]
    assert curves.read_text().startswith("model,fold,fpr,tpr,threshold")  # issue 17: folds
    dash_duo.find_element(f"#{ids.EXPORT_TABLE}").click()
    table = _downloaded(dash_duo, "roc-dash-models.csv")[0]
    assert "logistic regression" in table.read_text()
    dash_duo.find_element(f"#{ids.EXPORT_HTML}").click()
    page = _downloaded(dash_duo, "roc-dash-report.html")[0]
    assert "<html" in page.read_text()[:200]
    # the mode bar: PNG (camera) and SVG buttons, no cloud
    buttons = [b.get_attribute("data-title") for b in dash_duo.find_elements(
        f"#{ids.ROC_GRAPH} .modebar-btn")]
    assert any(b.startswith("Download plot as SVG") for b in buttons) and not any(
        "Chart Studio" in (b or "") for b in buttons)
    dash_duo.find_element(
        f"#{ids.ROC_GRAPH} .modebar-btn[data-title^='Download plot as SVG']").click()
    svg = _downloaded(dash_duo, "*.svg")[0]
    assert svg.read_text().lstrip().startswith("<svg")
    png_button = wait_until(
        lambda: [b for b in dash_duo.find_elements(f"#{ids.PR_GRAPH} .modebar-btn")
                 if "png" in (b.get_attribute("data-title") or "").lower()],
        message="PNG button in the mode bar")[0]
    png_button.click()
    png = _downloaded(dash_duo, "*.png")[0]
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_brw011_slider_drag_moves_line_without_server(dash_duo, app):
    start(dash_duo, app)
    wait_idle(dash_duo)  # the start-up requests have all answered
    before_requests = requests_sent(dash_duo)
    before = shape(dash_duo, ids.ROC_GRAPH)
    before_pc = shape(dash_duo, ids.COST_GRAPH)[0]
    handle = dash_duo.driver.find_element(By.CSS_SELECTOR, f"#{ids.COST_FP_SLIDER} [role=slider]")
    drag = ActionChains(dash_duo.driver)
    drag.click_and_hold(handle).move_by_offset(40, 0).pause(0.3).move_by_offset(20, 0).perform()
    try:
        wait_until(lambda: shape(dash_duo, ids.ROC_GRAPH) != before,
                   message="line moved during the drag")
        assert shape(dash_duo, ids.COST_GRAPH)[0] != before_pc
        assert slope_of(shape(dash_duo, ids.ROC_GRAPH)) > slope_of(before)  # dearer FPs
        wait_idle(dash_duo)  # a callback the drag had set off would have answered by now
        assert requests_sent(dash_duo) == before_requests, "no callback request while dragging"
    finally:
        ActionChains(dash_duo.driver).release().perform()
    # on release the value is committed and the server updates every view
    wait_until(lambda: requests_sent(dash_duo) > before_requests, message="update on release")
    wait_until(lambda: float(dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value")) > 1)


def test_brw012_hover_links_views(dash_duo, app):
    start(dash_duo, app)
    from .test_upload_browser import _tpr_at, hover_at

    hover_at(dash_duo, 0.3, _tpr_at(app, "logistic regression", 0.3))
    for g in (ids.PR_GRAPH, ids.COST_GRAPH):
        wait_until(lambda g=g: js_graph(dash_duo, g, "gd.layout.annotations[0].visible"),
                   message=f"hover marker in {g}")
        text = js_graph(dash_duo, g, "gd.layout.annotations[0].text")
        assert "score ≥" in text


def test_brw013_bad_upload_leaves_views(dash_duo, app, tmp_path):
    start(dash_duo, app)
    wait_idle(dash_duo)  # the interval boxes are patched into the ROC after the views
    before = {g: trace_names(dash_duo, g) for g in GRAPHS}
    bad = tmp_path / "labels.csv"
    bad.write_text("label,score\na,0.1\nb,0.2\nc,0.3\n")
    upload(dash_duo, bad)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_ERROR}", "labels.csv")
    assert "more than two" in dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text.lower() or \
        "label" in dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text
    wait_idle(dash_duo)
    assert {g: trace_names(dash_duo, g) for g in GRAPHS} == before


@pytest.mark.parametrize("mode", ["det", "presentation"])
def test_brw014_det_and_presentation_modes(dash_duo, app, shot, mode):
    start(dash_duo, app)
    toggle = ids.DET if mode == "det" else ids.PRESENTATION
    dash_duo.find_element(f"#{toggle} input").click()
    if mode == "det":
        wait_until(lambda: js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta && gd.layout.meta.det"),
                   message="DET axes")
        assert "normal deviate" in js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.xaxis.title.text")
    else:
        wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute("class"))
        wait_until(lambda: js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.font.size") == 20)
    shot(f"brw014_{mode}")


def test_brw015_browser_geometry_matches_core(dash_duo, app):
    """The clientside line/optimum/probit code agrees with roc_dash.core and figures."""
    import numpy as np
    from scipy.special import ndtri

    from roc_dash.core.roc.hull import TIE_RTOL, hull_of_points, optimal_point
    from roc_dash.figures.roc import iso_line_endpoints

    start(dash_duo, app)
    rng = np.random.default_rng(15)
    for _ in range(5):
        hull = hull_of_points(rng.random(30), rng.random(30))
        for m in (0.05, 0.4, 1.0, 2.7, 30.0):
            k = dash_duo.driver.execute_script(
                "return dash_clientside.rocDash._optimalVertex(arguments[0], arguments[1],"
                " arguments[2]);", {"fpr": hull.fpr.tolist(), "tpr": hull.tpr.tolist()}, m,
                TIE_RTOL)
            opt = optimal_point(hull, m)
            assert k == opt.index  # the same vertex, ties included (one rule in both)
            line = dash_duo.driver.execute_script(
                "return dash_clientside.rocDash._isoLine(arguments[0], arguments[1], arguments[2]);",
                opt.fpr, opt.tpr, m)
            assert line == pytest.approx(list(iso_line_endpoints(opt.fpr, opt.tpr, m)))
    # exact ties: unit costs at the data's prevalence make segments with equal count steps
    # lie on the iso line; browser and core pick the same (conservative) end
    from roc_dash.core.roc.curves import roc_curve
    from roc_dash.core.roc.hull import convex_hull

    for seed in range(6):
        r = np.random.default_rng(100 + seed)
        y = r.random(60) < 0.4
        curve = roc_curve(y, r.integers(0, 8, 60))
        hull = convex_hull(curve)
        prior = curve.n_pos / (curve.n_pos + curve.n_neg)
        m = 1.0 * (1 - prior) / (1.0 * prior)
        k = dash_duo.driver.execute_script(
            "return dash_clientside.rocDash._optimalVertex(arguments[0], arguments[1],"
            " arguments[2]);", {"fpr": hull.fpr.tolist(), "tpr": hull.tpr.tolist()}, m, TIE_RTOL)
        assert k == optimal_point(hull, m).index
    for p in (1e-4, 0.01, 0.2, 0.5, 0.77, 0.999):
        z = dash_duo.driver.execute_script("return dash_clientside.rocDash._probit(arguments[0]);", p)
        assert z == pytest.approx(float(ndtri(p)), abs=1e-6)
    # Copy link: focusable, and it says what it did
    from selenium.webdriver.common.keys import Keys

    button = dash_duo.find_element(f"#{ids.COPY_LINK}")
    button.send_keys(Keys.ENTER)  # reached with the keyboard
    dash_duo.wait_for_contains_text(f"#{ids.COPY_STATUS}", "ink")
    status = dash_duo.find_element(f"#{ids.COPY_STATUS}").text
    assert "Link copied" in status or dash_duo.driver.current_url in status
    assert dash_duo.driver.execute_script("return window._rocCopied") == \
        dash_duo.driver.current_url
