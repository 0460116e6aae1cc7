"""Decision-tree leaf labelings (Flach et al. section 4; Fawcett 2004 Algorithm 7)."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roc_dash.data
from roc_dash.core.kinds.leaves import (
    all_labelings,
    leaf_roc_curve,
    leaf_scores,
    leaves_from_rows,
    leaves_from_table,
    optimal_labelings,
    tree_roc_points,
)
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.hull import convex_hull, hull_of_points

DEMO = Path(roc_dash.data.__file__).parent / "tree_leaves_demo.csv"

# Flach et al., figure 7-4 (from Ferri et al. 2002): three leaves, 12 positives, 8 negatives.
PAPER = pd.DataFrame({"leaf": ["LEAF 1", "LEAF 2", "LEAF 3"], "pos": [3, 5, 4],
                      "neg": [5, 1, 2]})

LEAF_COUNTS = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)).filter(lambda t: sum(t)),
                       min_size=1, max_size=9)


def _table(counts):
    counts = list(counts) + [(1, 0), (0, 1)]  # both classes present
    return pd.DataFrame({"leaf": [f"L{i}" for i in range(len(counts))],
                         "pos": [c[0] for c in counts], "neg": [c[1] for c in counts]})


def test_lvs001_paper_example_exact_fractions():
    s = optimal_labelings(PAPER)
    assert list(s.leaf) == ["LEAF 2", "LEAF 3", "LEAF 1"]  # ordered as the paper's table
    exact = [(Fraction(int(fp), int(s.n_neg)), Fraction(int(tp), int(s.n_pos)))
             for fp, tp in zip(s.fp, s.tp, strict=True)]
    assert exact == [(0, 0), (Fraction(1, 8), Fraction(5, 12)), (Fraction(3, 8), Fraction(3, 4)),
                     (1, 1)]
    assert s.fpr.tolist() == [float(f) for f, _ in exact]
    assert s.tpr.tolist() == [float(t) for _, t in exact]
    # the paper's table of labelings S_0..S_3 (rows LEAF 2, LEAF 3, LEAF 1)
    table = {"S_0": "---", "S_1": "+--", "S_2": "++-", "S_3": "+++"}
    got = {f"S_{i}": "".join("+" if b else "-" for b in row) for i, row in enumerate(s.labeling)}
    assert got == table


def test_lvs002_demo_file_is_the_paper_example():
    demo = leaves_from_table(pd.read_csv(DEMO))
    assert list(demo.columns) == ["leaf", "pos", "neg"] and len(demo) == 3
    s = optimal_labelings(demo)
    np.testing.assert_array_equal(s.fpr, [0, 1 / 8, 3 / 8, 1])
    np.testing.assert_array_equal(s.tpr, [0, 5 / 12, 3 / 4, 1])


def test_lvs003_all_eight_labelings_of_the_paper_mirror_through_the_centre():
    a = all_labelings(PAPER)
    assert a.labeling.shape == (8, 3)
    np.testing.assert_allclose(a.fpr + a.fpr[::-1], 1.0)
    np.testing.assert_allclose(a.tpr + a.tpr[::-1], 1.0)
    hull = hull_of_points(a.fpr, a.tpr)
    s = optimal_labelings(PAPER)
    np.testing.assert_allclose(hull.fpr, s.fpr)
    np.testing.assert_allclose(hull.tpr, s.tpr)


def test_lvs004_s_points_are_the_vertices_of_the_leaf_score_curve():
    rng = np.random.default_rng(3)
    # distinct proportions: S_i are exactly the curve's vertices, thresholds included
    tbl = pd.DataFrame({"leaf": list("abcdef"), "pos": [7, 1, 30, 4, 0, 9],
                        "neg": [2, 8, 3, 4, 5, 1]})
    s = optimal_labelings(tbl)
    curve = leaf_roc_curve(tbl)
    np.testing.assert_array_equal(curve.fpr, s.fpr)
    np.testing.assert_array_equal(curve.tpr, s.tpr)
    np.testing.assert_array_equal(curve.thresholds, s.thresholds)
    # ... and the curve of the raw rows scored by their leaf's proportion
    leaf = np.repeat(np.tile(tbl["leaf"], 2), np.concatenate((tbl["pos"], tbl["neg"])))
    labels = np.repeat([1] * 6 + [0] * 6, np.concatenate((tbl["pos"], tbl["neg"])))
    perm = rng.permutation(leaf.size)
    leaf, labels = leaf[perm], labels[perm]
    raw = roc_curve(labels, leaf_scores(leaf, tbl))
    np.testing.assert_array_equal(raw.fpr, s.fpr)
    np.testing.assert_array_equal(raw.tpr, s.tpr)
    agg = leaves_from_rows(leaf, labels)
    assert optimal_labelings(agg).tpr.tolist() == s.tpr.tolist()


@settings(max_examples=80, deadline=None)
@given(LEAF_COUNTS)
def test_lvs005_every_labeling_lies_on_or_below_the_hull_of_s(counts):
    tbl = _table(counts)
    s = optimal_labelings(tbl)
    a = all_labelings(tbl)
    # in counts (exact integers): the S chain is concave ...
    dfp, dtp = np.diff(s.fp), np.diff(s.tp)
    cross = dfp[:-1] * dtp[1:] - dtp[:-1] * dfp[1:]
    assert (cross <= 0).all()
    # ... and every labeling is on or below the supporting line of every segment of it
    # (exact: whole counts)
    rel_fp = a.fp[:, None] - s.fp[None, :-1]
    rel_tp = a.tp[:, None] - s.tp[None, :-1]
    assert (dfp[None, :] * rel_tp - dtp[None, :] * rel_fp <= 0).all()
    # the S points are labelings, and hull(all) == hull(S)
    hs, ha = hull_of_points(s.fpr, s.tpr), hull_of_points(a.fpr, a.tpr)
    np.testing.assert_allclose(hs.fpr, ha.fpr)
    np.testing.assert_allclose(hs.tpr, ha.tpr)


@settings(max_examples=60, deadline=None)
@given(LEAF_COUNTS)
def test_lvs006_leaf_curve_vertices_are_s_points_even_with_ties(counts):
    tbl = _table(counts)
    s = optimal_labelings(tbl)
    curve = leaf_roc_curve(tbl)
    pts = set(zip(s.fpr.tolist(), s.tpr.tolist(), strict=True))
    assert set(zip(curve.fpr.tolist(), curve.tpr.tolist(), strict=True)) <= pts
    # tied leaves add S points on the curve's segments only: same hull, same area
    hc, hs = convex_hull(curve), convex_hull(s)
    np.testing.assert_allclose(hc.fpr, hs.fpr)
    np.testing.assert_allclose(hc.tpr, hs.tpr)


def test_lvs007_table_validation_messages():
    with pytest.raises(ValueError, match=r"missing column\(s\) 'neg'"):
        leaves_from_table(pd.DataFrame({"leaf": ["a"], "pos": [1]}))
    with pytest.raises(ValueError, match=r"'neg' must hold non-negative .*'b' \(-2\)"):
        leaves_from_table(pd.DataFrame({"leaf": ["a", "b"], "pos": [1, 1], "neg": [1, -2]}))
    with pytest.raises(ValueError, match=r"'pos' must hold .*'a' \('x'\)"):
        leaves_from_table(pd.DataFrame({"leaf": ["a", "b"], "pos": ["x", 1], "neg": [1, 2]}))
    with pytest.raises(ValueError, match="no instances .*'b'"):
        leaves_from_table(pd.DataFrame({"leaf": ["a", "b"], "pos": [1, 0], "neg": [1, 0]}))
    with pytest.raises(ValueError, match="unique; repeated: 'a'"):
        leaves_from_table(pd.DataFrame({"leaf": ["a", "a"], "pos": [1, 0], "neg": [1, 2]}))
    with pytest.raises(ValueError, match="no negative instances"):
        leaves_from_table({"leaf": ["a"], "pos": [3], "neg": [0]})
    # names matched ignoring case and spaces; extra columns ignored
    ok = leaves_from_table(pd.DataFrame({" Leaf ": [1, 2], "POS": [1, 2], "neg": [2, 1],
                                         "depth": [3, 3]}))
    assert ok["leaf"].tolist() == ["1", "2"] and ok["pos"].dtype == np.float64
    with pytest.raises(ValueError, match="leaves not in the table: 'zz'"):
        leaf_scores(["LEAF 1", "zz"], PAPER)


def test_lvs008_all_labelings_refuses_more_than_16_leaves():
    big = pd.DataFrame({"leaf": range(17), "pos": [1] * 17, "neg": [1] * 17})
    with pytest.raises(ValueError, match=r"17 leaves has 2\*\*17 = 131,072 labelings"):
        all_labelings(big)
    assert len(all_labelings(big.iloc[:16])) == 2 ** 16
    assert len(optimal_labelings(big)) == 18  # the hull labelings need no limit


def test_lvs009_fawcett_algorithm7_points_are_labelings_below_the_hull():
    pts = tree_roc_points(PAPER)
    # majority classes: LEAF 1 negative, LEAF 2 and 3 positive
    got = dict(zip(pts.leaf[1:-1], zip(pts.fpr[1:-1], pts.tpr[1:-1], strict=True), strict=True))
    assert got["LEAF 2"] == (1 / 8, 5 / 12) and got["LEAF 3"] == (2 / 8, 4 / 12)
    assert got["LEAF 1"] == (3 / 8, 9 / 12)  # positive unless in LEAF 1: S_2
    assert (pts.fpr[0], pts.tpr[0], pts.fpr[-1], pts.tpr[-1]) == (0, 0, 1, 1)
    assert np.all(np.diff(pts.fpr) >= 0)
    a = all_labelings(PAPER)
    every = set(zip(a.fpr.round(12).tolist(), a.tpr.round(12).tolist(), strict=True))
    assert set(zip(pts.fpr.round(12).tolist(), pts.tpr.round(12).tolist(),
                   strict=True)) <= every


def test_lvs010_rows_aggregate_with_weights_and_label_encodings():
    agg = leaves_from_rows(["x", "y", "x", "y", "x"], ["pos", "neg", "neg", "pos", "pos"],
                           weights=[1, 2, 3, 4, 0.5])
    assert agg.to_dict("list") == {"leaf": ["x", "y"], "pos": [1.5, 4.0], "neg": [3.0, 2.0]}
    with pytest.raises(ValueError, match="equal length"):
        leaves_from_rows(["x"], [1, 0])
