"""Big models on screen (issue 19 item 4) in a real headless Chromium: an AUC ~ 0.99 upload,
the FPR axis switched to log through the page's control, the optimum where scikit-learn's
curve puts it, a box zoom, and the exported image carrying the zoomed range."""

import math

import numpy as np
import pandas as pd
from selenium.webdriver.common.by import By
from sklearn.metrics import roc_curve

from roc_dash.app import ids
from roc_dash.figures.roc_axes import iso_curve

from . import gestures
from .gestures import js_graph, wait_idle, wait_until

#: Where the README's screenshot goes.
from .shots import SHOTS


def _binormal(n_pos=300, n_neg=3000, d=3.3, seed=19) -> pd.DataFrame:
    """A seeded binormal model with AUC = Phi(d / sqrt 2) ~ 0.99."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"label": np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)],
                         "score": np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]})


#: rocDash.linkHover for a point (FPR arguments[0], TPR 0.9) hovered in the PR view, as Dash
#: calls it; returns the x it gives the ROC's hover annotation.
_LINK_HOVER = """
const gd = id => document.querySelector('#' + id + ' .js-plotly-plot');
const cc = window.dash_clientside.callback_context;
window.dash_clientside.callback_context = {triggered: [{prop_id: 'pr-graph.hoverData'}]};
const viz = {prior: 0.1, cost_fp: 1, cost_fn: 1, models: ['big model']};
const out = window.dash_clientside.rocDash.linkHover(
    null, {points: [{customdata: [0, 1.0, arguments[0], 0.9]}]}, null, null, viz, [],
    gd('roc-graph'), gd('pr-graph'), gd('cost-graph'), gd('threshold-graph'));
window.dash_clientside.callback_context = cc;
const ops = (out[0] && out[0].operations) || [];
const op = ops.find(o => o.location[0] === 'layout' && o.location[3] === 'x');
return op ? op.params.value : null;
"""


def _trace(driver, uid, field):
    return js_graph(driver, ids.ROC_GRAPH,
                    f"Array.from((gd._fullData.find(t => t.uid === '{uid}') || {{}})"
                    f".{field} || [])")


def _x_range(driver):
    return js_graph(driver, ids.ROC_GRAPH, "gd.layout.xaxis.range")


def _close(a, b, tol):
    return a is not None and all(abs(u - v) < tol for u, v in zip(a, b, strict=True))


def test_lgb001_log_axis_optimum_zoom_and_export(dash_duo, app, tmp_path, shot):
    driver = dash_duo.driver
    driver.set_window_size(1280, 1000)
    frame = _binormal()
    path = tmp_path / "big model.csv"
    frame.to_csv(path, index=False)
    dash_duo.start_server(app)
    wait_until(lambda: js_graph(driver, ids.ROC_GRAPH, "gd.data.length"), message="the ROC")
    driver.find_element(By.CSS_SELECTOR, f"#{ids.UPLOAD} input[type=file]").send_keys(str(path))
    wait_until(lambda: js_graph(driver, ids.ROC_GRAPH,
                                "gd.data.some(t => (t.name || '').startsWith('big model'))"),
               message="the uploaded model's curve")
    wait_idle(driver)
    # the control, clicked as a person would
    dash_duo.find_element(f"#{ids.ROC_LOG_FPR} input").click()
    wait_until(lambda: js_graph(driver, ids.ROC_GRAPH, "gd._fullLayout.xaxis.type") == "log",
               message="a log FPR axis")
    wait_idle(driver)
    assert "xlog=1" in driver.current_url
    assert "log FPR axis" in dash_duo.find_element(f"#{ids.ROC_HINT}").text
    # the optimum: the point of scikit-learn's curve with the least expected cost at the
    # slope the page reports (Fawcett 2004, 7.1: maximise TPR - m FPR)
    m = js_graph(driver, ids.ROC_GRAPH, "gd.layout.meta.slope")
    fpr, tpr, _ = roc_curve(frame.label, frame.score)
    k = int(np.argmax(tpr - m * fpr - 1e-12 * fpr))
    assert fpr[k] > 0
    for name in ("optimum", "optimum ring"):  # annotations: x in decades on a log axis
        x, y = js_graph(driver, ids.ROC_GRAPH, "(a => [a.x, a.y])(gd.layout.annotations"
                        f".find(a => a.name === '{name}'))")
        assert abs(10 ** x - fpr[k]) < 1e-12 and abs(y - tpr[k]) < 1e-12, (name, x, y)
    iso = _trace(driver, "iso-curve", "x")
    assert iso and len(iso) > 100
    # the browser's iso curve (moved while a slider is dragged) is the server's
    for f, t, slope in ((0.01, 0.9, 3.0), (0.2, 0.7, 0.4), (0.0, 0.5, 50.0)):
        xs, ys = driver.execute_script(
            "return dash_clientside.rocDash._isoCurve(arguments[0], arguments[1], "
            "arguments[2], 1e-4, 241);", f, t, slope)
        want = iso_curve(f, t, slope, x_min=1e-4)
        np.testing.assert_allclose(xs, want[0], rtol=1e-12)
        np.testing.assert_allclose(ys, want[1], rtol=1e-12, atol=1e-15)
    # a point hovered in another view is marked on the log axis in decades (plotly places
    # annotations on a log axis by log10 of the value); FPR = 0 at the floor
    floor = js_graph(driver, ids.ROC_GRAPH, "gd.layout.meta.xlog")
    for f, want in ((0.01, -2.0), (0.0, math.log10(floor))):
        marked = driver.execute_script(_LINK_HOVER, f)
        assert marked and abs(marked - want) < 1e-12, (f, marked)
    card = dash_duo.find_element(f"#{ids.ROC_GRAPH}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'});"
                          "window.scrollBy(0, -150);", card)  # clear of the summary strip
    wait_idle(driver)
    shot("lgb001_log_axis")
    driver.save_screenshot(str(SHOTS / "logfpr.png"))
    # a box zoom on the log axis (its ranges are in decades)
    gestures.scroll_into_view(driver, dash_duo.find_element(f"#{ids.ROC_GRAPH}"))
    gestures.drag(driver, gestures.to_screen(driver, ids.ROC_GRAPH, -3.0, 1.0),
                  gestures.to_screen(driver, ids.ROC_GRAPH, -1.0, 0.7))
    wait_until(lambda: _close(_x_range(driver), (-3.0, -1.0), 0.05), message="zoomed")
    # a zoom box, not a drag of the (hidden) straight line: the costs did not move
    assert dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value") == "1"
    zoomed = _x_range(driver)
    # the exported image carries the zoomed range (Plotly.downloadImage caught, the
    # modebar's button clicked)
    driver.execute_script(
        "window._exported = null; window.Plotly.downloadImage = function (fig, opts) {"
        " window._exported = {layout: JSON.parse(JSON.stringify(fig.layout)),"
        " filename: opts.filename}; return Promise.resolve(); };")
    gestures.hover(driver, gestures.to_screen(driver, ids.ROC_GRAPH, -2.0, 0.85))
    button = wait_until(lambda: next(iter(driver.find_elements(
        By.CSS_SELECTOR, f"#{ids.ROC_GRAPH} .modebar-btn[data-title^='Download plot as PNG']")),
        None), message="the download button")
    button.click()
    exported = wait_until(lambda: driver.execute_script("return window._exported"),
                          message="the exported figure")
    assert exported["filename"] == "roc-dash-roc"
    assert exported["layout"]["xaxis"]["type"] == "log"
    assert _close(exported["layout"]["xaxis"]["range"], zoomed, 1e-9)
    # new costs (a patch) and tie bounds (a full redraw by the server) keep the zoom
    wait_idle(driver)
    gestures.type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "3")
    wait_until(lambda: abs(js_graph(driver, ids.ROC_GRAPH, "gd.layout.meta.slope") - m / 3)
               < 1e-9 * m, message="the new slope drawn")
    wait_idle(driver)
    assert _close(_x_range(driver), zoomed, 1e-9)
    dash_duo.find_element(f"#{ids.ROC_TIES} input").click()
    wait_until(lambda: js_graph(driver, ids.ROC_GRAPH,
                                "gd.data.some(t => (t.name || '').includes('tie bounds'))"),
               message="redrawn with the tie bounds")
    wait_idle(driver)
    assert _close(_x_range(driver), zoomed, 1e-9)
    assert js_graph(driver, ids.ROC_GRAPH, "gd._fullLayout.xaxis.type") == "log"
    # expensive false positives: the optimum near FPR = 0, its interval box reaching FPR = 0
    # is drawn from the floor (a box corner at 0 has no place on a log axis)
    gestures.type_into(dash_duo.find_element(f"#{ids.COST_FP}"), "50")
    lows = wait_until(lambda: js_graph(
        driver, ids.ROC_GRAPH, "(() => { const b = gd._fullLayout.shapes.filter(s => "
        "(s.name || '').startsWith('point-region') && s.visible); return b.length && "
        "gd.layout.meta.slope > 100 ? b.map(s => Math.min(s.x0, s.x1)) : null; })()"),
        message="the interval box at the new optimum")
    assert min(lows) >= floor
    shot("lgb001_zoomed")
    assert math.isfinite(m)
