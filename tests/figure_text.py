"""The text a plotly figure may draw, for tests that read what a figure shows."""

from __future__ import annotations

import json

import plotly

#: Keys whose strings plotly never draws (ids for grouping, data for the page's script).
NOT_DRAWN = {"legendgroup", "uid"}


def drawn_strings(fig) -> str:
    """Every string of the figure that plotly may draw, joined by newlines: all of them but
    ids (``legendgroup``, ``uid``) and the layout's ``meta`` (read by the page's script,
    never drawn)."""
    spec = json.loads(json.dumps(fig.to_plotly_json(), cls=plotly.utils.PlotlyJSONEncoder))
    spec.get("layout", {}).pop("meta", None)
    found = []

    def walk(value, key=""):
        if key in NOT_DRAWN:
            return
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)

    walk(spec)
    return "\n".join(found)
