"""Cards of the tabs not shown compute nothing (issue 14): each server callback that writes
into the Compare or Beyond binary tab takes the tab as an input and does its work only while
its tab is shown, or is listed below as cheap with the reason."""

import numpy as np
import pandas as pd
import pytest
from dash.exceptions import PreventUpdate
from sklearn.metrics import roc_auc_score

from roc_dash.app import create_app, ids
from roc_dash.app.page_state import ModelRef, PageState, tab_gate
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import TABS, ControlState, tab_shown
from tests.card_inputs import page_values
from tests.conftest import DATA
from tools.dash_requests import call_flat, callback_body, callback_specs

DEMO = DATA / "demo_predictions.csv"
TAB_INPUT = {"id": ids.TAB, "property": "data"}
#: A later tab's gate: the tab, set in the browser only when the tab changes or while it shows.
GATES = [{"id": ids.TAB_GATE + name, "property": "data"} for name in TABS[1:]]
#: What a cost or prior click writes (the main callback's stores the cards follow).
CLICK_WRITES = [{"id": ids.CONDITIONS, "property": "data"}, {"id": ids.VIZ_DATA, "property": "data"}]


def _tab_input(cb):
    """The callback's input for the tab shown (the tab's store or a later tab's gate)."""
    hits = [i for i in cb["inputs"] if i == TAB_INPUT or i in GATES]
    return hits[0] if len(hits) == 1 else None

#: Server callbacks that write into a later tab's cards yet run whatever tab is shown, by
#: their first output, with why that is fine. A new card's callback belongs here only if it
#: is as cheap; otherwise it takes ``Input(ids.TAB, "data")`` and stops unless its tab shows.
EAGER = {
    "combine.data": "the combining options as typed: parsing, no analysis",
    "repair-model.options": "the shown models' names for the selectors (no analysis)",
    "mc-model.options": "which shown models are multi-class (their kinds; no curves)",
    "slices-model.options": "the shown models' names and the table's slice columns for the "
                            "selectors (choices; the report reads them)",
    "slices-constraint.value": "the constraint a link names",
    "slices-priors.value": "the priors per group a link names (parsing, no analysis)",
    "cal-download.data": "a click on the card's download button only",
    "cal-recalibrate.value": "the recalibration the decision stores, as a link names it "
                             "(parsing, no analysis)",
    "mon-reference.value": "the Monitor tab's settings a link names (parsing, no analysis)",
    "mon-windows.value": "a dataset's removal or its Undo only: the windows without it, or "
                         "with it again (a list from the removal record, no analysis)",
    "mon-windows.options": "the datasets loaded, the pins and the windows' category columns "
                           "for the Monitor tab's selectors (choices; the link reads them)",
    "mon-record.data": "a decision record uploaded in the Monitor tab, read and validated",
    "mon-files.data": "window files uploaded in the Monitor tab: read once and kept (a "
                      "click on its upload only)",
    "mon-pins.data": "a click on the Monitor tab's Pin or Clear pins only (its monitor "
                     "already computed while the tab shows, cached)",
    "cmx-matrix.value": "the cost matrix of several classes a link names (no analysis)",
    "cmx-prior.value": "the prior of several classes a link names (no analysis)",
    "cmx-card.style": "whether a shown model is multi-class (the multi-class card's options)",
    "cmx-download.data": "a click on the card's download button only",
}
#: The cards made lazy (the test must not pass by finding none).
LAZY = {"comparison-result.children": "compare", "sup-graph.figure": "compare",
        "slices-source.children": "compare", "cal-graph.figure": "compare",
        "combine-result.children": "beyond", "mc-curves.figure": "beyond",
        "mon-status.children": "monitor", "cmx-msg.children": "beyond",
        "model-table.children": "compare"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(store=DatasetStore(tmp_path_factory.mktemp("lazy")))


def _ids_under(component, found: set) -> set:
    if isinstance(getattr(component, "id", None), str):
        found.add(component.id)
    children = getattr(component, "children", None)
    for child in children if isinstance(children, (list, tuple)) else [children]:
        if hasattr(child, "to_plotly_json"):
            _ids_under(child, found)
    return found


def _find(component, wanted: str):
    if getattr(component, "id", None) == wanted:
        return component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, (list, tuple)) else [children]:
        if hasattr(child, "to_plotly_json") and (hit := _find(child, wanted)) is not None:
            return hit
    return None


def _later_tab_ids(app) -> dict[str, str]:
    """Each component id inside a later tab's panel: its tab."""
    layout = app.layout() if callable(app.layout) else app.layout
    return {cid: name for name in TABS[1:]
            for cid in _ids_under(_find(layout, ids.TAB_PANEL + name), set())}


def _outputs(key: str) -> list[str]:
    return [o.rsplit(".", 1)[0] for o in key.strip(".").split("...")]


def _server_callbacks(app):
    """``{first output "id.prop": (tabs written into, callback map entry)}`` of the server
    callbacks writing into a later tab (the clientside ones run in the browser)."""
    where = _later_tab_ids(app)
    clientside = {c["output"] for c in app._callback_list if c.get("clientside_function")}
    found = {}
    for key, cb in app.callback_map.items():
        tabs = {where[o] for o in _outputs(key) if o in where}
        if tabs and key not in clientside:
            first = key.strip(".").split("...")[0].partition("@")[0]  # no allow_duplicate hash
            assert first not in found, f"two callbacks write {first} first"
            found[first] = (tabs, cb)
    return found


def test_lzy001_every_later_tab_card_is_lazy_or_listed_as_cheap(app):
    found = _server_callbacks(app)
    assert len(_later_tab_ids(app)) > 20  # the walk reached the cards
    for first, (tabs, cb) in found.items():
        lazy = _tab_input(cb) is not None
        assert lazy or first in EAGER, (
            f"{first} writes into the {sorted(tabs)} tab on every change: add "
            f"Input(ids.TAB, 'data') and stop unless the tab shows (or list it in EAGER)")
        assert not (lazy and first in EAGER), f"{first} is lazy: take it out of EAGER"
        assert TAB_INPUT not in cb["state"], f"{first}: a tab opened must run it (Input)"
    lazy = {k: next(iter(t)) for k, (t, cb) in found.items() if _tab_input(cb) is not None}
    assert lazy == LAZY
    assert set(EAGER) <= set(found), "an EAGER entry names no such callback"


def _call_with_tab(cb, tab, **values):
    """The callback's function with ``tab`` for the tab and None or ``values`` elsewhere."""
    args = [values.get(f"{i['id']}.{i['property']}") for i in cb["inputs"] + cb["state"]]
    args[cb["inputs"].index(_tab_input(cb))] = tab
    return call_flat(cb, args)


@pytest.mark.parametrize("first", sorted(LAZY))
def test_lzy002_a_lazy_card_stops_while_its_tab_is_hidden(app, first):
    _, cb = _server_callbacks(app)[first]
    for tab in [t for t in TABS if t != LAZY[first]] + [None, "nonsense"]:
        with pytest.raises(PreventUpdate):
            _call_with_tab(cb, tab)


def _demo_auc(frame, model):
    rows = frame[frame["model"] == model]
    return roc_auc_score(rows["label"] == "pos", rows["score"])


def test_lzy003_comparison_card_shown_gives_the_delong_differences(app):
    models = ["logistic regression", "naive Bayes"]
    _, cb = _server_callbacks(app)["comparison-result.children"]
    values = {"datasets.data": [DEMO_ID], "models.value": [f"{DEMO_ID}/{m}" for m in models],
              "conditions.data": ControlState(prior=0.3).to_store(), "p-kind.value": "holm",
              "cmp-measure.value": "auc", "level.value": 0.95, "band.value": "pointwise",
              "samples-ok.data": 51}
    with pytest.raises(PreventUpdate):
        _call_with_tab(cb, "decide", **values)
    content = _call_with_tab(cb, "compare", **values)
    table = content[0].children  # the matrix in its scrolling box
    cell = table.children[2].children[0].children[2]  # row 1 (first model), column 2
    frame = pd.read_csv(DEMO)
    expected = _demo_auc(frame, models[0]) - _demo_auc(frame, models[1])
    shown = float(cell.children[0].children.replace("−", "-"))
    np.testing.assert_allclose(shown, expected, rtol=1e-5)


def test_lzy004_html_report_has_the_comparison_though_compare_never_opened(app):
    """The export reads the Compare tab's selectors (eager), not its cards' content, and
    computes the comparison itself: opening the tab is not needed."""
    lazy_outputs = {o for key in app.callback_map
                    if key.strip(".").split("...")[0] in LAZY for o in _outputs(key)}
    assert len(lazy_outputs) >= len(LAZY)
    export = next(cb for key, cb in app.callback_map.items()
                  if key.strip(".").startswith(f"{ids.DOWNLOAD}.data"))
    read = {i["id"] for i in export["inputs"] + export["state"]}
    assert not read & lazy_outputs
    client = app.server.test_client()
    specs = callback_specs(app)
    # the Decide tab shown: the comparison card's gate (tab-gate-compare) says so too
    page = page_values(PageState(datasets=(DEMO_ID,), models=(
        ModelRef(DEMO_ID, "logistic regression"), ModelRef(DEMO_ID, "naive Bayes")),
        conditions=ControlState(prior=0.3), tab="decide"),
        **{"cmp-measure.value": "auc", "p-kind.value": "holm"})
    hidden = client.post("/_dash-update-component", json=callback_body(
        specs, "comparison-result.children", page, ["conditions.data"]))
    assert hidden.status_code == 204  # the card computed nothing
    r = client.post("/_dash-update-component", json=callback_body(
        specs, "download.data", {**page, "export-html.n_clicks": 1},
        ["export-html.n_clicks"]))
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    report = r.get_json()["response"]["download"]["data"]["content"]
    assert "<h2>Model comparison</h2>" in report and "naive Bayes" in report


def test_lzy005_a_missing_or_unknown_tab_is_the_first():
    assert tab_shown(None, TABS[0]) and tab_shown("nonsense", TABS[0])
    assert not tab_shown(None, "compare") and not tab_shown(TABS[0], "compare")
    assert tab_shown("compare", "compare") and tab_shown("beyond", "beyond")


def test_lzy006_a_click_sends_no_request_for_a_hidden_tabs_cards(app):
    """A lazy card that follows the conditions or the views' data reads them as State and
    takes its own tab's gate as input, so a cost or prior click on Decide (which writes
    them) does not run it while its tab is hidden (no request, not even a 204)."""
    found = _server_callbacks(app)
    gated = set()
    for first, tab in LAZY.items():
        _, cb = found[first]
        follows = [d for d in CLICK_WRITES if d in cb["inputs"] + cb["state"]]
        assert not [d for d in CLICK_WRITES if d in cb["inputs"]], (
            f"{first}: a cost or prior click runs it on any tab; read the conditions and the "
            f"views' data as State and take tab_gate({tab!r}) as input")
        if follows:
            assert _tab_input(cb) == {"id": ids.TAB_GATE + tab, "property": "data"}, first
            gated.add(first)
    assert len(gated) >= 6  # comparison, superiority, slices, calibration, combine, monitor
    gate = next(c for c in app._callback_list if c["output"].startswith(f"..{ids.TAB_GATE}"))
    assert gate.get("clientside_function", {}).get("function_name") == "gateTabs"
    assert [f"{i['id']}.{i['property']}" for i in gate["inputs"]] == [
        "tab.data", "conditions.data", "viz-data.data"]
    with pytest.raises(ValueError, match="no gate for the tab 'decide'"):
        tab_gate("decide")
