"""A card callback's inputs built from a page state, as the browser sends them: for tests
that call a callback of the app's callback map (or post its request) without writing its
``"id.property"`` values by hand.

The trap it removes: a card of a later tab reads the tab shown from its gate,
``tab-gate-<tab>.data`` (:func:`roc_dash.app.page_state.tab_gate`), not from ``tab.data``;
a test that gives ``tab.data`` only leaves the gate empty, and the card then does nothing
(the page's first tab is shown) whether or not what the test checks holds.
:func:`page_values` gives the page's tab to ``tab.data`` and to every gate alike.
"""

from __future__ import annotations

from roc_dash.app import ids
from roc_dash.app.page_state import FIELDS, PageState
from roc_dash.app.state import TABS
from tools.dash_requests import call_flat

__all__ = ["page_values", "card_callback", "call_card"]


def _flag(on: bool) -> list:
    return ["on"] if on else []


def _field_values(page: PageState, name: str, loaded) -> tuple:
    """The values of the field ``name``'s sources (:data:`FIELDS`), in their order."""
    m, s = page.monitor, page.slices
    if name == "models":
        if page.models is None and loaded is None:
            raise ValueError("every model shown (models None): give loaded=[the keys of the "
                             "models loaded], the model list's options, or the card shows "
                             "none")
        keys = [r.key for r in page.models] if page.models is not None else list(loaded)
        # no options: the models given are read as they are (options that are all of them
        # would read as "every model loaded", None)
        options = None if loaded is None else [{"label": k.split("/", 1)[-1], "value": k}
                                                for k in loaded]
        return keys, options
    if name == "slices":
        return (s.model.key if s.model else None, s.column, s.cross, s.constraint, s.priors)
    if name == "monitor":
        return (m.reference, list(m.windows), m.time, m.every, ["hide"] if m.hide_labels else [],
                m.estimator, m.record, [list(p) for p in m.pins])
    value = getattr(page, name)
    if name == "datasets":
        return (list(value),)
    if name == "conditions":
        return (value.to_store() if value is not None else None,)
    if name == "pins":
        return ([p.to_store() for p in value],)
    if name == "zoom":
        return (page.zoom_store(),)
    if isinstance(value, bool):
        return (_flag(value),)
    return (value,)


def page_values(page: PageState, *, loaded=None, **extra) -> dict[str, object]:
    """``{"id.property": value}`` of every property the page's state is read from (the
    sources of :data:`~roc_dash.app.page_state.FIELDS`) for ``page``, and of the later tabs'
    gates (``tab-gate-<tab>.data``: the page's tab, as :mod:`~roc_dash.app.features.tabs`
    sets them while that tab shows); ``extra`` (``id__property=value``, or a dict given as
    ``**{"id.property": value}``) adds or replaces values of the cards' own controls.

    ``loaded``: the keys (``"<dataset id>/<model>"``) of the models loaded, the model
    list's options (default: none, the models of ``page.models`` are read as they are);
    needed with ``page.models`` None (every model shown): they are the models shown."""
    out: dict[str, object] = {}
    for f in FIELDS:
        for (cid, prop), value in zip(f.sources, _field_values(page, f.name, loaded),
                                      strict=True):
            out[f"{cid}.{prop}"] = value
    for tab in TABS[1:]:
        out[f"{ids.TAB_GATE}{tab}.data"] = page.tab
    out.update({k.replace("__", ".") if "." not in k else k: v for k, v in extra.items()})
    return out


def card_callback(app, first_output: str) -> dict:
    """The callback map's entry whose first output is ``first_output`` (``"id.property"``)."""
    return next(cb for key, cb in app.callback_map.items()
                if key.strip(".").split("...")[0] == first_output)


def call_card(app, first_output: str, page: PageState, *, loaded=None, **extra):
    """Call the callback whose first output is ``first_output`` with the inputs and states
    :func:`page_values` gives for ``page`` (a property it does not name: None)."""
    cb = card_callback(app, first_output)
    values = page_values(page, loaded=loaded, **extra)
    names = [f"{i['id']}.{i['property']}" for i in cb["inputs"] + cb["state"]]
    return call_flat(cb, [values.get(n) for n in names])
