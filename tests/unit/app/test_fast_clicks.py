"""A stepper click drawn in the browser at once (roc_dash/app/fast_clicks.py), as the page
sends it through the Flask test client: the patches the server sends ahead (the fast-next
store, after the views), applied as the browser applies them, give the ROC and cost views a
full redraw for the new conditions gives; the click's answer then leaves those two views
alone (each view is drawn once), and sends them as before when the browser did not draw
them."""

import pytest

from roc_dash.app import create_app, ids

from .test_cost_change import CLICKS, VIEWS, Page, apply, first_load, is_patch, without_revision

DRAWN = ("roc-graph.figure", "cost-graph.figure")


def _next(page):
    """The fast-next store, as its callback makes it after the views drawn."""
    return page.call(f"{ids.FAST_NEXT}.data", ["viz-data.data"]).get(ids.FAST_NEXT, {}).get(
        "data")


def _fast(page) -> dict:
    fast = _next(page)
    assert isinstance(fast, dict), fast
    # what the browser checks before it draws: made for the views and conditions shown
    assert fast["key"] == page.values["viz-data.data"]["key"]
    assert fast["state"] == page.values["conditions.data"]
    return fast


def _click(page, which, n, *, drawn: bool):
    """A click on ``which`` (its ``n``-th): the browser's store as ``fastClick`` writes it
    (the state it drew, or none), and the views callback's answer; the browser's drawing
    (``fastDraw``) applied to what the page shows when it drew."""
    nxt = _fast(page)["next"][which]
    store = {"button": which, "clicks": n, "state": nxt["state"] if drawn else None,
             "regions": nxt["regions"]}
    if drawn:
        for key, view in zip(DRAWN, ("roc", "cost"), strict=True):
            assert is_patch(nxt[view])
            page.shown[key] = apply(page.shown[key], nxt[view])
    response = page.call(VIEWS, [f"{which}.n_clicks", f"{ids.FAST_CLICK}.data"],
                         **{f"{which}.n_clicks": n, f"{ids.FAST_CLICK}.data": store})
    page.keep(response)
    return response


@pytest.mark.parametrize("settings", [{}, {"det.value": ["det"]}], ids=["roc", "det"])
def test_fcl003_the_patches_sent_ahead_give_a_full_redraw_and_the_answer_leaves_them(
        tmp_path, settings):
    page = Page(create_app(data_dir=tmp_path), **settings)
    first_load(page)
    for n, which in enumerate(CLICKS, start=1):
        response = _click(page, which, n, drawn=True)
        for key in DRAWN:  # left alone: the browser drew them
            cid, prop = key.split(".")
            assert prop not in response.get(cid, {}), (which, key)
        assert "viz-data" in response and "threshold-graph" in response
        full = page.full_views()
        for key in DRAWN:
            cid, prop = key.split(".")
            assert (without_revision(page.shown[key])
                    == without_revision(full[cid][prop])), (which, key)


def test_fcl004_a_click_the_browser_did_not_draw_is_drawn_by_the_answer(tmp_path):
    page = Page(create_app(data_dir=tmp_path))
    first_load(page)
    response = _click(page, ids.COST_FP_UP, 1, drawn=False)
    assert is_patch(response["roc-graph"]["figure"])
    assert is_patch(response["cost-graph"]["figure"])
    # a store of an earlier click (another count) does not stand for this one
    nxt = _fast(page)["next"][ids.PRIOR_UP]
    stale = {"button": ids.PRIOR_UP, "clicks": 7, "state": nxt["state"], "regions": None}
    response = page.call(VIEWS, [f"{ids.PRIOR_UP}.n_clicks", f"{ids.FAST_CLICK}.data"],
                         **{f"{ids.PRIOR_UP}.n_clicks": 1, f"{ids.FAST_CLICK}.data": stale})
    assert is_patch(response["roc-graph"]["figure"])


def test_fcl005_no_click_is_drawn_ahead_with_pins_or_the_decision_curve(tmp_path):
    pin = [{"dataset": "demo", "model": "naive Bayes", "threshold": 0.5, "label": "A"}]
    for settings in ({"pinned.data": pin}, {"cost-mode.value": "decision"}):
        page = Page(create_app(data_dir=tmp_path), **settings)
        first_load(page)
        assert isinstance(page.values["viz-data.data"], dict)
        assert _next(page) is None, settings
    page = Page(create_app(data_dir=tmp_path))
    first_load(page)
    assert set(_fast(page)["next"]) == set(CLICKS)  # the six steppers
