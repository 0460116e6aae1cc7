"""Waiting for a source job (a server-side table read) as the page does."""

from __future__ import annotations

import time


def wait_done(jobs, token: str, limit: float = 120.0) -> dict:
    """The job's state once it is no longer running, polled as the page polls (a generous
    limit for a busy machine: this is not a speed test)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        job = jobs.status(token)
        if job and job["state"] != "running":
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {token} still running after {limit} s: {jobs.status(token)}")
