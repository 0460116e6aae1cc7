"""Example-specific costs (Fawcett 2004 section 7.2, Algorithm 6)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core.kinds.instance_costs import (
    check_example_costs,
    cost_roc_curve,
    costs_from_benefits,
)
from roc_dash.core.roc.curves import roc_curve


def algorithm6(labels, scores, costs):
    """Fawcett (2004) Algorithm 6, transcribed line by line (with the totals in line 26)."""
    p_total = n_total = 0.0
    for x in range(len(labels)):  # lines 1-7
        if labels[x]:
            p_total += costs[x]
        else:
            n_total += costs[x]
    order = sorted(range(len(labels)), key=lambda i: -scores[i])  # line 8
    fp_cost = tp_benefit = 0.0
    r = []
    f_prev = -np.inf
    i = 0
    while i < len(order):  # line 14
        k = order[i]
        if scores[k] != f_prev:
            r.append((fp_cost / n_total, tp_benefit / p_total))
            f_prev = scores[k]
        if labels[k]:
            tp_benefit += costs[k]
        else:
            fp_cost += costs[k]
        i += 1
    r.append((fp_cost / n_total, tp_benefit / p_total))  # "This is (1,1)"
    return np.array(r)


def _data(rng, n, distinct=12, integer_costs=True):
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s = rng.integers(0, distinct, n).astype(float)  # ties on purpose
    c = rng.integers(1, 9, n).astype(float) if integer_costs else rng.uniform(0.1, 50, n)
    return y, s, c


def test_isc001_equals_direct_transcription_of_algorithm6():
    rng = np.random.default_rng(1)
    for integer_costs in (True, False):
        y, s, c = _data(rng, 300, integer_costs=integer_costs)
        curve = cost_roc_curve(y, s, c)
        ref = algorithm6(y.tolist(), s.tolist(), c.tolist())
        got = np.column_stack((curve.fpr, curve.tpr))
        if integer_costs:  # sums of whole numbers are exact: bit-for-bit equal
            np.testing.assert_array_equal(got, ref)
        else:
            np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
        assert curve.n_pos == pytest.approx(c[y].sum())
        assert curve.n_neg == pytest.approx(c[~y].sum())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(1, 5)),
                min_size=2, max_size=40))
def test_isc002_equals_replicating_rows_in_proportion_to_integer_cost(rows):
    y = np.array([r[0] for r in rows] + [True, False])
    s = np.array([r[1] for r in rows] + [3, 3], dtype=float)
    c = np.array([r[2] for r in rows] + [2, 1], dtype=float)
    curve = cost_roc_curve(y, s, c)
    reps = c.astype(int)
    replicated = roc_curve(np.repeat(y, reps), np.repeat(s, reps))
    np.testing.assert_array_equal(curve.fpr, replicated.fpr)
    np.testing.assert_array_equal(curve.tpr, replicated.tpr)
    np.testing.assert_array_equal(curve.thresholds, replicated.thresholds)
    assert (curve.n_pos, curve.n_neg) == (replicated.n_pos, replicated.n_neg)
    ref = algorithm6(y.tolist(), s.tolist(), c.tolist())
    np.testing.assert_array_equal(np.column_stack((curve.fpr, curve.tpr)), ref)


def test_isc003_unit_costs_give_the_ordinary_curve():
    rng = np.random.default_rng(2)
    y, s, _ = _data(rng, 200, distinct=1000)
    a, b = cost_roc_curve(y, s, np.ones(y.size)), roc_curve(y, s)
    np.testing.assert_array_equal(a.fpr, b.fpr)
    np.testing.assert_array_equal(a.tpr, b.tpr)


@pytest.mark.parametrize("bad, shown", [
    (-1.0, "3 (-1.0)"), (0.0, "3 (0.0)"), (np.nan, "3 (nan)"), (np.inf, "3 (inf)")])
def test_isc004_non_positive_or_non_finite_costs_name_the_rows(bad, shown):
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.arange(6.0)
    c = np.ones(6)
    c[3] = bad
    with pytest.raises(ValueError, match="positive and finite") as err:
        cost_roc_curve(y, s, c)
    assert "1 offending row(s): " + shown in str(err.value)


def test_isc005_messages_use_a_series_index_and_count_the_rest():
    c = pd.Series([1.0] + [-2.0] * 10, index=[f"tx{i}" for i in range(11)])
    with pytest.raises(ValueError) as err:
        check_example_costs(c)
    msg = str(err.value)
    assert "10 offending row(s): 'tx1' (-2.0)" in msg and "and 2 more" in msg
    with pytest.raises(ValueError, match="differ in length"):
        cost_roc_curve([1, 0], [0.5, 0.2], [1.0])


def test_isc006_elkan_credit_card_matrix_figure9():
    # Y = approve; positive = legitimate. Benefits (figure 9a): legitimate approved 0.02x,
    # refused -$20; fraudulent approved -x, refused $20.
    amount = np.array([100.0, 2500.0, 40.0, 900.0])
    legit = np.array([True, True, False, False])
    yes = np.where(legit, 0.02 * amount, -amount)
    no = np.where(legit, -20.0, 20.0)
    costs = costs_from_benefits(legit, yes, no)
    np.testing.assert_allclose(costs, [0.02 * 100 + 20, 0.02 * 2500 + 20, 20 + 40, 20 + 900])
    # the paper's counter-example: c(Y, p, x) = x - $20 with x in [0, 40]
    x = pd.Series([5.0, 30.0, 12.0], index=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"derived costs .* 1 offending row\(s\): 'a' \(-15.0\)"):
        costs_from_benefits(pd.Series([True, True, False], index=x.index), x - 20.0, 0.0)
