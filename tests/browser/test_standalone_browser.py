"""The standalone HTML report in headless Chromium, opened from ``file://`` with no server
(issue 19): its cost and prior controls name the optimum core names.

Each setting's reference is computed in Python by the core (``with_conditions`` then
``operating_point``, the numbers the report's own table shows); the page's numbers come
from its script (``window.rocReport``), from real slider drags and from what it displays.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from roc_dash.app.server.store import load_demo
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse, with_conditions
from roc_dash.core.decisions.operating import operating_point
from roc_dash.figures import pr_figure
from roc_dash.figures.style import format_threshold
from roc_dash.report.html import render_html
from roc_dash.text.rounding import sig
from tests.browser.gestures import drag, wait_until

#: A filter of the figures' annotations by name (the optimum's star and ring: figures.marks).
NOTE = "function (a) { return a.name === '%s'; }"


@pytest.fixture(scope="module")
def demo_analysis():
    return analyse(load_demo().table, Conditions())


def _reference(analysis, cost_fp, cost_fn, prior):
    c = analysis.conditions
    a = with_conditions(analysis, Conditions(cost_fp=cost_fp, cost_fn=cost_fn,
                                             prior_pos=prior, fpr_max=c.fpr_max,
                                             level=c.level, n_samples=c.n_samples,
                                             band=c.band, benefit_tp=c.benefit_tp,
                                             benefit_tn=c.benefit_tn))
    return a, operating_point(a)


def _open(driver, analysis, tmp_path):
    path = tmp_path / "report.html"
    path.write_text(render_html(analysis), encoding="utf-8")
    driver.get(path.as_uri())
    wait_until(lambda: driver.execute_script(
        "return !!(window.rocReport && document.getElementById('rr-roc').data)"),
        message="the report's script and figures")
    return path


def _threshold(v):
    return math.inf if v is None else float(v)  # selenium returns Infinity as None


def _check(page, analysis, cost_fp, cost_fn, prior):
    a, ref = _reference(analysis, cost_fp, cost_fn, prior)
    where = f"c(FP)={cost_fp!r}, c(FN)={cost_fn!r}, p(+)={prior!r}"
    assert page["index"] == a.optimal.optimum.index, where
    assert page["model"] == ref.model, where
    got = _threshold(page["threshold"])
    assert got == ref.threshold or abs(got - ref.threshold) <= 1e-9, where
    assert abs(page["expected_cost"] - ref.expected_cost) <= 1e-9, where
    assert abs(page["tpr"] - ref.tpr) <= 1e-9 and abs(page["fpr"] - ref.fpr) <= 1e-9, where
    assert (page["tie"] is not None) == a.optimal.optimum.on_segment, where
    for shown, model in zip(page["models"], a.models, strict=True):
        assert shown["name"] == model.name
        assert _threshold(shown["threshold"]) == model.optimal.optimum.threshold, where
        assert abs(shown["expected_cost"] - model.optimal.expected_cost) <= 1e-9, where


def test_sdl101_two_hundred_settings_match_core(dash_duo, demo_analysis, tmp_path):
    driver = dash_duo.driver
    _open(driver, demo_analysis, tmp_path)
    rng = np.random.default_rng(19)
    pairs = [(float(10 ** rng.uniform(-2, 2)), float(10 ** rng.uniform(-2, 2)),
              float(rng.uniform(0.01, 0.99))) for _ in range(200)]
    # the ties of the demo: unit costs at its own prevalence, and the exported conditions
    c = demo_analysis.conditions
    pairs[:2] = [(1.0, 1.0, float(demo_analysis.data_prevalence)),
                 (c.cost_fp, c.cost_fn, c.prior_pos)]
    pages = driver.execute_script(
        "return arguments[0].map(function (p) { var s = window.rocReport.set("
        "{cost_fp: p[0], cost_fn: p[1], prior_pos: p[2]}); return s; });",
        [list(p) for p in pairs])
    for page, (cfp, cfn, prior) in zip(pages, pairs, strict=True):
        _check(page, demo_analysis, cfp, cfn, prior)
    # what the last one shows: the sentence, the confusion matrix, the markers
    cfp, cfn, prior = pairs[-1]
    a, ref = _reference(demo_analysis, cfp, cfn, prior)
    sentence = driver.find_element("id", "rr-sentence").text
    assert f"{ref.model} at score ≥ {format_threshold(ref.threshold)}" in sentence
    assert f"expected cost {sig(ref.expected_cost)} per case" in sentence
    cells = driver.execute_script(
        "return Array.from(document.querySelectorAll('#rr-confusion td'))"
        ".map(function (td) { return td.textContent; });")
    assert cells == [f"{ref.tp:,.0f} (TP)", f"{ref.fn:,.0f} (FN)", f"{ref.fp:,.0f} (FP)",
                     f"{ref.tn:,.0f} (TN)"]
    a_opt = a.optimal
    # the figures follow in the next animation frame, the cost view last
    wait_until(lambda: driver.execute_script(
        "return document.getElementById('rr-cost').layout.shapes[0].x0;") == pytest.approx(
        a.conditions.pc_pos, abs=1e-12), message="the figures to follow")
    roc = driver.execute_script(
        "var gd = document.getElementById('rr-roc');"
        f"var o = gd.layout.annotations.filter({NOTE % 'optimum'})[0];"
        f"var r = gd.layout.annotations.filter({NOTE % 'optimum ring'})[0];"
        "return [o.x, o.y, gd.layout.shapes[0], r.x, r.y];")
    assert roc[:2] == [a_opt.optimum.fpr, a_opt.optimum.tpr] == roc[3:]
    line = roc[2]  # the iso line passes through the optimum with the slope of the setting
    slope = (line["y1"] - line["y0"]) / (line["x1"] - line["x0"])
    assert slope == pytest.approx(a.conditions.slope, rel=1e-9)
    assert line["y0"] + slope * (a_opt.optimum.fpr - line["x0"]) == pytest.approx(
        a_opt.optimum.tpr, abs=1e-12)
    pc = driver.execute_script(
        "var gd = document.getElementById('rr-cost');"
        f"var o = gd.layout.annotations.filter({NOTE % 'optimum'})[0];"
        "return [o.x, o.y, gd.layout.shapes[0].x0];")
    assert pc[0] == pytest.approx(a.conditions.pc_pos, abs=1e-12) == pc[2]
    assert pc[1] == pytest.approx(a_opt.normalized_expected_cost, abs=1e-12)
    pr = driver.execute_script(
        "var gd = document.getElementById('rr-pr');"
        f"var o = gd.layout.annotations.filter({NOTE % 'optimum'})[0];"
        "return [o.x, o.y];")
    assert pr == pytest.approx([ref.tpr, ref.precision], abs=1e-12)
    # each model's PR curve is redrawn at the new prior: from a drawn point (recall r,
    # precision q at the exported prior p0) FPR = p0·r·(1 − q) / ((1 − p0)·q), and its
    # precision at p is p·r / (p·r + (1 − p)·FPR)
    p0, p = demo_analysis.conditions.prior_pos, prior
    start = pr_figure(demo_analysis)
    shown = driver.execute_script(
        "return document.getElementById('rr-pr').data.map(function (t) { return t.y; });")
    for trace, now in zip(start.data, shown, strict=True):
        if trace.customdata is None:
            continue
        r, q = np.asarray(trace.x, dtype=float), np.asarray(trace.y, dtype=float)
        ok = (q > 0) & (q < 1) & (r > 0)  # at recall 0 the limit is drawn: not compared
        fpr = p0 * r[ok] * (1 - q[ok]) / ((1 - p0) * q[ok])
        assert len(now) == len(q)
        np.testing.assert_allclose(np.asarray(now, dtype=float)[ok],
                                   p * r[ok] / (p * r[ok] + (1 - p) * fpr), rtol=1e-9)


def _slider_drag(driver, key, fraction):
    """Drag the slider's thumb (from where it is) to ``fraction`` of its track."""
    box = driver.execute_script(
        "var s = document.getElementById(arguments[0]); s.scrollIntoView({block: 'center'});"
        "var r = s.getBoundingClientRect();"
        "var f = (Number(s.value) - Number(s.min)) / (Number(s.max) - Number(s.min));"
        "return [r.left, r.top, r.width, r.height, f];", f"rr-{key}-slider")
    left, top, width, height, now = box
    inner = width - 16  # Chromium's thumb is 16 px wide: its centre runs 8 px inside
    y = top + height / 2
    drag(driver, (left + 8 + now * inner, y), (left + 8 + fraction * inner, y))


def test_sdl102_slider_gestures_move_the_optimum(dash_duo, demo_analysis, tmp_path):
    driver = dash_duo.driver
    _open(driver, demo_analysis, tmp_path)
    for key, fraction in (("cost_fn", 0.85), ("prior_pos", 0.2), ("cost_fp", 0.7),
                          ("prior_pos", 0.75)):
        before = driver.execute_script(f"return document.getElementById('rr-{key}').value;")
        _slider_drag(driver, key, fraction)
        wait_until(lambda k=key, b=before: driver.execute_script(
            f"return document.getElementById('rr-{k}').value;") != b,
            message=f"the {key} slider to move")
        page = driver.execute_script("return window.rocReport.state();")
        values = [page["conditions"][k] for k in ("cost_fp", "cost_fn", "prior_pos")]
        shown = driver.execute_script(
            "return ['cost_fp', 'cost_fn', 'prior_pos'].map(function (k) {"
            " return Number(document.getElementById('rr-' + k).value); });")
        assert shown == pytest.approx(values, rel=1e-5)  # the boxes show 6 digits
        _check(page, demo_analysis, *values)
        _, ref = _reference(demo_analysis, *values)
        assert (f"{ref.model} at score ≥ {format_threshold(ref.threshold)}"
                in driver.find_element("id", "rr-sentence").text)


def test_sdl103_typed_numbers_and_the_exported_zoom(dash_duo, demo_analysis, tmp_path):
    driver = dash_duo.driver
    path = tmp_path / "zoomed.html"
    zoom = {"roc": {"x": [0.0123, 0.4567], "y": [0.5, 1.0], "det": False},
            "cost": {"x": [0.2, 0.8], "y": [0.0, 0.3]}}
    path.write_text(render_html(demo_analysis, zoom=zoom), encoding="utf-8")
    driver.get(path.as_uri())
    wait_until(lambda: driver.execute_script("return !!window.rocReport"), message="script")
    ranges = driver.execute_script(
        "return ['rr-roc', 'rr-cost'].map(function (id) { var l = document.getElementById(id)"
        ".layout; return [l.xaxis.range, l.yaxis.range]; });")
    assert ranges == [[[0.0123, 0.4567], [0.5, 1.0]], [[0.2, 0.8], [0.0, 0.3]]]
    box = driver.find_element("id", "rr-cost_fn")
    box.clear()
    box.send_keys("7.5")
    wait_until(lambda: driver.execute_script(
        "return window.rocReport.state().conditions.cost_fn;") == 7.5, message="typed cost")
    page = driver.execute_script("return window.rocReport.state();")
    c = demo_analysis.conditions
    _check(page, demo_analysis, c.cost_fp, 7.5, c.prior_pos)
    # the zoom survives a change of the conditions
    assert driver.execute_script(
        "return document.getElementById('rr-roc').layout.xaxis.range;") == [0.0123, 0.4567]


def test_sdl104_the_page_export_keeps_each_views_zoom(dash_duo, app):
    """Zoom the cost view on the page, export the HTML report: the file opens with the same
    axis range, and its controls work."""
    from roc_dash.app import ids
    from tests.browser import gestures
    from tests.browser.test_views_browser import _downloaded, js_graph, start

    start(dash_duo, app)
    driver = dash_duo.driver
    gestures.wait_idle(driver)
    gestures.scroll_into_view(driver, dash_duo.find_element(f"#{ids.COST_GRAPH}"))
    drag(driver, gestures.to_screen(driver, ids.COST_GRAPH, 0.2, 0.2),
         gestures.to_screen(driver, ids.COST_GRAPH, 0.6, 0.0))
    wait_until(lambda: abs(js_graph(dash_duo, ids.COST_GRAPH,
                                    "gd._fullLayout.xaxis.range[1]") - 0.6) < 0.02,
               message="the cost view zoomed by the drag")
    gestures.wait_idle(driver)
    zoomed = js_graph(dash_duo, ids.COST_GRAPH, "gd._fullLayout.xaxis.range")
    dash_duo.find_element(f"#{ids.EXPORT_HTML}").click()
    report = _downloaded(dash_duo, "roc-dash-report.html")[0]
    driver.get(report.as_uri())
    wait_until(lambda: driver.execute_script(
        "return !!(window.rocReport && document.getElementById('rr-cost').layout)"),
        message="the exported report")
    assert driver.execute_script(
        "return document.getElementById('rr-cost').layout.xaxis.range;") == pytest.approx(
        zoomed, abs=1e-12)
    assert driver.execute_script("return window.rocReport.set({cost_fn: 3}).model;")


def test_sdl105_with_benefits_and_extreme_settings(dash_duo, tmp_path):
    """Benefits of right decisions (the sliders set net costs, the benefits are subtracted
    from the expected cost) and settings far out (typed, beyond the sliders' range)."""
    analysis = analyse(load_demo().table, Conditions(cost_fn=3.0, benefit_tp=2.0,
                                                     benefit_tn=0.25))
    driver = dash_duo.driver
    _open(driver, analysis, tmp_path)
    rng = np.random.default_rng(5)
    pairs = [(float(10 ** rng.uniform(-2, 2)), float(10 ** rng.uniform(-2, 2)),
              float(rng.uniform(0.01, 0.99))) for _ in range(30)]
    pairs += [(1e-6, 1e6, 0.5), (1e6, 1e-6, 0.5), (1.0, 1.0, 1e-9), (1.0, 1.0, 1 - 1e-9),
              (3e5, 2e-5, 0.999999), (0.5, 0.5, 0.5)]
    pages = driver.execute_script(
        "return arguments[0].map(function (p) { return window.rocReport.set("
        "{cost_fp: p[0], cost_fn: p[1], prior_pos: p[2]}); });", [list(p) for p in pairs])
    for page, (cfp, cfn, prior) in zip(pages, pairs, strict=True):
        _check(page, analysis, cfp, cfn, prior)


def test_sdl106_offline_from_file_the_unpacked_plotly_draws_every_figure(
        dash_duo, demo_analysis, tmp_path, shot):
    """With the network cut (Chromium's own offline mode), the file opened from ``file://``
    unpacks its compressed plotly.js and draws the three views; nothing was fetched."""
    driver = dash_duo.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        driver.set_window_size(1280, 1000)
        _open(driver, demo_analysis, tmp_path)
        assert driver.execute_script("return navigator.onLine;") is False
        wait_until(lambda: driver.execute_script(
            "return document.body.getAttribute('data-figures');") == "drawn",
            message="the loader's signal")
        drawn = driver.execute_script(
            "return Array.from(document.querySelectorAll('.js-plotly-plot')).map(function (g)"
            " { return [g.id, g.querySelectorAll('svg.main-svg').length,"
            " g.querySelectorAll('.scatterlayer .trace').length]; });")
        assert [d[0] for d in drawn] == ["rr-roc", "rr-pr", "rr-cost"]
        assert all(svgs > 0 and traces > 0 for _, svgs, traces in drawn), drawn
        fetched = driver.execute_script(
            "return performance.getEntriesByType('resource').map(function (e) {"
            " return e.name; });")
        assert not [u for u in fetched if not u.startswith(("file:", "data:", "blob:"))]
        assert driver.find_elements("id", "rr-figures-missing") == []
        s = driver.execute_script("return window.rocReport.set({cost_fn: 4, prior_pos: 0.2});")
        _check(s, demo_analysis, demo_analysis.conditions.cost_fp, 4.0, 0.2)
        wait_until(lambda: driver.execute_script(
            "return document.getElementById('rr-cost').layout.shapes[0].x0;") == pytest.approx(
            s["pc_pos"], abs=1e-12), message="the figures to follow")
        driver.execute_script("document.getElementById('rr-roc').parentNode.scrollIntoView();")
        shot("standalone_zip")
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_sdl107_without_decompression_stream_the_page_says_so(dash_duo, demo_analysis,
                                                             tmp_path, shot):
    """A browser without ``DecompressionStream`` (removed before the page's scripts run):
    the page says why there are no figures and which browsers can; the tables and the
    controls' sentence still work."""
    driver = dash_duo.driver
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": "delete window.DecompressionStream;"})
    path = tmp_path / "report.html"
    path.write_text(render_html(demo_analysis), encoding="utf-8")
    driver.get(path.as_uri())
    wait_until(lambda: driver.execute_script("return !!window.rocReport;"), message="script")
    assert driver.execute_script("return document.body.getAttribute('data-figures');") == \
        "failed"
    banner = driver.find_element("id", "rr-figures-missing")
    assert banner.is_displayed()
    assert "cannot unpack the embedded plotting library" in banner.text
    assert "Chrome, Edge, Firefox or Safari" in banner.text
    shot("standalone_without_decompression")
    assert driver.find_elements("css selector", ".js-plotly-plot") == []
    for view in ("rr-roc", "rr-pr", "rr-cost"):  # each empty box says it too
        assert "cannot unpack" in driver.find_element("id", view).text
    c = demo_analysis.conditions
    s = driver.execute_script("return window.rocReport.set({cost_fn: 4});")
    _check(s, demo_analysis, c.cost_fp, 4.0, c.prior_pos)
    _, ref = _reference(demo_analysis, c.cost_fp, 4.0, c.prior_pos)
    assert (f"{ref.model} at score ≥ {format_threshold(ref.threshold)}"
            in driver.find_element("id", "rr-sentence").text)
