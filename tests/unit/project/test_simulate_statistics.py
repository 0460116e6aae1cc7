"""The machinery of ``bench/simulate_statistics.py`` at a small size (sim001-sim005): the
coverage loop tells a right-sized interval from a deliberately mis-sized one, the
Monte-Carlo error is the binomial one, the population's truth is the brute-force rate of a
large sample, R's ``ci.cvAUC`` steps equal its formula written with pairwise loops, and one
small run of the whole script prints every table. The rates themselves are the script's
business, not a timed test's."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

from tests.unit.core.inference.test_cv_auc_ties import (
    _r_ci_cvauc_se,  # R's formula, written with pairwise loops
)

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("bench_simulate_statistics",
                                               ROOT / "bench" / "simulate_statistics.py")
sim = importlib.util.module_from_spec(_spec)
sys.modules["bench_simulate_statistics"] = sim  # its dataclasses look their module up
_spec.loader.exec_module(sim)


def _mean_interval(z):
    def interval(x):
        half = z * x.std(ddof=1) / math.sqrt(x.size)
        return x.mean() - half, x.mean() + half
    return interval


def test_sim001_a_mis_sized_interval_is_detected_as_under_covering():
    """A "95 %" interval of a normal mean made with z = 1 (a 68 % interval) against the
    right one, z = 1.96, on 400 samples of 30."""
    draw = lambda rng: rng.normal(2.0, 1.0, 30)  # noqa: E731
    truth = lambda x: 2.0  # noqa: E731
    right = sim.coverage(draw, _mean_interval(1.959964), truth, 400,
                         np.random.default_rng(0))
    wrong = sim.coverage(draw, _mean_interval(1.0), truth, 400, np.random.default_rng(0))
    (p_right, se_right), (p_wrong, se_wrong) = sim.rate(right), sim.rate(wrong)
    assert p_wrong + 3 * se_wrong < 0.95 <= p_right + 3 * se_right
    assert abs(p_wrong - (2 * norm.cdf(1.0) - 1)) < 4 * se_wrong  # t with 29 df: ~0.67


def test_sim002_monte_carlo_error_is_the_binomial_one_and_misses_are_nan_safe():
    hits = np.r_[np.ones(90, bool), np.zeros(10, bool)]
    p, se = sim.rate(hits)
    assert p == 0.9 and se == pytest.approx(math.sqrt(0.9 * 0.1 / 100))
    assert sim.shown(hits) == "90.0 % ± 3.0"
    assert not sim.inside(math.nan, 1.0, 0.5) and sim.inside(0.0, 1.0, 1.0)


def test_sim003_the_populations_truth_equals_a_large_sample():
    pop = sim.Binormal()
    y, s = pop.sample(np.random.default_rng(1), 400_000)
    t, prior = 0.9, 0.3
    truth = pop.truth(t, prior, sim.ECONOMICS)
    tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
    assert truth["tpr"] == pytest.approx(tpr, abs=0.005)
    assert truth["fpr"] == pytest.approx(fpr, abs=0.003)
    assert y.mean() == pytest.approx(pop.prevalence, abs=0.003)
    cost = prior * (1 - tpr) * 3.0 + (1 - prior) * fpr
    assert truth["expected_cost"] == pytest.approx(cost, abs=0.01)
    grid = np.linspace(-1, 3, 4001)  # the optimal threshold minimises the true cost
    costs = [pop.truth(g, prior, sim.ECONOMICS)["expected_cost"] for g in grid]
    assert pop.optimal_threshold(prior, sim.ECONOMICS) == pytest.approx(
        grid[int(np.argmin(costs))], abs=0.002)


def test_sim004_r_ci_cvauc_steps_equal_its_formula():
    rng = np.random.default_rng(2)
    y, s, folds = sim.coarse_sample(rng, 150, sim.Binormal())
    assert np.unique(s).size == 3  # coarse: many ties
    assert sim.r_ci_cvauc_se(y, s, folds) == pytest.approx(_r_ci_cvauc_se(y, s, folds),
                                                            rel=1e-12)


def test_sim005_a_small_run_prints_every_table(capsys):
    sim.main(["--runs", "3", "--n", "200", "--replicates", "20"])
    out = capsys.readouterr().out
    assert out.startswith("command: ") and "load average" in out.splitlines()[1]
    for row in ("no change, record at its optimum", "positives' scores N(1.5, 1)",
                "decide's interval of the choice, threshold", "pin (page, report), TPR",
                "DeLong AUC interval", "cvAUC interval, coarse scores",
                "R's ci.cvAUC"):
        assert row in out, row
