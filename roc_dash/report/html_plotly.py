"""plotly.js and the figures of the standalone HTML report, compressed inside the file (the
target: under 5 MB for the demo; plotly.js alone is 4.8 MB).

The report carries plotly.js gzip-compressed and base64-encoded (1.96 MB instead of 4.8 MB)
and each figure as JSON; ``report_assets/plotly_loader.js`` (inlined) unpacks plotly.js with
the browser's ``DecompressionStream`` (Chrome and Edge 80, Firefox 113, Safari 16.4 and
later), runs it, then draws the figures. Nothing is fetched: the file opens offline, from
``file://``. Where ``DecompressionStream`` is missing, the page says so in place of the
figures; the tables and the controls' sentence still work.
"""

from __future__ import annotations

import base64
import gzip
import html
from functools import lru_cache
from importlib import resources

from plotly.io.json import to_json_plotly
from plotly.offline import get_plotlyjs

__all__ = ["compressed_plotlyjs", "figure_div", "plotly_loader_html", "PLOTLY_ELEMENT"]

#: The id of the ``<script>`` element holding the compressed plotly.js.
PLOTLY_ELEMENT = "rr-plotly"

#: The ``type`` of that element (not JavaScript: the browser leaves it as text).
PLOTLY_TYPE = "application/gzip;base64"


@lru_cache(maxsize=1)
def compressed_plotlyjs() -> str:
    """The installed plotly.js (:func:`plotly.offline.get_plotlyjs`, UTF-8), gzip-compressed
    (level 9, no timestamp: the same bytes every time) and base64-encoded. Computed once per
    process (about 0.2 s)."""
    packed = gzip.compress(get_plotlyjs().encode("utf-8"), compresslevel=9, mtime=0)
    return base64.b64encode(packed).decode("ascii")


def figure_div(fig, div_id: str, config: dict) -> str:
    """An empty ``<div id=div_id>`` as tall as the figure's layout (plotly's 450 px without)
    and, after it, the figure's data, layout and ``config`` (with ``responsive``, as
    :func:`plotly.io.to_html` sets it) as JSON in ``<script type="application/json"
    class="rr-figure" data-target=div_id>``, for the loader to draw once plotly.js is
    unpacked. ``to_json_plotly`` writes ``<`` as ``\\u003c``; ``</`` is escaped once more all
    the same, so that no name can close the element."""
    d = fig.to_dict()  # as to_html: the traces keep their uids (the report's script uses them)
    spec = to_json_plotly({"data": d.get("data", []), "layout": d.get("layout", {}),
                           "config": {**config, "responsive": True}}).replace("</", "<\\/")
    target = html.escape(div_id, quote=True)
    height = int(fig.layout.height or 450)
    return (f'<div id="{target}" class="plotly-graph-div" style="height:{height}px; '
            f'width:100%;"></div><script type="application/json" class="rr-figure" '
            f'data-target="{target}">{spec}</script>')


def plotly_loader_html() -> str:
    """The compressed plotly.js and the script that unpacks it and draws every figure of
    :func:`figure_div` (``report_assets/plotly_loader.js``); put it after the figures."""
    script = resources.files("roc_dash").joinpath(
        "report_assets/plotly_loader.js").read_text(encoding="utf-8")
    return (f'<script type="{PLOTLY_TYPE}" id="{PLOTLY_ELEMENT}">{compressed_plotlyjs()}'
            f"</script>\n<script>{script}</script>")
