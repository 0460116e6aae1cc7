"""Core ROC points and AUC: Fawcett's worked examples, tie handling, scikit-learn as oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core import accuracy_at_threshold, best_accuracy, roc_auc, roc_curve
from roc_dash.core.roc.curve_geometry import det_curve, reduce_collinear, tie_bounds
from roc_dash.core.roc.curves import auc

# Fawcett (2004), figure 3: twenty instances, ten positive and ten negative.
FIG3_CLASS = list("ppnpppnnpnpnpnnnpnpn")
FIG3_SCORE = [0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.52, 0.51, 0.505,
              0.4, 0.39, 0.38, 0.37, 0.36, 0.35, 0.34, 0.33, 0.30, 0.1]

# Fawcett (2004), figure 4: ten Naive Bayes scores.
FIG4_CLASS = list("ppppppnnnn")
FIG4_SCORE = [0.99999, 0.99999, 0.99993, 0.99986, 0.99964, 0.99955,
              0.68139, 0.50961, 0.48880, 0.44951]


def _fig3():
    return np.array([c == "p" for c in FIG3_CLASS]), np.array(FIG3_SCORE)


def _walk(classes):
    """Independent Algorithm 2 walk for distinct scores: the expected vertex sequence."""
    p = classes.count("p")
    n = classes.count("n")
    tp = fp = 0
    points = [(0.0, 0.0)]
    for c in classes:
        tp += c == "p"
        fp += c == "n"
        points.append((fp / n, tp / p))
    return points


def test_core001_fawcett_figure3_points():
    y, s = _fig3()
    curve = roc_curve(y, s)
    expected = _walk(FIG3_CLASS)
    assert len(curve) == 21
    np.testing.assert_allclose(curve.fpr, [p[0] for p in expected])
    np.testing.assert_allclose(curve.tpr, [p[1] for p in expected])
    # Each point is labelled by the threshold that produces it; the origin by +inf.
    assert curve.thresholds[0] == np.inf
    np.testing.assert_allclose(curve.thresholds[1:], FIG3_SCORE)
    # A few points read off the figure.
    assert (curve.fpr[1], curve.tpr[1]) == (0.0, 0.1)
    assert (curve.fpr[3], curve.tpr[3]) == pytest.approx((0.1, 0.2))
    assert (curve.fpr[-1], curve.tpr[-1]) == (1.0, 1.0)


def test_core002_fawcett_figure3_best_accuracy():
    y, s = _fig3()
    best = best_accuracy(roc_curve(y, s))
    assert (best.fpr, best.tpr) == pytest.approx((0.1, 0.5))
    assert best.value == pytest.approx(0.70)
    assert best.threshold == pytest.approx(0.54)


def test_core003_fawcett_figure4_auc_one_but_accuracy_80():
    y = np.array([c == "p" for c in FIG4_CLASS])
    s = np.array(FIG4_SCORE)
    curve = roc_curve(y, s)
    assert roc_auc(y, s) == 1.0
    # The curve rises vertically to (0, 1), then runs horizontally to (1, 1).
    assert (0.0, 1.0) in set(zip(curve.fpr.tolist(), curve.tpr.tolist(), strict=True))
    assert accuracy_at_threshold(y, s, 0.5) == pytest.approx(0.80)
    assert best_accuracy(curve).value == 1.0


def test_core004_tied_run_gives_one_diagonal_segment():
    # Fawcett section 4.1 / figure 6: a run of 4 negatives and 6 positives with equal scores.
    run = [False, True] * 2 + [True] * 2 + [False] * 2 + [True] * 2
    y = np.array([True, True] + run + [True, False])
    s = np.array([0.9, 0.8] + [0.5] * 10 + [0.1, 0.05])
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    order = np.random.default_rng(0).permutation(y.size)
    for yy, ss in ((y, s), (y[order], s[order])):
        curve = roc_curve(yy, ss)
        # One vertex per distinct score: the tied run is a single segment.
        assert len(curve) == np.unique(ss).size + 1
        k = int(np.flatnonzero(curve.thresholds == 0.5)[0])
        dx = curve.fpr[k] - curve.fpr[k - 1]
        dy = curve.tpr[k] - curve.tpr[k - 1]
        assert dx == pytest.approx(4 / n_neg) and dy == pytest.approx(6 / n_pos)
    # The area of the run is the mean of its optimistic and pessimistic orderings.
    opt = roc_auc(y, np.array([0.9, 0.8] + [0.5 + 1e-3 * t for t in y[2:12]] + [0.1, 0.05]))
    pes = roc_auc(y, np.array([0.9, 0.8] + [0.5 - 1e-3 * t for t in y[2:12]] + [0.1, 0.05]))
    assert roc_auc(y, s) == pytest.approx((opt + pes) / 2)


def _mann_whitney(y, s, w=None):
    w = np.ones_like(s) if w is None else w
    sp, wp = s[y], w[y]
    sn, wn = s[~y], w[~y]
    gt = (sp[:, None] > sn[None, :]) + 0.5 * (sp[:, None] == sn[None, :])
    return float((wp[:, None] * wn[None, :] * gt).sum() / (wp.sum() * wn.sum()))


@pytest.mark.parametrize("n_distinct", [3, 10, 1000])
@pytest.mark.parametrize("weighted", [False, True])
def test_core005_matches_sklearn_with_ties(n_distinct, weighted):
    rng = np.random.default_rng(n_distinct + weighted)
    n = 2000
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(y * 0.8, 1.0) * n_distinct / 6) / n_distinct
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    curve = roc_curve(y, s, weights=w)
    fpr, tpr, thr = sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(curve.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(curve.tpr, tpr, atol=1e-12)
    np.testing.assert_array_equal(curve.thresholds[1:], thr[1:])
    assert roc_auc(y, s, weights=w) == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(1, 4)), min_size=2, max_size=40)
)
def test_core006_auc_is_mann_whitney_with_half_ties(rows):
    y = np.array([r[0] for r in rows])
    if y.all() or not y.any():
        return
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    assert roc_auc(y, s) == pytest.approx(_mann_whitney(y, s), abs=1e-12)
    # Integer weights are instance counts: the weighted curve equals the expanded rows'.
    assert roc_auc(y, s, weights=w) == pytest.approx(_mann_whitney(y, s, w), abs=1e-12)
    rep = w.astype(int)
    expanded = roc_curve(np.repeat(y, rep), np.repeat(s, rep))
    weighted = roc_curve(y, s, weights=w)
    np.testing.assert_allclose(weighted.fpr, expanded.fpr, atol=1e-12)
    np.testing.assert_allclose(weighted.tpr, expanded.tpr, atol=1e-12)


def test_core007_rejects_one_class_and_bad_input():
    with pytest.raises(ValueError, match="no negative"):
        roc_curve([True, True], [0.1, 0.2])
    with pytest.raises(ValueError, match="no positive"):
        roc_curve([False, False], [0.1, 0.2])
    with pytest.raises(ValueError, match="finite"):
        roc_curve([True, False], [np.nan, 0.2])
    with pytest.raises(ValueError, match="length"):
        roc_curve([True, False], [0.1])
    with pytest.raises(ValueError, match="weights"):
        roc_curve([True, False], [0.1, 0.2], weights=[1.0, -1.0])


def test_core008_core_imports_no_ui_library():
    import pathlib
    import re

    import roc_dash.core

    root = pathlib.Path(roc_dash.core.__file__).parent
    pattern = re.compile(r"^\s*(import|from)\s+(dash|plotly|flask)\b", re.M)
    offenders = [str(p) for p in root.rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


@pytest.mark.parametrize(
    "kind", ["probabilities", "negative", "mixed_small", "mixed_wide", "signed_zero", "extreme"]
)
def test_core009_every_sort_path_matches_sklearn(kind):
    # The unweighted path carries the label in a spare bit of the sort key, freed by sorting
    # negative and non-negative scores apart; it must be exact on every one of these.
    rng = np.random.default_rng(9)
    n = 3000
    y = rng.random(n) < 0.35
    base = rng.normal(y * 0.7, 1.0)
    s = {
        "probabilities": 1 / (1 + np.exp(-base)),
        "negative": -np.exp(-base),
        "mixed_small": np.round(base, 2),
        "mixed_wide": base * 1e300,
        "signed_zero": np.where(rng.random(n) < 0.5, 0.0, -0.0) + (base > 1) * 1.0,
        "extreme": np.where(base > 0, 5e-324, np.where(base < -1, -1.7e308, 1.7e308)),
    }[kind]
    curve = roc_curve(y, s)
    with np.errstate(invalid="ignore", over="ignore"):  # sklearn's input check sums the scores
        fpr, tpr, thr = sk_roc_curve(y, s, drop_intermediate=False)
        sk_auc = roc_auc_score(y, s)
    np.testing.assert_array_equal(curve.fpr, fpr)
    np.testing.assert_allclose(curve.tpr, tpr, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(curve.thresholds[1:], thr[1:])
    assert roc_auc(y, s) == pytest.approx(sk_auc, abs=1e-12)


def test_core010_tie_bounds_fawcett_figure6():
    # A run of 4 negatives and 6 positives tied: optimistic = positives first.
    y = np.array([True] * 6 + [False] * 4)
    s = np.full(10, 0.5)
    b = tie_bounds(roc_curve(y, s))
    assert list(zip(b.optimistic_fpr, b.optimistic_tpr, strict=True)) == [(0, 0), (0, 1), (1, 1)]
    assert list(zip(b.pessimistic_fpr, b.pessimistic_tpr, strict=True)) == [(0, 0), (1, 0), (1, 1)]
    # on random tied data: optimistic/pessimistic AUC = scoring ties as wins/losses
    rng = np.random.default_rng(4)
    y = rng.random(500) < 0.4
    s = rng.integers(0, 8, 500).astype(float)
    b = tie_bounds(roc_curve(y, s))
    sp, sn = s[y][:, None], s[~y][None, :]
    assert b.optimistic_auc == pytest.approx(((sp > sn) | (sp == sn)).mean())
    assert b.pessimistic_auc == pytest.approx((sp > sn).mean())
    assert roc_auc(y, s) == pytest.approx((b.optimistic_auc + b.pessimistic_auc) / 2)


def test_core011_reduce_collinear_is_lossless():
    rng = np.random.default_rng(5)
    y = rng.random(5000) < 0.3
    s = rng.normal(y * 1.0, 1)
    curve = roc_curve(y, s)
    small = reduce_collinear(curve)
    assert len(small) < len(curve) / 2
    assert auc(small) == pytest.approx(auc(curve), abs=1e-13)
    # same picture: every original vertex lies on the reduced polyline
    for f, t in ((0.0, 0.0), (1.0, 1.0)):
        assert (f, t) in set(zip(small.fpr.tolist(), small.tpr.tolist(), strict=True))
    grid = np.unique(curve.fpr)
    top = np.array([curve.tpr[curve.fpr == g].max() for g in grid[::50]])
    top_small = np.array([small.tpr[np.searchsorted(small.fpr, g, "right") - 1]
                          for g in grid[::50]])
    np.testing.assert_allclose(top_small, top)
    # kept vertices keep their thresholds
    idx = np.searchsorted(-curve.thresholds, -small.thresholds)
    np.testing.assert_array_equal(curve.fpr[idx], small.fpr)


def test_core012_det_matches_sklearn():
    from sklearn.metrics import det_curve as sk_det_curve

    rng = np.random.default_rng(6)
    for ties in (1, 2, 4):
        y = rng.random(400) < 0.4
        s = np.round(rng.normal(y * 1.0, 1), ties)
        d = det_curve(roc_curve(y, s))
        fpr, fnr, thr = sk_det_curve(y, s, drop_intermediate=False)
        np.testing.assert_allclose(d.fpr, fpr[::-1])
        np.testing.assert_allclose(d.fnr, fnr[::-1], atol=1e-15)
        np.testing.assert_array_equal(d.thresholds, thr[::-1])
        from scipy.stats import norm

        inner = (d.fpr > 0) & (d.fpr < 1)
        np.testing.assert_allclose(d.fpr_deviate[inner], norm.ppf(d.fpr[inner]))


def test_core013_display_thinning_bounded_and_close():
    from roc_dash.core.roc.curve_geometry import display_indices

    rng = np.random.default_rng(13)
    y = rng.random(200_000) < 0.3
    s = rng.normal(y * 1.0, 1)
    curve = roc_curve(y, s)
    idx = display_indices(curve.fpr, curve.tpr, max_points=2000)
    assert idx.size <= 2100 and idx[0] == 0 and idx[-1] == len(curve) - 1
    # the thinned polyline stays within one cell (4/2000 of the axis) of every vertex
    fx, fy = curve.fpr[idx], curve.tpr[idx]
    probe = rng.integers(0, len(curve), 2000)
    gap = np.abs(np.interp(curve.fpr[probe], fx, fy) - curve.tpr[probe])
    at_vertical = np.isin(curve.fpr[probe], fx)
    assert gap[~at_vertical].max() <= 4 / 2000 + 1e-12
    # small curves are only reduced losslessly
    small = roc_curve(y[:300], s[:300])
    np.testing.assert_array_equal(display_indices(small.fpr, small.tpr),
                                  np.flatnonzero(np.isin(small.fpr, reduce_collinear(small).fpr)
                                                 & np.isin(small.tpr, reduce_collinear(small).tpr)))


# ---------------------------------------------------------------------------------------------
# Tie bounds, lossless reduction and display thinning on curves with horizontal and vertical
# segments, ties and zero weights. The oracle builds the label-ordered staircase row by row.


def label_ordered_corners(y, s, w=None, *, positives_first):
    """Independent staircase: sort the rows by score (descending), ties broken by the label
    (positives first = optimistic, negatives first = pessimistic), walk them one by one
    (a positive steps up, a negative right, a zero weight not at all) and keep the corners
    where the direction changes, plus both ends."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=float)
    order = np.lexsort((y if not positives_first else ~y, -s))
    y, w = y[order], w[order]
    moving = w > 0
    y, w = y[moving], w[moving]
    tp = np.concatenate(([0.0], np.cumsum(np.where(y, w, 0.0))))
    fp = np.concatenate(([0.0], np.cumsum(np.where(y, 0.0, w))))
    turns = np.flatnonzero(y[1:] != y[:-1]) + 1  # the point after step k - 1, before step k
    keep = np.concatenate(([0], turns, [y.size]))
    return fp[keep] / fp[-1], tp[keep] / tp[-1]


def _tie_broken_auc(y, s, w, positives_first):
    order = np.lexsort((y if not positives_first else ~y, -s))
    rank = np.empty(y.size)
    rank[order] = -np.arange(y.size, dtype=float)  # distinct scores in that order
    return roc_auc_score(y, rank, sample_weight=w)


def test_core014_tie_bounds_without_ties_are_the_curve():
    # The example: a vertical then a horizontal segment, no tie.
    b = tie_bounds(roc_curve([True, False], [0.9, 0.1]))
    assert (b.optimistic_auc, b.pessimistic_auc) == (1.0, 1.0)
    assert list(zip(b.optimistic_fpr, b.optimistic_tpr, strict=True)) == [(0, 0), (0, 1), (1, 1)]
    assert list(zip(b.pessimistic_fpr, b.pessimistic_tpr, strict=True)) == [(0, 0), (0, 1), (1, 1)]
    # Distinct scores (weighted or not): both bounds are the curve, reduced to its corners.
    rng = np.random.default_rng(14)
    for weighted in (False, True):
        y = rng.random(300) < 0.4
        s = rng.permutation(300).astype(float)
        w = rng.integers(0, 4, 300).astype(float) if weighted else None
        curve = roc_curve(y, s, weights=w)
        small = reduce_collinear(curve)
        b = tie_bounds(curve)
        for bf, bt in ((b.optimistic_fpr, b.optimistic_tpr),
                       (b.pessimistic_fpr, b.pessimistic_tpr)):
            np.testing.assert_array_equal(bf, small.fpr)
            np.testing.assert_array_equal(bt, small.tpr)
        assert b.optimistic_auc == pytest.approx(auc(curve), abs=1e-12)
        assert b.pessimistic_auc == pytest.approx(auc(curve), abs=1e-12)


@pytest.mark.parametrize("weights", ["none", "integer", "fractional", "with_zeros"])
def test_core015_tie_bounds_are_the_label_ordered_staircases(weights):
    rng = np.random.default_rng(15)
    for trial in range(40):
        n = int(rng.integers(2, 80))
        y = rng.random(n) < rng.uniform(0.1, 0.9)
        y[:2] = [True, False]
        s = rng.integers(0, rng.integers(1, 12), n).astype(float)
        w = {"none": None,
             "integer": rng.integers(1, 5, n).astype(float),
             "fractional": rng.uniform(0.1, 3.0, n),
             "with_zeros": rng.integers(0, 3, n).astype(float)}[weights]
        if w is not None:
            w[:2] = 1.0
        curve = roc_curve(y, s, weights=w)
        b = tie_bounds(curve)
        for positives_first, bf, bt in ((True, b.optimistic_fpr, b.optimistic_tpr),
                                        (False, b.pessimistic_fpr, b.pessimistic_tpr)):
            ef, et = label_ordered_corners(y, s, w, positives_first=positives_first)
            assert bf.size == ef.size, trial
            np.testing.assert_allclose(bf, ef, rtol=0, atol=1e-12)
            np.testing.assert_allclose(bt, et, rtol=0, atol=1e-12)
        assert b.optimistic_auc == pytest.approx(_tie_broken_auc(y, s, w, True), abs=1e-12)
        assert b.pessimistic_auc == pytest.approx(_tie_broken_auc(y, s, w, False), abs=1e-12)
        assert b.pessimistic_auc - 1e-12 <= auc(curve) <= b.optimistic_auc + 1e-12


def test_core016_zero_weight_rows_keep_their_corners():
    # Zero-weight rows repeat a vertex; the repeat must not hide the corner next to it.
    curve = roc_curve([1, 0, 0, 1, 0], [.9, .8, .7, .6, .5], weights=[1, 0, 1, 1, 1])
    assert auc(curve) == 0.75
    small = reduce_collinear(curve)
    assert auc(small) == 0.75
    assert list(zip(small.fpr, small.tpr, strict=True)) == [(0, 0), (0, .5), (.5, .5), (.5, 1),
                                                            (1, 1)]
    # the kept vertices keep their thresholds (the first of a repeated run)
    np.testing.assert_array_equal(small.thresholds, [np.inf, .9, .7, .6, .5])
    from roc_dash.core.roc.curve_geometry import display_indices

    idx = display_indices(curve.fpr, curve.tpr)
    assert auc(type(curve)(curve.fpr[idx], curve.tpr[idx], curve.thresholds[idx],
                           curve.n_pos, curve.n_neg)) == 0.75
    # repeated vertices at either end: the first and last vertices stay
    curve = roc_curve([1, 0, 1, 0, 1], [.9, .8, .7, .6, .5], weights=[0, 1, 1, 1, 0])
    small = reduce_collinear(curve)
    assert small.thresholds[0] == np.inf and small.thresholds[-1] == 0.5
    assert auc(small) == auc(curve) == 0.5


def test_core017_display_thinning_keeps_spikes_and_drops_repeats():
    from roc_dash.core.roc.curve_geometry import display_indices

    # A winding polyline (precision against recall): a vertical spike is kept, collinear
    # points and repeats are not.
    x = np.array([0.0, 0.5, 0.5, 0.5, 0.5, 0.75, 1.0, 1.0])
    y = np.array([1.0, 0.8, 0.9, 0.9, 0.7, 0.7, 0.7, 0.7])
    np.testing.assert_array_equal(display_indices(x, y), [0, 1, 2, 4, 7])


def test_core018_reduce_collinear_exact_on_counts():
    # Unweighted (and integer-weighted) curves are reduced on whole counts: every remaining
    # interior vertex is a real turn (integer cross product non-zero), none is repeated.
    rng = np.random.default_rng(18)
    for weights in (None, rng.integers(0, 4, 3000).astype(float)):
        y = rng.random(3000) < 0.3
        s = np.round(rng.normal(y * 1.0, 1), 1)
        curve = roc_curve(y, s, weights=weights)
        small = reduce_collinear(curve)
        fp = np.rint(small.fpr * small.n_neg).astype(np.int64)
        tp = np.rint(small.tpr * small.n_pos).astype(np.int64)
        d = np.diff(np.c_[fp, tp], axis=0)
        assert (np.abs(d).sum(axis=1) > 0).all()
        assert (d[:-1, 0] * d[1:, 1] - d[:-1, 1] * d[1:, 0] != 0).all()
        assert auc(small) == pytest.approx(auc(curve), abs=1e-13)
