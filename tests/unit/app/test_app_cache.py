"""Bounded work and memory per request: caches in bytes, a cache shared by workers, caps."""

import threading

import numpy as np
import pandas as pd
import pytest

import roc_dash.app.analysis as app_analysis
from roc_dash.app.analysis import MAX_COMPARED_MODELS, MAX_SHOWN_MODELS, AnalysisCache, model_names
from roc_dash.app.features.data import apply_upload
from roc_dash.app.render import render_views
from roc_dash.app.server.cache import ByteLRU, SharedCache, approx_nbytes
from roc_dash.app.server.store import DEMO_ID, DatasetStore, clean_ids
from roc_dash.core.analysis_types import Conditions
from tests.conftest import DEMO_MODELS


def test_cch001_memory_cache_is_bounded_in_bytes():
    lru = ByteLRU(10_000)
    for k in range(20):
        lru.put(k, np.zeros(250))  # 2,000 bytes each
    assert lru.total_bytes <= 10_000 and len(lru) == 5
    assert lru.get(19) is not None and lru.get(0) is None  # least recently used out first
    lru.put("huge", np.zeros(5_000))  # over a quarter of the budget: not kept
    assert "huge" not in lru
    assert approx_nbytes(pd.DataFrame({"a": np.zeros(1000)})) >= 8000


def test_cch002_a_second_worker_reads_the_analysis_from_disk(tmp_path, monkeypatch):
    store = DatasetStore(tmp_path)
    first = AnalysisCache(store)
    cond = Conditions(prior_pos=0.3)
    a = first.analysis([DEMO_ID], DEMO_MODELS, cond)
    # another process: its own memory, the same data directory; it must not recompute

    def boom(*args, **kwargs):
        raise AssertionError("recomputed instead of reading the shared cache")

    monkeypatch.setattr(app_analysis, "analyse", boom)
    second = AnalysisCache(DatasetStore(tmp_path), SharedCache(tmp_path, memory_mb=64))
    b = second.analysis([DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.1, cost_fn=3))
    assert [m.auc for m in b.models] == [m.auc for m in a.models]
    assert b.conditions.prior_pos == 0.1  # conditions applied on top of the shared part


def _wide_csv(n_models, n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    cols = {f"m{k:03d}": np.round(rng.normal(y * 0.5, 1), 4) for k in range(n_models)}
    return pd.DataFrame({"label": y.astype(int), **cols}).to_csv(index=False).encode()


def test_cch003_many_models_are_capped_and_not_all_compared(tmp_path):
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    out = apply_upload(store, [("wide.csv", _wide_csv(60))], [])
    assert out.error == "", out.error
    names = model_names(cache, out.dataset_ids)
    assert len(names) == 60
    views = render_views(cache, out.dataset_ids, names, Conditions(prior_pos=0.4))
    roc, banner = views[0], views[6]
    curves = [t for t in roc.data if "(AUC" in (t.name or "") and "chance" not in t.name]
    assert len(curves) == MAX_SHOWN_MODELS
    assert f"the first {MAX_SHOWN_MODELS}" in str(banner)
    analysis = cache.analysis(out.dataset_ids, names, Conditions(prior_pos=0.4))
    assert analysis.comparisons == [] and any("at most" in n for n in analysis.notes)
    few = cache.analysis(out.dataset_ids, names[:3], Conditions(prior_pos=0.4))
    assert len(few.comparisons) == 3  # 3 pairs: computed when few models are shown
    assert MAX_COMPARED_MODELS < MAX_SHOWN_MODELS


def test_cch004_dataset_id_lists_are_bounded_and_deduplicated():
    ok = "B" * 32
    assert clean_ids([ok] * 10_000) == [ok]
    assert clean_ids([f"{i:032d}" for i in range(1000)]) == [f"{i:032d}" for i in range(20)]
    for junk in (None, "demo", {"a": 1}, [1, 2, None, ["x"]], [{"$ne": 1}]):
        assert clean_ids(junk) == []


@pytest.mark.parametrize("bad", [
    {"cost_fp": "x"}, {"prior": [1, 2]}, "nonsense", 7, None,
])
def test_cch005_malformed_state_never_raises(tmp_path, bad):
    from roc_dash.app.state import conditions_from_state

    c = conditions_from_state(bad, level="zz", band=5, samples="many")
    assert c.cost_fp > 0 and 0 < c.prior_pos < 1 and 5 <= c.n_samples <= 1001


def _as_json(value):
    """A Dash component (or a figure) as the browser receives it."""
    import json

    from plotly.utils import PlotlyJSONEncoder

    return json.loads(json.dumps(value, cls=PlotlyJSONEncoder))


def _shown(before, patched):
    """What the page shows after an output: a Patch applied to what it showed, else anew."""
    from dash import Patch

    return _apply(before, patched) if isinstance(patched, Patch) else _as_json(patched)


def _apply(figure: dict, patch) -> dict:
    """Apply a dash.Patch's assignments to a figure dict, as the browser does (the patch
    as sent: JSON, numpy arrays as plotly writes them)."""
    import copy
    import json

    from dash._utils import to_json

    out = copy.deepcopy(figure)
    for op in json.loads(to_json(patch))["operations"]:
        assert op["operation"] == "Assign"
        *path, last = op["location"]
        node = out
        for key in path:
            node = node[key]
        node[last] = op["params"]["value"]
    return out


def _compare_table(cache, cond: Conditions):
    """The Compare tab's model table for the demo's models under ``cond``."""
    from roc_dash.app.page_state import PageState
    from roc_dash.app.render import models_table
    from roc_dash.app.state import ControlState

    return models_table(cache, PageState(datasets=(DEMO_ID,), conditions=ControlState(
        cost_fp=cond.cost_fp, cost_fn=cond.cost_fn, prior=cond.prior_pos)))


def _table_under(cache, models, cond: Conditions):
    """The model table of the demo's analysis under ``cond``, built directly (what the
    Compare tab must show after the page moved to ``cond``)."""
    from roc_dash.app.render import kinds_table

    names = model_names(cache, [DEMO_ID])
    return kinds_table(cache, [DEMO_ID], cache.analysis([DEMO_ID], models, cond),
                       {n: k for k, n in enumerate(names)})


@pytest.mark.parametrize("det,pr_mode", [(False, "pr"), (True, "prg")])
def test_cch006_a_cost_change_patches_exactly_what_a_full_render_draws(tmp_path, det, pr_mode):
    """The cheap path for a change of costs gives the same figures as drawing them anew."""
    import json

    import plotly.io as pio

    from roc_dash.app.render import patch_views

    cache = AnalysisCache(DatasetStore(tmp_path))
    models = model_names(cache, [DEMO_ID])
    before = render_views(cache, [DEMO_ID], models, Conditions(prior_pos=0.27), det=det,
                          pr_mode=pr_mode)
    for cost_fp, cost_fn in ((3.0, 1.0), (0.2, 5.0), (100.0, 0.01)):
        cond = Conditions(cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=0.27)
        patched = patch_views(cache, [DEMO_ID], models, cond, before[4], det=det,
                              pr_mode=pr_mode)
        full = render_views(cache, [DEMO_ID], models, cond, det=det, pr_mode=pr_mode)
        for old, patch, new in zip(before[:3], patched[:3], full[:3], strict=True):
            got = _apply(json.loads(pio.to_json(old)), patch)
            want = json.loads(pio.to_json(new))
            for fig in (got, want):
                fig["layout"].pop("editrevision", None)
            assert got == want
        assert str(patched[3]) == str(full[3])
        # the model table is the Compare tab's, drawn when that tab shows: under the new
        # conditions (in neither the patch nor the full render)
        assert len(patched) == len(full) == 9
        assert _as_json(_compare_table(cache, cond)) == _as_json(_table_under(cache, models,
                                                                               cond))
        assert patched[5] == full[5]
        assert patched[4]["line"] == full[4]["line"] and patched[4]["key"] == full[4]["key"]


@pytest.mark.parametrize("det,pr_mode,presentation", [(False, "pr", False), (True, "prg", False),
                                                     (False, "pr", True)])
def test_cch010_a_prior_change_patches_exactly_what_a_full_render_draws(tmp_path, det, pr_mode,
                                                                         presentation):
    """A change of prior (with or without costs) patches the ROC and cost views and draws the
    PR view anew: the same figures as drawing everything anew; then a cost change patches
    the result again."""
    import json

    import plotly.io as pio
    from dash import Patch

    from roc_dash.app.render import patch_views

    cache = AnalysisCache(DatasetStore(tmp_path))
    models = model_names(cache, [DEMO_ID])
    zoom = {"pr": {"x": [0.1, 0.9], "y": [0.2, 1.0], "det": pr_mode == "prg"}}
    kw = {"det": det, "pr_mode": pr_mode, "presentation": presentation}
    before = render_views(cache, [DEMO_ID], models, Conditions(prior_pos=0.27), zoom=zoom, **kw)
    drawn = [json.loads(pio.to_json(f)) for f in before[:3]]
    threshold = _as_json(before[8])
    viz = before[4]
    for cost_fp, cost_fn, prior in ((1.0, 1.0, 0.4), (3.0, 1.0, 0.4), (0.2, 5.0, 0.05)):
        cond = Conditions(cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=prior)
        patched = patch_views(cache, [DEMO_ID], models, cond, viz, zoom=zoom, **kw)
        full = render_views(cache, [DEMO_ID], models, cond, zoom=zoom, **kw)
        drawn = [_apply(old, patch) if isinstance(patch, Patch)
                 else json.loads(pio.to_json(patch))
                 for old, patch in zip(drawn, patched[:3], strict=True)]
        for got, new in zip(drawn, full[:3], strict=True):
            want = json.loads(pio.to_json(new))
            for fig in (got, want):
                fig["layout"].pop("editrevision", None)
            assert got == want
        threshold = _shown(threshold, patched[8])
        assert str(patched[3]) == str(full[3])
        assert _as_json(_compare_table(cache, cond)) == _as_json(_table_under(cache, models,
                                                                               cond))
        assert str(patched[7]) == str(full[7]) and patched[5] == full[5]
        for fig in (threshold, want := _as_json(full[8])):
            fig["layout"].pop("editrevision", None)
        assert threshold == want
        assert patched[4]["optimum_trace"] == full[4]["optimum_trace"]
        assert patched[4]["optimum_note"] == full[4]["optimum_note"]
        assert patched[4]["ring_note"] == full[4]["ring_note"]
        assert patched[4]["prior"] == full[4]["prior"] == prior
        viz = patched[4]


class _Clock:
    """A fake ``time.monotonic`` that advances one second per reading."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        self.now += 1.0
        return self.now


def test_cch007_analyse_stops_at_its_deadline(monkeypatch):
    import roc_dash.core.assembly.analysis as analysis_module
    from roc_dash.core.assembly.analysis import AnalysisTimeout, analyse
    from roc_dash.io import load_predictions

    table = load_predictions([("wide.csv", _wide_csv(8))]).table
    assert len(analyse(table, Conditions(prior_pos=0.4), deadline=None).models) == 8
    clock = _Clock()
    monkeypatch.setattr(analysis_module.time, "monotonic", clock)
    # each model's check reads the clock once: models 0..2 start, the 4th check is too late
    with pytest.raises(AnalysisTimeout, match="after 3 of 8 models"):
        analyse(table, Conditions(prior_pos=0.4), deadline=clock.now + 3.5)


def test_cch008_a_request_over_roc_dash_timeout_says_so_and_caches_nothing(tmp_path,
                                                                           monkeypatch):
    import roc_dash.core.assembly.analysis as analysis_module

    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    out = apply_upload(store, [("wide.csv", _wide_csv(6))], [])
    names = model_names(cache, out.dataset_ids)
    monkeypatch.setenv("ROC_DASH_TIMEOUT", "5")  # 4 s of analysis per request
    clock = _Clock()
    monkeypatch.setattr(analysis_module.time, "monotonic", clock)
    monkeypatch.setattr(app_analysis.time, "monotonic", clock)
    views = render_views(cache, out.dataset_ids, names, Conditions(prior_pos=0.4))
    banner = str(views[6])
    assert "ROC_DASH_TIMEOUT = 5 s" in banner and "Tick fewer models" in banner
    assert "of 6 models" in banner
    assert all(len(fig.data) == 0 for fig in views[:3])  # no half-drawn analysis
    # nothing half-done was cached: with time to spare the same request succeeds
    monkeypatch.setenv("ROC_DASH_TIMEOUT", "1000")
    views = render_views(cache, out.dataset_ids, names, Conditions(prior_pos=0.4))
    assert views[6] is None or "ROC_DASH_TIMEOUT" not in str(views[6])
    assert len([t for t in views[0].data if "(AUC" in (t.name or "")]) >= 6


@pytest.mark.parametrize("raw", ["", "abc", "-3", "0", "nan", "inf"])
def test_cch009_bad_roc_dash_timeout_falls_back_to_120(monkeypatch, raw):
    monkeypatch.setenv("ROC_DASH_TIMEOUT", raw)
    assert app_analysis.request_timeout() == 120.0


def test_cch011_a_value_too_big_for_the_cache_is_kept_only_while_in_use():
    """A 10^7-row table is over a quarter of the 64 MB budget: it used to be read from its
    Parquet file by each of a request's five reads (model list, table, analysis, ...; 4.6 s
    of 17 s of first views). Now one such value is shared while in use and let go a few
    seconds after its last use, and a second big value takes its place."""
    import time

    cache = ByteLRU(4000, big_seconds=0.3)
    big, other = np.zeros(200), np.ones(200)  # 1,600 bytes each: over 4000 // 4
    cache.put("big", big)
    assert "big" not in cache and cache.total_bytes == 0  # not counted in the LRU
    assert cache.get("big") is big
    deadline = time.monotonic() + 0.25
    while time.monotonic() < deadline:  # each use keeps it longer than 0.3 s in all
        assert cache.get("big") is big
        time.sleep(0.05)
    cache.put("other", other)  # one big value at a time
    assert cache.get("big") is None and cache.get("other") is other
    deadline = time.monotonic() + 10
    while cache.big_key is not None:  # let go once idle (polled without using it)
        assert time.monotonic() < deadline, "the big value was never let go"
        time.sleep(0.05)
    assert cache.get("other") is None
    cache.put("small", np.zeros(10))
    assert cache.get("small") is not None  # small values stay in the LRU as before
    plain = ByteLRU(4000, big_seconds=None)  # the store's own table cache: never held
    plain.put("big", big)
    assert plain.get("big") is None and plain.big_key is None


def test_sfk005_several_big_values_kept_while_in_use():
    """With ``big_entries=3`` three values too big for the budget are held together (the
    table, the views' analysis and the Slices card's groups of one interaction), the least
    recently used one goes when a fourth comes, and each is let go once idle."""
    import time

    cache = ByteLRU(4000, big_seconds=0.3, big_entries=3)
    values = {k: np.full(200, float(i)) for i, k in enumerate("abcd")}  # 1,600 bytes each
    for k in "abc":
        cache.put(k, values[k])
    assert all(cache.get(k) is values[k] for k in "abc") and cache.total_bytes == 0
    assert cache.get("a") is values["a"]  # "b" is now the least recently used
    cache.put("d", values["d"])
    assert cache.get("b") is None and sorted(cache.big_keys) == ["a", "c", "d"]
    cache.put("c", np.zeros(10))  # small now: out of the big ones, into the LRU
    assert "c" in cache and sorted(cache.big_keys) == ["a", "d"]
    deadline = time.monotonic() + 10
    while cache.big_keys:  # each let go once idle (polled without using it)
        assert time.monotonic() < deadline, "a big value was never let go"
        time.sleep(0.05)
    assert cache.get("a") is None and cache.get("d") is None
    assert SharedCache(None).memory.big_entries == 3


def test_cch012_big_values_reach_the_disk_cache_from_a_thread(tmp_path, monkeypatch):
    """A value over BACKGROUND_BYTES is returned at once and written by a thread; another
    worker's cache (a second SharedCache on the same folder) finds it once written; a small
    value is on disk before get_or_make returns."""
    import numpy as np

    from roc_dash.app.server import cache as cache_mod

    monkeypatch.setattr(cache_mod, "BACKGROUND_BYTES", 1 << 20)
    one = cache_mod.SharedCache(tmp_path)
    other = cache_mod.SharedCache(tmp_path)
    started = threading.Event()
    release = threading.Event()
    real_write = one._write

    def slow_write(key, value, lock=None):
        started.set()
        release.wait(30)
        real_write(key, value, lock)

    monkeypatch.setattr(one, "_write", slow_write)
    big = np.arange(1 << 18, dtype=np.float64)  # 2 MiB
    got = one.get_or_make(("big",), lambda: big)
    assert got is big and started.wait(30)
    assert other.disk.get(one.key(("big",))) is None  # not written yet: the answer came first
    release.set()
    one.flush(30)
    np.testing.assert_array_equal(other.get_or_make(("big",), lambda: None), big)
    monkeypatch.setattr(one, "_write", real_write)
    small = np.arange(10, dtype=np.float64)
    one.get_or_make(("small",), lambda: small)
    np.testing.assert_array_equal(other.disk.get(one.key(("small",))), small)
