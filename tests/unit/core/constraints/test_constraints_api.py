"""The constraints in Python (cap101-cap104): roc_dash.constraints_of and the plot_ functions
give the core's results and the report's figures for arrays, load no Dash, and name bad
arguments."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import roc_dash
from roc_dash.core.constraints import capacity_point, floor_decision
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.roc.curves import roc_curve


def _data(n=800, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = 1 / (1 + np.exp(-(y * 1.5 + rng.normal(size=n) - 0.7)))
    return y, s


def test_cap101_constraints_of_is_the_cores():
    y, s = _data()
    [m] = roc_dash.constraints_of(y, s, cost_fn=3.0, capacity="10%",
                                  floors=["precision>=0.7"], n_boot=40)
    curve = roc_curve(y.astype(bool), s)
    e = Economics(1.0, 3.0)
    p = y.mean()
    assert m.capacity.precision == pytest.approx(
        capacity_point(curve, fraction=0.1, prior_pos=p, economics=e).precision)
    fd = floor_decision(curve, ["precision>=0.7"], prior_pos=p, economics=e)
    assert m.floors.threshold == fd.threshold
    assert m.floor_confidence.n_boot == 40
    [k] = roc_dash.constraints_of(y, s, capacity="30/1000")
    assert k.capacity.queue_rate == pytest.approx(0.03)
    [c] = roc_dash.constraints_of(y, s, capacity=80, volume=1000)
    assert c.capacity.queue_rate == pytest.approx(0.08)


def test_cap102_plots_are_the_reports_figures():
    y, s = _data()
    g = roc_dash.plot_gains(y, s, capacity="10%")
    assert any(t.uid == "capacity-point" for t in g.data)
    lift = roc_dash.plot_lift(y, s)
    assert lift.layout.yaxis.title.text == "Lift"
    f = roc_dash.plot_floors(y, s, floors=["recall>=0.6"], space="pr")
    assert any(t.uid == "floor-region" for t in f.data)
    r = roc_dash.plot_reliability_bands(y, s)
    assert "slope" in r.data[1].name
    fold = np.arange(y.size) % 4
    b = roc_dash.plot_pr_bands(y, s, fold=fold, method="folds")
    assert "4 folds" in b.data[0].name
    d = roc_dash.decide_classes(np.column_stack((1 - s, s)), y, [[0, 1], [3, 0]])
    assert d.expected_cost <= d.bayes_cost + 1e-12


def test_cap103_bad_arguments_are_named():
    y, s = _data(n=100)
    with pytest.raises(ValueError, match="a capacity is a number of cases"):
        roc_dash.constraints_of(y, s, capacity="lots")
    with pytest.raises(ValueError, match="cost_fn must be a positive finite number"):
        roc_dash.constraints_of(y, s, cost_fn=-1)
    with pytest.raises(ValueError, match="is not a floor"):
        roc_dash.constraints_of(y, s, floors="fpr>=0.1")
    with pytest.raises(ValueError, match="no band: fold bands need two or more folds"):
        roc_dash.plot_pr_bands(y, s, method="folds")


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_cap104_the_api_loads_no_dash():
    code = ("import sys, numpy as np, roc_dash; y = np.arange(60) % 2; "
            "roc_dash.plot_gains(y, y + np.sin(np.arange(60)), capacity='10%'); "
            "print('dash' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "False"
