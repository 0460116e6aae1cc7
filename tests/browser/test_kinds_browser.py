"""The input kinds in a real headless Chromium (issue 9), driven by real input only: the
example links and dropdowns clicked by WebDriver, files sent to the upload field, points
clicked with mouse events dispatched by Chromium (:mod:`.gestures`). No test sets a
component property or fakes a plotly event. Numbers read off the page are checked against
core called here directly."""

import numpy as np
import pandas as pd
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import prevalence
from roc_dash.core.kinds.canonical_kinds import class_view
from roc_dash.text.rounding import sig

from .gestures import click, js_graph, open_tab, to_screen, wait_idle, wait_until
from .test_beyond_browser import WIDE, _choose, _scroll_to, names, trace_xy
from .test_trust_browser import start

MC_MODELS = ["logistic regression", "decision tree"]


def _example(dash_duo, text):
    link = next(b for b in dash_duo.driver.find_elements(By.CSS_SELECTOR, ".examples button")
                if b.text == text)
    link.click()


def upload(dash_duo, path):
    field = dash_duo.driver.find_element(By.CSS_SELECTOR, f"#{ids.UPLOAD} input[type=file]")
    field.send_keys(str(path))


def _legend_auc(driver, model):
    name = next(n for n in names(driver, ids.ROC_GRAPH) if n and n.startswith(f"{model} (AUC"))
    return float(name.split("(AUC ")[1].split()[0].rstrip(")").rstrip(","))


def test_knd001_multiclass_example_class_selector_and_card(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    _example(dash_duo, "multi-class")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Multi-class file: 3 classes")
    wait_until(lambda: not any((n or "").startswith("naive Bayes")
                               for n in names(d, ids.ROC_GRAPH)), message="multi-class curves")
    wait_until(lambda: dash_duo.find_element(f"#{ids.CLASS_ROW}").is_displayed(),
               message="the class selector")
    store = app.analysis_cache.store
    table = store.get("demo-multiclass")
    shot("knd001_multiclass_class0")
    _choose(dash_duo, ids.CLASS_CHOICE, "class_2")
    view = class_view(table, "class_2")
    expected = app.analysis_cache.analysis(["demo-multiclass"], MC_MODELS,
                                           Conditions(prior_pos=prevalence(view)), "class_2")
    auc = {m.name: m.auc for m in expected.models}
    wait_until(lambda: abs(_legend_auc(d, "decision tree") - auc["decision tree"]) < 6e-4,
               message="the ROC shows class_2 against the rest")
    assert abs(_legend_auc(d, "logistic regression") - auc["logistic regression"]) < 6e-4
    # the prior follows the chosen class, and the choice is in the link
    wait_until(lambda: "class=class_2" in d.current_url, message="class in the URL")
    prior_box = dash_duo.find_element(f"#{ids.PRIOR}").get_attribute("value")
    assert abs(float(prior_box) - prevalence(view)) < 1e-3
    # the multi-class card: class curves, pairwise matrix, M in the table
    open_tab(dash_duo, "beyond")
    card = dash_duo.find_element(f"#{ids.MC_CARD}")
    _scroll_to(d, card)
    wait_until(lambda: "(shown)" in " ".join(n or "" for n in names(d, ids.MC_CURVES)),
               message="class curves with class_2 shown")
    z = js_graph(d, ids.MC_PAIRWISE, "gd.data[0].z")
    from roc_dash.core.assembly.extensions import analyse_multiclass

    mc = {r.name: r.result for r in analyse_multiclass(table)}
    model = dash_duo.find_element(f"#{ids.MC_MODEL}").text.strip()
    ref = mc[model].pairwise
    got = np.array([[np.nan if v is None else v for v in row] for row in z], dtype=float)
    assert np.allclose(got, ref, equal_nan=True)
    # its screen-reader summary names it and what it shows (not the card's other graph)
    said = d.execute_script(
        f"var e = document.querySelector('#{ids.MC_PAIRWISE}-a11y-summary .sr-summary-text');"
        "return e ? e.textContent : '';")
    assert said.startswith(f"Pairwise AUC of {model} (Hand & Till): class i against class j."
                           ), said
    assert f"Shows {model}: Â(i|j) for each pair of classes." in said
    open_tab(dash_duo, "compare")
    text = dash_duo.find_element(f"#{ids.MODEL_TABLE}").text
    assert f"{sig(mc['decision tree'].hand_till_m)}" in text
    assert f"{sig(mc['decision tree'].weighted_auc)}" in text
    open_tab(dash_duo, "beyond")
    _scroll_to(d, card)
    wait_idle(dash_duo)
    shot("knd001_multiclass_card")
    # reloading the link restores the class
    d.get(d.current_url)
    wait_until(lambda: abs(_legend_auc(d, "decision tree") - auc["decision tree"]) < 6e-4,
               message="the link restores class_2")
    assert dash_duo.get_logs() == []


def test_knd002_soft_label_upload_names_its_interval(dash_duo, app, shot):
    from importlib import resources

    start(dash_duo, app, size=WIDE)
    path = resources.files("roc_dash.data") / "soft_labels_demo.csv"
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Soft labels (column 'label_prob')")
    open_tab(dash_duo, "compare")
    dash_duo.wait_for_contains_text(f"#{ids.MODEL_TABLE}", "CI: soft DeLong (Qin)")
    a = app.analysis_cache.analysis(
        [app.analysis_cache.store.dir.glob("*.json").__next__().stem],
        ["ridge regression"], Conditions())
    text = dash_duo.find_element(f"#{ids.MODEL_TABLE}").text
    ci = a.models[0].auc_ci
    assert f"{sig(a.models[0].auc)} [{sig(ci.low)}, {sig(ci.high)}]" in text
    _scroll_to(dash_duo.driver, dash_duo.find_element(f"#{ids.MODEL_TABLE}"))
    shot("knd002_soft_table")
    assert dash_duo.get_logs() == []


def test_knd003_leaf_labelings_are_points_to_pin(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    _example(dash_duo, "tree leaves")
    wait_until(lambda: any("labelings" in (n or "") for n in names(d, ids.ROC_GRAPH)),
               message="labelings on the ROC")
    x, y = trace_xy(d, ids.ROC_GRAPH, "tree_leaves_demo: labelings")
    assert np.allclose(x, [0, 1 / 8, 3 / 8, 1]) and np.allclose(y, [0, 5 / 12, 3 / 4, 1])
    _scroll_to(d, dash_duo.find_element(f"#{ids.ROC_GRAPH}"))
    shot("knd003_leaves")
    click(d, to_screen(d, ids.ROC_GRAPH, 1 / 8, 5 / 12))  # S1 (S2 is the optimum)
    wait_until(lambda: "pinned" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="S1 pinned")
    text = dash_duo.find_element(f"#{ids.OPERATING}").text
    assert "0.125" in text and "0.416667" in text
    shot("knd003_leaves_pinned")
    assert dash_duo.get_logs() == []


def test_knd004_cost_column_gives_cost_axes(dash_duo, app, tmp_path, shot):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    frame = pd.DataFrame({"label": y, "score": rng.normal(y * 1.5, 1.0).round(4),
                          "cost": rng.uniform(1, 20, 300).round(2)})
    path = tmp_path / "claims.csv"
    frame.to_csv(path, index=False)
    start(dash_duo, app, size=WIDE)
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Example-specific costs")
    d = dash_duo.driver
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.layout.xaxis.title.text")
               == "Fraction of negative cost", message="cost axis title")
    assert js_graph(d, ids.ROC_GRAPH, "gd.layout.yaxis.title.text") == \
        "Fraction of positive benefit"
    shot("knd004_costs")
    assert dash_duo.get_logs() == []
