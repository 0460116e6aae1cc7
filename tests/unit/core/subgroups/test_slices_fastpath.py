"""The Slices card's faster path (issue 18, scale): groups as categories give exactly the
groups of the same values as text (checked against a plain Python grouping of the rows and
scikit-learn's curve per group), pooling keeps categories, and the figure's drawn curve of
each group is the curve itself (every vertex of the exact curve on the drawn polyline, by a
cross product in integers written here) with each drawn point's hover threshold that of the
vertex drawn. One sort serves a curve and DeLong's interval (the views' analysis and the
groups' alike): the counts per score against numpy, the interval against the row-based
one."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.inference.statistics import (
    auc_confidence_interval,
    delong_variance_of_counts,
    wald_auc_interval,
)
from roc_dash.core.roc.averaging import fold_curves
from roc_dash.core.roc.curves import roc_curve, roc_curve_with_counts
from roc_dash.core.subgroups.slices import group_rocs, slice_analysis
from roc_dash.figures.slices import slices_figure
from roc_dash.figures.style import format_threshold
from roc_dash.io import load_predictions
from roc_dash.io.canonical import ReadOptions
from roc_dash.io.groups import OTHER_GROUP, pool_groups
from roc_dash.io.slice_columns import slice_choices, slice_groups

SEEDS = [0, 1, 2]


def _data(seed: int, n: int = 3000, groups: int = 6):
    """Groups of different sizes and separations, scores on a coarse grid (heavy ties)."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = rng.random(n) < rng.uniform(0.15, 0.6, groups)[g]
    s = np.round(rng.normal(size=n) + rng.uniform(0.2, 2.0, groups)[g] * y, 1)
    return y, s, np.array([f"g{k}" for k in g], dtype=object)


@pytest.mark.parametrize("seed", SEEDS)
def test_sfk001_categorical_groups_equal_text_groups(seed):
    y, s, g = _data(seed)
    # unused categories, and categories equal as text (1 and "1") that are one group
    values = np.where(g == "g0", 1, np.where(g == "g1", "1", g)).astype(object)
    cat = pd.Series(pd.Categorical(values, categories=[*sorted(set(values), key=str),
                                                       "unused"]))
    got = group_rocs(y, s, cat)
    text = [str(v) for v in values]
    names = sorted(set(text))
    assert [r.name for r in got] == names
    for r in got:
        rows = np.array([t == r.name for t in text])  # the rows of the group, by a loop
        assert r.rows == int(rows.sum())
        fpr, tpr, _ = sk_roc_curve(y[rows], s[rows], drop_intermediate=False)
        np.testing.assert_allclose(r.curve.fpr, fpr, atol=1e-12)
        np.testing.assert_allclose(r.curve.tpr, tpr, atol=1e-12)


def test_sfk002_categorical_missing_groups_refused():
    y, s, g = _data(0, n=50)
    cat = pd.Categorical(np.where(np.arange(50) == 7, None, g))
    with pytest.raises(ValueError, match="1 missing values .first at row 7"):
        group_rocs(y, s, cat)


def test_sfk003_pooling_categories_as_text():
    rng = np.random.default_rng(4)
    names = [f"n{k:02d}" for k in range(30)]
    values = rng.choice(names, 2000, p=np.arange(30, 0, -1) / np.arange(30, 0, -1).sum())
    as_text, note_t = pool_groups(pd.Series(values.astype(object)), 5)
    as_cat, note_c = pool_groups(pd.Series(pd.Categorical(values, categories=names)), 5)
    assert note_t == note_c and note_c is not None
    assert as_cat.astype(str).tolist() == as_text.tolist()
    assert set(as_cat.cat.categories) == set(as_text) and OTHER_GROUP in set(as_text)


def _on_polyline(px, py, qx, qy) -> bool:
    """Is point ``(qx, qy)`` on the polyline ``px, py``? Exact (fractions): on some
    segment, i.e. collinear with its ends and between them."""
    for i in range(len(px) - 1):
        ax, ay, bx, by = px[i], py[i], px[i + 1], py[i + 1]
        if (bx - ax) * (qy - ay) - (by - ay) * (qx - ax) == 0 and \
                min(ax, bx) <= qx <= max(ax, bx) and min(ay, by) <= qy <= max(ay, by):
            return True
    return False


@pytest.mark.parametrize("seed", SEEDS)
def test_sfk004_drawn_curves_lossless_with_their_thresholds(seed):
    y, s, g = _data(seed, n=1500)
    sa = slice_analysis(y, s, g, cost_fp=1.0, cost_fn=3.0)
    fig = slices_figure(sa)
    drawn = {t.legendgroup: t for t in fig.data if t.mode in ("lines", "lines+markers") and t.text is not None}
    assert len(drawn) == len(sa.rocs)
    for r in sa.rocs:
        trace, c = drawn[r.name], r.curve
        # the exact curve in whole counts, as fractions of the group's class totals
        fp = [Fraction(int(round(v * c.n_neg)), int(c.n_neg)) for v in c.fpr]
        tp = [Fraction(int(round(v * c.n_pos)), int(c.n_pos)) for v in c.tpr]
        dx = [Fraction(int(round(v * c.n_neg)), int(c.n_neg)) for v in trace.x]
        dy = [Fraction(int(round(v * c.n_pos)), int(c.n_pos)) for v in trace.y]
        assert len(dx) < len(fp)  # something was dropped: ties and runs of one class
        assert all(_on_polyline(dx, dy, qx, qy) for qx, qy in zip(fp, tp, strict=True))
        # each drawn point's threshold is that of the exact vertex at that point
        vertex = {(a, b): t for a, b, t in zip(fp, tp, c.thresholds.tolist(), strict=True)}
        assert list(trace.text) == [format_threshold(vertex[p]) for p in zip(dx, dy,
                                                                              strict=True)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_sfk006_curve_with_counts_one_sort_for_curve_and_delong(seed, weighted):
    """The counts per distinct score against ``np.unique`` and ``np.bincount``; the curve
    against :func:`roc_curve`; DeLong's interval from the counts against the row-based one
    (its own sort, the placements of DeLong et al. 1988)."""
    y, s, _ = _data(seed)
    w = np.random.default_rng(seed).choice([0.5, 1.0, 2.0], y.size) if weighted else None
    curve, pos, neg = roc_curve_with_counts(y, s, weights=w)
    values, inverse = np.unique(s, return_inverse=True)
    ww = np.ones(y.size) if w is None else w
    np.testing.assert_allclose(pos, np.bincount(inverse, ww * y, values.size))
    np.testing.assert_allclose(neg, np.bincount(inverse, ww * ~y, values.size))
    plain = roc_curve(y, s, weights=w)
    for a, b in ((curve.fpr, plain.fpr), (curve.tpr, plain.tpr),
                 (curve.thresholds, plain.thresholds)):
        np.testing.assert_array_equal(a, b)
    d = delong_variance_of_counts(pos, neg)
    got = wald_auc_interval(d.auc, d.std_error, level=0.9)
    want = auc_confidence_interval(y, s, weights=w, level=0.9, method="delong")
    assert (got.low, got.high) == pytest.approx((want.low, want.high), rel=1e-12)


@pytest.mark.parametrize("folds", [["0"], ["a", "b"]])
def test_sfk007_views_analysis_one_fold_is_the_pooled_curve(folds):
    """A model with one fold: its fold curve is the pooled curve (not sorted again), as
    :func:`fold_curves` computes it; with two folds each fold's curve as before; the AUC's
    interval is DeLong's from the rows (the placements' own sort)."""
    y, s, _ = _data(5, n=800)
    fold = np.array(folds)[np.arange(y.size) % len(folds)]
    table = pd.DataFrame({"label": y, "score": s, "model": "m", "fold": fold,
                          "weight": 1.0})
    m = analyse(table, Conditions()).models[0]
    want = fold_curves(y, s, fold)
    assert list(m.folds) == list(want) and m.n_folds == len(folds)
    for k, c in want.items():
        np.testing.assert_array_equal(m.folds[k].fpr, c.fpr)
        np.testing.assert_array_equal(m.folds[k].tpr, c.tpr)
        np.testing.assert_array_equal(m.folds[k].thresholds, c.thresholds)
    ci = auc_confidence_interval(y, s, level=0.95, method="delong")
    assert (m.auc_ci.low, m.auc_ci.high) == pytest.approx((ci.low, ci.high), rel=1e-12)


def test_sfk008_rows_of_one_model_have_only_their_groups():
    """A slice column kept as categories: the rows of a part of the table (one model) hold
    only the categories of their rows (an unused one would be an empty group), and crossing
    two columns gives the pairs present, against pandas' grouping of the rows."""
    rng = np.random.default_rng(8)
    n = 600
    region = rng.choice(["north", "south", "west"], n)
    model = np.where(region == "west", "b", rng.choice(["a", "b"], n))  # "a" has no west
    frame = pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n).round(2),
                          "model": model, "region": region,
                          "product": rng.choice(["card", "loan"], n)})
    table = load_predictions([("f.csv", frame.to_csv(index=False).encode())],
                             options=ReadOptions(keep_slice_columns=True)).table
    choices = slice_choices(table)
    rows = table[table["model"].astype(str) == "a"]
    groups, _ = slice_groups(rows, ["region"], choices=choices)
    want = frame.loc[frame["model"] == "a", "region"]
    assert sorted(groups.cat.categories) == sorted(set(want)) == ["north", "south"]
    assert groups.astype(str).tolist() == want.tolist()
    crossed, _ = slice_groups(rows, ["region", "product"], choices=choices)
    pairs = frame[frame["model"] == "a"].groupby(["region", "product"]).size()
    assert sorted(crossed.value_counts().items()) == sorted(
        (f"{r} × {p}", c) for (r, p), c in pairs.items())
