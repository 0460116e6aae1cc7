"""Properties over curves with horizontal and vertical segments, ties and zero weights:
tie bounds, lossless reduction, the exact hull, and a report that is always valid JSON."""

import json
from fractions import Fraction

import numpy as np
import pandas as pd
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from roc_dash.core import convex_hull, roc_curve, tie_bounds
from roc_dash.core.roc.curve_geometry import display_indices, reduce_collinear
from roc_dash.core.roc.curves import auc
from tests.unit.core.roc.test_core_curves import label_ordered_corners
from tests.unit.core.roc.test_core_hull import exact_hull_counts

# few distinct scores (ties), zero weights (repeated vertices), runs of one class
# (vertical and horizontal segments)
INT_ROWS = st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.sampled_from([0, 1, 1, 1, 2, 3])),
                    min_size=2, max_size=40)
FRACTIONAL_ROWS = st.lists(
    st.tuples(st.booleans(), st.integers(0, 6), st.sampled_from([0.0, 0.1, 0.5, 1.0, 1.25, 3.1])),
    min_size=2, max_size=40)
PROPS = settings(max_examples=150, deadline=None)


def _arrays(rows):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    assume(w[y].sum() > 0 and w[~y].sum() > 0)
    return y, s, w


def _counts(points, curve):
    fp = np.rint(np.asarray(points.fpr) * curve.n_neg).astype(np.int64).tolist()
    tp = np.rint(np.asarray(points.tpr) * curve.n_pos).astype(np.int64).tolist()
    return list(zip(fp, tp, strict=True))


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_polyline(q, poly):
    """Exact: q lies on one of the segments of the polyline (integer points)."""
    for a, b in zip(poly[:-1], poly[1:], strict=True):
        if (min(a[0], b[0]) <= q[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= q[1] <= max(a[1], b[1])
                and _cross(a, b, q) == 0):
            return True
    return False


def _near_polyline(q, poly, tol=1e-12):
    """Floating-point version of :func:`_on_polyline` (rates, within ``tol``)."""
    for a, b in zip(poly[:-1], poly[1:], strict=True):
        if (min(a[0], b[0]) - tol <= q[0] <= max(a[0], b[0]) + tol
                and min(a[1], b[1]) - tol <= q[1] <= max(a[1], b[1]) + tol
                and abs(_cross(a, b, q)) <= tol):
            return True
    return False


def _trapezoids(poly):
    return sum(Fraction(b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in zip(poly[:-1], poly[1:], strict=True))


@PROPS
@given(st.one_of(INT_ROWS, FRACTIONAL_ROWS))
def test_prp001_tie_bounds_bracket_the_auc_and_are_the_staircases(rows):
    y, s, w = _arrays(rows)
    for weights in (w, None if (w > 0).all() else w):
        curve = roc_curve(y, s, weights=weights)
        b = tie_bounds(curve)
        assert b.pessimistic_auc - 1e-12 <= auc(curve) <= b.optimistic_auc + 1e-12
        for first, bf, bt in ((True, b.optimistic_fpr, b.optimistic_tpr),
                              (False, b.pessimistic_fpr, b.pessimistic_tpr)):
            ef, et = label_ordered_corners(y, s, weights, positives_first=first)
            assert bf.size == ef.size
            np.testing.assert_allclose(bf, ef, rtol=0, atol=1e-12)
            np.testing.assert_allclose(bt, et, rtol=0, atol=1e-12)


def _reduced(rows):
    """The curve of ``rows`` and its :func:`reduce_collinear`, whose area is the same."""
    y, s, w = _arrays(rows)
    curve = roc_curve(y, s, weights=w)
    small = reduce_collinear(curve)
    assert abs(auc(small) - auc(curve)) <= 1e-12
    return curve, small


@PROPS
@given(INT_ROWS)
def test_prp002_reduce_collinear_is_lossless_and_minimal(rows):
    curve, small = _reduced(rows)
    full, kept = _counts(curve, curve), _counts(small, curve)
    assert _trapezoids(kept) == _trapezoids(full)  # exactly, in counts
    assert set(kept) <= set(full) and kept[0] == (0, 0) and kept[-1] == full[-1]
    assert all(_on_polyline(q, kept) for q in full)  # the same picture
    # minimal: no repeated point, no three collinear consecutive points
    assert all(a != b for a, b in zip(kept[:-1], kept[1:], strict=True))
    assert all(_cross(a, b, c) != 0 for a, b, c in zip(kept[:-2], kept[1:-1], kept[2:], strict=True))
    # the display thinning draws the same polyline
    idx = display_indices(curve.fpr, curve.tpr)
    drawn = [full[i] for i in idx]
    assert _trapezoids(drawn) == _trapezoids(full)
    assert all(_on_polyline(q, drawn) for q in full)


@PROPS
@given(FRACTIONAL_ROWS)
def test_prp003_reduce_collinear_with_fractional_weights_keeps_the_area(rows):
    curve, small = _reduced(rows)
    line = list(zip(small.fpr.tolist(), small.tpr.tolist(), strict=True))
    for q in zip(curve.fpr.tolist(), curve.tpr.tolist(), strict=True):  # the same picture
        assert _near_polyline(q, line)


@PROPS
@given(INT_ROWS)
def test_prp004_hull_is_exact(rows):
    y, s, w = _arrays(rows)
    curve = roc_curve(y, s, weights=w)
    hull = convex_hull(curve)
    n_neg, n_pos = int(curve.n_neg), int(curve.n_pos)
    pts, verts = _counts(curve, curve), _counts(hull, curve)
    assert verts == exact_hull_counts([p[0] for p in pts], [p[1] for p in pts], n_neg, n_pos)
    # vertices are curve points (the curve holds (0, 0) and (N, P))
    assert set(verts) <= set(pts)
    # no three collinear vertices: strict right turns only
    assert all(_cross(a, b, c) < 0 for a, b, c in zip(verts[:-2], verts[1:-1], verts[2:], strict=True))
    # above (or on) every curve point
    assert all(_cross(a, b, q) <= 0 for q in pts for a, b in zip(verts[:-1], verts[1:], strict=True))
    # thresholds ride along
    for (f, t), thr in zip(verts, hull.thresholds, strict=True):
        assert thr in curve.thresholds[[i for i, p in enumerate(pts) if p == (f, t)]]


EXTREME = st.sampled_from([5e-324, 1e-300, 1e-10, 0.3, 1.0, 7.0, 1e10, 1e300, 1.7976931348623157e308])
PRIORS = st.sampled_from([None, 5e-324, 1e-300, 1e-12, 0.3, 0.5, 0.9999999999999999])


@settings(max_examples=40, deadline=None)
@given(INT_ROWS, EXTREME, EXTREME, PRIORS)
def test_prp005_report_is_valid_json_whatever_the_conditions(rows, cost_fp, cost_fn, prior):
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.core.assembly.analysis import analyse
    from roc_dash.report import build_report

    y, s, w = _arrays(rows)
    assume(((w > 0) & y).sum() >= 2 and ((w > 0) & ~y).sum() >= 2)
    table = pd.DataFrame({"label": y, "score": s, "model": "m", "fold": "0", "weight": w})
    table = table[table["weight"] > 0].reset_index(drop=True)
    analysis = analyse(table, Conditions(cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=prior))
    doc = build_report(analysis)
    text = json.dumps(doc, allow_nan=False)
    back = json.loads(text)
    for opt in [back["optimal"], *(m["optimal"] for m in back["models"])]:
        assert {"threshold", "fpr", "tpr", "on_segment", "segment_end"} <= set(opt)
        assert (opt["segment_end"] is None) == (not opt["on_segment"])
