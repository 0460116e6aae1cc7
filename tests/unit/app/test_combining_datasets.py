"""The combining card with two datasets of different sizes (cbd001-cbd003): a budget of K
cases is held against the test set of the models it chooses (by brute force over the
mixes of two thresholds of each dataset), the hint under the budget box says what is
applied, and the AND / OR of points of models on different datasets is refused in words."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.app.analysis import AnalysisCache, shown_analysis
from roc_dash.app.components import plain_text
from roc_dash.app.features.combining import budget_hint, combine_options, combine_panel
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.core.assembly.combining_views import budget_view
from roc_dash.core.decisions.operating import pinned_points
from tests.conftest import make_predictions
from tests.unit.app.uploads import upload_frames

PRIOR, K = 0.3, 120.0


@pytest.fixture
def two(tmp_path, monkeypatch):
    """``small.csv`` (300 rows, model "s", strong) and ``big.csv`` (1,000 rows, model "b")."""
    store = DatasetStore(tmp_path)
    frames = {"small.csv": make_predictions(300, seed=1, model="s", separation=2.5),
              "big.csv": make_predictions(1000, seed=2, model="b", separation=1.0)}
    ids_ = upload_frames(store, frames, monkeypatch)
    page = PageState(datasets=tuple(ids_), conditions=ControlState(
        cost_fp=1.0, cost_fn=1.0, prior=PRIOR, prior_mode="manual"))
    return shown_analysis(AnalysisCache(store), page), frames


def _best_tpr(frame, k_cases):
    """The highest TPR of a random mix of two thresholds acting on exactly ``k_cases`` of the
    frame's rows at the prior (brute force over every pair)."""
    y, s = frame["label"].to_numpy() == 1, frame["score"].to_numpy(float)
    ts = np.r_[np.inf, np.unique(s)]
    tpr = np.array([(s[y] >= t).mean() for t in ts])
    fpr = np.array([(s[~y] >= t).mean() for t in ts])
    g = (PRIOR * tpr + (1 - PRIOR) * fpr) * len(frame)
    lo, hi = g[:, None], g[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        k = np.where(hi > lo, (k_cases - lo) / (hi - lo), np.where(lo == k_cases, 0.0, np.nan))
    ok = (k >= 0) & (k <= 1)
    mixed = tpr[:, None] + k * (tpr[None, :] - tpr[:, None])
    return float(np.nanmax(np.where(ok, mixed, np.nan)))


def test_cbd001_a_budget_is_held_against_the_chosen_models_test_set(two):
    analysis, frames = two
    view = budget_view(analysis, K)
    best = {name: _best_tpr(frame, K) for name, frame in frames.items()}
    chosen = max(best, key=best.get)
    assert view.n_total == len(frames[chosen])
    assert view.n_source.startswith(f"the test set of {chosen}")
    assert {view.mix.model_a, view.mix.model_b} <= {
        m.name for m in analysis.models if m.dataset == chosen}
    assert view.mix.tpr == pytest.approx(best[chosen])
    assert view.mix.expected_cases == pytest.approx(K)
    text = plain_text(combine_panel(analysis, {"budget": K, "unit": "cases", "repair": None,
                                               "logic": False}, []))
    assert f"of N = {len(frames[chosen]):,} cases" in text


def test_cbd002_the_hint_says_what_budget_is_applied():
    assert budget_hint(combine_options("", "cases", None, [])[0]).startswith("Empty")
    applied = budget_hint(combine_options("300", "cases", None, [])[0])
    assert "300 cases" in applied and "Press Enter to apply" not in applied
    assert "5% flagged" in budget_hint(combine_options("5%", "cases", None, [])[0])


def test_cbd003_and_or_of_models_on_different_datasets_is_refused(two):
    analysis, _ = two
    names = [m.name for m in analysis.models]
    pins = pinned_points(analysis, [{"model": names[0], "threshold": 0.5, "label": "A"},
                                    {"model": names[1], "threshold": 0.5, "label": "B"}])
    text = plain_text(combine_panel(analysis, {"budget": None, "unit": "cases",
                                               "repair": None, "logic": True}, pins))
    assert "score different cases" in text and "cannot be computed" in text
    assert "if independent" not in text


def test_cbd004_budget_messages_use_the_pages_words(two):
    analysis, _ = two
    small = plain_text(combine_panel(analysis, {"budget": 0.01, "unit": "percent",
                                                "repair": None, "logic": False}, []))
    assert small.startswith("Budget: ") and "looks like" not in small
    typo = plain_text(combine_panel(analysis, {"budget": 0.5, "unit": "cases",
                                               "repair": None, "logic": False}, []))
    assert "write 50% for that share" in typo
    assert "budget=" not in typo and "fraction=" not in typo


def test_cbd005_a_budget_above_the_test_sets_size_is_a_count(demo_analysis):
    # the demo's test set has fewer cases than a population's budget of 800: the line is the
    # count asked for (everything flagged), not "fraction must lie in [0, 1]"
    n = float(demo_analysis.models[0].n_pos + demo_analysis.models[0].n_neg)
    view = budget_view(demo_analysis, 2 * n)
    assert view.budget == 2 * n and view.percent == pytest.approx(200.0)
    assert view.mix.tpr == pytest.approx(1.0) and view.mix.fpr == pytest.approx(1.0)
