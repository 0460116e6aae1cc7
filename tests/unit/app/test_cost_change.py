"""A change of costs or prior, as the page sends it: what the server sends back.

Through the Flask test client of ``create_app`` on the demo data, with the callback bodies
``bench/load_test.py`` builds from the app's callback map: a first load (the views callback's first
call: the link's conditions and the views), then clicks on the cost and prior steppers. The
response to a click carries the views for the new conditions; the threshold view in it must
be a patch (a few lines, not the whole figure), the Compare tab's model table must not be
in it (that table follows when its tab shows), and each patch,
applied to what the page shows, must give exactly what a full redraw for the new conditions
gives (the views callback asked to draw everything anew: the reference).
"""

import copy
import json

import pytest

from roc_dash.app import create_app, ids

DEMO_MODELS = ["demo/logistic regression", "demo/naive Bayes", "demo/decision tree",
               "demo/gradient boosting"]  # the models' keys: dataset id and name
#: The views callback (it reads the gesture, writes the conditions and the views), by its
#: first output.
VIEWS = "cost-fp-slider.value"
PATCHED = ("threshold-graph.figure",)
#: Every output a cost change sends (patches or, for the PR view after a prior change, new
#: figures), compared with a full redraw.
SENT = (*PATCHED, "roc-graph.figure", "pr-graph.figure", "cost-graph.figure",
        "operating-panel.children", "decision-summary.children", "slope-text.children")


class Page:
    """The page's values, and the callback requests it sends."""

    def __init__(self, app, **settings):
        self.client = app.server.test_client()
        self.specs = {}
        for key, cb in app.callback_map.items():
            outs = key.strip(".").split("...") if key.startswith("..") else [key]
            outputs = [{"id": o.rsplit(".", 1)[0], "property": o.rsplit(".", 1)[1]}
                       for o in outs]
            self.specs[key] = {"output": key, "outputs": outputs if key.startswith("..")
                               else outputs[0], "inputs": cb["inputs"], "state": cb["state"]}
        self.values = {
            "datasets.data": ["demo"], "models.value": DEMO_MODELS, "conditions.data": None,
            "averaging.value": "pooled", "level.value": 0.95, "band.value": "pointwise",
            "samples-ok.data": 51, "det.value": [], "presentation.value": [],
            "pinned.data": [], "roc-ties.value": [], "pr-mode.value": "pr", "zoom.data": None,
            "threshold-model.value": None, "threshold-axis.value": "threshold",
            "combine.data": None, "viz-data.data": None, "url.search": "",
            **settings}
        self.shown: dict = {}  # what the page shows of the patched outputs

    def call(self, first_output, changed, **extra):
        spec = next(s for k, s in self.specs.items() if first_output in k.split("...")[0])
        values = {**self.values, **extra}

        def filled(items):
            return [dict(i, value=values[f"{i['id']}.{i['property']}"])
                    if f"{i['id']}.{i['property']}" in values else dict(i) for i in items]

        r = self.client.post("/_dash-update-component", json={
            "output": spec["output"], "outputs": spec["outputs"],
            "inputs": filled(spec["inputs"]), "state": filled(spec["state"]),
            "changedPropIds": changed})
        assert r.status_code in (200, 204), r.data[:300]
        return r.get_json()["response"] if r.status_code == 200 else {}

    def keep(self, response):
        """Take the response as the page does (a patch applied to what is shown)."""
        for cid, props in response.items():
            for prop, value in props.items():
                key = f"{cid}.{prop}"
                if key == "conditions.data" or key == "viz-data.data":
                    self.values[key] = value
                elif key in SENT:
                    self.shown[key] = (apply(self.shown[key], value) if is_patch(value)
                                       else value)

    def full_views(self):
        """Every view drawn anew for the current values (no viz-data: nothing to patch)."""
        return self.call(VIEWS, ["averaging.value"], **{"viz-data.data": None})


def is_patch(value) -> bool:
    return isinstance(value, dict) and "__dash_patch_update" in value


def apply(value, patch):
    """Dash's patch operations (only assignments are expected here) applied to ``value``."""
    value = copy.deepcopy(value)
    for op in patch["operations"]:
        assert op["operation"] == "Assign", op
        *path, last = op["location"]
        target = value
        for k in path:
            target = target[k]
        target[last] = op["params"]["value"]
    return value


def first_load(page):
    page.keep(page.call(VIEWS, ["url.search"]))  # the link's conditions, and the views
    assert set(page.shown) == set(SENT)


def without_revision(value):
    """A figure without its random ``layout.editrevision`` (a new one on every draw)."""
    if isinstance(value, dict) and isinstance(value.get("layout"), dict):
        return {**value, "layout": {k: v for k, v in value["layout"].items()
                                    if k != "editrevision"}}
    return value


CLICKS = [ids.COST_FP_UP, ids.COST_FN_UP, ids.PRIOR_UP, ids.COST_FP_DOWN, ids.PRIOR_DOWN,
          ids.COST_FN_DOWN]


@pytest.mark.parametrize("settings", [
    {},
    {"threshold-axis.value": "flagged", "presentation.value": ["on"]},
    {"threshold-model.value": "demo/naive Bayes", "models.value": DEMO_MODELS[:3]},
], ids=["default", "flagged-presentation", "chosen-model"])
@pytest.mark.slow
def test_ccp001_patched_views_equal_a_full_redraw(tmp_path, settings):
    page = Page(create_app(data_dir=tmp_path), **settings)
    first_load(page)
    for n, which in enumerate(CLICKS, start=1):
        response = page.call(VIEWS, [f"{which}.n_clicks"], **{f"{which}.n_clicks": n})
        page.keep(response)
        for key in PATCHED:
            cid, prop = key.split(".")
            assert is_patch(response[cid][prop]), (which, key)
        full = page.full_views()
        for key in SENT:
            cid, prop = key.split(".")
            assert (without_revision(page.shown[key])
                    == without_revision(full[cid][prop])), (which, key)


def test_ccp002_a_cost_change_sends_a_small_part_of_the_views(tmp_path):
    page = Page(create_app(data_dir=tmp_path))
    first_load(page)
    response = page.call(VIEWS, [f"{ids.COST_FP_UP}.n_clicks"],
                         **{f"{ids.COST_FP_UP}.n_clicks": 1})
    full = page.full_views()
    for key in PATCHED:
        cid, prop = key.split(".")
        sent, whole = (len(json.dumps(r[cid][prop])) for r in (response, full))
        assert sent * 4 < whole, (key, sent, whole)
    # the Compare tab's model table (~300 components) is not the views callback's: every
    # component the page replaces is a pass of dash's renderer over the whole page
    assert ids.MODEL_TABLE not in response and ids.MODEL_TABLE not in full


def test_ccp003_another_model_or_pins_draw_the_threshold_view_anew(tmp_path):
    page = Page(create_app(data_dir=tmp_path))
    first_load(page)
    page.values["threshold-model.value"] = "demo/decision tree"  # not the one drawn
    response = page.call(VIEWS, [f"{ids.COST_FP_UP}.n_clicks"],
                         **{f"{ids.COST_FP_UP}.n_clicks": 1})
    figure = response["threshold-graph"]["figure"]
    assert not is_patch(figure) and figure["layout"]["meta"]["model"] == "decision tree"
    page.keep(response)
    page.values["pinned.data"] = [{"dataset": "demo", "model": "naive Bayes",
                                   "threshold": 0.5, "label": "A"}]
    response = page.call(VIEWS, [f"{ids.COST_FP_UP}.n_clicks"],
                         **{f"{ids.COST_FP_UP}.n_clicks": 2})
    for key in PATCHED:
        cid, prop = key.split(".")
        assert not is_patch(response[cid][prop]), key


def test_ccp004_two_datasets_the_threshold_view_is_patched_and_the_table_has_its_datasets(
        tmp_path):
    """With two datasets the threshold view's patches still give the full redraw, and the
    Compare tab's model table (drawn when that tab shows) has a Dataset column and is the
    table of the analysis under each new cost and prior."""
    from dash._utils import to_json

    from roc_dash.app.analysis import AnalysisCache, model_names
    from roc_dash.app.features.data import apply_upload
    from roc_dash.app.page_state import PageState
    from roc_dash.app.render import kinds_table, models_table, update_views
    from roc_dash.app.server.store import DEMO_ID, DatasetStore
    from roc_dash.app.state import ControlState
    from roc_dash.core.analysis_types import Conditions
    from tests.conftest import make_predictions

    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    csv = make_predictions(300, seed=3, model="mine").to_csv(index=False).encode()
    ids_ = apply_upload(store, [("mine.csv", csv)], [DEMO_ID]).dataset_ids
    ids_ = [DEMO_ID, *[i for i in ids_ if i != DEMO_ID]]
    assert len(ids_) == 2
    names = model_names(cache, ids_)
    assert len(names) == 5

    def page(state):
        return PageState(datasets=tuple(ids_), conditions=ControlState.from_store(state))

    def views(state, viz, changed):
        return update_views(cache, page(state), {"threshold_axis": "threshold"}, viz,
                            conditions_changed=changed)

    def sent(value):
        return json.loads(to_json(value))

    state = ControlState(prior=0.3).to_store()
    first = views(state, None, False)
    assert "table" not in first
    shown = sent(first["threshold"])
    assert "Dataset" in json.dumps(sent(models_table(cache, page(state))))
    viz = first["viz"]
    for cost_fn, prior in ((4.0, 0.3), (4.0, 0.45), (0.5, 0.45)):
        state = ControlState(prior=prior, prior_mode="manual", cost_fn=cost_fn).to_store()
        patched = views(state, viz, True)
        full = views(state, None, False)
        assert is_patch(sent(patched["threshold"]))
        shown = apply(shown, sent(patched["threshold"]))
        assert shown == sent(full["threshold"]), (cost_fn, prior)
        analysis = cache.analysis(ids_, names, Conditions(cost_fn=cost_fn, prior_pos=prior))
        table = kinds_table(cache, ids_, analysis, {n: k for k, n in enumerate(names)})
        assert sent(models_table(cache, page(state))) == sent(table), (cost_fn, prior)
        viz = patched["viz"]


def test_ccp005_a_prior_change_sends_the_pr_view_as_what_changed(tmp_path):
    """The PR view drawn anew for a new prior is sent as a patch of the one drawn: the
    precisions (y) of the curves, not the iso-F1 curves, the axes' template or the recalls
    of curves whose points stay; applied, it is the full redraw (ccp001 for every click)."""
    page = Page(create_app(data_dir=tmp_path))
    first_load(page)
    drawn = page.shown["pr-graph.figure"]
    response = page.call(VIEWS, [f"{ids.PRIOR_UP}.n_clicks"], **{f"{ids.PRIOR_UP}.n_clicks": 1})
    sent = response["pr-graph"]["figure"]
    assert is_patch(sent)
    where = [tuple(op["location"]) for op in sent["operations"]]
    iso_f1 = [k for k, t in enumerate(drawn["data"]) if str(t.get("name")).startswith("iso-F")]
    curves = [k for k, t in enumerate(drawn["data"]) if "(AP " in str(t.get("name"))]
    assert iso_f1 and len(curves) == 4
    assert not [w for w in where if w[:2] in {("data", k) for k in iso_f1}], where
    assert ("layout", "template") not in where and ("layout", "xaxis") not in where
    assert all(("data", k, "y") in where for k in curves), where
    assert sum(("data", k, "x") not in where for k in curves) >= 2, where
    page.keep(response)
    full = page.full_views()
    assert page.shown["pr-graph.figure"] == without_revision(full["pr-graph"]["figure"])
    whole = len(json.dumps(full["pr-graph"]["figure"]))
    assert len(json.dumps(sent)) * 2 < whole, (len(json.dumps(sent)), whole)


def test_ccp006_a_stepper_click_updates_only_the_controls_it_moved(tmp_path):
    """A click on the prior's stepper sends the prior's slider and box, not the four cost
    controls that already show their values (each output is a pass of dash's renderer over
    the page); a box typed in another way than it is shown gets the shown value back."""
    page = Page(create_app(data_dir=tmp_path))
    first = page.call(VIEWS, ["url.search"])
    page.keep(first)
    controls = (ids.COST_FP, ids.COST_FP_SLIDER, ids.COST_FN, ids.COST_FN_SLIDER, ids.PRIOR,
                ids.PRIOR_SLIDER)
    page.values.update({f"{c}.value": first[c]["value"] for c in controls})  # as shown
    response = page.call(VIEWS, [f"{ids.PRIOR_UP}.n_clicks"], **{f"{ids.PRIOR_UP}.n_clicks": 1})
    page.keep(response)
    assert ids.PRIOR in response and ids.PRIOR_SLIDER in response
    prior = response[ids.PRIOR]["value"]
    for cid in (ids.COST_FP, ids.COST_FP_SLIDER, ids.COST_FN, ids.COST_FN_SLIDER,
                ids.CONTROL_MSG):  # nor the empty message under the controls once more
        assert cid not in response, cid
    page.values[f"{ids.PRIOR}.value"] = prior
    page.values[f"{ids.PRIOR_SLIDER}.value"] = response[ids.PRIOR_SLIDER]["value"]
    response = page.call(VIEWS, [f"{ids.COST_FP}.value"], **{f"{ids.COST_FP}.value": "2.50"})
    assert response[ids.COST_FP]["value"] == "2.5"
    assert ids.COST_FP_SLIDER in response and ids.PRIOR not in response
    page.keep(response)
    bad = page.call(VIEWS, [f"{ids.COST_FP}.value"], **{f"{ids.COST_FP}.value": "-3"})
    said = bad[ids.CONTROL_MSG]["children"]
    assert "Cost of a false positive" in said and bad[ids.COST_FP]["value"] == "2.5"
    again = page.call(VIEWS, [f"{ids.COST_FP}.value"], **{f"{ids.COST_FP}.value": "-3",
                                                          f"{ids.CONTROL_MSG}.children": said})
    assert ids.CONTROL_MSG not in again
