"""What an upload's status says while the views are drawn for its dataset (review9): the
status's first sentence, then :data:`DRAWING`, then the rest; the browser takes the words out
once the views show the new dataset (:data:`VIEWS_DRAWN`, a clientside callback of
:mod:`.features.data`)."""

from __future__ import annotations

import json

from .analysis import MAX_SHOWN_MODELS

__all__ = ["DRAWING", "drawing_status", "VIEWS_DRAWN"]

#: Said in the status after an upload's first sentence until the views show it (review9).
DRAWING = "Drawing the views…"


def drawing_status(upload) -> str:
    """An upload's status (an :class:`.features.data.UploadOutcome`) while the views are drawn for its
    dataset: its first sentence, :data:`DRAWING`, the rest (:data:`VIEWS_DRAWN` takes :data:`DRAWING` out in the page)."""
    if not upload.lead or not upload.status.startswith(upload.lead):
        return upload.status
    rest = upload.status[len(upload.lead):].strip()
    return " ".join(w for w in (upload.lead, DRAWING, rest) if w)


#: In the browser (no request): " Drawing the views…" out of the status once the views show
#: the newest dataset (the drawn models' keys, "<dataset id>/<model>", not an earlier render's),
#: as many models as they can, or nothing (the views' banner says why).
VIEWS_DRAWN = """
function (viz, status, datasets) {
    var none = window.dash_clientside.no_update, words = WORDS;
    if (typeof status !== "string" || status.indexOf(words) < 0) { return none; }
    var newest = Array.isArray(datasets) && datasets.length ? datasets[datasets.length - 1] : null;
    var keys = viz && Array.isArray(viz.keys) ? viz.keys : null;
    if (keys && newest && keys.length < MAX_SHOWN && !keys.some(function (k) {
            return typeof k === "string" && k.indexOf(newest + "/") === 0; })) {
        return none;  /* an earlier render of the views, not yet the new dataset's */
    }
    return status.split(words).join("");
}
""".replace("WORDS", json.dumps(" " + DRAWING)).replace("MAX_SHOWN", str(MAX_SHOWN_MODELS))
