"""The page's one state (pst001-pst006): every field goes into the link and comes back, the
Dash dependencies come from the one list of fields, older links are still read."""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs

import pytest
from dash import Input, State

from roc_dash.app import ids
from roc_dash.app.page_state import (
    FIELD_NAMES,
    FIELDS,
    ModelRef,
    MonitorState,
    PageState,
    Pin,
    SliceState,
    dependencies,
    key_ref,
    parse_link,
    resolve_refs,
)
from roc_dash.app.state import ControlState

A = "a" * 24
B = "b" * 30

#: One value other than the default for every field of the state.
CHANGED = {
    "datasets": (A, B),
    "prior_source": B,
    "conditions": ControlState(cost_fp=2.5, cost_fn=0.125, prior=0.3, prior_mode="manual",
                               benefit_tp=1.5, benefit_tn=0.25, unit="€", population=1200.0,
                               reference_class="cat"),
    "models": (ModelRef(A, "rf"), ModelRef(B, "a/b | c")),
    "averaging": "vertical",
    "level": 0.9,
    "band": "simultaneous",
    "samples": 33,
    "det": True,
    "log_fpr": True,
    "presentation": True,
    "ties": True,
    "pr_mode": "prg",
    "cost_mode": "decision",
    "tab": "compare",
    "pins": (Pin("A", ModelRef(B, "gbm"), 0.524924), Pin("C", ModelRef(A, "rf"), None)),
    "slices": SliceState(model=ModelRef(B, "gbm"), column="sex", cross="age band",
                         constraint="equalized_odds", priors="north=0.12, west=0.3"),
    "zoom": (("roc", ((0.0, 0.25), (0.5, 1.0), False, False)),
             ("pr", (None, (0.125, 0.875), False, False)),
             ("cost", ((-3.5, 0.0), (0.0, 0.5), True, True))),
    "monitor": MonitorState(reference="B", windows=(B, A), time="month & day", every="week",
                            hide_labels=True, estimator="pacc"),
    "capacity": "30/1000",
    "floors": "precision >= 0.9; fpr <= 1% & more",
    "constraint_view": "ks",
    "pr_bands": True,
    "cost_matrix": "0 1 5; 2 0 1 & x; 10 1 0",
    "class_prior": "20% 30% 50%",
    "floor_confidence": "95%",
    "volume": "4000",
    "recalibration": "logistic",
}


def test_pst001_every_field_is_listed_once_and_changed_above():
    assert FIELD_NAMES == tuple(f.name for f in dataclasses.fields(PageState))
    assert set(CHANGED) == set(FIELD_NAMES)
    assert len({s for f in FIELDS for s in f.sources}) == sum(len(f.sources) for f in FIELDS)


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_pst002_each_field_goes_into_the_link_and_back(name):
    # log_fpr is written only without DET axes (DET has no log axis)
    base = PageState(det=False) if name == "log_fpr" else PageState()
    changed = dataclasses.replace(base, **{name: CHANGED[name]})
    if name == "prior_source":  # a prior source is written only with several datasets
        base = dataclasses.replace(base, datasets=(A, B))
        changed = dataclasses.replace(changed, datasets=(A, B))
    query = changed.to_query()
    assert query != base.to_query(), f"{name} is not in the link"
    back, given = parse_link(query)
    assert getattr(back, name) == CHANGED[name]
    assert name in given


def test_pst003_the_whole_state_round_trips_with_strange_names():
    state = dataclasses.replace(PageState(), **{k: v for k, v in CHANGED.items()
                                               if k != "log_fpr"})
    back, _ = parse_link(state.to_query())
    assert back == state
    q = parse_qs(state.to_query().lstrip("?"))
    assert q["v"] == ["2"]
    assert q["pin"][0] == f"A:{B}/gbm|0.524924"
    assert q["model"] == [f"{A}/rf", f"{B}/a/b | c"]  # a name with "/" and "|" survives


def test_pst004_an_old_link_names_models_by_shown_name_and_is_resolved():
    # a link of the page before models were named by dataset: "A:<shown name>|threshold"
    old = (f"?data={A},{B}&cfp=2&models=rf (a.csv)|gbm (b.csv)"
           "&pin=A:gbm (b.csv)|0.5&pin=B:gone (c.csv)|0.25")
    state, given = parse_link(old)
    assert {"datasets", "models", "pins", "conditions"} <= given
    assert state.pins[0].model == ModelRef("", "gbm (b.csv)")  # not resolved yet
    legacy = {"rf (a.csv)": ModelRef(A, "rf"), "gbm (b.csv)": ModelRef(B, "gbm")}
    pins, lost = resolve_refs(state.pins, legacy)
    assert pins == [Pin("A", ModelRef(B, "gbm"), 0.5)]
    assert [p.model.name for p in lost] == ["gone (c.csv)"]
    models, missing = resolve_refs(state.models, legacy)
    assert models == [ModelRef(A, "rf"), ModelRef(B, "gbm")] and missing == []


def test_pst005_dependencies_and_values_from_dash():
    deps = dependencies(Input, "datasets", "models", "slices")
    assert deps["datasets"] == Input(ids.DATASETS, "data")
    assert deps["models"] == (Input(ids.MODELS, "value"), Input(ids.MODELS, "options"))
    assert len(deps["slices"]) == 5
    assert set(dependencies(State)) == set(FIELD_NAMES)
    options = [{"label": "rf (a.csv)", "value": f"{A}/rf"},
               {"label": "gbm (b.csv)", "value": f"{B}/gbm"}]
    state = PageState.from_dash({
        "datasets": [A, B, "../etc"], "models": ([f"{A}/rf"], options),
        "pins": [{"label": "A", "dataset": B, "model": "gbm", "threshold": 0.5},
                 {"label": "B", "model": "shown only", "threshold": 0.5}],
        "slices": (f"{B}/gbm", "sex", "sex", "nonsense", None)})
    assert state.datasets == (A, B)
    assert state.models == (ModelRef(A, "rf"),)
    assert state.pins == (Pin("A", ModelRef(B, "gbm"), 0.5),)  # a pin needs its dataset
    assert state.slices == SliceState(model=ModelRef(B, "gbm"), column="sex")
    every = PageState.from_dash({"models": ([o["value"] for o in options], options)})
    assert every.models is None  # every model loaded is shown
    assert every.shown_keys([o["value"] for o in options], limit=1) == [f"{A}/rf"]
    with pytest.raises(KeyError):
        PageState.from_dash({"nonsense": 1})


def test_pst006_malformed_links_and_keys():
    for junk in (None, "", "?" + "x" * 20000, "?v=2&pin=A:nodataset|0.5&model=../x/y",
                 "?v=2&slm=short/x"):
        state, given = parse_link(junk)
        assert state.pins == () and state.models is None and state.slices.model is None
    assert key_ref(f"{A}/") is None and key_ref("demo") is None and key_ref(3) is None
    assert key_ref("demo/naive Bayes") == ModelRef("demo", "naive Bayes")
