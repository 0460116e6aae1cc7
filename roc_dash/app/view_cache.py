"""The views' drawn outputs, kept per worker for the next request that asks for the same.

Every first visit asks the views callback for the same thing (the demo, or a shared link's
datasets, at the default or the link's settings), and a page that goes back to earlier
settings asks for a drawing it had before. Drawing the views (four figures, then also the
model table, and the operating panel) took ~30 ms of a ~45 ms callback; twenty first visits at once
on two cores drew them twenty times (the target: page load p95 < 2 s under
``bench/load_test.py``). The outputs of :func:`..render.render_views` are kept in the
worker's memory cache, keyed by everything they are drawn from, and given again.

* What a drawing depends on is its key: the datasets still stored
  (:meth:`~.server.store.DatasetStore.present`: a deleted dataset is never drawn again), the
  models, the conditions (costs, prior, level...), the averaging and every view setting, the
  pins, the zoom, the edit revision number. Stored datasets never change (a new upload is a
  new id).
* A drawing that said the analysis took too long (no views data) is not kept: the next
  request tries again.
* Only drawings up to :data:`MAX_KEPT_BYTES` (estimated from their arrays and texts) are
  kept, so that a big one never takes the memory cache's room for the tables and analyses of
  10^7 rows.
* The ROC view carries a new ``editrevision`` in every answer (as a drawing made afresh
  does, see :func:`..render.render_views`): a line the user dragged is redrawn where it
  belongs. A kept drawing is given with its ROC figure wrapped to send a new one; the kept
  figures themselves are never changed (several requests send them at once).
"""

from __future__ import annotations

import uuid

import plotly.graph_objects as go

from .server.cache import approx_nbytes

__all__ = ["MAX_KEPT_BYTES", "RevisedFigure", "kept_views", "drawing_bytes"]

#: Where the viz-data store sits in a drawing (``render.RENDERED.index("viz")``; a test
#: checks they agree: render imports this module, not the other way round).
VIZ = 4

#: The largest drawing kept (estimated bytes); larger ones are drawn every time.
MAX_KEPT_BYTES = 4 * 2**20


class RevisedFigure:
    """A kept figure sent with its own ``layout.editrevision`` (plotly's JSON encoder sends
    any object by its ``to_plotly_json``); ``layout`` and ``data`` read the kept figure."""

    def __init__(self, figure: go.Figure, revision: str):
        self.figure = figure
        self.revision = revision

    @property
    def layout(self):
        return self.figure.layout

    @property
    def data(self):
        return self.figure.data

    def to_plotly_json(self) -> dict:
        sent = self.figure.to_plotly_json()
        return {**sent, "layout": {**sent.get("layout", {}), "editrevision": self.revision}}


def drawing_bytes(out) -> int:
    """Roughly the memory a drawing holds: its figures' values and its components' texts."""
    total = 0
    for item in out:
        if isinstance(item, go.Figure):
            total += approx_nbytes([t._props or {} for t in item.data])
            # not the template: plotly's default one, shared by every figure (and walking
            # it took most of the estimate's time)
            total += approx_nbytes({k: v for k, v in (item.layout._props or {}).items()
                                    if k != "template"})
        elif hasattr(item, "to_plotly_json"):  # a Dash component: its props, children too
            total += _component_bytes(item)
        else:
            total += approx_nbytes(item)
    return total


def _component_bytes(component, depth: int = 0) -> int:
    if depth > 40:
        return 64
    if isinstance(component, list | tuple):
        return 56 + sum(_component_bytes(c, depth + 1) for c in component)
    if not hasattr(component, "to_plotly_json"):
        return approx_nbytes(component)
    props = component.to_plotly_json().get("props", {})
    return 64 + sum(_component_bytes(v, depth + 1) if hasattr(v, "to_plotly_json")
                    or isinstance(v, list | tuple) else approx_nbytes(v)
                    for v in props.values())


def kept_views(cache, dataset_ids, parts: tuple, rev, draw):
    """``draw()`` (the outputs of :func:`..render.render_views` for ``dataset_ids`` and
    ``parts``, the rest of what they are drawn from), or the same outputs kept in the
    memory cache of ``cache`` (an :class:`..analysis.AnalysisCache`) with a new edit
    revision on the ROC view (``out[0]``); a new drawing is kept when it has views data
    (``out[VIZ]``, :data:`..render.RENDERED`) and is at most :data:`MAX_KEPT_BYTES`. A kept drawing given again is a use
    of its datasets, as a cached analysis is (retention follows use)."""
    from .server.cache import SharedCache

    present = cache.store.present(dataset_ids)
    key = SharedCache.key(("drawn views", present, *parts))
    out = cache.cache.memory.get(key)
    if out is not None:
        cache.store.used(present)
        return (RevisedFigure(out[0], f"{rev}-{uuid.uuid4().hex[:8]}"), *out[1:])
    out = draw()
    if isinstance(out[VIZ], dict):
        size = drawing_bytes(out)
        if size <= MAX_KEPT_BYTES:
            cache.cache.memory.put(key, out, size=size)
    return out
