"""``health`` and ``ready``: what a container orchestrator asks (under the URL prefix).

* ``GET <prefix>health`` (liveness, Docker's ``HEALTHCHECK``): 200 while the data folder is
  usable, else 503 (``{"status": "degraded"}``).
* ``GET <prefix>ready`` (readiness: send this instance traffic?): 200 when the data folder
  takes a new file (a probe file of its own per call), the disk has more than
  ``ROC_DASH_MIN_FREE_MB`` (64) free, the shared analysis cache answers (a value written
  reads back) and the object store, when one is set (``ROC_DASH_STORE_URL``), answers and
  has its bucket; else 503.

Both stay open under sign-in (an orchestrator does not sign in, see :mod:`.auth`), and, as
the request-limits rules say, tell anyone but a signed-in user only ok / not ok: the reasons (which
check failed, free disk) go to signed-in users and to the server's log, where the operator
looks, when readiness changes.
"""

from __future__ import annotations

import logging

from flask import jsonify

from .auth import current_user
from .retention import min_free_bytes
from .url_prefix import path_under

__all__ = ["readiness", "register_probes"]

log = logging.getLogger(__name__)


def readiness(store, cache) -> dict:
    """The ``ready`` checks of ``store`` (a :class:`.store.DatasetStore`) and ``cache`` (a
    :class:`.cache.SharedCache`): ``{"ready": bool, "reasons": [...], "checks": {...}}``,
    each reason a sentence saying what is wrong and what to do."""
    writable, free = store.probe_disk()
    minimum = min_free_bytes()
    cache_problem = cache.unreachable()
    store_problem = store.objects.unreachable()  # ROC_DASH_STORE_URL (None: the folder)
    reasons = []
    if not writable:
        reasons.append(f"the data folder {store.root} does not take new files (read-only, "
                       "missing or not this user's): check the volume and ROC_DASH_DATA_DIR")
    if free <= minimum:
        reasons.append(f"the disk under the data folder has {free / 2**20:,.1f} MB free, at "
                       f"most the {minimum / 2**20:,.0f} MB required (ROC_DASH_MIN_FREE_MB): "
                       "free space or grow the volume")
    if cache_problem is not None:
        reasons.append(cache_problem)
    if store_problem is not None:
        reasons.append(store_problem)
    return {"ready": not reasons, "reasons": reasons,
            "checks": {"data_dir_writable": writable, "disk_free_mb": round(free / 2**20, 1),
                       "min_free_mb": round(minimum / 2**20, 1),
                       "cache_reachable": cache_problem is None,
                       "store_reachable": store_problem is None}}


def register_probes(server, store, cache) -> None:
    """Add ``<prefix>health`` and ``<prefix>ready`` to ``server`` (see the module
    docstring); ``cache`` is the app's :class:`.cache.SharedCache`."""
    last = {"ready": True}

    @server.route(path_under(server, "health"))
    def health():
        """200 when the data folder is usable, else 503 (disk full, read-only). Only a
        signed-in user (see :mod:`.auth`) is told more than ok / not ok (the data folder's
        state: free disk, datasets, space used against the quota)."""
        report = store.health(details=current_user() is not None)
        return jsonify(report), 200 if report["status"] == "ok" else 503

    @server.route(path_under(server, "ready"))
    def ready():
        """200 when this instance can take work, else 503 (see :func:`readiness`)."""
        state = readiness(store, cache)
        if state["ready"] != last["ready"]:  # the log says why, once per change
            last["ready"] = state["ready"]
            if state["ready"]:
                log.warning("roc-dash is ready again")
            else:
                log.warning("roc-dash is not ready: %s", "; ".join(state["reasons"]))
        body = {"status": "ok" if state["ready"] else "not ready"}
        if current_user() is not None:
            body.update(reasons=state["reasons"], **state["checks"])
        return jsonify(body), 200 if state["ready"] else 503
