"""The Slices card in a real headless Chromium (issue 18): upload loans with a group column,
open the Compare tab, choose a constraint with a real click and read the total cost, which
must be the core's on the same rows under the page's conditions (costs 1:1, the data's
prevalence as the prior)."""


import pytest

from roc_dash.app import ids
from roc_dash.core.subgroups.group_thresholds import group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.text.rounding import sig
from tools.slices_example import loan_predictions

from .gestures import open_tab, scroll_into_view, wait_idle, wait_until
from .shots import SHOTS
from .test_upload_browser import upload


def _core_cost(frame, model, constraint) -> float:
    rows = frame[frame["model"] == model]
    analysis = slice_analysis(rows["label"].to_numpy(bool), rows["score"].to_numpy(float),
                              rows["group"].to_numpy(), cost_fp=1.0, cost_fn=1.0,
                              prior_pos=float(frame["label"].mean()))
    return group_thresholds(analysis).solution(constraint).expected_cost


def _total(dash_duo) -> tuple[str, float] | None:
    text = dash_duo.find_element(f"#{ids.SLC_TOTAL}").text
    if ":" not in text:
        return None
    return text, float(text.rsplit(":", 1)[1])


def _choose(dash_duo, constraint):
    """A real click on the constraint's radio button."""
    radio = dash_duo.find_element(f"#{ids.SLC_CONSTRAINT} input[value='{constraint}']")
    scroll_into_view(dash_duo.driver, radio)
    radio.click()


def upload_loans(dash_duo, app, tmp_path, frame, *, height, name="loans.csv"):
    """Start the app at 1280 x ``height``, upload ``frame`` as ``name`` and open the
    Compare tab (the Slices card's browser tests all begin so)."""
    dash_duo.driver.set_window_size(1280, height)
    path = tmp_path / name
    frame.to_csv(path, index=False)
    dash_duo.start_server(app)
    dash_duo.wait_for_contains_text(f"#{ids.DATASET_LIST}", "Demo")
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", name)
    open_tab(dash_duo, "compare")


@pytest.mark.parametrize("constraint", ["equalized_odds", "single_threshold"])
def test_slb001_constraint_click_shows_the_cores_total_cost(dash_duo, app, tmp_path,
                                                            constraint):
    frame = loan_predictions()
    # tall enough for the whole card
    upload_loans(dash_duo, app, tmp_path, frame, height=1500, name="loans by region.csv")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "4 groups")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "each group its own optimum")
    _choose(dash_duo, constraint)
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "under " + {
        "equalized_odds": "equalized odds", "single_threshold": "one threshold"}[constraint])
    wait_idle(dash_duo)
    text, shown = wait_until(lambda: _total(dash_duo), message="the total cost")
    model = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    assert model in set(frame["model"])
    assert shown == pytest.approx(_core_cost(frame, model, constraint), rel=1e-5), text
    summary = dash_duo.find_element(f"#{ids.SLC_SUMMARY}").text
    assert "What fairness costs here" in summary
    if constraint == "equalized_odds":
        assert "Randomised: the score is ignored" in summary
    markers = dash_duo.driver.execute_script(
        f"return document.querySelectorAll('#{ids.SLC_GRAPH} .scatterlayer .point').length;")
    assert markers >= 8  # four optima and four operating points
    card = dash_duo.find_element(f"#{ids.SLC_CARD}")
    scroll_into_view(dash_duo.driver, card, block="start")
    SHOTS.mkdir(parents=True, exist_ok=True)
    dash_duo.driver.save_screenshot(str(SHOTS / f"slicepage_{constraint}.png"))
    card.screenshot(str(SHOTS / f"slicepage_card_{constraint}.png"))  # the README's
    scroll_into_view(dash_duo.driver, dash_duo.find_element(f"#{ids.SLC_TABLE}"))
    dash_duo.driver.save_screenshot(str(SHOTS / f"slicepage_{constraint}_table.png"))
    assert dash_duo.get_logs() == []


def test_slb002_choosing_another_model_redraws_its_groups(dash_duo, app, tmp_path):
    frame = loan_predictions()
    upload_loans(dash_duo, app, tmp_path, frame, height=1000)
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "4 groups")
    _choose(dash_duo, "demographic_parity")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "demographic parity")
    first = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    other = next(m for m in frame["model"].unique() if m != first)
    dropdown = dash_duo.find_element(f"#{ids.SLC_MODEL}")
    scroll_into_view(dash_duo.driver, dropdown)
    dropdown.click()
    option = wait_until(lambda: next((e for e in dash_duo.driver.find_elements(
        "css selector", ".dash-dropdown-option") if e.text == other), None),
        message="the other model's option")
    option.click()
    wait_until(lambda: dash_duo.find_element(f"#{ids.SLC_MODEL}").text == other,
               message="the other model chosen")
    wait_until(lambda: other in dash_duo.driver.execute_script(
        f"return document.querySelector('#{ids.SLC_GRAPH} .gtitle').textContent;"),
        message="the figure redrawn for the other model")
    wait_idle(dash_duo)
    _, shown = wait_until(lambda: _total(dash_duo), message="the total cost")
    assert shown == pytest.approx(_core_cost(frame, other, "demographic_parity"), rel=1e-5)
    assert dash_duo.get_logs() == []


def test_slb003_a_group_of_one_class_is_said_left_out_with_the_prior(dash_duo, app, tmp_path):
    """West's applications all repaid (no defaulter): the card says West is left out, why,
    and the prior its optima use (the page's: the data's prevalence, every group's)."""
    frame = loan_predictions()
    frame.loc[frame["group"] == "west", "label"] = 0
    upload_loans(dash_duo, app, tmp_path, frame, height=1500, name="loans west repaid.csv")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "4 groups")
    model = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    west = int((frame[frame["model"] == model]["group"] == "west").sum())
    dash_duo.wait_for_contains_text(
        f"#{ids.SLC_SUMMARY}", f"Left out: west ({west:,} rows, negatives only)")
    summary = dash_duo.find_element(f"#{ids.SLC_SUMMARY}").text
    assert "no ROC curve" in summary
    assert f"Prior p(+) used: {sig(frame['label'].mean())}, the page's prior." in summary
    assert "left out: negatives only" in dash_duo.find_element(f"#{ids.SLC_TABLE}").text
    card = dash_duo.find_element(f"#{ids.SLC_CARD}")
    scroll_into_view(dash_duo.driver, card, block="start")
    SHOTS.mkdir(parents=True, exist_ok=True)
    card.screenshot(str(SHOTS / "slicepage_left_out.png"))
    assert dash_duo.get_logs() == []
