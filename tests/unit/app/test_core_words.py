"""What the core refuses, said in the page's words (roc_dash.app.core_words): a value typed
on the page that the core refuses with a message worded for a programmer (``budget=0.5
looks like a fraction ... pass fraction=0.5``, ``fraction must lie in [0, 1]``) reaches the
page as a sentence naming the control, the value and what to type (cwd001-cwd007); and the
test helper that builds a card's inputs from a page state (cwd010)."""

import dataclasses
import re

import pytest
from dash import State

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.components import plain_text
from roc_dash.app.constrained_headline import report_headline
from roc_dash.app.core_words import in_page_words, not_used
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.app.features.exports import decision_download
from roc_dash.app.page_state import FIELDS, ModelRef, PageState, dependencies
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import TABS, ControlState, economics_from_state
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.combining.capacity_mix import budget_operating_point
from roc_dash.core.constraints.capacity import at_k
from tests.card_inputs import call_card, page_values
from tests.conftest import DEMO_MODELS as MODELS

from .test_app_constrained_strip import _ops

PRIOR, CFP, CFN = 0.3, 1.0, 4.0
CONDITIONS = ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR, prior_mode="manual")
#: the core's words for its arguments: none may reach the page
CORE_WORDS = re.compile(r"budget=|fraction=|fraction must|n_total|prior_pos|\bK must|pass ")


@pytest.fixture
def cache(tmp_path):
    return AnalysisCache(DatasetStore(tmp_path))


def _analysis(cache):
    return cache.analysis([DEMO_ID], MODELS, Conditions(prior_pos=PRIOR, cost_fp=CFP,
                                                        cost_fn=CFN))


LOADED = [f"{DEMO_ID}/{m}" for m in MODELS]


def _page(**kw):
    return PageState(datasets=(DEMO_ID,), conditions=CONDITIONS, tab="decide", **kw)


def _said_well(text: str, *words):
    assert not CORE_WORDS.search(text), text
    for w in words:
        assert w in text, (w, text)


def test_cwd001_a_capacity_below_one_case_is_said_under_its_box(tmp_path):
    """The capacity and floors card (Decide) with a capacity of 0.5 cases: it said "Capacity
    not used: budget=0.5 looks like a fraction of the cases, ... pass fraction=0.5"."""
    app = create_app(store=DatasetStore(tmp_path))
    out = call_card(app, f"{ids.DCT_CAPACITY_MSG}.children", _page(capacity="0.5"), loaded=LOADED,
                    **{"viz-data.data": {"drawn": 1}})
    _said_well(out["capacity_msg"], "Capacity not used: 0.5 cases is less than one case",
               "write 50%")
    assert "No threshold meets" not in plain_text(out["summary"])


def test_cwd002_the_summary_strip_says_it_in_the_same_words(cache):
    """The summary strip's second line: it said "Budget=0.6024 looks like a fraction of
    the cases ... pass fraction=0.6024 ... The headline is the optimum without them"."""
    patch = strip_update(cache, _page(capacity="0.6024"), ids.VIZ_DATA)["summary"]
    text = json_text(patch)
    _said_well(text, "0.6024 cases is less than one case", "write 60.24%",
               "The headline is the optimum without them")


def json_text(patch) -> str:
    return " ".join(plain_text(v) if not isinstance(v, str) else v
                    for v in _ops(patch).values())


def test_cwd003_the_html_reports_headline_says_it_too(cache):
    analysis = _analysis(cache)
    page = _page(capacity="0.5")
    headline = report_headline(page, analysis, economics_from_state(CONDITIONS.to_store()))
    _said_well(headline.summary, "Capacity not used: 0.5 cases is less than one case")


def test_cwd004_download_decision_under_a_capacity_below_one_case(cache):
    analysis = _analysis(cache)
    page = _page(capacity="0.5")
    _, status = decision_download(cache, cache.store, page, analysis)
    _said_well(status, "Nothing was downloaded", "0.5 cases is less than one case")


def test_cwd005_a_capacity_below_one_case_out_of_a_volume(tmp_path):
    app = create_app(store=DatasetStore(tmp_path))
    out = call_card(app, f"{ids.DCT_CAPACITY_MSG}.children",
                    _page(capacity="0.25", volume="4000"), loaded=LOADED,
                    **{"viz-data.data": {"drawn": 1}})
    _said_well(out["capacity_msg"], "0.25 cases is less than one case", "of the 4,000 cases")


def test_cwd006_a_budget_of_cases_per_month_below_one_case_draws_its_line(tmp_path):
    """The combining card (Beyond binary) with 0.5 cases per month and a budget of 0.6
    cases: it said "Budget: fraction must lie in [0, 1], got 1.2."."""
    app = create_app(store=DatasetStore(tmp_path))
    conditions = dataclasses.replace(CONDITIONS, population=0.5)
    page = PageState(datasets=(DEMO_ID,), conditions=conditions, tab="beyond")
    out = call_card(app, f"{ids.COMBINE_RESULT}.children", page,
                    loaded=LOADED, **{f"{ids.COMBINE}.data": {"budget": 0.6, "unit": "cases", "repair": None,
                                               "logic": False}})
    text = plain_text(out)
    _said_well(text, "Budget: 0.6 of N = 0.5 cases")


def test_cwd007_the_core_messages_a_page_can_meet_in_page_words():
    """Each core message the helper maps, raised by the core itself (not copied)."""
    from roc_dash.core.roc.curves import roc_curve

    def refused(f):
        with pytest.raises(ValueError) as e:
            f()
        return e.value

    import numpy as np
    curve = roc_curve(np.array([0, 1, 0, 1]), np.array([0.1, 0.9, 0.4, 0.6]))
    hull_pts = (np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.9, 1.0]))

    class Hull:
        fpr, tpr = hull_pts

    cases = refused(lambda: budget_operating_point(Hull, n_total=100, prior_pos=0.3,
                                                   budget=0.4))
    assert "pass fraction" in str(cases)
    assert in_page_words(cases) == ("0.4 cases is less than one case: write 40% for that "
                                    "share of the 100 cases, or give a number of cases (800).")
    share = refused(lambda: budget_operating_point(Hull, n_total=100, prior_pos=0.3,
                                                   fraction=1.5))
    assert not_used("Capacity", share) == ("Capacity not used: the capacity must be a share "
                                           "between 0% and 100% of the cases, not 150%.")
    many = refused(lambda: at_k(curve, k=9))
    assert not_used("Capacity", many) == ("Capacity not used: the capacity is more than the 4 "
                                          "cases of the data: give at most 4, or a share (3%).")
    prior = refused(lambda: budget_operating_point(Hull, n_total=100, prior_pos=1.0,
                                                   budget=5))
    _said_well(in_page_words(prior), "The prior p(+) must lie strictly between 0% and 100%")
    # a message already in people's words passes as it is
    assert in_page_words(ValueError("the floor on recall must lie in [0, 1] (a share)")) == \
        "The floor on recall must lie in [0, 1] (a share)."
    assert in_page_words(ValueError("gbm.csv: no rows of model 'rf'.")) == \
        "gbm.csv: no rows of model 'rf'."  # a name keeps its case


def _read_back(values) -> PageState:
    """The page state a callback reads from ``values`` (:func:`dependencies` of every field)."""
    grouped = {}
    for name, dep in dependencies(State).items():
        deps = dep if isinstance(dep, tuple) else (dep,)
        got = [values[f"{d.component_id}.{d.component_property}"] for d in deps]
        grouped[name] = got[0] if len(got) == 1 else tuple(got)
    return PageState.from_dash(grouped)


def test_cwd010_page_values_are_read_back_as_the_page_and_open_the_tabs_gate():
    page = PageState(datasets=(DEMO_ID,), conditions=CONDITIONS, tab="monitor", det=True,
                     capacity="5%", floors="recall >= 0.5", samples=101)
    values = page_values(page, loaded=LOADED)
    assert _read_back(values) == page
    two = dataclasses.replace(page, models=tuple(ModelRef(DEMO_ID, m) for m in MODELS[:2]))
    assert _read_back(page_values(two)) == two  # these two, not every model loaded
    assert {values[f"{ids.TAB_GATE}{t}.data"] for t in TABS[1:]} == {"monitor"}
    assert len(values) == sum(len(f.sources) for f in FIELDS) + len(TABS) - 1


@pytest.mark.parametrize("typed, said", [("0", "A capacity of 0 cases flags nothing"),
                                         (" 0% ", "A capacity of 0% flags nothing")])
def test_cwd011_a_capacity_of_0_is_said_under_its_box(tmp_path, typed, said):
    """review9: 0.5, -3 and 100000 had their words under the box, 0 none (the strip alone
    said "… under the capacity of 0 cases: flags nothing")."""
    app = create_app(store=DatasetStore(tmp_path))
    out = call_card(app, f"{ids.DCT_CAPACITY_MSG}.children", _page(capacity=typed),
                    loaded=LOADED, **{"viz-data.data": {"drawn": 1}})
    _said_well(out["capacity_msg"], said, "(3%)")
    assert "not used" not in out["capacity_msg"]  # it is used: the decision flags nothing
    none = call_card(app, f"{ids.DCT_CAPACITY_MSG}.children", _page(capacity="80"),
                     loaded=LOADED, **{"viz-data.data": {"drawn": 1}})
    assert not none["capacity_msg"]
