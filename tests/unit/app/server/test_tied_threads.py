"""Threads of a worker tied up by big work are capped (roc_dash.app.server.budget.TIED): the
thread running a big analysis, those waiting for the worker's big-analysis slot, those
waiting for a value a tied thread makes (or, across workers, waiting longer than
SHORT_WAIT), at most ROC_DASH_THREADS - ROC_DASH_FREE_THREADS; one more gets ServerBusy at
once, so that /health and light requests always find a thread.

Threads simulated in process: a held big-analysis slot, a fake slow ``make``; the waiters'
own states (value, refusal) are compared with what each must get, and the counts with the
threads the test itself started. The same against a real gunicorn: tests/hostile/test_tied.py.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from roc_dash.app import create_app
from roc_dash.app.server import budget
from roc_dash.app.server.budget import TIED, TiedThreads, heavy_analysis
from roc_dash.app.server.cache import SharedCache
from roc_dash.app.server.limits import ServerBusy
from roc_dash.core.analysis_types import Analysis
from tests.browser.gestures import wait_until
from tools.dash_requests import VIEWS_CALLBACK, callback_body, callback_specs, views_values

BIG = 10**9  # rows: a big analysis whatever ROC_DASH_HEAVY_ROWS says


@pytest.fixture
def cap(monkeypatch):
    """Four threads per worker, one kept free: three may be tied."""
    monkeypatch.setenv("ROC_DASH_THREADS", "4")
    monkeypatch.setenv("ROC_DASH_FREE_THREADS", "1")
    assert TIED.count() == 0, "a tie left over by an earlier test"
    yield 3
    wait_until(lambda: TIED.count() == 0, timeout=30, message="every tie undone")


class Runner:
    """Threads that each run a call and keep what it returned or raised."""

    def __init__(self):
        self.threads: list[threading.Thread] = []
        self.out: dict[int, object] = {}

    def start(self, fn) -> int:
        i = len(self.threads)

        def run():
            try:
                self.out[i] = fn()
            except Exception as exc:  # noqa: BLE001 - kept for the test to look at
                self.out[i] = exc

        self.threads.append(threading.Thread(target=run, daemon=True))
        self.threads[-1].start()
        return i

    def join(self):
        for t in self.threads:
            t.join(30)
        assert not any(t.is_alive() for t in self.threads)


def _hold_slot(runner: Runner, release: threading.Event) -> None:
    """A thread that takes the big-analysis slot and keeps it until ``release``."""
    def hold():
        with heavy_analysis(BIG):
            release.wait(30)
        return "held"

    runner.start(hold)
    wait_until(lambda: TIED.count() == 1, timeout=30, message="the slot taken")


def test_tie001_waiters_for_the_big_analysis_slot_are_capped(cap):
    runner, release, order = Runner(), threading.Event(), []
    _hold_slot(runner, release)

    def wait_for_slot(i):
        with heavy_analysis(BIG):
            order.append(i)
        return i

    for i in range(cap - 1):  # the holder and cap - 1 waiters: cap tied
        runner.start(lambda i=i: wait_for_slot(i))
    wait_until(lambda: TIED.count() == cap, timeout=30, message="the waiters tied")
    with pytest.raises(ServerBusy) as refused:  # at once: the slot is still held
        wait_for_slot("one too many")
    assert refused.value.retry_after == budget.TIED_RETRY_AFTER
    assert "finishing a large analysis" in refused.value.message
    assert f"retrying in {budget.TIED_RETRY_AFTER} s" in refused.value.message
    assert TIED.count() == cap and not release.is_set()  # refused while the slot was held
    release.set()
    runner.join()
    assert runner.out == {0: "held", **{i + 1: i for i in range(cap - 1)}}
    assert sorted(order) == list(range(cap - 1))  # every admitted waiter had its turn
    assert TIED.count() == 0
    with heavy_analysis(BIG):  # nothing left held
        assert TIED.count() == 1


def test_tie002_waiters_for_a_value_a_big_analysis_makes_are_capped(cap):
    """The maker runs a big analysis (tied); threads asking for the same value wait, tied
    too, up to the cap; one more is refused; the admitted ones get the maker's value."""
    cache, runner = SharedCache(None), Runner()
    go, calls, value = threading.Event(), [], np.arange(4.0)

    def make():
        calls.append(1)
        with heavy_analysis(BIG):
            go.wait(30)
        return value

    runner.start(lambda: cache.get_or_make(("v",), make))
    wait_until(lambda: TIED.count() == 1, timeout=30, message="the maker tied")
    for _ in range(cap - 1):
        runner.start(lambda: cache.get_or_make(("v",), make))
    wait_until(lambda: TIED.count() == cap, timeout=30, message="the waiters tied")
    with pytest.raises(ServerBusy):
        cache.get_or_make(("v",), make)
    assert not go.is_set() and len(calls) == 1
    go.set()
    runner.join()
    assert len(calls) == 1 and all(v is value for v in runner.out.values())
    assert len(runner.out) == cap
    assert TIED.count() == 0 and cache._making._locks == {}


def test_tie003_waits_for_a_maker_that_is_not_tied_are_never_refused(cap):
    """A value made without a big analysis (in ms, usually): any number of threads wait for
    it, none counted, none refused."""
    cache, runner = SharedCache(None), Runner()
    go, calls = threading.Event(), []

    def make():
        calls.append(1)
        go.wait(30)
        return "small"

    for _ in range(cap + 3):
        runner.start(lambda: cache.get_or_make(("small",), make))
    wait_until(lambda: cache._making._locks.get(cache.key(("small",)), [0, 0])[1] == cap + 3,
               timeout=30, message="every caller waiting")
    assert TIED.count() == 0
    go.set()
    runner.join()
    assert list(runner.out.values()) == ["small"] * (cap + 3) and len(calls) == 1


@pytest.mark.parametrize(("threads", "free", "tied"), [
    ("4", None, 3), ("6", "2", 4), ("6", "0", 6), ("2", "5", 1), ("4", "x", 3), ("4", "-1", 3)])
def test_tie004_the_cap_follows_the_environment(monkeypatch, threads, free, tied):
    monkeypatch.setenv("ROC_DASH_THREADS", threads)
    if free is None:
        monkeypatch.delenv("ROC_DASH_FREE_THREADS", raising=False)
    else:
        monkeypatch.setenv("ROC_DASH_FREE_THREADS", free)
    assert budget.max_tied() == tied
    ties, runner, release = TiedThreads(), Runner(), threading.Event()

    def tie():
        with ties.tie():
            release.wait(30)
        return "tied"

    for _ in range(tied):
        runner.start(tie)
    wait_until(lambda: ties.count() == tied, timeout=30, message="the ties taken")
    with pytest.raises(ServerBusy):
        with ties.tie():
            pass
    release.set()
    runner.join()
    assert list(runner.out.values()) == ["tied"] * tied and ties.count() == 0


def test_tie005_ties_are_undone_when_the_work_fails(cap):
    """The maker's big analysis raises: its waiters are let go (one makes the value again),
    and no tie, slot or key lock is left."""
    cache, runner = SharedCache(None), Runner()
    go, calls = threading.Event(), []

    def make():
        calls.append(1)
        with heavy_analysis(BIG):
            if len(calls) == 1:
                go.wait(30)
                raise ValueError("the first make fails")
        return "made again"

    runner.start(lambda: cache.get_or_make(("f",), make))
    wait_until(lambda: TIED.count() == 1, timeout=30, message="the maker tied")
    runner.start(lambda: cache.get_or_make(("f",), make))
    wait_until(lambda: TIED.count() == 2, timeout=30, message="the waiter tied")
    go.set()
    runner.join()
    assert isinstance(runner.out[0], ValueError) and runner.out[1] == "made again"
    assert len(calls) == 2 and TIED.count() == 0 and cache._making._locks == {}
    with pytest.raises(KeyError):  # a tie inside a failing block is undone too
        with TIED.tie():
            raise KeyError("x")
    assert TIED.count() == 0


def test_tie006_a_long_wait_for_another_worker_ties_the_thread(cap, tmp_path):
    """Another worker holds the lock on making a value: a wait past SHORT_WAIT ties the
    thread; with no thread left to tie, ServerBusy, nothing made, the other's lock kept."""
    one, two = SharedCache(tmp_path), SharedCache(tmp_path)
    key = one.key(("x",))
    assert two._lock_disk(key, 60) == f"making-{key}"  # the other worker is making it
    runner, release = Runner(), threading.Event()
    for _ in range(cap):  # every thread that may be tied is
        runner.start(lambda: _tied_until(release))
    wait_until(lambda: TIED.count() == cap, timeout=30, message="the ties taken")
    calls = []
    with pytest.raises(ServerBusy):
        one.get_or_make(("x",), lambda: calls.append(1) or "mine")
    assert calls == [] and f"making-{key}" in one.disk and key not in one.disk
    assert one._making._locks == {}
    release.set()
    runner.join()
    two._unlock_disk(f"making-{key}")
    assert one.get_or_make(("x",), lambda: "mine") == "mine" and TIED.count() == 0


def _tied_until(release: threading.Event) -> str:
    with TIED.tie():
        release.wait(30)
    return "tied"


def test_tie007_a_refused_callback_answers_503_and_keeps_nothing(cap, tmp_path, monkeypatch):
    """The views callback of a page whose analysis counts as big, while another request of
    the worker runs one and no thread is left to tie: 503 + Retry-After (Dash lets the
    exception through to Flask's handler); no analysis cached, no lock held; once the slot is
    free, the same request gets its views."""
    monkeypatch.setenv("ROC_DASH_HEAVY_ROWS", "100")  # the demo's 1,768 rows are big
    monkeypatch.setenv("ROC_DASH_THREADS", "2")  # one thread may be tied
    app = create_app(data_dir=tmp_path)
    client = app.server.test_client()
    client.get("/")
    models = ["logistic regression", "naive Bayes"]
    body = callback_body(callback_specs(app), VIEWS_CALLBACK,
                         views_values(["demo"], models), ["datasets.data"])
    runner, release = Runner(), threading.Event()
    _hold_slot(runner, release)
    r = client.post("/_dash-update-component", json=body)
    assert r.status_code == 503, r.get_data(as_text=True)[:300]
    assert r.headers["Retry-After"] == str(budget.TIED_RETRY_AFTER)
    assert "finishing a large analysis" in r.get_json()["error"]
    shared = app.analysis_cache.cache
    assert not _analyses(shared) and list(shared.disk) == []  # nothing kept, no disk lock
    assert shared._making._locks == {} and TIED.count() == 1  # the holder's tie alone
    release.set()
    runner.join()
    r = client.post("/_dash-update-component", json=body)
    assert r.status_code == 200
    assert "roc-graph" in r.get_json()["response"]
    assert len(_analyses(shared)) == 1


def _analyses(shared: SharedCache) -> list:
    held = [*shared.memory._data.values(), *(v for v, _ in shared.memory._big.values())]
    return [v for v in held if isinstance(v, Analysis)]
