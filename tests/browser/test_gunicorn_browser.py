"""The first page after a start, in Chromium, under gunicorn as the container runs it.

plotly/dash issue 3971: with threaded workers Dash's first-request setup raced, so right
after a start ``/_dash-component-suites/...`` answered 500 and the page stayed at
"Loading..." (5 of 20 cold starts). ``gunicorn.conf.py`` warms each worker before it serves.
Here gunicorn (the project's configuration, 2 gthread workers) is started ten times and the
page is opened in Chromium the moment the port accepts connections; every time the ROC view
must be drawn and no script may have failed.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

from roc_dash.app import ids
from tools.processes import free_port as _free_port
from tools.processes import stop_group

from .gestures import js_graph, wait_until

ROOT = Path(__file__).resolve().parents[2]
STARTS = 10


def _start(tmp_path: Path, k: int):
    port = _free_port()
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2",
               ROC_DASH_THREADS="4", ROC_DASH_DATA_DIR=str(tmp_path / f"data{k}"))
    log = open(tmp_path / f"gunicorn{k}.log", "wb")  # noqa: SIM115 - closed in _stop
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:server"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def accepts():  # the master binds before its workers boot: connections queue meanwhile
        if proc.poll() is not None:
            return "exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return "up"
        except OSError:
            return None

    state = wait_until(accepts, message="gunicorn accepting connections")
    assert state == "up", (tmp_path / f"gunicorn{k}.log").read_text()[-2000:]
    return proc, log, port


def _stop(proc, log) -> None:
    stop_group(proc, timeout=10)
    log.close()


def test_gun001_page_draws_after_every_one_of_ten_starts(dash_duo, tmp_path):
    driver = dash_duo.driver
    failures = []
    for k in range(STARTS):
        proc, log, port = _start(tmp_path, k)
        try:
            driver.get(f"http://127.0.0.1:{port}/")
            try:
                wait_until(lambda: js_graph(driver, ids.ROC_GRAPH, "gd.data.length") or 0,
                           message="the ROC view")
            except AssertionError as exc:
                failures.append((k, str(exc)[:200]))
            errors = driver.execute_script(
                "return performance.getEntriesByType('resource')"
                ".filter(e => e.responseStatus && e.responseStatus >= 400)"
                ".map(e => e.name + ' ' + e.responseStatus);")
            if errors:
                failures.append((k, errors))
        finally:
            _stop(proc, log)
        statuses = [line for line in (tmp_path / f"gunicorn{k}.log").read_text().splitlines()
                    if '" 500 ' in line]
        if statuses:
            failures.append((k, statuses[:3]))
    assert failures == []
