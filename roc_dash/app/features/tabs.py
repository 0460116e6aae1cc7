"""The page's tabs: *Decide*, *Compare* and *Beyond binary*, each a group of cards.

The tab bar sits above the cards; the summary strip and the sidebar (data, costs and class
mix, ...) stay on every tab. Every card stays in the page whatever tab is shown, and a tab
hides the others' panels in the browser. The cards of *Compare*, *Beyond binary* and *Monitor*
are lazy (for page loads under load): each callback computing a card's content takes the tab
as an input (``Input(ids.TAB, "data")``, or its tab's gate,
:func:`..page_state.tab_gate`) and does nothing
(``PreventUpdate``) unless its tab is shown (:func:`..state.tab_shown`), so a first load or a
new cost recomputes only what is seen, and opening a tab brings its cards up to date. The
cards that follow the conditions or the views' data read them as ``State`` and take the
gate as input: a store per later tab, set in the browser to the tab shown when the tab
changes, and on a new cost, prior or view data only while its tab shows; a cost or prior
click on *Decide* then sends no request for the hidden tabs' cards at all. Their selectors (model lists, options) stay eager; the *Decide* tab's views also fill
the model table of *Compare*. Exports compute what they need themselves, whatever tab was
opened. ``tests/unit/app/test_lazy_tabs.py`` fails for a new card that is neither lazy nor
listed as cheap. The tab shown goes into the page's link (``tab=compare``; the first tab is
left out, so older links are unchanged) and so into saved views: opening either shows the
same tab.
"""

from __future__ import annotations

from dash import Input, Output, dcc, html
from dash.exceptions import PreventUpdate

from .. import ids
from ..callbacks import in_browser
from ..page_state import parse_link
from ..state import TABS

__all__ = ["LABELS", "bar", "panel", "register"]

#: Each tab's label and tooltip, in :data:`..state.TABS` order.
LABELS = {
    "decide": ("Decide", "The linked views (ROC, precision-recall, cost, cost against "
                         "threshold) and the operating point"),
    "compare": ("Compare", "The model table with its intervals and tests, and relative "
                           "superiority of two models"),
    "beyond": ("Beyond binary", "Multi-class data, and combining classifiers: a budget, "
                                "repaired concavities, AND/OR of two models"),
    "monitor": ("Monitor", "A decision checked on windows of predictions after deployment: "
                           "the operating point's path, the prior and the costs over time"),
}


def bar():
    """The row of tabs (one button each) and the store of the tab shown."""
    return html.Div(id=ids.TAB_BAR, className="page-tabs", role="tablist",
                    **{"aria-label": "Views"}, children=[
        *(html.Button(LABELS[name][0], id=ids.TAB_BUTTON + name, n_clicks=0,
                      className="page-tab selected" if name == TABS[0] else "page-tab",
                      role="tab", title=LABELS[name][1],
                      **{"aria-selected": "true" if name == TABS[0] else "false",
                         "aria-controls": ids.TAB_PANEL + name})
          for name in TABS),
        dcc.Store(id=ids.TAB, data=TABS[0]),
        *(dcc.Store(id=ids.TAB_GATE + name, data=TABS[0]) for name in TABS[1:]),
    ])


def panel(name: str, children, *, className: str = "grid"):
    """The cards of the tab ``name`` (hidden unless it is the tab shown)."""
    return html.Div(id=ids.TAB_PANEL + name, className=f"tab-panel {className}",
                    role="tabpanel", hidden=name != TABS[0], children=children,
                    **{"aria-labelledby": ids.TAB_BUTTON + name})


def register(app, cache, store) -> None:
    """The tab a link names; a click on a tab, and showing its panel (clientside)."""

    @app.callback(
        Output(ids.TAB, "data"),
        Input(ids.URL, "search"),
    )
    def tab_from_link(search):
        link, given = parse_link(search)
        if "tab" not in given:
            raise PreventUpdate  # the first tab, as the page starts
        return link.tab

    in_browser(app, "pickTab",
               Output(ids.TAB, "data", allow_duplicate=True),
               *(Input(ids.TAB_BUTTON + name, "n_clicks") for name in TABS))

    in_browser(app, "showTab",
               *(Output(ids.TAB_PANEL + name, "hidden") for name in TABS),
               *(Output(ids.TAB_BUTTON + name, "className") for name in TABS),
               *(Output(ids.TAB_BUTTON + name, "aria-selected") for name in TABS),
               Input(ids.TAB, "data"))

    in_browser(app, "gateTabs",
               *(Output(ids.TAB_GATE + name, "data") for name in TABS[1:]),
               Input(ids.TAB, "data"), Input(ids.CONDITIONS, "data"), Input(ids.VIZ_DATA, "data"))
