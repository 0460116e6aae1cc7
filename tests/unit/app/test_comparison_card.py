"""The Model comparison card (issue 17 item 3): the k-model ΔAUC matrix with raw, Holm and
Benjamini-Hochberg p-values and each model's optimal cost range. The cells are checked
against scikit-learn's AUCs, a DeLong test written here from the placement values (DeLong et
al. 1988) and statsmodels' ``multipletests``; the ranges against a brute-force search for
the min-cost model over a grid of cost ratios."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from statsmodels.stats.multitest import multipletests

from roc_dash.app.features.comparison import comparison_panel
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.inference.model_comparison import NEVER_OPTIMAL
from roc_dash.report.comparison_text import optimal_range_text, p_text
from roc_dash.text.rounding import signed
from tests.oracles import delong_paired


def _delong(y, a, b):
    """DeLong's paired z test (DeLong et al. 1988): difference and two-sided p."""
    r = delong_paired(y, a, b)
    return r.diff, r.p


def _wide(demo):
    wide = demo.pivot_table(index="id", columns="model", values="score")
    labels = demo.drop_duplicates("id").set_index("id")["label"].loc[wide.index]
    return labels.to_numpy(bool), wide


def test_mcc001_matrix_cells_match_an_independent_delong_and_statsmodels(demo):
    analysis = analyse(demo, Conditions(prior_pos=0.3))
    names = [m.name for m in analysis.models]
    y, wide = _wide(demo)
    pairs = list(itertools.combinations(range(len(names)), 2))
    diffs, raw = {}, []
    for i, j in pairs:
        d, p = _delong(y, wide[names[i]].to_numpy(), wide[names[j]].to_numpy())
        assert d == pytest.approx(roc_auc_score(y, wide[names[i]]) -
                                  roc_auc_score(y, wide[names[j]]))
        diffs[i, j] = d
        raw.append(p)
    adjusted = {"raw": np.array(raw), "holm": multipletests(raw, method="holm")[1],
                "bh": multipletests(raw, method="fdr_bh")[1]}
    for kind, ps in adjusted.items():
        text = str(comparison_panel(analysis, kind))
        for (i, j), p in zip(pairs, ps, strict=True):
            # upper triangle row i minus column j, lower triangle the opposite sign
            assert f"'{signed(diffs[i, j])}'" in text and f"'{signed(-diffs[i, j])}'" in text
            assert f"'p {p_text(p)}'" in text, (kind, names[i], names[j])
            assert analysis.model_comparison.p_value[i, j] == pytest.approx(adjusted["raw"][
                pairs.index((i, j))], rel=1e-6)
    # the tooltip of a cell gives all three p-values
    text = str(comparison_panel(analysis, "raw"))
    assert f"Holm-adjusted p {p_text(adjusted['holm'][0])}" in text
    assert f"Benjamini-Hochberg-adjusted p {p_text(adjusted['bh'][0])}" in text


def _min_cost_models(demo, names, ratio, p):
    """Brute force: the models whose best threshold has the least expected cost at
    c(FP)/c(FN) = ratio and prior p (every threshold of every model tried)."""
    best = {}
    for name in names:
        g = demo[demo["model"] == name]
        y, s = g["label"].to_numpy(bool), g["score"].to_numpy(float)
        costs = [p * (1 - (s[y] >= t).mean()) + ratio * (1 - p) * (s[~y] >= t).mean()
                 for t in np.unique(s)]
        best[name] = min(costs)
    low = min(min(best.values()), p, ratio * (1 - p))  # the trivial classifiers
    return {n for n, c in best.items() if c <= low + 1e-12}


@pytest.mark.slow
def test_mcc002_optimal_ranges_and_never_optimal(demo):
    p = 0.3
    analysis = analyse(demo, Conditions(prior_pos=p))
    names = [m.name for m in analysis.models]
    text = str(comparison_panel(analysis))
    for r in analysis.optimal_ranges.ranges:
        assert optimal_range_text(r) in text
    never = [r.model for r in analysis.optimal_ranges.ranges if r.never_optimal]
    assert never == ["decision tree"] and NEVER_OPTIMAL in text
    winners = set()
    # a grid, and the middle of every reported range (narrow ranges fall between grid points)
    middles = [np.sqrt(lo * hi) for r in analysis.optimal_ranges.ranges
               for lo, hi in zip(r.cost_ratio_low, r.cost_ratio_high, strict=True)
               if 0 < lo and np.isfinite(hi)]
    for ratio in [*np.geomspace(1e-3, 1e3, 150), *middles]:
        found = _min_cost_models(demo, names, ratio, p)
        winners |= found
        for n in found:  # a strict winner lies inside (or at the end of) its range
            r = analysis.optimal_ranges.of(n)
            assert ((r.cost_ratio_low <= ratio * (1 + 1e-9)) &
                    (ratio <= r.cost_ratio_high * (1 + 1e-9))).any(), (n, ratio)
    assert "decision tree" not in winners and winners == set(names) - {"decision tree"}


def test_mcc003_unpaired_models_are_said_so(demo):
    two = demo[demo["model"].isin(["logistic regression", "naive Bayes"])].copy()
    nb = two["model"] == "naive Bayes"
    two.loc[nb, "id"] = "other-" + two.loc[nb, "id"].astype(str)  # other rows: not paired
    analysis = analyse(two, Conditions(prior_pos=0.3))
    assert analysis.model_comparison is None
    text = str(comparison_panel(analysis))
    assert "No pair of models is scored on the same rows" in text and "row − column" not in text
    one = analyse(demo[demo["model"] == "naive Bayes"], Conditions(prior_pos=0.3))
    assert "two or more models" in str(comparison_panel(one))


def test_mcc004_html_report_matrix_has_adjusted_p_values(demo):
    """The HTML report's matrix: every cell's ΔAUC (sklearn) and its raw, Holm and BH
    p-values (an independent DeLong and statsmodels), and the never-optimal model."""
    import html as _html

    from roc_dash.report.html import render_html

    analysis = analyse(demo, Conditions(prior_pos=0.3))
    names = [m.name for m in analysis.models]
    y, wide = _wide(demo)
    pairs = list(itertools.combinations(range(len(names)), 2))
    tests = [_delong(y, wide[names[i]].to_numpy(), wide[names[j]].to_numpy())
             for i, j in pairs]
    raw = [p for _, p in tests]
    holm = multipletests(raw, method="holm")[1]
    bh = multipletests(raw, method="fdr_bh")[1]
    page = _html.unescape(render_html(analysis))
    assert "<h2>Model comparison</h2>" in page
    for (d, p), h, b in zip(tests, holm, bh, strict=True):
        ps = f"(p {p_text(p)}; Holm {p_text(h)}; BH {p_text(b)})"
        assert f"{signed(d)} {ps}" in page and f"{signed(-d)} {ps}" in page
    assert f"decision tree</b>: {NEVER_OPTIMAL}" in page
    for r in analysis.optimal_ranges.ranges:
        assert optimal_range_text(r) in page
    # unpaired models: no matrix, a note
    two = demo[demo["model"].isin(["logistic regression", "naive Bayes"])].copy()
    nb = two["model"] == "naive Bayes"
    two.loc[nb, "id"] = "other-" + two.loc[nb, "id"].astype(str)
    page = _html.unescape(render_html(analyse(two, Conditions(prior_pos=0.3))))
    assert "No pair of models is scored on the same rows" in page and "row − column" not in page
