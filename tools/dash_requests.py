"""Dash callback requests as the page sends them, built from an app's own callback map (for
tests that talk to the server over HTTP or through Flask's test client)."""

from __future__ import annotations

import json


def callback_specs(app) -> dict:
    """Each callback's request skeleton: ``{key: {"output", "outputs", "inputs", "state"}}``."""
    specs = {}
    for key, cb in app.callback_map.items():
        outs = key.strip(".").split("...") if key.startswith("..") else [key]
        outputs = [{"id": o.rsplit(".", 1)[0], "property": o.rsplit(".", 1)[1]} for o in outs]
        specs[key] = {"output": key, "outputs": outputs if key.startswith("..") else outputs[0],
                      "inputs": cb["inputs"], "state": cb["state"]}
    return specs


def wildcard_id(kind: str, index) -> str:
    """How Dash names a pattern-matching component's property in ``changedPropIds``."""
    return json.dumps({"index": index, "type": kind}, sort_keys=True, separators=(",", ":"))


def callback_body(specs: dict, first_output: str, values: dict, changed: list[str]) -> dict:
    """The request of the callback whose first output is ``first_output`` (``"id.prop"``).

    ``values``: ``{"id.prop": value}``; for a pattern-matching (ALL) input, ``{"type.prop":
    [(index, value), ...]}``. ``changed``: the ``changedPropIds`` (see :func:`wildcard_id`).
    """
    spec = next(s for k, s in specs.items() if k.strip(".").split("...")[0] == first_output
                or k.strip(".").split("...")[0].split("@")[0] == first_output)

    def filled(items):
        out = []
        for item in items:
            if item["id"].startswith("{"):
                kind = json.loads(item["id"])["type"]
                pairs = values.get(f"{kind}.{item['property']}", [])
                out.append([{"id": {"index": index, "type": kind}, "property": item["property"],
                             "value": value} for index, value in pairs])
            else:
                out.append(dict(item, value=values.get(f"{item['id']}.{item['property']}")))
        return out

    return {"output": spec["output"], "outputs": spec["outputs"],
            "inputs": filled(spec["inputs"]), "state": filled(spec["state"]),
            "changedPropIds": changed}


#: The views callback, by its first output: it reads the gestures on the controls, writes the
#: conditions, and draws the views (``roc-graph.figure`` and the others).
VIEWS_CALLBACK = "cost-fp-slider.value"


def views_values(datasets: list, models: list[str]) -> dict:
    """The views callback's values (:data:`VIEWS_CALLBACK`) for ``datasets`` and ``models``
    (their keys ``"<dataset id>/<name>"``, or names of the last dataset's models) at the
    page's default settings, as the page sends it after the datasets changed
    (``changedPropIds``: ``["datasets.data"]``)."""
    from roc_dash.app.state import ControlState

    keys = [m if "/" in m else f"{datasets[-1]}/{m}" for m in models]
    return {
        "datasets.data": datasets, "models.value": keys,
        "conditions.data": ControlState().to_store(),
        "averaging.value": "pooled", "level.value": 0.95, "band.value": "pointwise",
        "samples.value": 51, "det.value": [], "presentation.value": [],
        "pinned.data": [], "roc-ties.value": [], "pr-mode.value": "pr",
        "zoom.data": None, "threshold-model.value": None,
        "threshold-axis.value": "threshold", "combine.data": None, "viz-data.data": None,
    }


def call_flat(cb: dict, args: list):
    """Run a callback map entry's function with its inputs then states in the callback
    map's flat order (``cb["inputs"] + cb["state"]``), grouped as the function takes them
    (Dash's flexible signatures: a dict of named values, or positional)."""
    from dash._grouping import map_grouping

    grouped = map_grouping(lambda i: args[i], cb["inputs_state_indices"])
    fn = cb["callback"].__wrapped__
    if isinstance(grouped, dict):
        return fn(**grouped)
    return fn(*grouped) if isinstance(grouped, list | tuple) else fn(grouped)
