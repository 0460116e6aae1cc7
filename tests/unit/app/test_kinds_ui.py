"""The input kinds in the dashboard (issue 9): uploads keep their kind, the bundled examples,
the class selector (class reference views), the multi-class card, soft labels in the model
table, cost axis titles and the leaf labelings on the ROC; numbers against core and
scikit-learn."""

from importlib import resources

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from roc_dash.app import analysis as app_analysis
from roc_dash.app import overlays
from roc_dash.app.analysis import data_prior
from roc_dash.app.features import kinds as kinds_feature
from roc_dash.app.features.conditions import Gesture, apply_gesture
from roc_dash.app.features.data import apply_upload
from roc_dash.app.page_state import ModelRef, PageState
from roc_dash.app.render import models_table, render_views
from roc_dash.app.server.store import (
    DEMO_ID,
    EXAMPLES,
    clean_ids,
    is_dataset_id,
)
from roc_dash.app.state import ControlState, parse_query
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.decisions.operating import pinned_points
from roc_dash.core.kinds.canonical_kinds import COST_AXIS_TITLES
from roc_dash.text.rounding import sig

MC, SOFT, LEAVES = "demo-multiclass", "demo-soft", "demo-leaves"


def _bytes(name):
    return (resources.files("roc_dash.data") / name).read_bytes()


def _compare_table(cache, dataset: str, models):
    """The Compare tab's model table (its one builder) for ``models`` of ``dataset``."""
    return models_table(cache, PageState(datasets=(dataset,), conditions=ControlState(),
                                         models=tuple(ModelRef(dataset, m) for m in models)))


def _texts(component):
    """Every string in a Dash component tree."""
    out = []

    def walk(c):
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, list | tuple):
            for x in c:
                walk(x)
        elif hasattr(c, "children"):
            walk(c.children)
            if isinstance(getattr(c, "title", None), str):
                out.append(c.title)

    walk(component)
    return out


# -- upload and examples ------------------------------------------------------------------
@pytest.mark.parametrize(("filename", "kind", "words"), [
    ("multiclass_demo.csv", "multiclass", "Multi-class file: 3 classes"),
    ("soft_labels_demo.csv", "soft", "Soft labels (column 'label_prob')"),
    ("tree_leaves_demo.csv", "leaves", "Decision-tree leaves"),
])
def test_knu001_upload_stores_the_kind_and_says_it(store, filename, kind, words):
    out = apply_upload(store, [(filename, _bytes(filename))], [DEMO_ID])
    assert out.error == ""
    (new,) = out.dataset_ids
    info = store.info(new)
    assert info.kind == kind
    assert words in out.status
    if kind == "multiclass":
        assert info.classes == ("class_0", "class_1", "class_2")
        assert info.reference_class == "class_0"


def test_knu002_costs_upload_and_axis_titles(store, cache):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 60), "score": rng.random(60),
                          "cost": rng.uniform(1, 9, 60).round(2)})
    out = apply_upload(store, [("costs.csv", frame.to_csv(index=False).encode())], [DEMO_ID])
    info = store.info(out.dataset_ids[0])
    assert info.kind == "costs" and info.weights_are_costs
    assert "Example-specific costs" in out.status
    roc = render_views(cache, out.dataset_ids, list(info.models), Conditions())[0]
    assert roc.layout.xaxis.title.text.lower() == COST_AXIS_TITLES["x"]
    assert roc.layout.yaxis.title.text.lower() == COST_AXIS_TITLES["y"]
    # the demo (binary weights) keeps its axes
    demo = render_views(cache, [DEMO_ID], ["naive Bayes"], Conditions())[0]
    assert demo.layout.xaxis.title.text.lower() != COST_AXIS_TITLES["x"]


def test_knu003_example_ids_are_fixed_and_validated(store):
    for key in (MC, SOFT, LEAVES, DEMO_ID):
        assert is_dataset_id(key)
    for bad in ("demo-other", "demo-multiclass ", "../demo", "DEMO", "", None, 3):
        assert not is_dataset_id(bad)
    assert clean_ids([MC, "nope", MC, SOFT]) == [MC, SOFT]
    assert store.info(MC).kind == "multiclass"
    assert store.info(SOFT).kind == "soft"
    assert store.info(LEAVES).kind == "leaves"
    assert not store.delete(MC)  # bundled: never deleted
    assert set(EXAMPLES) == {DEMO_ID, MC, SOFT, LEAVES}


def test_knu004_example_links_replace_bundled_data_and_keep_uploads():
    assert kinds_feature.load_example_ids([DEMO_ID], MC) == (
        [MC], "Loaded the multi-class example (multiclass_demo.csv).")
    upload = "x" * 32
    assert kinds_feature.load_example_ids([upload], SOFT)[0] == [upload, SOFT]
    assert kinds_feature.load_example_ids([MC], MC)[1] == "The multi-class example is already loaded."


# -- the class selector -------------------------------------------------------------------
def test_knu010_class_choice_in_state_link_and_prior(store):
    s = ControlState()
    new, _ = apply_gesture(Gesture(trigger="class-choice", reference_class="class_2"), s,
                           lambda cls: data_prior(store, [MC], MC, cls))
    assert new.reference_class == "class_2"
    table = store.get(MC)
    assert new.prior == pytest.approx(float((table["class"] == "class_2").mean()))
    assert ControlState.from_store(new.to_store()).reference_class == "class_2"
    assert parse_query("?class=class_1")["reference_class"] == "class_1"
    assert "reference_class" not in parse_query("?class=" + "x" * 300)
    first, _ = apply_gesture(Gesture(trigger=None, search="?class=class_1"), s, None)
    assert first.reference_class == "class_1"


def test_knu011_class_view_analysis_matches_sklearn(cache, store):
    table = store.get(MC)
    for cls in ("class_0", "class_1", "class_2"):
        a = cache.analysis([MC], ["logistic regression"], Conditions(), cls)
        rows = table[table["model"] == "logistic regression"]
        expected = roc_auc_score(rows["class"] == cls, rows[f"score_{cls}"])
        assert a.models[0].auc == pytest.approx(expected, abs=1e-12)
    options, value = kinds_feature.class_choices([store.info(MC)], "class_1")
    assert [o["value"] for o in options] == ["class_0", "class_1", "class_2"]
    assert value == "class_1"
    assert kinds_feature.class_choices([store.info(MC)], "nope")[1] == "class_0"
    assert kinds_feature.class_choices([store.info(DEMO_ID)], "class_1") == ([], None)
    # a class reference view only where the class exists
    demo = store.get(DEMO_ID)
    assert app_analysis.apply_reference(demo, "class_1") is demo


def test_knu012_model_table_has_m_and_weighted_auc(cache, store):
    texts = _texts(_compare_table(cache, MC, ["logistic regression", "decision tree"]))
    assert "M (Hand & Till)" in texts and "Weighted AUC (Provost–Domingos)" in texts
    table = store.get(MC)
    for model in ("logistic regression", "decision tree"):
        rows = table[table["model"] == model]
        scores = rows[["score_class_0", "score_class_1", "score_class_2"]].to_numpy()
        scores = scores / scores.sum(axis=1, keepdims=True)
        m = roc_auc_score(rows["class"], scores, multi_class="ovo", average="macro")
        w = roc_auc_score(rows["class"], scores, multi_class="ovr", average="weighted")
        assert f"{sig(m)}" in texts and f"{sig(w)}" in texts


@pytest.mark.parametrize("dataset,models,shown", [
    (MC, ["logistic regression", "decision tree"], "M (Hand & Till)"),
    (SOFT, ["ridge regression", "nearest neighbours"], "soft labels")])
def test_omt001_a_full_render_builds_no_model_table_the_compare_tab_does(
        cache, monkeypatch, dataset, models, shown):
    """The model table has one builder, the Compare tab's (models_table): a full render of
    the views (render_views, and the views callback's update_views) neither builds it nor
    computes its multi-class and soft-label results, which the views never show; the
    Compare tab's table still shows them."""
    from roc_dash.app import render

    calls = []

    def counted(name, real):
        def call(*args, **kwargs):
            calls.append(name)
            return real(*args, **kwargs)
        return call

    for name in ("kinds_table", "multiclass_results", "soft_results"):
        monkeypatch.setattr(render, name, counted(name, getattr(render, name)))
    page = PageState(datasets=(dataset,), conditions=ControlState(),
                     models=tuple(ModelRef(dataset, m) for m in models))
    out = render.render_views(cache, [dataset], models, Conditions())
    named = render.update_views(cache, page, {"threshold_axis": "threshold"})
    assert calls == []
    assert len(out) == len(render.RENDERED) and "table" not in render.RENDERED
    assert "table" not in named and not any(shown in _texts(v) for v in out[3:])
    texts = _texts(render.models_table(cache, page))
    assert calls == ["kinds_table", "multiclass_results", "soft_results"]
    assert shown in texts and all(m in texts for m in models)


def test_knu013_multiclass_card_figures(cache, store):
    infos = [store.info(MC)]
    kinds = overlays.shown_kinds(cache.model_datasets([MC]), infos, ["multi-class example"],
                                 ["decision tree"])
    results = overlays.multiclass_results(cache, [MC], ["decision tree"], kinds)
    curves, heat, summary = kinds_feature.multiclass_outputs(results, "decision tree", "class_1")
    r = results["decision tree"].result
    assert len(curves.data) == 1 + 3  # the diagonal and one curve per class
    assert "(shown)" in curves.data[2].name and curves.data[2].line.width == 3.5
    z = np.array([[np.nan if v is None else v for v in row] for row in heat.data[0].z])
    np.testing.assert_allclose(z, r.pairwise, equal_nan=True)
    table = store.get(MC)
    rows = table[(table["model"] == "decision tree") & table["class"].isin(["class_0",
                                                                           "class_2"])]
    direct = roc_auc_score(rows["class"] == "class_0", rows["score_class_0"])
    assert z[0, 2] == pytest.approx(direct, abs=1e-12)
    assert f"M = {sig(r.hand_till_m)}" in _texts(summary)


# -- soft labels --------------------------------------------------------------------------
def test_knu020_soft_labels_named_with_their_interval(cache):
    texts = _texts(_compare_table(cache, SOFT, ["ridge regression", "nearest neighbours"]))
    assert "Labels" in texts
    assert texts.count("soft labels") == 2 and texts.count("CI: soft DeLong (Qin)") == 2
    a = cache.analysis([SOFT], ["ridge regression"], Conditions())
    assert a.models[0].auc_ci.method == "soft_delong"
    # where the interval is not defined the cell says so, with the reason as its tooltip
    from roc_dash.core.assembly.extensions import SoftModel

    soft = {a.models[0].name: SoftModel(name=a.models[0].name, n_instances=2, n_pos=1.0,
                                        n_neg=1.0, auc=1.0, interval=None, hard_labels=False,
                                        reason="too few instances")}
    cells = overlays.table_extras(a, {}, soft)["cells"][a.models[0].name]
    assert _texts(cells) == ["soft labels", "no interval", "too few instances"]


# -- leaves -------------------------------------------------------------------------------
def test_knu030_leaf_labelings_on_the_roc_and_pinnable(cache):
    roc = render_views(cache, [LEAVES], ["tree_leaves_demo"], Conditions())[0]
    trace = next(t for t in roc.data if "labelings" in (t.name or ""))
    np.testing.assert_allclose(trace.x, [0, 1 / 8, 3 / 8, 1])  # Flach et al.'s example
    np.testing.assert_allclose(trace.y, [0, 5 / 12, 3 / 4, 1])
    assert list(trace.text) == ["S0", "S1", "S2", "S3"]
    a = cache.analysis([LEAVES], ["tree_leaves_demo"], Conditions())
    row = trace.customdata[2]  # S2: what a click sends
    (pin,) = pinned_points(a, [{"model": "tree_leaves_demo", "threshold": row[1],
                                "label": "A"}])
    assert (pin.fpr, pin.tpr) == pytest.approx((3 / 8, 3 / 4))
