"""Bootstrap intervals at the chosen point (core/decisions/point_intervals.py, issue 17 item 2).

Checked against a naive bootstrap written here (the replicates' rows drawn with the documented
seed logic, a fresh count of each resampled row set at every threshold, the optimum by brute
force), against brute force and the analysis' optimum on the full data, against repeated rows
for whole-number weights, and against binomial probabilities for the stratified draws.
"""

import math
import time

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.server.store import load_demo
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.decisions import _point_resampling
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import (
    likelihood_ratios,
    npv_at_prior,
    optimum_intervals,
    pin_intervals,
    point_intervals,
)

METRICS = ("threshold", "tpr", "fpr", "precision", "npv", "lr_pos", "lr_neg", "expected_cost")


def _data(n_pos=15, n_neg=25, d=1.0, seed=0, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)])
    s = np.round(rng.normal(size=y.size) + d * y, decimals)  # ties within and across classes
    return y, s


def _by_hand(tp, fp, n_pos, n_neg, p, e):
    """Every metric of one confusion matrix, written out."""
    tpr, fpr = tp / n_pos, fp / n_neg
    flagged = p * tpr + (1 - p) * fpr
    kept = p * (1 - tpr) + (1 - p) * (1 - fpr)
    cost = (p * (1 - tpr) * e.cost_fn + (1 - p) * fpr * e.cost_fp
            - p * tpr * e.benefit_tp - (1 - p) * (1 - fpr) * e.benefit_tn)
    if fpr > 0:
        lr_pos = tpr / fpr
    else:
        lr_pos = math.inf if tpr > 0 else math.nan
    if fpr < 1:
        lr_neg = (1 - tpr) / (1 - fpr)
    else:
        lr_neg = math.inf if tpr < 1 else math.nan
    return {"tpr": tpr, "fpr": fpr,
            "precision": p * tpr / flagged if flagged > 0 else math.nan,
            "npv": (1 - p) * (1 - fpr) / kept if kept > 0 else math.nan,
            "lr_pos": lr_pos, "lr_neg": lr_neg, "expected_cost": cost}


def _brute_optimum(y, s, p, e):
    """Threshold of the cheapest "flag iff score >= t" over +inf and every distinct score
    (regret with net costs); among equal costs the highest threshold (fewest flagged)."""
    thr = np.r_[np.inf, np.unique(s)[::-1]]
    n_pos, n_neg = y.sum(), (~y).sum()
    regret = []
    for t in thr:
        tp, fp = (y & (s >= t)).sum(), (~y & (s >= t)).sum()
        regret.append(p * (1 - tp / n_pos) * (e.cost_fn + e.benefit_tp)
                      + (1 - p) * fp / n_neg * (e.cost_fp + e.benefit_tn))
    regret = np.array(regret)
    k = int(np.flatnonzero(regret <= regret.min() * (1 + 1e-12) + 1e-15)[0])
    return float(thr[k])


def _naive(y, s, p, e, pins, n_boot, seed):
    """The bootstrap written plainly: per replicate, the documented draws (own generator,
    positives then negatives, indices into each class's rows in data order), the resampled
    rows, the optimum by brute force, the metrics from counts, the out-of-bag rows."""
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    out = {k: [] for k in (*METRICS, "in_bag", "oob")}
    out.update({f"{w}_{k}": [] for w in ("full", "out") for k in METRICS[1:]})
    pin_out = [{k: [] for k in METRICS[1:]} for _ in pins]
    for child in np.random.SeedSequence(seed).spawn(n_boot):
        g = np.random.default_rng(child)
        ip, ineg = g.integers(0, pos.size, pos.size), g.integers(0, neg.size, neg.size)
        rows = np.r_[pos[ip], neg[ineg]]
        yr, sr = y[rows], s[rows]
        t = _brute_optimum(yr, sr, p, e)
        m = _by_hand((yr & (sr >= t)).sum(), (~yr & (sr >= t)).sum(), pos.size, neg.size,
                     p, e)
        out["threshold"].append(t)
        for k, v in m.items():
            out[k].append(v)
        out["in_bag"].append(m["expected_cost"])
        mf = _by_hand((s[pos] >= t).sum(), (s[neg] >= t).sum(), pos.size, neg.size, p, e)
        left_pos = np.setdiff1d(pos, pos[ip])
        left_neg = np.setdiff1d(neg, neg[ineg])
        if left_pos.size and left_neg.size:
            mo = _by_hand((s[left_pos] >= t).sum(), (s[left_neg] >= t).sum(), left_pos.size,
                          left_neg.size, p, e)
            out["oob"].append(mo["expected_cost"])
        else:
            mo = dict.fromkeys(METRICS[1:], math.nan)
            out["oob"].append(math.nan)
        for k in METRICS[1:]:
            out[f"full_{k}"].append(mf[k])
            out[f"out_{k}"].append(mo[k])
        for j, tj in enumerate(pins):
            tj = math.inf if tj is None else tj
            mj = _by_hand((yr & (sr >= tj)).sum(), (~yr & (sr >= tj)).sum(), pos.size,
                          neg.size, p, e)
            for k, v in mj.items():
                pin_out[j][k].append(v)
    return ({k: np.array(v) for k, v in out.items()},
            [{k: np.array(v) for k, v in d.items()} for d in pin_out])


def _naive_corrected(estimate, in_bag, full, out, metric, level=0.95):
    """The interval of the choice's true value, written out: the estimate plus the mean
    out-of-bag gain over the rows drawn, ± z·√(variance of the gain on all the rows + the
    squared difference of the two mean gains); likelihood ratios on the log scale; rates,
    precision and NPV clipped to [0, 1]."""
    log = metric.startswith("lr_")
    f = np.log if log else (lambda v: v)
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b, o, est = f(in_bag), f(full), f(out), f(estimate)
        ok = np.isfinite(b - a) & np.isfinite(o - a)
    gain_all, gain_out = b[ok] - a[ok], o[ok] - a[ok]
    se = math.sqrt(np.var(gain_all, ddof=1) + (gain_out.mean() - gain_all.mean()) ** 2)
    z = 1.959963984540054
    low, high = est + gain_out.mean() - z * se, est + gain_out.mean() + z * se
    if log:
        return math.exp(low), math.exp(high)
    if metric == "expected_cost":
        return low, high
    return min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)


@pytest.mark.parametrize(("e", "p"), [
    (Economics(cost_fp=1.0, cost_fn=2.0, benefit_tp=0.5), 0.3),
    (Economics(cost_fp=1.0, cost_fn=1.0), 15 / 40),  # the data's prevalence: exact ties
])
def test_pbt001_matches_a_naive_bootstrap(e, p):
    y, s = _data()
    n_boot, seed, pins = 80, 11, (0.3, None, -99.0)
    got = point_intervals(y, s, p, e, pins=pins, n_boot=n_boot, seed=seed)
    want, want_pins = _naive(y, s, p, e, pins, n_boot, seed)
    opt = got.optimum
    # at a rate of 0 or 1 the intervals are widened (test_core_point_boundary.py)
    boundary = opt.tpr.estimate in (0, 1) or opt.fpr.estimate in (0, 1)
    assert opt.n_boot_used == n_boot and opt.method.startswith(
        "stratified bootstrap of the choice, corrected for its optimism")
    assert ("Clopper" in opt.method) == boundary
    for k in METRICS:
        np.testing.assert_allclose(getattr(opt, k).values, want[k], rtol=1e-12, atol=1e-15)
        iv = getattr(opt, k)
        if k == "threshold":  # the percentile interval of the replicates' choices
            np.testing.assert_allclose((iv.low, iv.high),
                                       np.percentile(want[k], [2.5, 97.5]), rtol=1e-12)
            continue
        low, high = _naive_corrected(iv.estimate, want[k], want[f"full_{k}"],
                                     want[f"out_{k}"], k)
        if iv.interval == "boundary":  # the corrected interval, widened
            assert iv.low <= low * (1 + 1e-12) + 1e-15 and iv.high >= high * (1 - 1e-12)
        else:
            assert iv.interval == "corrected", k
            np.testing.assert_allclose((iv.low, iv.high), (low, high), rtol=1e-9)
    for j, pin in enumerate(got.pins):
        assert pin.threshold.interval == "fixed" and pin.threshold.low == pin.threshold.high
        for k in METRICS[1:]:
            np.testing.assert_allclose(getattr(pin, k).values, want_pins[j][k], rtol=1e-12,
                                       atol=1e-15)
    # the out-of-bag cost of each replicate's choice, and the means
    ok = ~np.isnan(want["oob"])
    np.testing.assert_allclose(opt.optimism.out_of_bag_values, want["oob"], rtol=1e-12)
    assert opt.optimism.n == ok.sum()
    assert opt.optimism.in_bag == pytest.approx(want["in_bag"][ok].mean(), rel=1e-12)
    assert opt.optimism.out_of_bag == pytest.approx(want["oob"][ok].mean(), rel=1e-12)
    assert opt.optimism.optimism == pytest.approx(
        want["oob"][ok].mean() - want["in_bag"][ok].mean(), rel=1e-9)


def test_pbt002_estimates_are_the_optimum_of_all_the_data():
    y, s = _data(40, 60, seed=3)
    for e, p in ((Economics(cost_fp=1, cost_fn=1), 0.4),  # the data's prevalence: ties
                 (Economics(cost_fp=1, cost_fn=5, benefit_tn=1.0), 0.1)):
        res = point_intervals(y, s, p, e, pins=(0.25,), n_boot=20)
        t = _brute_optimum(y, s, p, e)
        flag = s >= t
        want = _by_hand((y & flag).sum(), (~y & flag).sum(), y.sum(), (~y).sum(), p, e)
        assert res.optimum.threshold.estimate == t
        for k, v in want.items():
            assert getattr(res.optimum, k).estimate == pytest.approx(v, rel=1e-12,
                                                                     nan_ok=True)
        # the pin's estimate: the vertex of "score >= 0.25", its threshold the lowest score
        # at or above the pin
        pin = res.pins[0]
        assert pin.threshold.estimate == s[s >= 0.25].min()
        assert pin.tpr.estimate == pytest.approx((y & (s >= 0.25)).sum() / y.sum())
        # the replicates' rule of choice, applied to the data itself, picks the same vertex
        sample = _point_resampling.prepare(y, s, None, 0, [])
        same = _point_resampling.evaluate(sample, sample.identity(), p, e, [])
        assert same["threshold"][0] == t
    # the same optimum as the analysis of the demo's first model, whose rows are its folds'
    table = load_demo().table
    name = str(table["model"].iloc[0])
    rows = table[table["model"] == name]
    cond = Conditions(cost_fp=1.0, cost_fn=4.0, prior_pos=0.27)
    optimum = analyse(rows, cond).model(name).optimal
    res = optimum_intervals(rows["label"].to_numpy(bool), rows["score"].to_numpy(float), 0.27,
                            Economics(cost_fp=1.0, cost_fn=4.0), n_boot=10)
    assert res.threshold.estimate == optimum.threshold
    assert (res.fpr.estimate, res.tpr.estimate) == (optimum.fpr, optimum.tpr)


def test_pbt003_stratified_draws_keep_the_class_counts():
    # two positives among sixty negatives: a row bootstrap would lack positives in ~13 % of
    # the replicates; a stratified one never does
    y = np.r_[np.ones(2, bool), np.zeros(60, bool)]
    s = np.r_[0.9, 0.1, np.linspace(0, 1, 60)]
    pin = pin_intervals(y, s, 0.5, 0.2, Economics(cost_fp=1, cost_fn=1), n_boot=2000, seed=5)
    tpr = pin.tpr.values
    assert pin.tpr.n == 2000 and set(np.unique(tpr)) <= {0.0, 0.5, 1.0}
    # the positive at 0.9 is flagged: drawn 0, 1 or 2 times of 2, Binomial(2, 1/2)
    freq = [np.mean(tpr == v) for v in (0.0, 0.5, 1.0)]
    assert freq == pytest.approx([0.25, 0.5, 0.25], abs=0.04)
    # the draws themselves: every replicate has the class totals, in each mode
    w = np.arange(1, 63) % 3 + 1.0
    for weights, limit in ((None, None), (w, None), (w, 10)):
        with pytest.MonkeyPatch.context() as mp:
            if limit:
                mp.setattr(_point_resampling, "MAX_UNITS", limit)  # multinomial counts
            sample = _point_resampling.prepare(y, s, weights, 0, [])
        gens = [np.random.default_rng(k) for k in range(50)]
        tp_in, fp_in, _, _ = sample.draw(gens)
        wy = y.astype(float) if weights is None else weights * y
        wn = (~y).astype(float) if weights is None else weights * ~y
        np.testing.assert_array_equal(tp_in.sum(axis=1), wy.sum())
        np.testing.assert_array_equal(fp_in.sum(axis=1), wn.sum())


def test_pbt004_deadline_stops_early_with_the_first_replicates():
    y, s = _data(200, 300, seed=2)
    e = Economics(cost_fp=1, cost_fn=3)
    full = point_intervals(y, s, 0.3, e, pins=(0.0,), n_boot=300, seed=4)
    cut = point_intervals(y, s, 0.3, e, pins=(0.0,), n_boot=300, seed=4,
                          deadline=time.monotonic() - 1.0)
    used = cut.optimum.n_boot_used
    assert 1 <= used < 300 and cut.pins[0].n_boot_used == used
    assert any("deadline" in n and f"{used} of 300" in n for n in cut.optimum.notes)
    assert full.optimum.n_boot_used == 300
    assert not any("deadline" in n for n in full.optimum.notes)
    # replicates do not depend on one another: the cut run made the full run's first ones
    np.testing.assert_array_equal(cut.optimum.threshold.values,
                                  full.optimum.threshold.values[:used])
    np.testing.assert_array_equal(cut.pins[0].tpr.values, full.pins[0].tpr.values[:used])


def test_pbt005_whole_weights_are_repeated_rows():
    y, s = _data(20, 30, seed=7)
    w = np.random.default_rng(1).integers(1, 5, y.size).astype(float)
    e = Economics(cost_fp=1, cost_fn=2)
    kw = {"pins": (0.4,), "n_boot": 150, "seed": 2}
    weighted = point_intervals(y, s, 0.25, e, weights=w, **kw)
    repeated = point_intervals(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)), 0.25,
                               e, **kw)
    for a, b in ((weighted.optimum, repeated.optimum), (weighted.pins[0], repeated.pins[0])):
        for k in METRICS:
            ia, ib = getattr(a, k), getattr(b, k)
            assert ia.estimate == pytest.approx(ib.estimate, rel=1e-12, nan_ok=True)
            np.testing.assert_allclose(ia.values, ib.values, rtol=1e-12)
    np.testing.assert_allclose(weighted.optimum.optimism.out_of_bag_values,
                               repeated.optimum.optimism.out_of_bag_values, rtol=1e-12)
    # zero weights are rows that are not there
    w0 = np.r_[w, 0.0, 0.0]
    zero = point_intervals(np.r_[y, True, False], np.r_[s, 9.0, -9.0], 0.25, e, weights=w0,
                           **kw)
    np.testing.assert_array_equal(zero.optimum.tpr.values, weighted.optimum.tpr.values)
    # many units: multinomial counts, the same distribution (not the same draws)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_point_resampling, "MAX_UNITS", 10)
        multi = point_intervals(y, s, 0.25, e, weights=w, pins=(0.4,), n_boot=1500, seed=3)
    rep = point_intervals(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)), 0.25, e,
                          pins=(0.4,), n_boot=1500, seed=3)
    assert any("multinomial" in n for n in multi.optimum.notes)
    for a, b in ((multi.optimum, rep.optimum), (multi.pins[0], rep.pins[0])):
        for k in ("tpr", "fpr", "expected_cost"):
            assert np.std(getattr(a, k).values) == pytest.approx(
                np.std(getattr(b, k).values), rel=0.12)
    assert multi.optimum.optimism.optimism == pytest.approx(
        rep.optimum.optimism.optimism, abs=0.25 * abs(rep.optimum.optimism.optimism))
    frac = point_intervals(y, s, 0.25, e, weights=w * 0.5 + 0.25, n_boot=40)
    assert any("Fractional weights" in n for n in frac.optimum.notes)


def test_pbt006_likelihood_ratios_and_infinities():
    lr_pos, lr_neg = likelihood_ratios([0.0, 0.0, 0.2, 1.0, 1.0], [0.5, 0.0, 0.6, 0.5, 1.0])
    np.testing.assert_allclose(lr_pos, [math.inf, math.nan, 3.0, 0.5, 1.0])
    np.testing.assert_allclose(lr_neg, [0.5, 1.0, 0.5, math.inf, math.nan])
    assert npv_at_prior(0.2, 0.6, 0.25) == pytest.approx(0.75 * 0.8 / (0.75 * 0.8 + 0.25 * 0.4))
    assert math.isnan(npv_at_prior(1.0, 1.0, 0.25))
    # separable classes: no false positive at the optimum, LR+ infinite on the data and in
    # every replicate
    y = np.r_[np.ones(10, bool), np.zeros(30, bool)]
    s = np.r_[np.linspace(2, 3, 10), np.linspace(0, 1, 30)]
    opt = optimum_intervals(y, s, 0.3, Economics(cost_fp=1, cost_fn=1), n_boot=100)
    assert opt.lr_pos.estimate == math.inf and opt.lr_pos.high == math.inf
    assert opt.lr_pos.n_infinite == 100 and (opt.fpr.values == 0.0).all()
    # FPR 0 in every replicate: its interval is the exact (Clopper-Pearson) 0 of 30,
    # upper limit 1 − 0.025^(1/30), not [0, 0]
    assert (opt.fpr.low, opt.fpr.high) == pytest.approx((0.0, 1 - 0.025 ** (1 / 30)))
    assert any("LR+ is infinite" in n and "on the data" in n for n in opt.notes)
    # overlap of one negative: some replicates infinite, the upper limit the order statistic
    s2 = s.copy()
    s2[10] = 2.5
    opt2 = optimum_intervals(y, s2, 0.3, Economics(cost_fp=1, cost_fn=1), n_boot=400, seed=1)
    v = np.sort(opt2.lr_pos.values[~np.isnan(opt2.lr_pos.values)])
    assert 0 < opt2.lr_pos.n_infinite < 400 and opt2.lr_pos.n_infinite == np.isinf(v).sum()

    def order_statistic(q):  # linear interpolation between order statistics, inf-safe
        h = (v.size - 1) * q
        a, b = v[int(h)], v[min(int(h) + 1, v.size - 1)]
        return math.inf if math.isinf(b) and h > int(h) else a + (b - a) * (h - int(h))

    assert opt2.lr_pos.high == order_statistic(0.975)
    # TPR is 1 at this optimum: the low limit is widened below the order statistic
    assert opt2.tpr.estimate == 1.0 and opt2.lr_pos.interval == "boundary"
    assert opt2.lr_pos.low <= order_statistic(0.025)
    # inside the square (a pin at 2.4: TPR 0.6, FPR 1/30) the limits are the order statistics
    pin = pin_intervals(y, s2, 2.4, 0.3, Economics(cost_fp=1, cost_fn=1), n_boot=400, seed=1)
    v = np.sort(pin.lr_pos.values[~np.isnan(pin.lr_pos.values)])
    assert 0 < pin.lr_pos.n_infinite < 400 and pin.lr_pos.interval == "percentile"
    assert pin.lr_pos.high == order_statistic(0.975)
    assert pin.lr_pos.low == pytest.approx(order_statistic(0.025), rel=1e-12)
    assert any("LR+ is infinite" in n and "replicates" in n for n in opt2.notes)
    # flag nothing: precision and LR+ undefined (0/0), said
    nothing = pin_intervals(y, s, None, 0.3, Economics(cost_fp=1, cost_fn=1), n_boot=50)
    assert math.isnan(nothing.precision.estimate) and nothing.precision.interval == "none"
    assert math.isnan(nothing.lr_pos.estimate) and nothing.threshold.estimate == math.inf
    assert any("Precision is undefined" in n for n in nothing.notes)


def test_pbt007_few_replicates_give_the_range():
    """Percentile limits need a replicate in each tail: the optimum's threshold and a pin's
    metrics take the min and max instead; the optimum's corrected intervals (a mean and a
    spread) do not."""
    y, s = _data(30, 30, seed=1)
    res = point_intervals(y, s, 0.5, Economics(cost_fp=1, cost_fn=1), pins=(0.5,), n_boot=30)
    for point, keys in ((res.optimum, METRICS[:1]), (res.pins[0], METRICS[1:])):
        for k in keys:
            iv = getattr(point, k)
            v = iv.values[~np.isnan(iv.values)]
            assert iv.interval == "range" and (iv.low, iv.high) == (v.min(), v.max())
    assert all(getattr(res.optimum, k).interval in ("corrected", "boundary")
               for k in METRICS[1:])
    assert any("Too few replicates (30)" in n for n in res.optimum.notes)


def test_pbt008_large_data_bootstraps_a_rescaled_subset(monkeypatch):
    monkeypatch.setattr(_point_resampling, "MAX_ROWS", 600)
    rng = np.random.default_rng(3)
    y = rng.random(6000) < 0.3
    s = rng.normal(size=y.size) + 1.2 * y
    e = Economics(cost_fp=1, cost_fn=2)
    res = point_intervals(y, s, 0.3, e, pins=(0.5,), n_boot=600, seed=1)
    assert any("600 of the 6,000 rows" in n for n in res.optimum.notes)
    pin = res.pins[0]
    assert pin.tpr.estimate == pytest.approx((y & (s >= 0.5)).sum() / y.sum())
    # the spread of a rate at a fixed threshold is the binomial one of all the rows
    se = math.sqrt(pin.tpr.estimate * (1 - pin.tpr.estimate) / y.sum())
    assert np.std(pin.tpr.values) == pytest.approx(se, rel=0.15)
    for k in ("threshold", "tpr", "fpr", "expected_cost"):
        iv = getattr(res.optimum, k)
        assert iv.low <= iv.estimate <= iv.high


def test_pbt009_choosing_on_the_data_is_optimistic():
    # many thresholds, small sample: the chosen point looks better in bag than out of bag
    y, s = _data(40, 80, d=0.8, seed=5, decimals=3)
    res = optimum_intervals(y, s, 0.3, Economics(cost_fp=1, cost_fn=3), n_boot=400)
    o = res.optimism
    assert o.n == 400 and o.optimism > 0 and o.out_of_bag > o.apparent
    assert o.optimism == pytest.approx(o.out_of_bag - o.in_bag)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"n_boot": 0}, "n_boot must be an integer between 1 and 2000"),
    ({"n_boot": 2.5}, "n_boot"),
    ({"level": 1.0}, "level must lie strictly between 0 and 1"),
    ({"seed": -1}, "seed must be a non-negative integer"),
    ({"deadline": math.nan}, "deadline must be a time.monotonic"),
    ({"pins": "0.5"}, "pins must be a sequence"),
    ({"pins": (math.nan,)}, "threshold must be a number"),
    ({"economics": {"cost_fp": 1}}, "economics must be an Economics"),
])
def test_pbt010_bad_arguments_are_named(kwargs, message):
    y, s = _data()
    kwargs = {"economics": Economics(cost_fp=1, cost_fn=1), **kwargs}
    with pytest.raises(ValueError, match=message):
        point_intervals(y, s, 0.3, **kwargs)


def test_pbt011_bad_data_is_named():
    y, s = _data()
    e = Economics(cost_fp=1, cost_fn=1)
    with pytest.raises(ValueError, match="prior"):
        point_intervals(y, s, 1.0, e)
    with pytest.raises(ValueError, match="positive weight"):
        point_intervals(y, s, 0.3, e, weights=np.where(y, 0.0, 1.0))
    with pytest.raises(ValueError, match="differ in length"):
        point_intervals(y, s[:-1], 0.3, e)


def test_pbt012_array_likes_give_the_same_intervals():
    y, s = _data()
    e = Economics(cost_fp=1, cost_fn=2)
    base = point_intervals(y, s, 0.3, e, pins=[0.2], n_boot=40)
    for form in (list, tuple, pd.Series):
        got = point_intervals(form(y.astype(int)), form(s), 0.3, e, pins=[0.2], n_boot=40,
                              weights=form(np.ones(y.size)))
        for k in METRICS:
            np.testing.assert_array_equal(getattr(got.optimum, k).values,
                                          getattr(base.optimum, k).values)
            np.testing.assert_array_equal(getattr(got.pins[0], k).values,
                                          getattr(base.pins[0], k).values)
