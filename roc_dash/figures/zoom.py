"""A view's zoom, applied to its figure: the page keeps each view's axis ranges
(assets/roc_dash.js ``keepZoom``) and draws, exports and reports the figure with them.

A zoom is the page's dict ``{"roc": {"x": [a, b], "y": [c, d], "det": bool, "xlog": bool},
"pr": ..., "cost": ..., "decision": ...}``; ranges are in the axis's own units (plotly's: in
decades, ``log10``, on a log axis). An entry taken on other axes than the figure's (DET
against ROC, log against linear FPR, PR gain against PR) is not applied.
"""

from __future__ import annotations

import copy
import math

import plotly.graph_objects as go

__all__ = ["apply_zoom", "zoom_figure", "zoom_range"]


def zoom_range(value) -> list[float] | None:
    """``[a, b]`` of two finite numbers, else None."""
    if (isinstance(value, list | tuple) and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool)
                    and math.isfinite(v) for v in value)):
        return [float(value[0]), float(value[1])]
    return None


def apply_zoom(fig: go.Figure, zoom, view: str, *, det: bool = False) -> None:
    """Draw ``fig`` (in place) with the axis ranges the user zoomed ``view`` to.

    Ignored when malformed or taken on other axes: ``det`` says whether ``fig`` has the
    view's other axes (DET for the ROC, PR gain for PR); a log FPR axis is read from the
    figure (``layout.meta.xlog``, :func:`.roc_axes.to_log_fpr`). The full ranges go into
    ``layout.meta.home``: a double click restores them (assets/roc_dash.js).
    """
    x0, y0 = fig.layout.xaxis.range, fig.layout.yaxis.range
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    home = {"x": list(x0), "y": list(y0)} if x0 is not None and y0 is not None else None
    if home is not None and meta.get("home") != home:  # (a figure may have it from its build)
        fig.update_layout(meta={**meta, "home": home})
    entry = zoom.get(view) if isinstance(zoom, dict) else None
    if not isinstance(entry, dict) or bool(entry.get("det")) != det:
        return
    if bool(entry.get("xlog")) != ("xlog" in meta):
        return
    x, y = zoom_range(entry.get("x")), zoom_range(entry.get("y"))
    if x:
        fig.update_xaxes(range=x, autorange=False)
    if y:
        fig.update_yaxes(range=y, autorange=False)


def zoom_figure(fig: go.Figure, zoom, view: str, *, det: bool | None = None) -> go.Figure:
    """A copy of ``fig`` with ``view``'s zoom from the page's zoom dict (for exports and
    reports: the figure as the user last saw it). ``det`` defaults to the figure's own
    ``layout.meta.det`` / ``layout.meta.prg``."""
    out = type(fig)(copy.deepcopy(fig.to_dict()), _validate=False) if isinstance(
        fig, go.Figure) else go.Figure(fig)
    if det is None:
        meta = out.layout.meta if isinstance(out.layout.meta, dict) else {}
        det = bool(meta.get("det") or meta.get("prg"))
    apply_zoom(out, zoom, view, det=det)
    return out
