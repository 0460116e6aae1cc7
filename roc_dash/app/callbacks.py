"""Short ways to declare the features' callbacks: one property of several components, and a
callback that runs in the browser.

Dash declares a callback by listing its ``Output``, ``Input`` and ``State`` dependencies one
by one; where several components share one property (the four graphs' ``clickData``, the
three sliders' ``drag_value``) :func:`each` lists them in one line, and :func:`in_browser`
registers one of the page's JavaScript functions (``window.dash_clientside.rocDash``, in
``assets/``) without repeating the namespace and ``prevent_initial_call`` each time.
"""

from __future__ import annotations

from dash import ClientsideFunction

__all__ = ["NAMESPACE", "each", "in_browser"]

#: The namespace of the page's clientside functions (``assets/*.js``).
NAMESPACE = "rocDash"


def each(kind, prop: str, *component_ids) -> list:
    """``[kind(component_ids[0], prop), kind(component_ids[1], prop), ...]``: one dependency
    (``Input``, ``State`` or ``Output``) per component, on the same property, in order."""
    return [kind(component_id, prop) for component_id in component_ids]


def in_browser(app, function: str, *dependencies, initial: bool = False) -> None:
    """Register the clientside callback ``rocDash.<function>`` of ``assets/`` on ``app``.

    Parameters
    ----------
    app : dash.Dash
    function : str
        The name of the function in the ``rocDash`` namespace.
    *dependencies : dash.Output, dash.Input or dash.State
        As :meth:`dash.Dash.clientside_callback` takes them, outputs first.
    initial : bool, default False
        Whether it also runs when the page loads (``prevent_initial_call=not initial``).
    """
    app.clientside_callback(ClientsideFunction(NAMESPACE, function), *dependencies,
                            prevent_initial_call=not initial)
