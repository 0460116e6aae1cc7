"""Cross-validation and the k-model comparison on the page (issue 17, items 1 and 3), driven
by real clicks in headless Chromium on the demo (4 models × 10 folds): the model table's
cross-validated AUC and per-fold AUC/AP, the Model comparison matrix checked cell by cell
against the core's PairwiseComparison, the p-value selector, and the never-optimal model."""

import os
from pathlib import Path

import numpy as np
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from roc_dash.app.server.store import load_demo
from roc_dash.comparison_text import p_text
from roc_dash.core.assembly.analysis import Conditions, analyse
from roc_dash.core.model_comparison import NEVER_OPTIMAL

from .gestures import js_graph, open_tab, scroll_into_view, wait_idle, wait_until
from .test_trust_browser import start, value

SHOTS = Path(os.environ.get("ROC_DASH_SHOTS", "/work/shots"))


def _save(dash_duo, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    dash_duo.driver.save_screenshot(str(SHOTS / f"cvpage_{name}.png"))


def _cells(dash_duo):
    """The matrix as text: one list of cell texts per row (the row header first)."""
    rows = dash_duo.driver.find_elements(
        By.CSS_SELECTOR, f"#{ids.COMPARISON_RESULT} table.matrix tbody tr")
    return [[c.text for c in r.find_elements(By.CSS_SELECTOR, "th, td")] for r in rows]


def _expected(prior: float):
    return analyse(load_demo().table, Conditions(prior_pos=prior))


def _check_matrix(dash_duo, comparison, attr):
    cells = _cells(dash_duo)
    k = len(comparison.models)
    assert len(cells) == k
    for i in range(k):
        assert cells[i][0].endswith(comparison.models[i])
        for j in range(k):
            text = cells[i][j + 1]
            if i == j:
                assert text == "—"
                continue
            diff, p = text.split("\n")
            assert diff == f"{comparison.difference[i, j]:+.3f}", (i, j, text)
            assert p == f"p {p_text(float(getattr(comparison, attr)[i, j]))}", (i, j, text)


def test_cvp101_model_comparison_card_and_cv_auc(dash_duo, app):
    start(dash_duo, app, size=(1280, 1000))
    prior = float(value(dash_duo, ids.PRIOR))
    expected = _expected(prior)
    comparison = expected.model_comparison
    open_tab(dash_duo, "compare")
    wait_until(lambda: len(_cells(dash_duo)) == len(comparison.models), message="matrix")
    _check_matrix(dash_duo, comparison, "p_holm")  # Holm by default

    # a real click on the Benjamini-Hochberg choice shows its p-values
    bh = dash_duo.driver.find_element(
        By.XPATH, f"//*[@id='{ids.P_KIND}']//label[contains(., 'Benjamini-Hochberg')]")
    bh.click()
    wait_until(lambda: "Benjamini-Hochberg-adjusted p over" in dash_duo.find_element(
        f"#{ids.COMPARISON_RESULT}").text, message="BH p-values")
    wait_idle(dash_duo)
    _check_matrix(dash_duo, comparison, "p_bh")
    # every cell's tooltip gives the three p-values
    tip = dash_duo.driver.find_element(
        By.CSS_SELECTOR, f"#{ids.COMPARISON_RESULT} table.matrix td.num:not(.untested)"
    ).get_attribute("title")
    assert "raw p" in tip and "Holm-adjusted p" in tip and "Benjamini-Hochberg" in tip

    # the never-optimal model is said so, the others get a cost range at the prior
    ranges = {li.text.split(": ", 1)[0]: li.text.split(": ", 1)[1] for li in
              dash_duo.driver.find_elements(By.CSS_SELECTOR,
                                            f"#{ids.COMPARISON_RESULT} ul.optimal-ranges li")}
    never = {r.model for r in expected.optimal_ranges.ranges if r.never_optimal}
    assert never == {"decision tree"}
    for name, text in ranges.items():
        assert (text == NEVER_OPTIMAL) == (name in never), (name, text)
        if name not in never:
            assert text.startswith("optimal for c(FP)/c(FN)") and f"{prior:.3g}" in text
    card = dash_duo.find_element(".comparison-card")
    scroll_into_view(dash_duo.driver, card, block="start")
    _save(dash_duo, "comparison")

    # the model table: CV AUC per model; a click opens one model's folds
    table = dash_duo.find_element(f"#{ids.MODEL_TABLE}")
    assert "AUC pooled" in table.text and "CV AUC: fold mean ± SD" in table.text
    m = expected.models[0]
    cv = m.cross_validation
    summary = table.find_element(By.CSS_SELECTOR, "td.cv-auc summary")
    assert summary.text.startswith(f"{cv.auc_mean:.3f} ± {cv.auc_sd:.3f} [95% CI "
                                   f"{cv.ci_low:.3f}–{cv.ci_high:.3f}]")
    summary.click()
    folds = table.find_element(By.CSS_SELECTOR, "td.cv-auc table.folds")
    wait_until(folds.is_displayed, message="fold rows shown")
    rows = [r.text.split() for r in folds.find_elements(By.CSS_SELECTOR, ":scope > tbody > tr")]
    assert len(rows) == cv.n_folds
    np.testing.assert_allclose([float(r[1]) for r in rows], cv.auc, atol=5e-4)
    np.testing.assert_allclose([float(r[2]) for r in rows], cv.average_precision, atol=5e-4)
    scroll_into_view(dash_duo.driver, table, block="start")
    _save(dash_duo, "model_table")
    # the summary's fold spread is a labelled range
    assert "range over 10 folds" in dash_duo.find_element(f"#{ids.SUMMARY}").text


def test_cvp102_legend_follows_the_averaging_mode(dash_duo, app):
    """A real click on "vertical" averaging: each model's legend AUC becomes the mean of its
    folds' AUCs ± SD, and the subtitle says the hull and optimum stay pooled."""
    start(dash_duo, app, size=(1280, 1000))
    expected = _expected(float(value(dash_duo, ids.PRIOR)))
    names = lambda: js_graph(dash_duo.driver, ids.ROC_GRAPH, "gd.data.map(t => t.name)") or []  # noqa: E731
    for m in expected.models:
        assert f"{m.name} (AUC {m.auc:.3f} pooled)" in names()
    radio = next(e for e in dash_duo.find_elements(f"#{ids.AVERAGING} label")
                 if e.text.strip() == "vertical")
    radio.click()
    wait_until(lambda: any("fold mean" in (n or "") for n in names()), message="fold means")
    wait_idle(dash_duo)
    for m in expected.models:
        cv = m.cross_validation
        assert f"{m.name} (AUC fold mean {cv.auc_mean:.3f} ± {cv.auc_sd:.3f})" in names()
    title = js_graph(dash_duo.driver, ids.ROC_GRAPH, "gd.layout.title.text")
    assert "hull and ★ optimum from pooled predictions" in title
    scroll_into_view(dash_duo.driver, dash_duo.find_element(f"#{ids.ROC_GRAPH}"), block="start")
    _save(dash_duo, "roc_vertical")
