"""The short ways to declare callbacks (:mod:`roc_dash.app.callbacks`)."""

import re
from pathlib import Path

from dash import Dash, Input, Output, State

from roc_dash.app.callbacks import NAMESPACE, each, in_browser

ASSETS = Path(__file__).resolve().parents[3] / "roc_dash" / "assets"


def test_cbk001_each_lists_one_dependency_per_component_in_order():
    got = each(Input, "clickData", "a-graph", "b-graph", "c-graph")
    assert [(d.component_id, d.component_property) for d in got] == [
        ("a-graph", "clickData"), ("b-graph", "clickData"), ("c-graph", "clickData")]
    assert all(isinstance(d, Input) for d in got)
    assert each(State, "value") == []


def test_cbk002_in_browser_registers_the_namespaced_function_as_declared():
    app = Dash(__name__)
    in_browser(app, "copyLink", Output("status", "children"), Input("copy", "n_clicks"),
               State("url", "data"))
    in_browser(app, "showTab", Output("panel", "hidden"), Input("tab", "data"), initial=True)
    first, second = app._callback_list
    assert first["clientside_function"] == {"namespace": NAMESPACE, "function_name": "copyLink"}
    assert first["output"] == "status.children"
    assert [i["id"] for i in first["inputs"]] == ["copy"]
    assert [s["id"] for s in first["state"]] == ["url"]
    assert first["prevent_initial_call"] is True
    assert second["clientside_function"]["function_name"] == "showTab"
    assert second["prevent_initial_call"] is False


def test_cbk003_every_clientside_function_of_the_app_is_defined_in_the_assets(app):
    """A function the page names in the ``rocDash`` namespace exists in ``assets/*.js``."""
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in ASSETS.glob("*.js"))
    named = {c["clientside_function"]["function_name"] for c in app._callback_list
             if (c.get("clientside_function") or {}).get("namespace") == NAMESPACE}
    assert {"copyLink", "deferClick", "moveIsoLine", "showTab"} <= named
    missing = {n for n in named if not re.search(rf"\b{n}\s*[:(]|\b{n}\s*=\s*function", scripts)}
    assert missing == set()
