"""Every public core function that takes arrays accepts any array-like (issue 15 §3): a list,
a tuple, a pandas Series or an ndarray give the same result, and bad values give the
documented ``ValueError`` whatever the container."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from roc_dash.core import labels
from roc_dash.core.combining import concavity_repair, logical_combining, superiority
from roc_dash.core.decisions import economics, uncertainty
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.inference import statistics
from roc_dash.core.kinds import instance_costs, leaves, multiclass, soft_labels
from roc_dash.core.roc import averaging, curve_geometry, curves, hull, precision_recall

RNG = np.random.default_rng(15)
N = 40
Y = (np.arange(N) % 3 == 0).astype(int)
S = np.round(RNG.random(N) * 0.6 + 0.3 * Y, 3)
S2 = np.round(RNG.random(N) * 0.5 + 0.4 * Y, 3)
W = np.round(RNG.uniform(0.5, 2.0, N), 2)
FOLDS = np.where(np.arange(N) < N // 2, "a", "b")
Y3 = np.array(["a", "b", "c"] * 13 + ["a"])
P3 = RNG.dirichlet([1, 1, 1], N)
P3 = P3 + np.where(Y3[:, None] == np.array(["a", "b", "c"]), 0.5, 0.0)
P3 = P3 / P3.sum(axis=1, keepdims=True)
SOFT = np.round(np.clip(Y * 0.8 + RNG.random(N) * 0.2, 0, 1), 3)
LEAF = np.arange(N) % 5
FPR = np.array([0.0, 0.1, 0.3, 0.6, 1.0])
TPR = np.array([0.0, 0.4, 0.7, 0.9, 1.0])
E = Economics(cost_fp=1.0, cost_fn=3.0)
COSTS = {"cost_fp": 1.0, "cost_fn": 3.0, "prior_pos": 0.3}

#: name -> (function, args, keyword args); every ndarray argument is given in each form
CALLS = {
    "roc_curve": (curves.roc_curve, (Y, S), {"weights": W}),
    "roc_auc": (curves.roc_auc, (Y, S), {"weights": W}),
    "roc_curve_with_counts": (curves.roc_curve_with_counts, (Y, S), {"weights": W}),
    "accuracy_at_threshold": (curves.accuracy_at_threshold, (Y, S, 0.5), {"weights": W}),
    "display_indices": (curve_geometry.display_indices, (FPR, TPR), {"max_points": 3}),
    "binary_labels": (labels.binary_labels, (Y,), {}),
    "fold_curves": (averaging.fold_curves, (Y, S, FOLDS), {}),
    "pooled_curve": (averaging.pooled_curve, (Y, S), {"weights": W}),
    "average_by_fold": (averaging.average_by_fold, (Y, S, FOLDS), {"n_boot": 20}),
    "average_by_fold_threshold": (averaging.average_by_fold, (Y, S, FOLDS),
                                  {"method": "threshold"}),
    "decision_point": (logical_combining.decision_point, (Y, S > 0.5), {}),
    "flach_wu_decisions": (concavity_repair.flach_wu_decisions, (S, 0.7, 0.5, 0.3), {}),
    "logical_combination": (logical_combining.logical_combination, (FPR, TPR, FPR[::-1], TPR), {}),
    "combine_thresholded": (logical_combining.combine_thresholded, (Y, S, S2, 0.5, 0.5), {}),
    "expected_cost_per_case": (economics.expected_cost_per_case, (FPR, TPR, 0.3, E), {}),
    "expected_value_per_case": (economics.expected_value_per_case, (FPR, TPR, 0.3, E), {}),
    "regret_per_case": (economics.regret_per_case, (FPR, TPR, 0.3, E), {}),
    "precision_at_prior": (economics.precision_at_prior, (FPR, TPR, 0.3), {}),
    "flagged_at_prior": (economics.flagged_at_prior, (FPR, TPR, 0.3), {}),
    "uncertainty_from_bootstrap": (uncertainty.uncertainty_from_bootstrap,
                                   (Y, S, 0.5, 0.3, E), {"n_boot": 20}),
    "hull_of_points": (hull.hull_of_points, (FPR, TPR), {}),
    "expected_cost": (hull.expected_cost, (FPR, TPR), COSTS),
    "normalized_expected_cost": (hull.normalized_expected_cost, (FPR, TPR), COSTS),
    "check_example_costs": (instance_costs.check_example_costs, (W,), {}),
    "cost_roc_curve": (instance_costs.cost_roc_curve, (Y, S, W), {}),
    "costs_from_benefits": (instance_costs.costs_from_benefits,
                            (Y, np.where(Y == 1, W + 1.0, -W), np.where(Y == 1, -W, 1.0)), {}),
    "leaves_from_rows": (leaves.leaves_from_rows, (LEAF, Y), {"weights": W}),
    "multiclass_roc": (multiclass.multiclass_roc, (Y3, P3), {}),
    "multiclass_auc": (multiclass.multiclass_auc, (Y3, P3), {"weights": W}),
    "one_vs_rest_curves": (multiclass.one_vs_rest_curves, (Y3, P3), {}),
    "pairwise_auc_matrix": (multiclass.pairwise_auc_matrix, (Y3, P3), {}),
    "hand_till_m": (multiclass.hand_till_m, (Y3, P3), {}),
    "pr_curve": (precision_recall.pr_curve, (Y, S), {"weights": W}),
    "average_precision": (precision_recall.average_precision, (Y, S), {}),
    "iso_f1_curves": (precision_recall.iso_f1_curves, (np.array([0.3, 0.6]),), {"n": 5}),
    "soft_roc_curve": (soft_labels.soft_roc_curve, (SOFT, S), {}),
    "soft_roc_auc": (soft_labels.soft_roc_auc, (SOFT, S), {"weights": W}),
    "soft_auc_variance": (soft_labels.soft_auc_variance, (SOFT, S), {}),
    "soft_auc_interval": (soft_labels.soft_auc_interval, (SOFT, S), {}),
    "soft_class_totals": (soft_labels.soft_class_totals, (SOFT,), {"weights": W}),
    "auc_confidence_interval": (statistics.auc_confidence_interval, (Y, S), {}),
    "auc_test_vs_chance": (statistics.auc_test_vs_chance, (Y, S), {}),
    "delong_paired_test": (statistics.delong_paired_test, (Y, S, S2), {}),
    "delong_variance": (statistics.delong_variance, (Y, S), {"weights": W}),
    "partial_auc": (statistics.partial_auc, (Y, S), {"max_fpr": 0.3}),
    "distribution_from_arrays": (superiority.distribution_from_arrays,
                                 (np.linspace(0, 1, 5), np.array([0, 1, 2, 1, 0.0])), {}),
}


def as_list(a):
    return [as_list(v) for v in a] if isinstance(a, np.ndarray) and a.ndim > 1 else a.tolist()


def as_tuple(a):
    return tuple(as_tuple(v) for v in a) if isinstance(a, np.ndarray) and a.ndim > 1 \
        else tuple(a.tolist())


def as_pandas(a):
    index = [f"r{k}" for k in range(len(a))]
    return pd.DataFrame(a, index=index) if a.ndim > 1 else pd.Series(a, index=index)


FORMS = {"list": as_list, "tuple": as_tuple, "pandas": as_pandas}


def convert(value, form):
    return FORMS[form](value) if isinstance(value, np.ndarray) else value


def same(a, b) -> bool:
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(
            same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, pd.DataFrame | pd.Series):
        return same(a.to_numpy(), np.asarray(b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, z) for x, z in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        b = np.asarray(b)
        if a.dtype.kind in "fc":
            return a.shape == b.shape and np.allclose(a, b, rtol=0, atol=0, equal_nan=True)
        return a.shape == b.shape and (a == b).all()
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_api001_array_likes_give_the_ndarray_result(name, form):
    fn, args, kwargs = CALLS[name]
    expected = fn(*args, **kwargs)
    got = fn(*(convert(a, form) for a in args),
             **{k: convert(v, form) for k, v in kwargs.items()})
    assert same(expected, got), name


@pytest.mark.parametrize("form", ["ndarray", *sorted(FORMS)])
def test_api002_cost_helpers_raise_the_documented_value_error_for_any_container(form):
    def f(a):
        a = np.asarray(a)
        return a if form == "ndarray" else FORMS[form](a)

    with pytest.raises(ValueError, match=r"1 offending row\(s\): (1|'r1') \(0\.0\)"):
        instance_costs.cost_roc_curve(f([1, 0, 1, 0]), f([.9, .8, .3, .1]), f([5, 0, 2, 3]))
    costs = instance_costs.costs_from_benefits(f([1, 0, 1]), f([2., -5., 3.]),
                                               f([-20., 20., -20.]))
    # positive: yes - no; negative: no - yes (Fawcett 2004 figure 9)
    assert costs.tolist() == [22.0, 25.0, 23.0]
    with pytest.raises(ValueError, match="derived costs must be positive"):
        instance_costs.costs_from_benefits(f([1, 0]), f([1.0, 5.0]), f([2.0, 1.0]))


def test_api002_the_issue_s_examples_with_plain_lists():
    with pytest.raises(ValueError, match="costs must be positive and finite"):
        instance_costs.cost_roc_curve([1, 0, 1, 0], [.9, .8, .3, .1], [5, 0, 2, 3])
    assert instance_costs.costs_from_benefits(
        [1, 0, 1], [2., -5., 3.], [-20., 20., -20.]).tolist() == [22.0, 25.0, 23.0]
    # with the costs, Algorithm 6 equals scikit-learn's weighted ROC
    from sklearn.metrics import roc_curve as sk_roc

    curve = instance_costs.cost_roc_curve([1, 0, 1, 0], [.9, .8, .3, .1], [5, 1, 2, 3])
    fpr, tpr, _ = sk_roc([1, 0, 1, 0], [.9, .8, .3, .1], sample_weight=[5, 1, 2, 3],
                         drop_intermediate=False)
    assert np.allclose(curve.fpr, fpr) and np.allclose(curve.tpr, tpr)
