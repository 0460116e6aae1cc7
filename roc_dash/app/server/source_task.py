"""The Celery task of a queued source job (:mod:`.job_queue`): what a worker started with
``celery -A roc_dash.app.server.job_queue worker`` runs (:func:`.sources.open_queued_source`).
The Celery application names this module in its ``include``, so that the module that queues
jobs (:mod:`.sources`, through :mod:`.job_queue`) never imports the one that runs them."""

from __future__ import annotations

from .job_queue import TASK, celery_app
from .sources import open_queued_source

__all__ = ["open_source"]

#: The registered task (``job_queue.TASK``).
open_source = celery_app().task(name=TASK)(open_queued_source)
