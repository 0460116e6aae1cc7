"""Stable identities (sid001-sid009): a model is (dataset id, name) wherever the page keeps it;
notes and views live with each dataset; a removal can be undone and the server deletes only
after the window; a link whose dataset is gone says what it lost; the decision file holds the
page's own intervals of the point it names."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from roc_dash.app.analysis import AnalysisCache, legacy_names, model_refs
from roc_dash.app.chosen_points import OPTIMUM, chosen_intervals
from roc_dash.app.features.data import apply_upload
from roc_dash.app.features.exports import decision_download, decision_json
from roc_dash.app.features.pins import after_removal, linked_pins
from roc_dash.app.link_report import unrestored
from roc_dash.app.page_state import ModelRef, PageState, Pin
from roc_dash.app.removal import remove, undo
from roc_dash.app.server.store import DEMO_ID, DatasetNotFound, DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import point_intervals
from tests.conftest import make_predictions

OWNER = "key:ana"


def _file(seed, models=("rf", "lr"), n=160) -> bytes:
    return pd.concat([make_predictions(n, seed=seed + k, model=m)
                      for k, m in enumerate(models)]).to_csv(index=False).encode()


@pytest.fixture
def two(tmp_path, monkeypatch):
    """A store with two uploads by OWNER, both with models rf and lr: (store, cache, a, b)."""
    import roc_dash.app.features.data as data

    monkeypatch.setattr(data, "current_owner", lambda: OWNER)
    store = DatasetStore(tmp_path)
    a = apply_upload(store, [("a.csv", _file(1))], []).dataset_ids[-1]
    b = apply_upload(store, [("b.csv", _file(5))], [a]).dataset_ids[-1]
    return store, AnalysisCache(store), a, b


def test_sid001_keys_name_the_combined_tables_models(two):
    store, cache, a, b = two
    refs = model_refs(cache, [a, b])
    assert refs == {f"{a}/rf": "rf (a.csv)", f"{a}/lr": "lr (a.csv)",
                    f"{b}/rf": "rf (b.csv)", f"{b}/lr": "lr (b.csv)"}
    table = cache.table([a, b])
    assert list(refs.values()) == list(pd.unique(table["model"].astype(str)))
    assert model_refs(cache, [a]) == {f"{a}/rf": "rf", f"{a}/lr": "lr"}  # labels change ...
    assert set(model_refs(cache, [a])) <= set(refs)  # ... keys do not
    assert legacy_names(store, [a, b])["lr (b.csv)"] == ModelRef(b, "lr")


def test_sid002_a_links_pins_by_key_and_by_old_shown_name(two):
    store, _, a, b = two
    v2 = f"?v=2&data={a},{b}&pin=A:{b}/rf|0.5"
    assert linked_pins(store, v2, [DEMO_ID]) == [
        {"label": "A", "dataset": b, "model": "rf", "threshold": 0.5}]
    old = f"?data={a},{b}&pin=A:rf (b.csv)|0.5&pin=B:lr (a.csv)|0.2&pin=C:gone (x.csv)|0.1"
    assert linked_pins(store, old, [DEMO_ID]) == [
        {"label": "A", "dataset": b, "model": "rf", "threshold": 0.5},
        {"label": "B", "dataset": a, "model": "lr", "threshold": 0.2}]


def test_sid003_notes_and_views_stay_when_a_dataset_comes_and_goes(two):
    store, _, a, b = two
    store.save_note([a], "ship rf", owner=OWNER)
    assert store.notes([a, b], OWNER)["note"] == "ship rf"  # a second dataset added
    store.save_view([a, b], "both", "?v=2", owner=OWNER)
    store.save_note([a, b], "ship rf at 0.5", owner=OWNER)
    kept = store.notes([a], OWNER)  # b removed again
    assert kept["note"] == "ship rf at 0.5"
    assert [(v["name"], v["datasets"]) for v in kept["views"]] == [("both", [a, b])]
    store.delete(b)
    assert store.notes([a], OWNER)["views"][0]["name"] == "both"
    store.delete_view([a], "both", owner=OWNER)
    assert store.notes([a], OWNER)["views"] == []


def test_sid004_removal_is_undone_within_the_window_and_deleted_after(two):
    store, _, a, b = two
    pins = [{"label": "A", "dataset": b, "model": "rf", "threshold": 0.5},
            {"label": "B", "dataset": a, "model": "lr", "threshold": 0.2}]
    new, record, box = remove(store, [a, b], b, pins, OWNER)
    assert new == [a] and record["pins"] == [pins[0]] and record["at"] == 1
    # the pin named where the views show it: the lowest score of rf at or above 0.5
    table = store.get(b)
    scores = table.loc[table["model"] == "rf", "score"]
    shown = scores[scores >= 0.5].min()
    assert f"pin A (rf at score ≥ {shown:.6g})" in str(box) and "Undo" in str(box)
    assert record["pins"][0]["threshold"] == 0.5  # Undo brings the pin back as it was
    assert store.removal_due(b) is not None and store.info(b)  # kept for the window
    assert after_removal(pins, record) == [pins[1]]
    back, undone, box = undo(store, new, record)
    assert back == [a, b] and undone["undone"] and "is back, with pin A" in str(box)
    assert store.removal_due(b) is None
    assert after_removal([pins[1]], undone) == [pins[0], pins[1]]  # in their letters' order
    # a pin taking A meanwhile: the pin comes back as C, and Undo's message says C
    _, record, _ = remove(store, [a, b], b, pins, OWNER)
    meanwhile = [pins[1], {"label": "A", "dataset": a, "model": "lr", "threshold": 0.7}]
    _, undone, box = undo(store, [a], record, meanwhile)
    assert [p["label"] for p in after_removal(meanwhile, undone)] == ["A", "B", "C"]
    assert "is back, with pin C (rf at score" in str(box) and "pin A" not in str(box)
    # removed again, and the window passes: deleted, and Undo says it is too late
    _, record, _ = remove(store, [a, b], b, pins, OWNER)
    assert store.run_due_removals(now=store.removal_due(b) - 1) == []
    assert store.run_due_removals(now=store.removal_due(b) + 1) == [b]
    with pytest.raises(DatasetNotFound):
        store.info(b)
    same, none, box = undo(store, [a], record)
    assert same == [a] and none is None and "deleted from the server already" in str(box)


def test_sid005_someone_elses_removal_deletes_nothing(two):
    store, _, a, b = two
    new, record, _ = remove(store, [a, b], b, [], "key:ben")
    assert new == [a] and record["due"] is None and store.removal_due(b) is None
    assert store.run_due_removals(now=1e12) == [] and store.info(b)


def test_sid006_a_link_whose_dataset_is_gone_lists_what_it_lost(two):
    store, _, a, b = two
    store.save_note([b], "b's own note", owner=OWNER)
    store.save_view([b], "b alone", "?", owner=OWNER)
    link = (f"?v=2&data={a},{b}&psrc={b}&pin=A:{b}/rf|0.5&pin=B:{a}/lr|0.2"
            f"&model={b}/lr&model={a}/rf&slm={b}/rf")
    assert unrestored(store, link) == []  # all there
    store.delete(b, why="expired")
    lost = unrestored(store, link)
    assert lost == [
        "pin A (rf of b.csv at score ≥ 0.5)",
        "the model lr (b.csv) among those shown",
        "the Slices card's model rf of b.csv",
        "the prevalence of b.csv as the deployment prior (the last dataset's is used)",
        "its note and 1 saved view(s) of b.csv (deleted with it)"]
    old = f"?data={a},{b}&pin=A:rf (b.csv)|0.5&pin=B:lr (a.csv)|0.2"
    assert unrestored(store, old)[0] == (
        "pin A (rf (b.csv) at score ≥ 0.5): its model is in none of the link's datasets "
        "still on the server")


def _page(a, pins=()):
    state = ControlState(cost_fp=1.0, cost_fn=2.0, prior=0.3, prior_mode="manual")
    return PageState(datasets=(a,), conditions=state, pins=tuple(pins))


def test_sid007_the_decision_file_holds_the_pages_intervals_of_a_pin(two, monkeypatch):
    import roc_dash.app.features.exports as exports

    store, cache, a, _ = two
    monkeypatch.setattr(exports, "current_owner", lambda: OWNER)
    page = _page(a, [Pin("A", ModelRef(a, "rf"), 0.5)])
    chosen = chosen_intervals(cache, page, seconds=600)
    (_, op, u), = [c for c in chosen if c[0] == "A"]
    analysis = cache.analysis([a], ["rf", "lr"], exports.page_conditions(page))
    file, status = decision_download(cache, store, page, analysis, "A")
    doc = json.loads(file["content"])
    assert doc["rule"]["how_chosen"] == "pinned" and doc["model"] == "rf"
    assert doc["rule"]["threshold"] == op.threshold  # the vertex, as the page shows it
    rows = cache.table([a]).query("model == 'rf'")
    assert op.threshold == rows["score"][rows["score"] >= 0.5].min()
    for key in ("tpr", "fpr", "precision", "expected_cost"):
        iv = getattr(u, key)
        assert doc["intervals"][key] == [iv.low, iv.high], key
    # the core on the model's rows, with the page's replicates and seed: the same numbers
    core = point_intervals(rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy(),
                           0.3, Economics(cost_fp=1.0, cost_fn=2.0), pins=[op.threshold],
                           n_boot=200, seed=0).pins[0]
    assert doc["intervals"]["tpr"] == [core.tpr.low, core.tpr.high]
    flagged = 0.3 * core.tpr.values + 0.7 * core.fpr.values
    low, high = doc["intervals"]["flagged"]
    assert low <= 0.3 * core.tpr.estimate + 0.7 * core.fpr.estimate <= high
    assert low == pytest.approx(float(pd.Series(flagged).quantile(0.025)), abs=1e-12)
    assert "pin A: rf at score ≥" in status


def test_sid008_download_decision_is_the_headline_whatever_is_pinned(two, monkeypatch):
    import roc_dash.app.features.exports as exports

    store, cache, a, _ = two
    monkeypatch.setattr(exports, "current_owner", lambda: OWNER)
    page = _page(a, [Pin("A", ModelRef(a, "lr"), 0.9)])
    analysis = cache.analysis([a], ["rf", "lr"], exports.page_conditions(page))
    file, status = decision_download(cache, store, page, analysis)
    doc = json.loads(file["content"])
    _, op, u = chosen_intervals(cache, page)[0]
    assert doc["rule"]["how_chosen"] == "optimum"
    assert (doc["model"], doc["rule"]["threshold"]) == (op.model, op.threshold)
    assert doc["choice_intervals"]["expected_cost"] == [u.expected_cost.low,
                                                        u.expected_cost.high]
    assert "the recommendation" in status and OPTIMUM == "Optimum"


def test_sid009_a_record_names_the_model_by_its_own_name(two):
    from roc_dash.app.analysis import page_conditions

    _, cache, a, b = two
    page = PageState(datasets=(a, b), conditions=ControlState(prior=0.3))
    analysis = cache.analysis([a, b], list(model_refs(cache, [a, b]).values()),
                              page_conditions(page))
    doc = json.loads(decision_json(analysis, cache.table([a, b]), Economics(1.0, 1.0), model="rf",
                                   pinned={"model": "rf (b.csv)", "threshold": 0.5}))
    assert doc["model"] == "rf" and any("rf (b.csv)" in n for n in doc["notes"])



def test_sid010_the_first_views_of_a_link_take_its_zoom_and_conditions(tmp_path):
    from roc_dash.app.features.views import decide

    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    search = "?v=2&cfn=4&zoom=roc:0.05,0.3,0.6,0.95&zoom=pr:,,0.5,1"
    kept = {"conditions": None, "viz": None, "zoom": None, "search": search}
    out = decide(cache, store, [], {}, PageState(), {}, kept)  # the page's first call
    assert out["conditions"]["cost_fn"] == 4.0 and out["controls"]["fn"] == "4"
    roc, pr = out["views"]["roc"], out["views"]["pr"]
    assert list(roc.layout.xaxis.range) == [0.05, 0.3]
    assert list(roc.layout.yaxis.range) == [0.6, 0.95]
    assert list(pr.layout.yaxis.range) == [0.5, 1.0]
    # later calls draw with the zoom store (the browser's), not the link's
    later = decide(cache, store, ["averaging"], {}, PageState(
        conditions=ControlState.from_store(out["conditions"])), {},
        {**kept, "conditions": out["conditions"]})
    assert later["views"]["roc"].layout.xaxis.range is None or list(
        later["views"]["roc"].layout.xaxis.range) != [0.05, 0.3]
