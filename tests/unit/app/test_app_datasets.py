"""Datasets are test sets: never blended, never doubled; one answer in the page and the report."""

import numpy as np
import pandas as pd
import pytest
from dash import no_update

from roc_dash.app.analysis import data_prior, model_names
from roc_dash.app.features.conditions import Gesture, apply_gesture
from roc_dash.app.features.data import apply_upload, upload_with_label
from roc_dash.app.render import render_views
from roc_dash.app.server.store import DEMO_ID, load_demo
from roc_dash.app.state import ControlState, conditions_from_state
from roc_dash.core.assembly.analysis import analyse, prevalence
from roc_dash.report import build_report
from tests.conftest import make_predictions

DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]


def _csv(frame) -> bytes:
    return frame.to_csv(index=False).encode()


def _lr_file(seed=0, n=150):
    """A file whose model is named like a demo model."""
    return _csv(make_predictions(n, seed=seed, model="logistic regression"))


def test_dst001_a_model_named_like_a_loaded_one_is_never_merged(store, cache):
    out = apply_upload(store, [("preds.csv", _lr_file())], [DEMO_ID, ])
    assert out.error == ""
    ids_ = [DEMO_ID, *out.dataset_ids]  # the demo, then the upload
    # with two datasets every model carries its dataset's name (issue 15)
    assert model_names(cache, ids_) == [f"{m} (demo)" for m in DEMO_MODELS] + [
        "logistic regression (preds.csv)"]
    table = cache.table(ids_)
    assert (table["model"] == "logistic regression (demo)").sum() == len(
        load_demo().table.query("model == 'logistic regression'"))  # not 150 rows more
    assert "'logistic regression (other.csv)'" in apply_upload(
        store, [("other.csv", _lr_file(5))], ids_).status
    analysis = cache.analysis(ids_, model_names(cache, ids_), conditions_from_state(
        ControlState(prior=0.3).to_store()))
    assert analysis.model("logistic regression (preds.csv)").n_rows == 150
    assert analysis.spans_datasets and "different test sets" in analysis.notes[0]
    views = render_views(cache, ids_, model_names(cache, ids_),
                         conditions_from_state(ControlState(prior=0.3).to_store()))
    assert "different test sets" in str(views[6])  # the banner above the views


def test_dst002_first_upload_replaces_the_demo_and_the_demo_comes_back(store):
    out = apply_upload(store, [("a.csv", _csv(make_predictions(80, seed=1)))], [DEMO_ID])
    assert out.dataset_ids != no_update and DEMO_ID not in out.dataset_ids
    assert "replaces the demo" in out.status
    second = apply_upload(store, [("b.csv", _csv(make_predictions(80, seed=2)))],
                          out.dataset_ids)
    assert len(second.dataset_ids) == 2 and "replaces" not in second.status


def test_dst003_same_file_again_or_twice_in_one_drop(store):
    data = _csv(make_predictions(90, seed=3))
    first = apply_upload(store, [("a.csv", data)], [])
    again = apply_upload(store, [("copy of a.csv", data)], first.dataset_ids)
    assert again.dataset_ids is no_update
    assert "Already loaded" in again.status and "a.csv" in again.status
    # twice in one drop: the copy is dropped with a note, the rows are not doubled
    other = _csv(make_predictions(90, seed=4))
    both = apply_upload(store, [("b.csv", other), ("b2.csv", other)], [])
    assert both.error == "" and "identical" in both.status
    assert store.info(both.dataset_ids[-1]).n_rows == 90


@pytest.mark.slow
def test_dst004_rejected_upload_is_kept_for_a_retry(store):
    frame = make_predictions(60, seed=5)
    frame["label"] = np.where(frame["label"] == 1, "cat", "dog")
    out = apply_upload(store, [("pets.csv", _csv(frame))], [])
    assert out.dataset_ids is no_update and out.pending
    sources = store.get_pending(out.pending)
    assert sources == [("pets.csv", _csv(frame))]
    retry = apply_upload(store, sources, [], positive="cat")
    assert retry.error == "" and len(retry.dataset_ids) == 1
    assert store.get(retry.dataset_ids[0])["label"].sum() == (frame["label"] == "cat").sum()
    store.drop_pending(out.pending)
    assert store.get_pending(out.pending) is None
    assert store.get_pending("../../etc/passwd") is None
    # the box still says "cat" when a 0/1 file is dropped next: read as usual, and said so
    plain = make_predictions(60, seed=6, model="plain")
    after = upload_with_label(store, [("plain.csv", _csv(plain))], retry.dataset_ids, "cat")
    assert after.error == "" and len(after.dataset_ids) == 2
    assert "Positive label 'cat' does not apply" in after.status
    # another cat/dog file still uses the box
    more = upload_with_label(store, [("pets2.csv", _csv(frame.assign(model="pets2")))],
                             after.dataset_ids, "cat")
    assert more.error == "" and "does not apply" not in more.status
    # a file that fails either way keeps the message naming the box's value
    bad = make_predictions(30, seed=7).assign(label="x")
    failed = upload_with_label(store, [("bad.csv", _csv(bad))], more.dataset_ids, "cat")
    assert failed.dataset_ids is no_update and "'cat'" in failed.error


def test_dst005_the_prior_is_one_datasets_exact_prevalence(store, cache):
    skewed = make_predictions(200, seed=6)
    skewed.loc[skewed.index[:60], "label"] = 1
    out = apply_upload(store, [("skewed.csv", _csv(skewed))], [DEMO_ID])
    ids_ = [DEMO_ID, *out.dataset_ids]
    demo_prev = prevalence(load_demo().table)
    upload_prev = skewed["label"].mean()
    assert data_prior(store, ids_, DEMO_ID) == demo_prev
    assert data_prior(store, ids_, out.dataset_ids[0]) == pytest.approx(upload_prev)
    # default: the newest dataset; never the pooled prevalence of both
    pooled = prevalence(cache.table(ids_))
    assert data_prior(store, ids_, None) == pytest.approx(upload_prev)
    assert data_prior(store, ids_, None) != pytest.approx(pooled)


def test_dst006_dashboard_and_report_give_the_same_optimum(store, cache):
    """Same data and conditions: the page's optimum is the report's, vertex for vertex."""
    table = load_demo().table
    state, _ = apply_gesture(Gesture(None), ControlState(), data_prior(store, [DEMO_ID], None))
    assert state.prior == prevalence(table)  # exact, not rounded to 4 digits
    conditions = conditions_from_state(state.to_store())
    page = cache.analysis([DEMO_ID], DEMO_MODELS, conditions)
    report = build_report(analyse(table))
    assert report["conditions"]["prior_pos"] == page.conditions.prior_pos
    for m, r in zip(page.models, report["models"], strict=True):
        assert m.name == r["name"]
        assert m.optimal.fpr == r["optimal"]["fpr"] and m.optimal.tpr == r["optimal"]["tpr"], m.name
    assert page.optimal.model == report["optimal"]["model"]
    assert page.optimal.fpr == report["optimal"]["fpr"]
    # and through the rendered operating panel
    views = render_views(cache, [DEMO_ID], DEMO_MODELS, conditions)
    assert report["optimal"]["model"] in str(views[3])


def test_dst007_inverted_scores_are_flagged(store, cache):
    frame = make_predictions(300, seed=7, separation=2.0)
    frame["label"] = 1 - frame["label"]
    out = apply_upload(store, [("upside.csv", _csv(frame))], [])
    views = render_views(cache, out.dataset_ids, ["upside"],
                         conditions_from_state(ControlState(prior=0.4).to_store()))
    assert "inverted" in str(views[6]) and "positive label '1'" in str(views[6])
    # a second dataset shown beside it keeps each model's own label
    other = make_predictions(200, seed=9, separation=2.0, model="words")
    other["label"] = other["label"].map({1: "yes", 0: "no"})
    other["score"] = 1 - other["score"]
    both = apply_upload(store, [("words.csv", _csv(other))], out.dataset_ids)
    views = render_views(cache, both.dataset_ids, ["upside", "words"],
                         conditions_from_state(ControlState(prior=0.4).to_store()))
    assert "upside: scores look inverted for positive label '1'" in str(views[6])
    assert "words: scores look inverted for positive label 'yes'" in str(views[6])


def test_dst008_datasets_in_the_table_keep_their_rows(store, cache):
    a = make_predictions(70, seed=8, model="m")
    b = make_predictions(90, seed=9, model="m")
    ida = apply_upload(store, [("x.csv", _csv(a))], []).dataset_ids
    idb = apply_upload(store, [("x.csv", _csv(b))], ida).dataset_ids
    table = cache.table(idb)
    # with two datasets every model carries its dataset's name (issue 15)
    assert table.groupby("model").size().to_dict() == {"m (x.csv)": 70, "m (x.csv #2)": 90}
    assert list(pd.unique(table["dataset"])) == ["x.csv", "x.csv #2"]
