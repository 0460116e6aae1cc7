"""core._sums.dot: the sum of products outside BLAS, against an exactly rounded sum."""

import math

import numpy as np

from roc_dash.core._sums import dot


def test_dts001_dot_is_the_exactly_rounded_sum_of_products_up_to_rounding():
    rng = np.random.default_rng(0)
    for n in (0, 1, 7, 65_536, 200_001):
        a, b = rng.random(n), rng.normal(size=n)
        exact = math.fsum((a * b).tolist())  # each product rounded once, then summed exactly
        assert isinstance(dot(a, b), float)
        assert abs(dot(a, b) - exact) <= 1e-12 * max(1.0, math.fsum(np.abs(a * b).tolist()))
