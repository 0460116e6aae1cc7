"""A cached value is made once at a time (``SharedCache.get_or_make``): threads of a worker
and other workers (other caches on the same folder) wait for the one making it and read
its value, instead of each making its own copy (a 10^7-row analysis: ~1.9 GB each)."""

import threading

import numpy as np

from roc_dash.app.server import cache as cache_mod
from roc_dash.app.server.cache import SharedCache
from tests.browser.gestures import wait_until


def _waiting(cache: SharedCache, key: str) -> int:
    entry = cache._making._locks.get(key)
    return 0 if entry is None else entry[1]


def test_flt001_threads_of_a_worker_make_a_value_once(tmp_path):
    cache = SharedCache(None)  # per process only: the in-process lock alone
    key = cache.key(("a",))
    calls, go = [], threading.Event()

    def make():
        calls.append(1)
        go.wait(30)
        return np.arange(5.0)

    got = [None] * 4
    threads = [threading.Thread(target=lambda i=i: got.__setitem__(i, cache.get_or_make(
        ("a",), make))) for i in range(4)]
    for t in threads:
        t.start()
    wait_until(lambda: _waiting(cache, key) == 4, timeout=30, message="four callers")
    go.set()
    for t in threads:
        t.join(30)
    assert len(calls) == 1
    assert all(g is got[0] for g in got) and got[0] is not None
    assert _waiting(cache, key) == 0  # no lock kept for a key no one makes


def test_flt002_another_worker_waits_and_reads_what_the_first_wrote(tmp_path):
    """Worker one makes a value (slowly); worker two asks meanwhile, waits on the lock entry in
    the shared cache, and reads the value from disk: its own make is never called."""
    one, two = SharedCache(tmp_path), SharedCache(tmp_path)
    key = one.key(("shared",))
    go, first_calls, second_calls = threading.Event(), [], []
    value = np.arange(7.0)

    def slow():
        first_calls.append(1)
        go.wait(30)
        return value

    a = threading.Thread(target=lambda: one.get_or_make(("shared",), slow))
    a.start()
    wait_until(lambda: f"making-{key}" in one.disk, timeout=30, message="the lock entry")
    out = []
    b = threading.Thread(target=lambda: out.append(two.get_or_make(
        ("shared",), lambda: second_calls.append(1) or np.zeros(1))))
    b.start()
    wait_until(lambda: _waiting(two, key) == 1, timeout=30, message="worker two asking")
    go.set()
    a.join(30)
    b.join(30)
    assert first_calls == [1] and second_calls == []
    np.testing.assert_array_equal(out[0], value)
    assert f"making-{key}" not in one.disk  # released


def test_flt003_a_big_value_lets_waiters_in_only_once_written(tmp_path, monkeypatch):
    """A value written by a thread (over BACKGROUND_BYTES) keeps the lock until it is on disk,
    so another worker never finds the lock gone and the value missing."""
    monkeypatch.setattr(cache_mod, "BACKGROUND_BYTES", 1 << 10)
    one = SharedCache(tmp_path)
    key = one.key(("big",))
    release = threading.Event()
    real_write = one._write

    def held_write(k, v, lock=None):
        release.wait(30)
        real_write(k, v, lock)

    monkeypatch.setattr(one, "_write", held_write)
    big = np.arange(1 << 12, dtype=np.float64)
    assert one.get_or_make(("big",), lambda: big) is big
    assert f"making-{key}" in one.disk and key not in one.disk
    release.set()
    one.flush(30)
    assert key in one.disk and f"making-{key}" not in one.disk


def test_flt004_a_lock_left_by_a_dead_worker_is_given_up_on(tmp_path, monkeypatch):
    """A lock entry whose holder died (never released) is waited on only so long; then the
    waiter makes the value itself and answers."""
    monkeypatch.setattr(cache_mod, "_flight_seconds", lambda: 0.3)
    one = SharedCache(tmp_path)
    key = one.key(("orphan",))
    assert one.disk.add(f"making-{key}", 12345, expire=60)  # a holder that never comes back
    got = one.get_or_make(("orphan",), lambda: np.ones(3))
    np.testing.assert_array_equal(got, np.ones(3))


def test_flt005_a_failed_make_releases_both_locks(tmp_path):
    one = SharedCache(tmp_path)
    key = one.key(("boom",))

    def boom():
        raise RuntimeError("no")

    try:
        one.get_or_make(("boom",), boom)
    except RuntimeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("the error was swallowed")
    assert f"making-{key}" not in one.disk and _waiting(one, key) == 0
    assert one.get_or_make(("boom",), lambda: np.zeros(2)).shape == (2,)


def test_flt006_one_big_analysis_per_worker_the_second_waits(monkeypatch):
    """Two big analyses in one worker run one after the other (the second enters only once
    the first left); small ones never wait."""
    from roc_dash.app.server import budget

    monkeypatch.setenv("ROC_DASH_HEAVY_ROWS", "1000")
    inside, order, go = threading.Event(), [], threading.Event()

    def first():
        with budget.heavy_analysis(5000):
            order.append("first in")
            inside.set()
            go.wait(30)
            order.append("first out")

    def second():
        with budget.heavy_analysis(5000):
            order.append("second in")

    a = threading.Thread(target=first)
    a.start()
    assert inside.wait(30)
    b = threading.Thread(target=second)
    b.start()
    with budget.heavy_analysis(999):  # small: not held up by the big one
        order.append("small")
    go.set()
    a.join(30)
    b.join(30)
    assert order == ["first in", "small", "first out", "second in"]


def test_flt007_a_big_analysis_waiting_past_its_deadline_says_so(tmp_path, monkeypatch):
    """A page asking for a big analysis while another holds the worker's slot past the
    request's deadline gets the timeout banner naming the wait, and nothing is cached."""
    from roc_dash.app.analysis import AnalysisCache, model_names
    from roc_dash.app.features.data import apply_upload
    from roc_dash.app.render import render_views
    from roc_dash.app.server import budget
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.core.analysis_types import Conditions

    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    rows = zip(y, rng.random(400), strict=True)
    text = "label,score\n" + "".join(f"{a},{b:.4f}\n" for a, b in rows)
    out = apply_upload(store, [("p.csv", text.encode())], [])
    names = model_names(cache, out.dataset_ids)
    monkeypatch.setenv("ROC_DASH_HEAVY_ROWS", "100")
    monkeypatch.setenv("ROC_DASH_TIMEOUT", "0.5")
    assert budget._analysis_lock.acquire(timeout=5)  # another big analysis, running
    try:
        views = render_views(cache, out.dataset_ids, names, Conditions(prior_pos=0.4))
    finally:
        budget._analysis_lock.release()
    banner = str(views[6])
    assert "another large analysis" in banner and "ROC_DASH_TIMEOUT" in banner
    assert all(len(fig.data) == 0 for fig in views[:3])
    views = render_views(cache, out.dataset_ids, names, Conditions(prior_pos=0.4))
    assert views[6] is None or "another large analysis" not in str(views[6])
    assert len(views[0].data) > 0


def test_flt008_a_big_value_is_pickled_straight_into_its_file(tmp_path, monkeypatch):
    """A value written by a thread (a 10^7-row analysis: ~300 MB) never exists as one pickled
    bytes object (diskcache's way: a second copy in memory); another worker reads it back
    equal."""
    import diskcache.core

    monkeypatch.setattr(cache_mod, "BACKGROUND_BYTES", 1 << 10)
    real_dumps = diskcache.core.pickle.dumps
    whole = []

    def watched_dumps(value, *args, **kwargs):
        whole.append(type(value).__name__)
        return real_dumps(value, *args, **kwargs)

    monkeypatch.setattr(diskcache.core.pickle, "dumps", watched_dumps)
    one, two = SharedCache(tmp_path), SharedCache(tmp_path)
    big = {"curve": np.linspace(0, 1, 1 << 14), "name": "model"}
    assert one.get_or_make(("big",), lambda: big) is big
    one.flush(30)
    assert "dict" not in whole  # not pickled whole in memory
    got = two.get_or_make(("big",), lambda: None)
    np.testing.assert_array_equal(got["curve"], big["curve"])
    assert got["name"] == "model"
    small = np.arange(3.0)  # under the threshold: written as diskcache does
    one.get_or_make(("small",), lambda: small)
    np.testing.assert_array_equal(two.get_or_make(("small",), lambda: None), small)


def test_flt009_a_lock_whose_holder_died_is_taken_over_at_once(tmp_path, monkeypatch):
    """Stranger review 2: after the worker holding a lock died (killed, out of memory, a
    restart), every request for that value waited the lock's whole life (ROC_DASH_TIMEOUT +
    30 s), and the threads piling up stalled /health. The entry names its process; a lock
    of a process that is not running (or whose pid now belongs to a later process) is
    taken over: the dead entry is gone, the value made once."""
    import os
    import subprocess
    import sys

    monkeypatch.setattr(cache_mod, "_flight_seconds", lambda: 0.5)
    one = SharedCache(tmp_path)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead_pid = int(gone.stdout)  # exited and reaped
    me = cache_mod._holder()
    assert cache_mod._alive(me)  # this process is running
    for n, holder in enumerate([(me[0], dead_pid, "12345"),  # not running any more
                                (me[0], os.getpid(), str(int(me[2]) + 1))]):  # pid reused
        assert not cache_mod._alive(holder)
        key = one.key(("orphan", n))
        assert one.disk.add(f"making-{key}", holder, expire=60)
        calls = []
        got = one.get_or_make(("orphan", n), lambda c=calls: c.append(1) or np.ones(2))
        np.testing.assert_array_equal(got, np.ones(2))
        assert calls == [1]
        assert f"making-{key}" not in one.disk  # taken over and released, not waited out
