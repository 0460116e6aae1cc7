"""Combining classifiers and the LC index in a real headless Chromium (Fawcett 2004 §7.4,
§7.5.3), driven by real input only: keys typed into the boxes, mouse events dispatched by
Chromium (:mod:`.gestures`); no test sets a component property or fakes a plotly event.
Every number read off the page is checked against core functions called here directly."""

import numpy as np

from roc_dash.app import ids
from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import prevalence
from roc_dash.core.combining.capacity_mix import budget_operating_point
from roc_dash.core.combining.concavity_repair import repair_concavities
from roc_dash.core.combining.superiority import lc_index, ratio_to_unit, triangular_distribution
from roc_dash.text.rounding import sig, signed

from .gestures import centre, click, js_graph, open_tab, scroll_into_view, type_into, wait_until
from .test_meeting_browser import pin_two_vertices
from .test_trust_browser import start

DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
WIDE = (1366, 1000)


def names(driver, graph):
    return js_graph(driver, graph, "gd.data.map(t => t.name)") or []


def trace_xy(driver, graph, name):
    """``(x, y)`` of the first trace whose name starts with ``name``, as drawn."""
    return js_graph(driver, graph,
                    f"(() => {{ const t = gd._fullData.find(t => (t.name || '').startsWith("
                    f"{name!r})); return t ? [Array.from(t.x), Array.from(t.y)] : null; }})()")


def result_text(dash_duo):
    return dash_duo.find_element(f"#{ids.COMBINE_RESULT}").text


def _analysis(app, prior=None):
    prior = prevalence(app.analysis_cache.store.get(DEMO_ID)) if prior is None else prior
    return app.analysis_cache.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=prior))


def _scroll_to(driver, element):
    scroll_into_view(driver, element)


def _shoot(dash_duo, shot, tab: str, element_id: str, name: str):
    """Open ``tab``, bring ``element_id`` into view and take the screenshot ``name``."""
    open_tab(dash_duo, tab)
    _scroll_to(dash_duo.driver, dash_duo.find_element(f"#{element_id}"))
    shot(name)


def _choose(dash_duo, dropdown_id, option_text):
    """Open a dropdown and click one of its options (WebDriver clicks: trusted input)."""
    box = dash_duo.find_element(f"#{dropdown_id}")
    _scroll_to(dash_duo.driver, box)
    dash_duo.select_dcc_dropdown(f"#{dropdown_id}", option_text)


def test_byd001_budget_draws_the_constraint_and_the_achievable_point(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    open_tab(dash_duo, "beyond")
    box = dash_duo.find_element(f"#{ids.BUDGET}")
    _scroll_to(d, box)
    type_into(box, "100")
    wait_until(lambda: "budget: achievable point" in names(d, ids.ROC_GRAPH),
               message="budget point on the ROC")
    analysis = _analysis(app)
    prior = analysis.conditions.prior_pos
    mix = budget_operating_point(analysis.hull, n_total=442, prior_pos=prior, budget=100)
    (x,), (y,) = trace_xy(d, ids.ROC_GRAPH, "budget: achievable point")
    assert abs(x - mix.fpr) < 1e-9 and abs(y - mix.tpr) < 1e-9
    assert 0 < mix.k < 1  # a real mix of two vertices, both drawn
    vx, vy = trace_xy(d, ids.ROC_GRAPH, "budget: hull vertices mixed")
    assert np.allclose(vx, [mix.fpr_a, mix.fpr_b]) and np.allclose(vy, [mix.tpr_a, mix.tpr_b])
    # the line is FPR·N(1−π) + TPR·Nπ = K at both ends
    lx, ly = trace_xy(d, ids.ROC_GRAPH, "budget: 100 of 442")
    assert np.allclose(np.array(lx) * 442 * (1 - prior) + np.array(ly) * 442 * prior, 100)
    text = result_text(dash_duo)
    assert "100 of N = 442 cases (the test set)" in text
    assert f"mixing rate k = {sig(mix.k)}" in text and "random" in text
    line = js_graph(d, ids.ROC_GRAPH, "gd.layout.shapes[0].name")
    assert line == "iso-performance line"  # the draggable line stays shapes[0]
    shot("byd001_budget_card")
    _shoot(dash_duo, shot, "decide", ids.ROC_GRAPH, "byd001_budget_roc")
    open_tab(dash_duo, "beyond")
    # % flagged: 10% of the cases
    unit = dash_duo.find_element(f"#{ids.BUDGET_UNIT} label:nth-of-type(2)")
    _scroll_to(d, unit)
    click(d, centre(d, unit))
    wait_until(lambda: "442 of N = 442" in result_text(dash_duo), message="100% of 442")
    type_into(dash_duo.find_element(f"#{ids.BUDGET}"), "10")
    wait_until(lambda: "44.2 of N = 442" in result_text(dash_duo), message="10% of 442")
    # N from the cases per month, when set
    summary = d.find_element("css selector", ".economics summary")
    _scroll_to(d, summary)
    click(d, centre(d, summary))
    type_into(dash_duo.find_element(f"#{ids.POPULATION}"), "20000")
    wait_until(lambda: "2,000 of N = 20,000 cases (cases per month)" in result_text(dash_duo),
               message="N from the cases per month")
    # clearing the box removes the overlay
    box = dash_duo.find_element(f"#{ids.BUDGET}")
    _scroll_to(d, box)
    type_into(box, "")
    wait_until(lambda: not any(n.startswith("budget") for n in names(d, ids.ROC_GRAPH)),
               message="budget overlay removed")
    assert dash_duo.get_logs() == []


def test_byd002_repair_concavities_overlay(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    open_tab(dash_duo, "beyond")
    _choose(dash_duo, ids.REPAIR_MODEL, "decision tree")
    wait_until(lambda: any(n.startswith("decision tree repaired")
                           for n in names(d, ids.ROC_GRAPH)), message="repaired curve")
    repair = repair_concavities(_analysis(app).model("decision tree").curve)
    assert len(repair) > 0
    bx, by = trace_xy(d, ids.ROC_GRAPH, "B′ (repaired")
    assert np.allclose(bx, repair.fpr_repaired) and np.allclose(by, repair.tpr_repaired)
    rx, ry = trace_xy(d, ids.ROC_GRAPH, "decision tree repaired")
    assert np.allclose(rx, repair.curve.fpr) and np.allclose(ry, repair.curve.tpr)
    assert f"{len(repair)} concavities" in result_text(dash_duo)
    _shoot(dash_duo, shot, "decide", ids.ROC_GRAPH, "byd002_repair_roc")


def test_byd003_and_or_of_two_pins_with_actual_positions(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    pin_two_vertices(dash_duo, app)
    # the thresholds actually pinned (a click takes the nearest point), exact
    t_a, t_b = (js_graph(d, ids.ROC_GRAPH, f"gd._fullData.find(t => t.name.startsWith("
                         f"'pinned {k}:')).customdata[0][1]") for k in "AB")
    m_a, m_b = (next(n for n in names(d, ids.ROC_GRAPH) if n.startswith(f"pinned {k}:"))
                .split(": ", 1)[1].rsplit(" at score", 1)[0] for k in "AB")
    open_tab(dash_duo, "beyond")
    box = dash_duo.find_element(f"#{ids.LOGIC} label")
    _scroll_to(d, box)
    click(d, centre(d, box))
    wait_until(lambda: "AND: actual (rows)" in names(d, ids.ROC_GRAPH), message="AND/OR")
    # independent check: pair the rows by id here, threshold, count
    table = app.analysis_cache.store.get(DEMO_ID)
    a = table[table["model"] == m_a].set_index("id")
    b = table[table["model"] == m_b].set_index("id").loc[a.index]
    y = a["label"].to_numpy(bool)
    da, db = a["score"].to_numpy() >= t_a, b["score"].to_numpy() >= t_b
    pos, neg = y.sum(), (~y).sum()
    for op, dec in (("AND", da & db), ("OR", da | db)):
        (x,), (t,) = trace_xy(d, ids.ROC_GRAPH, f"{op}: actual (rows)")
        assert abs(x - (dec & ~y).sum() / neg) < 1e-12 and abs(t - (dec & y).sum() / pos) < 1e-12
    (ix,), (iy,) = trace_xy(d, ids.ROC_GRAPH, "AND: if independent")
    fa, ta = (da & ~y).sum() / neg, (da & y).sum() / pos
    fb, tb = (db & ~y).sum() / neg, (db & y).sum() / pos
    assert abs(ix - fa * fb) < 1e-12 and abs(iy - ta * tb) < 1e-12
    rx, ry = trace_xy(d, ids.ROC_GRAPH, "OR: possible region")
    assert np.isclose(min(rx), max(fa, fb)) and np.isclose(max(ry), min(1.0, ta + tb))
    text = result_text(dash_duo)
    assert "AND actual (rows)" in text and "paired by id" in text
    _shoot(dash_duo, shot, "decide", ids.ROC_GRAPH, "byd003_logic_roc")
    _shoot(dash_duo, shot, "beyond", ids.COMBINE_RESULT, "byd003_logic_card")


def test_byd004_relative_superiority_and_lc_index(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    open_tab(dash_duo, "compare")
    wait_until(lambda: js_graph(d, ids.SUP_GRAPH, "gd.layout.meta && gd.layout.meta.lc")
               is not None, message="superiority graph")
    _choose(dash_duo, ids.SUP_A, "gradient boosting")
    wait_until(lambda: js_graph(d, ids.SUP_GRAPH, "gd.layout.meta.pair[0]")
               == "gradient boosting", message="pair changed")
    for box_id, text in ((ids.SUP_LOW, "1"), (ids.SUP_MODE, "3"), (ids.SUP_HIGH, "10")):
        box = dash_duo.find_element(f"#{box_id}")
        _scroll_to(d, box)
        type_into(box, text)
    wait_until(lambda: js_graph(d, ids.SUP_GRAPH, "gd.layout.meta.high") == 10,
               message="expert's range applied")
    analysis = _analysis(app)
    a, b = analysis.model("gradient boosting"), analysis.model("naive Bayes")
    expected = lc_index(a.hull, b.hull, triangular_distribution(1, 3, 10),
                        prior_pos=analysis.conditions.prior_pos)
    assert 0 < expected.prob_a_better < 1  # a split verdict: the test can tell
    lc = js_graph(d, ids.SUP_GRAPH, "gd.layout.meta.lc")
    assert abs(lc - expected.lc) < 1e-12
    title = js_graph(d, ids.SUP_GRAPH, "gd.layout.title.text")
    assert f"{signed(expected.lc)}" in title
    shot("byd004_superiority")
    # the same cost controls: c(FN) = 4 moves the "now" line to u = 4/5
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "4")
    wait_until(lambda: abs(js_graph(d, ids.SUP_GRAPH, "gd.layout.shapes[0].x0")
                           - ratio_to_unit(4.0)) < 1e-9, message="current ratio moved")
    assert dash_duo.get_logs() == []
