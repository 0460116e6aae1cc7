"""Source jobs queued to Celery workers on Redis (``ROC_DASH_JOBS=celery`` with
``ROC_DASH_REDIS_URL``), instead of run in a thread of the replica that was asked.

Opening a server-side source (:mod:`.sources`) aggregates its rows with DuckDB: seconds to
minutes of both cores. Run in a web replica, it takes that replica's cores from its page
requests, and it is lost with the replica (a restart, a scale-down). Queued, the replica
only writes the job's first state and sends ``(token, offered value, owner, label)`` to
Redis; a Celery worker (the same image, another command) takes it, resolves the offered
value again under its own ``ROC_DASH_SOURCES`` (every check of :func:`.sources.resolve`
applies there too), aggregates, stores the dataset in the shared data folder and writes the
job's states to Redis, where any replica answers the page's polls (:class:`.shared_state.RedisJobs`).

A message is acknowledged only once its job has finished (``task_acks_late``), and given to
another worker if the worker running it dies (``task_reject_on_worker_lost``; a whole worker
host that vanished: after ``ROC_DASH_JOB_VISIBILITY_SECONDS``, 3600, Redis's visibility
timeout, which must exceed the longest job). Each worker process takes one job at a time.

Start the workers with::

    celery -A roc_dash.app.server.job_queue worker --concurrency 1

(the same environment as the app: ``ROC_DASH_REDIS_URL``, ``ROC_DASH_JOBS``,
``ROC_DASH_SOURCES``, ``ROC_DASH_DATA_DIR``). Dash documents Celery on Redis for its
background callbacks in production; this is the same pairing for the one long job the app has.
"""

from __future__ import annotations

import logging
import os
import threading

from .shared_state import redis_url

__all__ = ["JOBS_VAR", "queued", "submit", "celery_app", "TASK"]

log = logging.getLogger(__name__)

#: ``celery``: source jobs go to Celery workers (needs ``ROC_DASH_REDIS_URL``).
JOBS_VAR = "ROC_DASH_JOBS"
#: The task's name (what the web replicas send and the workers run).
TASK = "roc_dash.open_source"

_APP = None
_APP_LOCK = threading.Lock()


def queued() -> bool:
    """Whether source jobs are sent to Celery workers (``ROC_DASH_JOBS=celery`` and
    ``ROC_DASH_REDIS_URL`` set)."""
    return (os.environ.get(JOBS_VAR, "").strip().lower() == "celery"
            and redis_url() is not None)


def _visibility_seconds() -> int:
    try:
        value = int(float(os.environ.get("ROC_DASH_JOB_VISIBILITY_SECONDS", 3600)))
    except ValueError:
        value = 3600
    return max(value, 60)


def celery_app():
    """The Celery application on ``ROC_DASH_REDIS_URL`` (made once per process)."""
    global _APP
    with _APP_LOCK:
        if _APP is None:
            from celery import Celery

            url = redis_url()
            if url is None:
                raise RuntimeError(f"{JOBS_VAR}=celery needs ROC_DASH_REDIS_URL")
            # the task itself is in .source_task (it imports .sources, which imports this
            # module to queue jobs): the worker imports it by name
            app = Celery("roc_dash", broker=url, include=[f"{__package__}.source_task"])
            app.conf.update(
                task_serializer="json", accept_content=["json"], result_backend=None,
                task_ignore_result=True, task_acks_late=True,
                task_reject_on_worker_lost=True, worker_prefetch_multiplier=1,
                broker_connection_retry_on_startup=True,
                broker_transport_options={"visibility_timeout": _visibility_seconds(),
                                          "global_keyprefix": "roc-dash:celery:"},
                worker_hijack_root_logger=False)
            _APP = app
        return _APP


def __getattr__(name: str):
    """``celery -A roc_dash.app.server.job_queue`` finds the application as ``app``."""
    if name == "app":
        return celery_app()
    raise AttributeError(name)


def submit(token: str, value: str, owner: str | None, label: str) -> None:
    """Queue the opening of the offered source ``value`` as job ``token``."""
    celery_app().send_task(TASK, args=[token, value, owner, label], task_id=token)
