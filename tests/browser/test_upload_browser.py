"""The app in a real headless Chromium: demo curves, upload, bad upload."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from roc_dash.app import ids
from roc_dash.text.rounding import sig

from ..conftest import make_predictions
from .gestures import open_tab, wait_idle, wait_until


def legend(dash_duo) -> list[str]:
    """The ROC legend's texts, read in one go (the legend may be redrawn at any moment)."""
    return dash_duo.driver.execute_script(
        f"return [...document.querySelectorAll('#{ids.ROC_GRAPH} .legendtext')].map(e => e.textContent);")


def wait_for_legend(dash_duo, predicate):
    return wait_until(lambda: (lambda names: names if predicate(names) else None)(
        legend(dash_duo)), message="the legend")


def _tpr_at(app, model, fpr):
    from roc_dash.app.server.store import DEMO_ID
    from roc_dash.core.roc.curves import roc_curve

    table = app.store.get(DEMO_ID)
    rows = table[table["model"] == model]
    curve = roc_curve(rows["label"].to_numpy(), rows["score"].to_numpy())
    return float(curve.tpr[curve.fpr <= fpr].max())


def hover_at(dash_duo, x, y):
    """Move the mouse to data coordinates (x, y) of the ROC plot; return the hover label."""
    area = dash_duo.find_element(f"#{ids.ROC_GRAPH} .nsewdrag")
    layout = dash_duo.driver.execute_script(
        f"const g = document.querySelector('#{ids.ROC_GRAPH} .js-plotly-plot');"
        "return [g._fullLayout.xaxis.range, g._fullLayout.yaxis.range];")
    (x0, x1), (y0, y1) = layout
    w, h = area.size["width"], area.size["height"]
    px = (x - x0) / (x1 - x0) * w  # selenium 4.2: offsets from the top-left corner
    py = (1 - (y - y0) / (y1 - y0)) * h
    ActionChains(dash_duo.driver).move_to_element_with_offset(area, px, py).perform()
    dash_duo.wait_for_element(f"#{ids.ROC_GRAPH} .hoverlayer .hovertext")
    return dash_duo.find_element(f"#{ids.ROC_GRAPH} .hoverlayer").text


def upload(dash_duo, *paths):
    field = dash_duo.driver.find_element(By.CSS_SELECTOR, f"#{ids.UPLOAD} input[type=file]")
    field.send_keys("\n".join(str(p) for p in paths))


def test_brw001_starts_with_demo_curves(dash_duo, app, shot):
    dash_duo.driver.set_window_size(1400, 950)
    dash_duo.start_server(app)
    names = wait_for_legend(dash_duo, lambda n: sum("(AUC" in x for x in n) >= 4)
    demo = [n for n in names if "(AUC" in n and not n.startswith("chance")]
    assert {n.split(" (AUC")[0] for n in demo} == {
        "logistic regression", "naive Bayes", "decision tree", "gradient boosting"}
    open_tab(dash_duo, "compare")
    dash_duo.wait_for_contains_text(f"#{ids.MODEL_TABLE}", "logistic regression")
    open_tab(dash_duo, "decide")
    dash_duo.wait_for_contains_text(f"#{ids.DATASET_LIST}", "Demo")
    shot("brw001_demo")
    # hovering a vertex of a curve shows its threshold
    hover_text = hover_at(dash_duo, 0.2, _tpr_at(app, "logistic regression", 0.2))
    assert "threshold ≥" in hover_text
    assert dash_duo.get_logs() == []


def test_brw002_upload_adds_curve_then_bad_upload_keeps_it(dash_duo, app, tmp_path, shot):
    dash_duo.driver.set_window_size(1400, 950)
    good = tmp_path / "my model.csv"
    frame = make_predictions(400, seed=7, separation=2.5)
    frame.to_csv(good, index=False)
    bad = tmp_path / "broken.csv"
    bad.write_text("label,score\n1,0.9\n0,oops\n1,0.4\n")

    dash_duo.start_server(app)
    wait_for_legend(dash_duo, lambda n: sum("(AUC" in x for x in n) >= 4)

    upload(dash_duo, good)
    names = wait_for_legend(dash_duo, lambda n: any(x.startswith("my model (AUC") for x in n)
                            and "optimal operating point" in n)
    from sklearn.metrics import roc_auc_score

    expected = f"my model (AUC {sig(roc_auc_score(frame['label'], frame['score']))})"
    assert expected in names
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "my model.csv")
    shot("brw002_uploaded")

    upload(dash_duo, bad)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_ERROR}", "broken.csv")
    error = dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text
    assert "score" in error and "oops" in error
    wait_idle(dash_duo)
    after = legend(dash_duo)
    assert after == names  # every earlier curve is still there, nothing added
    assert "broken" not in " ".join(after)
    shot("brw002_bad_upload")
