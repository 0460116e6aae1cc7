"""The length of core's result dataclasses comes from one helper, ``length_of``."""

import numpy as np

from roc_dash.core._results import length_of
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.pr_interpolation import interpolate_pr
from roc_dash.core.roc.precision_recall_gain import prg_curve


def test_res001_length_is_the_size_of_the_named_array():
    class Holder:
        __len__ = length_of("values")

        def __init__(self, values):
            self.values = values

    assert len(Holder(np.zeros((3, 4)))) == 12
    assert len(Holder(np.array([]))) == 0
    assert "values" in Holder.__len__.__doc__


def test_res002_results_report_the_size_of_their_arrays():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    curve = roc_curve(y, s)
    pr = interpolate_pr(curve, prevalence=0.3)
    prg = prg_curve(curve, prevalence=0.3)
    assert len(pr) == pr.recall.size > 0
    assert len(prg) == prg.recall_gain.size > 0
