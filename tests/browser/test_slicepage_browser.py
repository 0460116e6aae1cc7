"""Slices chosen in the page (issue 18), in a real headless Chromium: upload loans whose
slice columns are not named group, choose a column and a second to cross with real clicks,
choose a constraint, read the total (the core's on pandas' crossed groups), then open the
page's own link afresh and find the same slice, constraint and total restored."""


import pytest

from roc_dash.app import ids
from roc_dash.core.subgroups.group_thresholds import follow_constraint, group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from tests.rings import ring_centre
from tools.slices_example import loan_predictions_wide

from .gestures import (
    drag,
    js_graph,
    scroll_into_view,
    to_screen,
    type_into,
    wait_idle,
    wait_until,
)
from .shots import SHOTS
from .test_slices_browser import upload_loans


def _core_cost(frame, model, columns, constraint) -> float:
    rows = frame[frame["model"] == model]
    groups = rows[columns[0]].astype(str)
    for column in columns[1:]:
        groups = groups + " × " + rows[column].astype(str)
    analysis = slice_analysis(rows["label"].to_numpy(bool), rows["score"].to_numpy(float),
                              groups.to_numpy(), cost_fp=1.0, cost_fn=1.0,
                              prior_pos=float(frame["label"].mean()))
    return group_thresholds(analysis).solution(constraint).expected_cost


def _total(dash_duo) -> float | None:
    text = dash_duo.find_element(f"#{ids.SLC_TOTAL}").text
    return float(text.rsplit(":", 1)[1]) if ":" in text else None


def _pick(dash_duo, dropdown_id, label):
    """Open a dropdown with a real click and click the option shown as ``label``."""
    dropdown = dash_duo.find_element(f"#{dropdown_id}")
    scroll_into_view(dash_duo.driver, dropdown)
    dropdown.click()
    option = wait_until(lambda: next((e for e in dash_duo.driver.find_elements(
        "css selector", ".dash-dropdown-option") if e.text == label), None),
        message=f"the option {label}")
    option.click()
    wait_until(lambda: label in dash_duo.find_element(f"#{dropdown_id}").text,
               message=f"{label} chosen")


def test_scb001_choose_columns_and_reopen_the_link(dash_duo, app, tmp_path):
    frame = loan_predictions_wide()
    upload_loans(dash_duo, app, tmp_path, frame, height=1500)
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Choose a column")

    _pick(dash_duo, ids.SLC_COLUMN, "income (numbers: bin first)")  # refused, with advice
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Bin it into a text column")
    _pick(dash_duo, ids.SLC_COLUMN, "region")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "region (4 groups)")
    _pick(dash_duo, ids.SLC_CROSS, "applicant")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "region × applicant (8 groups)")
    radio = dash_duo.find_element(f"#{ids.SLC_CONSTRAINT} input[value='equal_opportunity']")
    scroll_into_view(dash_duo.driver, radio)
    radio.click()
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    wait_idle(dash_duo)
    model = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    expected = _core_cost(frame, model, ["region", "applicant"], "equal_opportunity")
    assert wait_until(lambda: _total(dash_duo), message="the total") == pytest.approx(
        expected, rel=1e-5)
    card = dash_duo.find_element(f"#{ids.SLC_CARD}")
    scroll_into_view(dash_duo.driver, card, block="start")
    SHOTS.mkdir(parents=True, exist_ok=True)
    dash_duo.driver.save_screenshot(str(SHOTS / "slicepage.png"))

    search = wait_until(lambda: (lambda s: s if "sct=" in s else None)(
        dash_duo.driver.execute_script("return location.search")), message="the link")
    assert "slc=region" in search and "slx=applicant" in search
    assert "sct=equal_opportunity" in search and "tab=compare" in search
    name_box = dash_duo.find_element(f"#{ids.VIEW_NAME}")  # a saved view keeps it too
    scroll_into_view(dash_duo.driver, name_box)
    type_into(name_box, "by region and applicant")
    wait_until(lambda: _view_button(dash_duo), message="the saved view listed")

    dash_duo.driver.get(dash_duo.server_url + "/" + search)  # the link, opened afresh
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "region × applicant (8 groups)")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    wait_idle(dash_duo)
    checked = dash_duo.find_element(f"#{ids.SLC_CONSTRAINT} input[value='equal_opportunity']")
    assert checked.is_selected()
    model = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    assert wait_until(lambda: _total(dash_duo), message="the total") == pytest.approx(
        _core_cost(frame, model, ["region", "applicant"], "equal_opportunity"), rel=1e-5)

    other = dash_duo.find_element(f"#{ids.SLC_CONSTRAINT} input[value='single_threshold']")
    scroll_into_view(dash_duo.driver, other)
    other.click()
    _pick(dash_duo, ids.SLC_COLUMN, "product")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "product × applicant")
    button = _view_button(dash_duo)  # open the saved view: slice and constraint come back
    scroll_into_view(dash_duo.driver, button)
    button.click()
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "region × applicant (8 groups)")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    assert dash_duo.get_logs() == []


def _view_button(dash_duo):
    return next((b for b in dash_duo.driver.find_elements("css selector", "li.view .link-button")
                 if b.text == "by region and applicant"), None)


def _rings(dash_duo):
    """{group: (fpr, tpr)}: the centres of the figure's drag rings, in drawing order (the
    last on top)."""
    shapes = js_graph(dash_duo.driver, ids.SLC_GRAPH, "gd.layout.shapes || []") or []
    return {s["name"]: ring_centre(s) for s in shapes}



def four_rings(dash_duo, app, tmp_path) -> dict:
    """The loans sliced by region under equal opportunity: its four rings' centres
    (:func:`_rings`), once drawn."""
    upload_loans(dash_duo, app, tmp_path, loan_predictions_wide(), height=1200)
    _pick(dash_duo, ids.SLC_COLUMN, "region")
    radio = dash_duo.find_element(f"#{ids.SLC_CONSTRAINT} input[value='equal_opportunity']")
    scroll_into_view(dash_duo.driver, radio)
    radio.click()
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    wait_idle(dash_duo)
    return wait_until(lambda: (lambda r: r if len(r) == 4 else None)(_rings(dash_duo)),
                      message="four rings")


def test_scb002_drag_a_groups_ring_and_the_others_follow(dash_duo, app, tmp_path):
    frame = loan_predictions_wide()  # the rows four_rings uploads (made the same each time)
    before = four_rings(dash_duo, app, tmp_path)
    group = list(before)[-1]  # the ring on top: the one a person grabs where rings overlap
    start = before[group]
    driver = dash_duo.driver
    end = (0.45, min(0.97, start[1] + 0.35))  # up and right, off the hull: projected back
    drag(driver, to_screen(driver, ids.SLC_GRAPH, *start),
         to_screen(driver, ids.SLC_GRAPH, *end))
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SUMMARY}", f"{group} moved by hand")
    wait_idle(dash_duo)
    after = _rings(dash_duo)
    assert after[group][1] > start[1] + 0.1  # it went up its hull
    tprs = [p[1] for p in after.values()]
    assert max(tprs) - min(tprs) < 1e-9  # equal opportunity: every group followed
    model = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    rows = frame[frame["model"] == model]
    analysis = slice_analysis(rows["label"].to_numpy(bool), rows["score"].to_numpy(float),
                              rows["region"].to_numpy(), cost_fp=1.0, cost_fn=1.0,
                              prior_pos=float(frame["label"].mean()))
    expected = follow_constraint(analysis, "equal_opportunity", group, *after[group])
    assert wait_until(lambda: _total(dash_duo), message="the total") == pytest.approx(
        expected.expected_cost, rel=1e-5)
    card = dash_duo.find_element(f"#{ids.SLC_CARD}")
    scroll_into_view(dash_duo.driver, card, block="start")
    dash_duo.driver.save_screenshot(str(SHOTS / "slicepage_drag.png"))

    box = dash_duo.find_element(f"#{ids.SLC_PRIORS}")  # a prior for one group, typed
    scroll_into_view(driver, box)
    type_into(box, "west=0.5, east=2")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SUMMARY}", "Prior per group: west 0.5")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SUMMARY}", "Not used: 'east=2'")
    wait_idle(dash_duo)
    with_prior = slice_analysis(rows["label"].to_numpy(bool), rows["score"].to_numpy(float),
                                rows["region"].to_numpy(), cost_fp=1.0, cost_fn=1.0,
                                prior_pos=float(frame["label"].mean()),
                                group_priors={"west": 0.5})
    assert wait_until(lambda: _total(dash_duo), message="the total") == pytest.approx(
        group_thresholds(with_prior).solution("equal_opportunity").expected_cost, rel=1e-5)
    search = wait_until(lambda: (lambda s: s if "sgp=" in s else None)(
        driver.execute_script("return location.search")), message="the priors in the link")
    assert "slc=region" in search  # the first column offered, but not a default one
    driver.get(dash_duo.server_url + "/" + search)  # the link: the well-formed part back
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "region (4 groups)")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SUMMARY}", "Prior per group: west 0.5")
    assert dash_duo.find_element(f"#{ids.SLC_PRIORS}").get_attribute("value") == "west=0.5"
    wait_idle(dash_duo)
    assert dash_duo.get_logs() == []
