"""The marks a change of costs or prior moves, drawn as layout annotations, not traces.

The optimum's star (ROC, PR and cost views) and the ring around the optimal vertex (ROC) are
``layout.annotations``: a glyph of fixed size in pixels at a point in data units. Moving an
annotation is a layout change, which plotly redraws in a few ms; a moved trace makes
``Plotly.react`` recompute every trace of the view (60-80 ms a view: docs/performance.md).
Annotations are not draggable (the ROC's graph config edits shapes only, for its iso line)
and do not grow with the zoom. The PR and cost views' stars carry their hover text
(``hovertext``) and catch the mouse for it. The ROC's star carries its text too, but lets
the mouse through (``captureevents`` false) to the iso line under it, a drag of the line at
the optimum: the page shows the star's text itself while the pointer rests on it
(``assets/roc_star.js``); the ring lets the mouse through as well. The legend keeps
its "optimal operating point" entry through a trace with no point (:func:`star_key`), which
a change of costs or prior never touches.

The page and the report find the annotations by name (:data:`STAR_NOTE`, :data:`RING_NOTE`;
:func:`note_index`).
"""

from __future__ import annotations

import math

from .style import ISO_COLOR, OPTIMUM_COLOR

__all__ = ["STAR_NOTE", "RING_NOTE", "KEY_UID", "STAR", "RING", "star_note", "ring_note",
           "star_key", "note_index", "move_note", "note_x"]

#: Names of the star's and the ring's annotations (the page moves them by these).
STAR_NOTE = "optimum"
RING_NOTE = "optimum ring"
#: uid of the legend's "optimal operating point" entry (a trace without points).
KEY_UID = "optimum-key"
#: The glyphs: a star, and a large circle drawn as an outline.
STAR = "★"
RING = "◯"
#: Font size (px) of a glyph as wide as a marker of size 1 (the star's and the circle's
#: glyphs fill about 0.8 and 0.9 of their font size).
_STAR_FONT = 1.3
_RING_FONT = 1.12


def star_note(x: float, y: float, hovertext: str | None = None, *, size: float = 15,
              color: str = OPTIMUM_COLOR, captures: bool = True) -> dict:
    """The optimum's star as an annotation at (x, y), the size of a star marker of ``size``
    px. With a ``hovertext`` it catches the mouse over its box (plotly gives such an
    annotation pointer events); without, or with ``captures=False`` (the ROC's star, over
    the iso line's drag), the mouse reaches what lies under it."""
    note = {"x": x, "y": y, "xref": "x", "yref": "y", "text": STAR, "showarrow": False,
            "xanchor": "center", "yanchor": "middle",
            "font": {"size": round(size * _STAR_FONT, 1), "color": color}, "name": STAR_NOTE}
    if hovertext is not None:
        note["hovertext"] = hovertext
        if not captures:
            note["captureevents"] = False
    return note


def ring_note(x: float, y: float, *, size: float = 20, color: str = ISO_COLOR) -> dict:
    """The ring around the optimal vertex, ``size`` px across, at (x, y)."""
    return {"x": x, "y": y, "xref": "x", "yref": "y", "text": RING, "showarrow": False,
            "xanchor": "center", "yanchor": "middle",
            "font": {"size": round(size * _RING_FONT, 1), "color": color},
            "name": RING_NOTE}


def star_key(*, name: str = "optimal operating point", size: float = 15,
             color: str = OPTIMUM_COLOR) -> dict:
    """The legend's entry for the star: a star marker trace with no point."""
    return {"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": name,
            "uid": KEY_UID, "marker": {"symbol": "star", "size": size, "color": color,
                                       "line": {"color": "white", "width": 1}},
            "hoverinfo": "skip"}


def note_index(annotations, name: str) -> int | None:
    """Position of the annotation named ``name`` in ``annotations`` (plotly objects or
    dicts), or None."""
    for k, a in enumerate(annotations or ()):
        if (a.get("name") if isinstance(a, dict) else getattr(a, "name", None)) == name:
            return k
    return None


def note_x(x: float, xlog: float | None) -> float:
    """An annotation's x for an FPR: on a log FPR axis plotly places annotations by the
    log10 of the value, FPR = 0 at the floor ``xlog``."""
    return math.log10(max(x, xlog)) if isinstance(xlog, int | float) else x


def move_note(patch, index: int, x, y, **more) -> None:
    """Patch annotation ``index`` of ``patch`` (a ``dash.Patch`` of a figure) to (x, y)
    and any other keys given (``hovertext``, ``visible``)."""
    note = patch["layout"]["annotations"][index]
    note["x"] = x
    note["y"] = y
    for k, v in more.items():
        note[k] = v
