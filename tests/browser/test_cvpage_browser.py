"""Cross-validation and the k-model comparison on the page (issue 17, items 1 and 3), driven
by real clicks in headless Chromium on the demo (4 models × 10 folds): the model table's
cross-validated AUC and per-fold AUC/AP, the Model comparison matrix checked cell by cell
against the core's PairwiseComparison, the p-value selector, and the never-optimal model."""


import numpy as np
import pytest
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from roc_dash.app.server.store import load_demo
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.inference.model_comparison import NEVER_OPTIMAL
from roc_dash.report.comparison_text import p_text
from roc_dash.text.rounding import sig, signed

from .gestures import js_graph, open_tab, scroll_into_view, wait_idle, wait_until
from .shots import SHOTS
from .test_trust_browser import start, value


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
            assert diff == f"{signed(comparison.difference[i, j])}", (i, j, text)
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
            assert text.startswith("optimal for c(FN)/c(FP)")
            shown = float(text.rsplit("at prior p(+) = ", 1)[1])
            assert shown == pytest.approx(prior, abs=1e-4)  # the box shows 4 digits
    card = dash_duo.find_element(".comparison-card")
    scroll_into_view(dash_duo.driver, card, block="start")
    _save(dash_duo, "comparison")

    # the model table: CV AUC per model; a click opens one model's folds
    table = dash_duo.find_element(f"#{ids.MODEL_TABLE}")
    assert "AUC pooled" in table.text and "CV AUC: fold mean ± SD" in table.text
    m = expected.models[0]
    cv = m.cross_validation
    summary = table.find_element(By.CSS_SELECTOR, "td.cv-auc summary")
    assert summary.text.startswith(f"{sig(cv.auc_mean)} ± {sig(cv.auc_sd)} [95% CI "
                                   f"{sig(cv.ci_low)}–{sig(cv.ci_high)}]")
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
        assert f"{m.name} (AUC {sig(m.auc)} pooled)" in names()
    radio = next(e for e in dash_duo.find_elements(f"#{ids.AVERAGING} label")
                 if e.text.strip() == "vertical")
    radio.click()
    wait_until(lambda: any("fold mean" in (n or "") for n in names()), message="fold means")
    wait_idle(dash_duo)
    for m in expected.models:
        cv = m.cross_validation
        assert f"{m.name} (AUC fold mean {sig(cv.auc_mean)} ± {sig(cv.auc_sd)})" in names()
    title = js_graph(dash_duo.driver, ids.ROC_GRAPH, "gd.layout.title.text")
    assert "hull and ★ optimum from pooled predictions" in title
    scroll_into_view(dash_duo.driver, dash_duo.find_element(f"#{ids.ROC_GRAPH}"), block="start")
    _save(dash_duo, "roc_vertical")


def _eight_models(path):
    """Eight models scored on the same 300 rows (seeded): seven of rising skill with long and
    short names, and one that guesses (dominated: never on the joint hull)."""
    import pandas as pd

    rng = np.random.default_rng(17)
    n = 300
    y = rng.random(n) < 0.35
    names = ["a", "logistic regression (L2, C=1)", "naive Bayes", "tree", "forest of 500",
             "gradient boosting", "k-nearest neighbours", "coin"]
    frames = []
    for k, name in enumerate(names):
        # binormal scores with unequal spreads: the curves cross, so several models share
        # the hull; the coin has no skill
        skill = 0.0 if name == "coin" else 1.2 + 0.1 * k
        spread = np.where(y, 0.4 + 0.3 * k, 1.0)
        score = 1 / (1 + np.exp(-(skill * y + spread * rng.normal(size=n))))
        frames.append(pd.DataFrame({"id": np.arange(n), "label": y.astype(int),
                                    "model": name, "score": score.round(6)}))
    table = pd.concat(frames, ignore_index=True)
    table.to_csv(path, index=False)
    return names


def test_cvp103_eight_uploaded_models_and_a_dominated_one(dash_duo, app, tmp_path):
    """An upload of eight paired models: the matrix holds all of them, readable at 1280 px,
    its cells are the core's, and the guessing model is said to be never optimal."""
    from roc_dash.io.loading import load_predictions

    from .test_upload_browser import upload

    path = tmp_path / "eight models.csv"
    names = _eight_models(path)
    start(dash_duo, app, size=(1280, 1000))
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "eight models.csv")
    wait_until(lambda: any((n or "").startswith("coin (AUC") for n in js_graph(
        dash_duo.driver, ids.ROC_GRAPH, "gd.data.map(t => t.name)") or []),
        message="the uploaded models drawn")
    wait_idle(dash_duo)
    open_tab(dash_duo, "compare")
    wait_until(lambda: len(_cells(dash_duo)) == 8, message="eight rows in the matrix")
    wait_idle(dash_duo)
    prior = float(value(dash_duo, ids.PRIOR))
    table = load_predictions([path]).table
    expected = analyse(table, Conditions(prior_pos=prior))
    assert sorted(expected.model_comparison.models) == sorted(names)
    # the page's order may differ from the file's: compare by name
    cells = _cells(dash_duo)
    order = [next(n for n in names if r[0].endswith(n) and r[0][:-len(n)].strip().isdigit())
             for r in cells]
    c = expected.model_comparison
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if a == b:
                continue
            ia, ib = c.models.index(a), c.models.index(b)
            diff, p = cells[i][j + 1].split("\n")
            assert diff == f"{signed(c.difference[ia, ib])}" and p == f"p {p_text(c.p_holm[ia, ib])}"
    never = {r.model for r in expected.optimal_ranges.ranges if r.never_optimal}
    assert "coin" in never
    items = [li.text for li in dash_duo.driver.find_elements(
        By.CSS_SELECTOR, f"#{ids.COMPARISON_RESULT} ul.optimal-ranges li")]
    assert f"coin: {NEVER_OPTIMAL}" in items
    # readable: the matrix fits the card without a horizontal scroll at 1280 px
    card = dash_duo.find_element(".comparison-card")
    assert dash_duo.driver.execute_script(
        "const s = arguments[0].querySelector('.table-scroll');"
        "return s.scrollWidth <= s.clientWidth + 1;", card)
    scroll_into_view(dash_duo.driver, card, block="start")
    _save(dash_duo, "comparison_eight")
