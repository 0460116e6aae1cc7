"""The core's exact fast paths (sorted keys, decimal grid, weighted index keys, the hull's
sampled chords) against the code before them, bit for bit, and against scikit-learn.

The code before is ``bench/core_before.py`` (a verbatim copy of ``roc_curve``, its sort
paths and ``convex_hull`` as they were): every curve, area and hull here must equal its
result to the last bit -- thresholds, rates, totals, hull vertices, their thresholds and
slopes -- on every kind of scores (ties, one class, signed zeros, subnormals, the largest
floats, integers beyond 2**53) and weights. The paths that only run on large inputs (the
grid and the few-distinct keys need a sample of 32,768 rows or more, the hull's chords
131,072 points) are made to run on small ones by lowering those sizes.
"""

from __future__ import annotations

import importlib.util
import sys
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core import auc, convex_hull, roc_curve
from roc_dash.core.roc import _exact_paths, curves, hull
from roc_dash.core.roc.curves import roc_curve_with_counts, score_runs

ROOT = Path(__file__).resolve().parents[4]
_spec = importlib.util.spec_from_file_location("core_before", ROOT / "bench" / "core_before.py")
before = importlib.util.module_from_spec(_spec)
sys.modules["core_before"] = before
_spec.loader.exec_module(before)

MAX = np.finfo(np.float64).max
TINY = 5e-324
SPECIAL = [0.0, -0.0, TINY, -TINY, 2.2250738585072014e-308, -2.2250738585072014e-308,
           MAX, -MAX, 1.0, -1.0, -3.9999999999999996, 0.5, -0.5, 1e300, -1e300,
           1.0000000000000002, 0.9999999999999999]
finite = st.floats(allow_nan=False, allow_infinity=False)
# Scores that mix every kind of float with small pools (ties) and decimal grids.
score = st.one_of(finite, st.sampled_from(SPECIAL), st.integers(-3, 3).map(float),
                  st.integers(-300, 300).map(lambda k: k / 100),
                  st.floats(-10, 10, allow_nan=False))
weight = st.one_of(st.sampled_from([0.0, 1.0, 2.0, 0.5]), st.floats(0, 1e6))
PROPS = settings(max_examples=200, deadline=None)


def bits_equal(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        return a.shape == b.shape and np.array_equal(a.astype(np.float64).view(np.uint64),
                                                      b.astype(np.float64).view(np.uint64))
    return np.array_equal(a, b)


def assert_same_curve(c, c0):
    for name in ("fpr", "tpr", "thresholds"):
        assert bits_equal(getattr(c, name), getattr(c0, name)), name
    assert (c.n_pos, c.n_neg) == (c0.n_pos, c0.n_neg)
    assert bits_equal(np.float64(auc(c)), np.float64(auc(c0)))


def assert_same_hull(h, h0):
    for name in ("fpr", "tpr", "thresholds", "slope_high", "slope_low"):
        assert bits_equal(getattr(h, name), getattr(h0, name)), f"hull {name}"
    assert list(h.models) == list(h0.models)


def assert_same_runs(r, r0):
    assert bits_equal(r[0], r0[0])
    for got, expected in zip(r[1:], r0[1:], strict=True):
        assert np.array_equal(np.asarray(got, dtype=np.float64),
                              np.asarray(expected, dtype=np.float64))


def compare_everything(y, s, w=None):
    """Curve, area, hull, runs and counts: the same as the code before, or the same error."""
    try:
        c0 = before.roc_curve(y, s, weights=w)
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error).split("(")[0].strip()):
            roc_curve(y, s, weights=w)
        return None
    c = roc_curve(y, s, weights=w)
    assert_same_curve(c, c0)
    assert_same_hull(convex_hull(c), before.convex_hull(c0))
    ys, ss = np.asarray(y, dtype=bool), np.asarray(s)
    ws = None if w is None else np.asarray(w, dtype=np.float64)
    assert_same_runs(score_runs(ys, ss, ws), before.score_runs(ys, ss, ws))
    counted, pos, neg = roc_curve_with_counts(y, s, weights=w)
    assert_same_curve(counted, c0)
    runs0 = before.score_runs(ys, ss, ws)
    assert np.array_equal(pos, np.diff(runs0[1], prepend=0))
    assert np.array_equal(neg, np.diff(runs0[2], prepend=0))
    return c


@contextmanager
def small_inputs_take_every_path():
    """Sample sizes lowered so that a few dozen rows take the grid, the few-distinct keys
    and the hull's sampled chords (their boxes of a few points), as millions of rows do."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(curves, "_HASH_MIN_ROWS", 8)
        mp.setattr(curves, "_HASH_SAMPLE", 64)
        mp.setattr(hull, "_SAMPLED_CHAIN", 16)
        mp.setattr(_exact_paths, "_SAMPLE_STEP", 4)
        mp.setattr(_exact_paths, "_SUB_STEP", 2)
        yield


rows = st.lists(st.tuples(st.booleans(), score), min_size=1, max_size=80)
weighted_rows = st.lists(st.tuples(st.booleans(), score, weight), min_size=1, max_size=60)


@PROPS
@given(rows)
def test_flr001_unweighted_curve_area_hull_equal_the_code_before(data):
    y = np.array([r[0] for r in data])
    s = np.array([r[1] for r in data], dtype=float)
    compare_everything(y, s)
    with small_inputs_take_every_path():
        compare_everything(y, s)


@PROPS
@given(weighted_rows)
def test_flr002_weighted_curve_area_hull_equal_the_code_before(data):
    # The weighted sums run in the same order as the complex sort's, so they are the same
    # floats, whatever the weights (fractions, zeros, ties of scores).
    y = np.array([r[0] for r in data])
    s = np.array([r[1] for r in data], dtype=float)
    w = np.array([r[2] for r in data], dtype=float)
    compare_everything(y, s, w)
    with small_inputs_take_every_path():
        compare_everything(y, s, w)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(-10**18, 10**18)), min_size=2,
                max_size=40))
def test_flr003_integer_scores_beyond_2_53_equal_the_code_before(data):
    y = np.array([r[0] for r in data])
    s = np.array([r[1] for r in data], dtype=np.int64)
    compare_everything(y, s)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(-50, 50, allow_nan=False),
                          st.floats(0.01, 100)), min_size=2, max_size=60), st.booleans())
def test_flr004_curve_and_area_equal_scikit_learn(data, weighted):
    # (positive weights: scikit-learn drops the rows of weight zero, a vertex here)
    y = np.array([r[0] for r in data])
    assume(y.any() and not y.all())
    s = np.array([r[1] for r in data], dtype=float)
    w = np.array([r[2] for r in data], dtype=float) if weighted else None
    with small_inputs_take_every_path():
        c = roc_curve(y, s, weights=w)
    fpr, tpr, thr = sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(c.thresholds[1:], thr[1:])
    np.testing.assert_allclose(c.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.tpr, tpr, rtol=0, atol=1e-12)
    assert auc(c) == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)


def _cases(n: int, rng):
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.0, 1.0) * 2.0
    return y, {
        "logits": logit,
        "probabilities": 1 / (1 + np.exp(-logit)),
        "rounded": np.round(logit, 2),
        "integers": np.round(logit * 25),
        "all equal": np.full(n, 0.25),
        "all zeros, both signs": np.where(rng.random(n) < 0.5, 0.0, -0.0),
        "subnormals": rng.integers(-50, 50, n) * TINY,
        "huge and tiny": np.where(rng.random(n) < 0.5, logit * 1e300, logit * 1e-300),
        "largest": np.where(rng.random(n) < 0.5, MAX, -MAX) * (rng.random(n) < 0.9),
        "nearly one": 1.0 - rng.integers(0, 40, n) * 2.0**-53,
        "off the grid by one row": np.append(np.round(logit[:-1], 2), 0.123456789),
        "beyond the sample's range": np.append(logit[:-1], 1e200),
    }


@pytest.mark.parametrize("weighted", [False, True])
def test_flr005_adversarial_scores_equal_the_code_before(weighted):
    rng = np.random.default_rng(5)
    n = 40_000  # above the sample size: the grid and few-distinct paths are considered
    y, cases = _cases(n, rng)
    w = rng.uniform(0.0, 3.0, n) * (rng.random(n) < 0.95) if weighted else None
    for name, s in cases.items():
        c = compare_everything(y, s, w)
        assert c is not None, name


def test_flr006_one_class_and_non_finite_refused_as_before():
    y = np.array([True, False, True, False])
    for bad in (np.inf, -np.inf, np.nan):
        s = np.array([0.5, bad, -1.0, 2.0])
        for w in (None, np.ones(4)):
            with pytest.raises(ValueError, match="finite"):
                roc_curve(y, s, weights=w)
            with pytest.raises(ValueError, match="finite"):
                before.roc_curve(y, s, weights=w)
    # a non-finite score far inside a large input (found by the key pass, not a prefix)
    rng = np.random.default_rng(6)
    y = rng.random(100_000) < 0.5
    for s in (rng.normal(size=100_000), np.round(rng.normal(size=100_000), 2)):
        s[77_777] = np.nan
        with pytest.raises(ValueError, match="finite"):
            roc_curve(y, s)
    # one class: the same message as before, scores checked first
    for y, s in ((np.ones(5, bool), np.arange(5.0)), (np.zeros(5, bool), np.arange(5.0))):
        with pytest.raises(ValueError) as new:
            roc_curve(y, s)
        with pytest.raises(ValueError) as old:
            before.roc_curve(y, s)
        assert str(new.value) == str(old.value)
    with pytest.raises(ValueError, match="finite"):
        roc_curve(np.ones(3, bool), np.array([1.0, np.nan, 2.0]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=60), st.data())
def test_flr007_keys_give_every_score_back_bit_for_bit(patterns, data):
    # Any finite float64 (every bit pattern that is not NaN or infinite): sorted keys,
    # ranks and labels read back give the distinct scores descending, +0.0 for zeros.
    s = np.array(patterns, dtype=np.uint64).view(np.float64)
    assume(np.isfinite(s).all())
    y = np.array(data.draw(st.lists(st.booleans(), min_size=s.size, max_size=s.size)))
    keyed = _exact_paths.sorted_keys(y, s)
    if keyed is None:  # magnitudes too far apart for a key: the split-key path takes them
        magnitudes = np.abs(s).view(np.uint64).astype(object)
        low = max(magnitudes) - _exact_paths._SPAN_MAX
        assert any(0 < m <= low for m in magnitudes)
        return
    thresholds, tp, fp = _exact_paths.vertices_of_keys(keyed, int(y.sum()), counts=True)
    distinct = sorted({float(v) + 0.0 for v in s}, reverse=True)
    assert bits_equal(thresholds[1:], np.array(distinct))
    assert tp[-1] == y.sum() and fp[-1] == (~y).sum()
    at = [int(np.sum(s >= t)) for t in distinct]
    assert np.array_equal(tp[1:] + fp[1:], at)


def test_flr008_long_chains_hull_equals_the_code_before():
    # Curves of 300,000 points (above the size where the sampled chords thin the chain):
    # distinct, tied and weighted scores, a first column of positives, a last row.
    rng = np.random.default_rng(8)
    n = 300_000
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.5, 1.0)
    head = np.where(np.arange(n) < 5000, 100.0 + np.arange(n), logit)  # top rows
    y_head = y | (np.arange(n) < 5000)
    ranks = np.arange(n, dtype=float)  # separated: a column, then one long row
    for yy, s, w in ((y, logit, None), (y, logit, rng.uniform(0.1, 3.0, n)),
                     (y_head, head, None), (y, np.round(logit, 3), None),
                     (y, logit, rng.integers(0, 3, n).astype(float)),
                     (ranks > 0.7 * n, ranks, None), (ranks > 0.7 * n, -ranks, None)):
        c0 = before.roc_curve(yy, s, weights=w)
        c = roc_curve(yy, s, weights=w)
        assert_same_curve(c, c0)
        assert len(c) > hull._SAMPLED_CHAIN or s is not logit
        assert_same_hull(convex_hull(c), before.convex_hull(c0))
        # the same hull from the bare points (no curve to vouch for them)
        assert_same_hull(hull.hull_of_points(c.fpr, c.tpr, thresholds=c.thresholds,
                                             totals=(c.n_neg, c.n_pos)),
                         before.convex_hull(c0))


def test_flr009_peak_memory_below_three_times_the_input():
    # bool labels and float64 scores: 9 bytes a row; the sort before needed 3.7 times that
    # (keys, their sorted copy and the counts), the sorted keys write the thresholds over
    # themselves.
    rng = np.random.default_rng(9)
    n = 1_000_000
    y = rng.random(n) < 0.3
    s = rng.normal(y * 1.0, 1.0)
    tracemalloc.start()
    try:
        c = roc_curve(y, s)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(c) == n + 1
    assert peak / (y.nbytes + s.nbytes) < 3.0


def test_flr010_each_kind_of_scores_takes_its_exact_path(monkeypatch):
    # Unweighted floats: sorted keys; decimal grid: counted per step; weighted floats:
    # index keys; never the complex sort or the sign-split sort of before.
    rng = np.random.default_rng(10)
    n = 50_000
    y = rng.random(n) < 0.4
    logit = rng.normal(size=n)
    taken = []
    for module, name in ((curves, "sorted_keys"), (curves, "runs_on_grid"),
                         (curves, "weighted_order"), (curves, "_runs_by_split_key")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _r=real, _n=name, **k:
                            taken.append(_n) or _r(*a, **k))
    for s, w, path in ((logit, None, "sorted_keys"), (np.round(logit, 2), None, "runs_on_grid"),
                       (logit, rng.random(n), "weighted_order"),
                       (np.round(logit, 1), rng.random(n), "runs_on_grid")):
        taken.clear()
        roc_curve(y, s, weights=w)
        assert taken == [path]


@pytest.mark.parametrize("weighted", [False, True])
def test_flr011_a_run_of_equal_scores_longer_than_a_block(weighted):
    # Half the rows share one score, the rest are distinct: the scores are many (the rows'
    # path, not the few-scores one) and the run of equal ones covers whole blocks.
    rng = np.random.default_rng(11)
    n = 4 * _exact_paths._BLOCK
    y = rng.random(n) < 0.3
    w = rng.uniform(0.0, 2.0, n) if weighted else None
    for tied in (0.3, 0.0, -0.0, -7.5):
        s = np.where(rng.random(n) < 0.5, tied, rng.normal(size=n))
        assert compare_everything(y, s, w) is not None



def _chords_kept_by_brute_force(x, t):
    """The sampled chords of the curve ``(x, t)`` (every 64th point and the last) and the
    points a point-by-point test keeps above them, with the chords' own rows and the last
    point: ``(slope, bound, rows, ends, kept)``."""
    sample = np.unique(np.append(np.arange(0, x.size, 64), x.size - 1))
    ends = sample[hull._hull_of_sample(x[sample], t[sample])]
    slope, bound, rows = _exact_paths._chords(x, t, ends)
    chord = np.repeat(np.arange(ends.size - 1), np.diff(ends))
    points = np.arange(ends[0], ends[-1])
    kept = points[t[points] - x[points] * slope[chord] >= bound[chord]]
    kept = np.sort(np.concatenate([kept, *(np.arange(a, b) for a, b in rows), [x.size - 1]]))
    return slope, bound, rows, ends, kept


def test_flr012_boxes_keep_exactly_the_points_each_chord_test_keeps(monkeypatch):
    # The sampled chords' boxes skip points only when their box's corner is below the chord:
    # the points kept are exactly those each point's own test against its chord keeps
    # (columns none, rows their first column), whatever the sizes of the boxes.
    rng = np.random.default_rng(12)
    n = 40_000
    y = rng.random(n) < 0.4
    logit = rng.normal(y * 1.2, 1.0)
    ranks = np.arange(n, dtype=float)
    for yy, s in ((y, logit), (y, np.round(logit, 2)), (ranks > 0.7 * n, ranks)):
        c = roc_curve(yy, s)
        x, t = c.fpr, c.tpr
        slope, bound, rows, ends, brute = _chords_kept_by_brute_force(x, t)
        for sub_step in (1, 3, 8, 64):
            monkeypatch.setattr(_exact_paths, "_SUB_STEP", sub_step)
            kept = _exact_paths.above_sample_hull(x, t, hull._hull_of_sample)
            assert np.array_equal(kept, brute)
            assert kept.size < x.size // 4 or s is not logit  # most are skipped


def test_flr013_weighted_runs_written_over_the_arrays_the_order_leaves():
    # The thresholds go over the sorted keys and the sums over the rows before the gather
    # (memory already touched, not fresh pages), with the runs of the fresh arrays bit for
    # bit; with ties the thresholds shrink in place.
    rng = np.random.default_rng(13)
    n = 5000
    y = rng.random(n) < 0.4
    w = rng.uniform(0.1, 3.0, n)
    for s in (rng.normal(y * 1.0, 1.0), np.round(rng.normal(y * 1.0, 1.0), 1)):
        fresh = _exact_paths.runs_of_order(_exact_paths.weighted_order(y, s, w))
        spare = []
        z = _exact_paths.weighted_order(y, s, w, spare=spare)
        keys, rows = spare
        runs = _exact_paths.runs_of_order(z, spare)
        assert spare == []
        assert np.shares_memory(runs[1], rows) and np.shares_memory(runs[2], rows)
        assert runs[0].base is keys or runs[0].base is keys.base
        assert runs[0].size == np.unique(s).size + 1
        for a, b in zip(runs, fresh, strict=True):
            assert np.array_equal(a.view(np.uint64), b.view(np.uint64))


def test_flr014_whole_boxes_read_as_rows_keep_the_points_each_chord_test_keeps(monkeypatch):
    # The boxes of whole sub-boxes are read as rows of views of the rates, the last few
    # (the chain's end, not a whole box of sub-boxes) by their indices: together they keep
    # exactly the points of the test point by point, whatever the length of the tail.
    rng = np.random.default_rng(14)
    rows_seen, tail_seen = [], []
    real = _exact_paths._points_of_whole_boxes
    monkeypatch.setattr(_exact_paths, "_points_of_whole_boxes",
                        lambda x, y, box, *a: rows_seen.append(box.size) or real(x, y, box, *a))
    real_tail = _exact_paths._points_of_boxes
    monkeypatch.setattr(_exact_paths, "_points_of_boxes",
                        lambda x, y, lo, *a: tail_seen.append(lo.size) or real_tail(x, y, lo, *a))
    for n in (20_000, 20_001, 20_007, 20_008, 20_009, 20_063, 20_064, 20_065):
        y = rng.random(n) < 0.4
        s = np.where(np.arange(n) < n - 70, rng.normal(y * 1.2, 1.0), -10.0 - np.arange(n))
        c = roc_curve(y, s)  # the last 70 rows lowest: the chain ends in the tail boxes
        x, t = c.fpr, c.tpr
        slope, bound, rows, ends, brute = _chords_kept_by_brute_force(x, t)
        for sub_step in (8, 3):  # 3: not a divisor of 64, every box by its indices
            monkeypatch.setattr(_exact_paths, "_SUB_STEP", sub_step)
            rows_seen.clear()
            tail_seen.clear()
            kept = _exact_paths.above_sample_hull(x, t, hull._hull_of_sample)
            assert np.array_equal(kept, brute), (n, sub_step)
            assert (sum(rows_seen) > 0) == (sub_step == 8), (n, sub_step)
            assert sum(tail_seen) > 0, (n, sub_step)  # the tail's boxes by their indices
