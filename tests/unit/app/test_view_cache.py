"""The views drawn once per worker for the same inputs (roc_dash.app.view_cache).

Twenty first visits at once asked the views callback twenty times for the same drawing; it
is now drawn once and given again. What is given again must be exactly what a drawing made
afresh gives (the reference: the same call with an empty memory cache), except for the ROC
view's edit revision, which must be new in every answer.
"""

from __future__ import annotations

import json

import pytest
from dash._utils import to_json

from roc_dash.app import render, view_cache
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features.data import apply_upload
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState
from tests.conftest import make_predictions


def sent(value):
    return json.loads(to_json(value))


def without_revision(figure: dict) -> dict:
    return {**figure, "layout": {k: v for k, v in figure["layout"].items()
                                 if k != "editrevision"}}


@pytest.fixture
def page(tmp_path, monkeypatch):
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    csv = make_predictions(300, seed=5, model="mine").to_csv(index=False).encode()
    ids_ = apply_upload(store, [("mine.csv", csv)], [DEMO_ID]).dataset_ids
    calls = []
    draw = render.render_views

    def counted(*args, **kwargs):
        calls.append(1)
        return draw(*args, **kwargs)

    monkeypatch.setattr(render, "render_views", counted)

    def views(dataset_ids=ids_, state=None, **kw):
        state = state or ControlState(prior=0.3).to_store()
        settings = {"averaging": "pooled", "pinned": [], "zoom": None, **kw}
        page = PageState.from_dash({"datasets": list(dataset_ids), "conditions": state,
                                    "averaging": settings["averaging"],
                                    "pins": settings["pinned"]})
        named = render.update_views(cache, page, {"threshold_axis": "threshold"}, None,
                                    settings["zoom"])
        return tuple(named.get(k) for k in render.RENDERED)

    return store, cache, ids_, calls, views


def test_vkc001_the_same_request_is_drawn_once_and_sent_as_drawn(page):
    store, cache, ids_, calls, views = page
    first, second, third = views(), views(), views()
    assert len(calls) == 1  # drawn once, given twice
    cache.cache.memory = type(cache.cache.memory)(64 * 2**20)  # an empty cache: the reference
    fresh = views()
    assert len(calls) == 2
    for k, reference in enumerate(fresh):
        got = [sent(out[k]) for out in (first, second, third)]
        if k == 0:  # the ROC view: the same, with a new edit revision in every answer
            revisions = {g["layout"]["editrevision"] for g in got}
            assert len(revisions) == 3
            assert all(without_revision(g) == without_revision(sent(reference)) for g in got)
        elif k == 4:  # the viz-data store: the same apart from the figures' revisions
            assert all(g.keys() == sent(reference).keys() for g in got)
        else:
            assert all(g == sent(reference) for g in got), k


def test_vkc002_any_other_setting_is_drawn_anew(page):
    _, _, ids_, calls, views = page
    views()
    views(averaging="vertical")
    views(state=ControlState(prior=0.3, cost_fn=4.0).to_store())
    (upload,) = [i for i in ids_ if i != DEMO_ID]
    views(pinned=[{"dataset": upload, "model": "mine", "threshold": 0.5}])
    views(zoom={"roc": {"x": [0, 0.5], "y": [0.5, 1]}})
    assert len(calls) == 5
    views(averaging="vertical")  # as before: given again
    assert len(calls) == 5


def test_vkc003_a_deleted_dataset_is_never_drawn_again(page):
    store, cache, ids_, calls, views = page
    before = views()
    assert "mine" in json.dumps(sent(before[0]))
    (upload,) = [i for i in ids_ if i != DEMO_ID]
    store.delete(upload)
    after = views()
    assert len(calls) == 2
    assert "mine" not in json.dumps(sent(after[0]))


def test_vkc004_a_drawing_without_views_data_or_too_big_is_not_kept(page, monkeypatch):
    _, _, _, calls, views = page
    monkeypatch.setattr(view_cache, "MAX_KEPT_BYTES", 1)
    views(), views()
    assert len(calls) == 2
    monkeypatch.undo()
    monkeypatch.setattr(render, "render_views",
                        lambda *a, **k: (calls.append(1) or (None,) * len(render.RENDERED)))
    views(), views()  # the analysis took too long (no views data): tried again each time
    assert len(calls) == 4


def test_vkc005_estimated_size_follows_what_is_sent(page):
    _, _, _, _, views = page
    out = views()
    size = view_cache.drawing_bytes(out)
    sent_bytes = sum(len(to_json(v)) for v in out)
    assert sent_bytes / 4 < size < sent_bytes * 6, (size, sent_bytes)


def test_vkc006_a_revised_figure_sends_the_figure_with_its_own_revision(page):
    _, _, _, _, views = page
    roc = views()[0]
    revised = view_cache.RevisedFigure(roc, "7-abc")
    assert sent(revised)["layout"]["editrevision"] == "7-abc"
    assert without_revision(sent(revised)) == without_revision(sent(roc))
    assert revised.layout == roc.layout and revised.data == roc.data
    assert sent(roc)["layout"]["editrevision"] != "7-abc"  # the kept figure is unchanged


def test_vkc007_a_drawing_given_again_is_a_use_of_its_datasets(page, monkeypatch):
    """Retention follows use: a dataset viewed every few seconds from kept drawings must
    not expire (hst021 against the real gunicorn found it did)."""
    store, _, ids_, calls, views = page
    views()
    used = []
    monkeypatch.setattr(store, "used", lambda ids: used.append(tuple(ids)))
    views(), views()
    assert len(calls) == 1  # both from the kept drawing
    assert used and all(set(u) == set(ids_) for u in used) and len(used) >= 2


def test_vkc008_the_kept_drawing_reads_the_viz_data_where_render_puts_it():
    """view_cache cannot import render (render imports it): its index of the viz-data store
    in a drawing is render's."""
    assert view_cache.VIZ == render.VIZ == render.RENDERED.index("viz")
