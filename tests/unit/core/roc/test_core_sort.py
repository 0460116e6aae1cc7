"""The sort paths of roc_curve: every finite score distribution, exactly.

Each private path (label-key sort, complex sort with weights, hashing for few distinct scores)
is checked against a direct reference: the distinct scores (Python float equality, so
``-0.0 == 0.0``) and, per distinct score, the class counts at or below it. scikit-learn's
``roc_curve(drop_intermediate=False)`` is the oracle for the public function.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.roc import curves
from roc_dash.core.roc.curves import roc_auc, roc_curve

MAX = np.finfo(np.float64).max
TINY = 5e-324  # smallest subnormal
# -3.9999999999999996 is ~bits(1.0): after the sign split its key equals the key of 1.0,
# so the two halves must never be read as one run.
SPECIAL = [0.0, -0.0, TINY, -TINY, 2.2250738585072014e-308, -2.2250738585072014e-308,
           MAX, -MAX, 1.0, -1.0, -3.9999999999999996, 0.5, -0.5, 1e300, -1e300]

finite = st.floats(allow_nan=False, allow_infinity=False)
score = st.one_of(finite, st.sampled_from(SPECIAL), st.integers(-3, 3).map(float))


def reference_runs(y, s, w=None):
    """Thresholds (+inf, then distinct scores descending, zeros as +0.0) and class totals at
    or below each distinct score ascending, by brute force."""
    w = np.ones(s.size) if w is None else np.asarray(w, dtype=float)
    distinct = sorted({float(v) for v in s})  # -0.0 and 0.0 are one value
    distinct = [v + 0.0 for v in distinct]
    at_or_below = s[None, :] <= np.array(distinct)[:, None]
    pos_le = (at_or_below * (w * y)[None, :]).sum(axis=1)
    neg_le = (at_or_below * (w * ~y)[None, :]).sum(axis=1)
    thresholds = np.array([np.inf] + distinct[::-1])
    return thresholds, pos_le, neg_le


def assert_runs_equal(got, expected, exact=True):
    thr, pos, neg = got
    e_thr, e_pos, e_neg = expected
    # Bit for bit: the same distinct values, and +0.0 rather than -0.0.
    np.testing.assert_array_equal(thr.view(np.uint64), e_thr.view(np.uint64))
    if exact:
        np.testing.assert_array_equal(pos, e_pos)
        np.testing.assert_array_equal(neg, e_neg)
    else:
        np.testing.assert_allclose(pos, e_pos, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(neg, e_neg, rtol=1e-12, atol=1e-12)


PATHS = {
    "label_key": lambda y, s, w: curves._runs_by_label_key(y, s),
    "weight": lambda y, s, w: curves._runs_by_weight(y, s, np.ones(s.size) if w is None else w),
    "hash": lambda y, s, w: curves._runs_by_hash(y, s, w),
}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), score), min_size=1, max_size=60),
       st.sampled_from(sorted(PATHS)))
def test_srt001_every_path_equals_the_reference(rows, path):
    # Mixed signs, +-0.0, subnormals, the largest floats and exact ties (small pool).
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    assert_runs_equal(PATHS[path](y, s, None), reference_runs(y, s))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), score, st.integers(0, 5)), min_size=1, max_size=40),
       st.sampled_from(["weight", "hash"]))
def test_srt002_weighted_paths_equal_the_reference(rows, path):
    # Integer weights (zero included): every sum is exact, whatever the order of addition.
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    assert_runs_equal(PATHS[path](y, s, w), reference_runs(y, s, w))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), score), min_size=2, max_size=60))
@pytest.mark.slow
def test_srt003_roc_curve_matches_sklearn_on_any_finite_scores(rows):
    y = np.array([r[0] for r in rows])
    assume(y.any() and not y.all())
    s = np.array([r[1] for r in rows], dtype=float)
    curve = roc_curve(y, s)
    with np.errstate(invalid="ignore", over="ignore"):  # sklearn's input check sums the scores
        fpr, tpr, thr = sk_roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_array_equal(curve.thresholds[1:], thr[1:])  # -0.0 == 0.0 here
    np.testing.assert_allclose(curve.fpr, fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(curve.tpr, tpr, rtol=0, atol=1e-15)


def _distributions(n, rng):
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.0, 1.0) * 3
    return y, {
        "probabilities": 1 / (1 + np.exp(-logit)),
        "logits": logit,
        "rounded_logits": np.round(logit, 1),
        "integers": np.round(logit * 10),
        "wide": logit * 1e300,
        "negative": -np.exp(logit / 3),
        "signed_zeros": np.where(rng.random(n) < 0.5, 0.0, -0.0) + np.round(logit) * (logit > 2),
    }


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    "kind", ["probabilities", "logits", "rounded_logits", "integers", "wide", "negative",
             "signed_zeros"])
def test_srt004_dispatch_on_large_inputs_equals_argsort(kind, weighted, monkeypatch):
    # Large enough for the grid and hash paths to be considered; every path agrees with a
    # stable argsort reference, and the tied distributions (on a decimal grid: rounded,
    # integers) are counted per grid step.
    n = 3 * curves._HASH_MIN_ROWS
    rng = np.random.default_rng(4)
    y, dists = _distributions(n, rng)
    s = dists[kind]
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    taken = []
    for name in ("_runs_by_label_key", "_runs_by_weight", "_runs_by_hash", "runs_on_grid"):
        real = getattr(curves, name)
        monkeypatch.setattr(curves, name,
                            lambda *a, _real=real, _name=name, **k: taken.append(_name)
                            or _real(*a, **k))
    got = curves._runs(y, s, w)
    order = np.argsort(s, kind="stable")
    ss, ys = s[order], y[order]
    ws = np.ones(n) if w is None else w[order]
    last = np.flatnonzero(np.append(ss[1:] != ss[:-1], True))
    expected = (np.concatenate(([np.inf], ss[last][::-1] + 0.0)),
                np.cumsum(ws * ys)[last], np.cumsum(ws * ~ys)[last])
    assert_runs_equal(got, expected)
    on_grid = kind in ("rounded_logits", "integers", "signed_zeros")
    assert taken == ["runs_on_grid" if on_grid else
                     "_runs_by_weight" if weighted else "_runs_by_label_key"]


def test_srt005_signed_zeros_and_the_sign_boundary():
    # -0.0 and +0.0 are one score, reported as +0.0, on every path.
    y = np.array([True, False, True, False])
    s = np.array([-0.0, 0.0, -0.0, 1.0])
    for path in PATHS.values():
        thr, pos, neg = path(y, s, None)
        assert thr[1:].tolist() == [1.0, 0.0] and not np.signbit(thr[1:]).any()
        assert pos.tolist() == [2, 2] and neg.tolist() == [1, 2]
    # A negative score whose key equals a positive score's key in the other half.
    y = np.array([True, True, False, False])
    s = np.array([-3.9999999999999996, 1.0, -5.0, 2.0])
    curve = roc_curve(y, s)
    assert curve.thresholds.tolist() == [np.inf, 2.0, 1.0, -3.9999999999999996, -5.0]
    assert curve.tpr.tolist() == [0.0, 0.0, 0.5, 1.0, 1.0]
    assert curve.fpr.tolist() == [0.0, 0.5, 0.5, 0.5, 1.0]


def test_srt006_non_finite_scores_rejected_on_every_path():
    for bad in (np.inf, -np.inf, np.nan):
        for weights in (None, [1.0, 2.0, 1.0]):
            with pytest.raises(ValueError, match="finite"):
                roc_curve([True, False, True], [0.5, bad, -1.0], weights=weights)
    n = 2 * curves._HASH_MIN_ROWS  # large and tied: would hash
    s = np.round(np.linspace(-3, 3, n))
    s[7] = np.inf
    with pytest.raises(ValueError, match="finite"):
        roc_curve(np.arange(n) % 2 == 0, s)


def test_srt007_strided_big_endian_and_read_only_inputs():
    rng = np.random.default_rng(7)
    y = rng.random(4000) < 0.4
    s = rng.normal(y * 1.0, 1.0) * 10
    expected = roc_curve(y[::2], s[::2].copy())
    s_ro = s.copy()
    s_ro.flags.writeable = False
    for yy, ss in ((y[::2], s[::2]), (y[::2].copy(), s[::2].astype(">f8")),
                   (y[::2], s_ro[::2])):
        got = roc_curve(yy, ss)
        np.testing.assert_array_equal(got.thresholds, expected.thresholds)
        np.testing.assert_array_equal(got.tpr, expected.tpr)
        np.testing.assert_array_equal(got.fpr, expected.fpr)
    np.testing.assert_array_equal(s_ro, s)  # inputs untouched


def test_srt008_distinct_estimate_picks_hashing_only_for_few_values():
    rng = np.random.default_rng(8)
    n = 1 << 18
    assert curves._distinct_estimate(rng.normal(size=1000)) == np.inf  # too small to bother
    assert curves._distinct_estimate(rng.normal(size=n)) > curves._HASH_MAX_DISTINCT
    assert curves._distinct_estimate(rng.integers(0, 50, n) * 1.0) < 100
    # Uniform over 20000 values: estimated within 20 %.
    assert abs(curves._distinct_estimate(rng.integers(0, 20000, n) * 0.5) - 20000) < 4000
    # Half the rows one value, the rest distinct: many values seen once, so no hashing.
    skewed = np.where(rng.random(n) < 0.5, 0.0, rng.normal(size=n))
    assert curves._distinct_estimate(skewed) > n / 4


def test_srt009_weighted_large_paths_agree_on_the_auc():
    # The complex sort and the hash path give the same AUC as expanded integer weights.
    rng = np.random.default_rng(9)
    n = 2 * curves._HASH_MIN_ROWS
    y, dists = _distributions(n, rng)
    w = rng.integers(1, 4, n)
    for kind in ("logits", "integers"):
        s = dists[kind]
        weighted = roc_auc(y, s, weights=w.astype(float))
        expanded = roc_auc(np.repeat(y, w), np.repeat(s, w))
        assert weighted == pytest.approx(expanded, abs=1e-12)
