"""What the first review meeting tripped over (issue 15, section 2), as plain functions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.analysis import model_names
from roc_dash.app.components import plain_text
from roc_dash.app.features.data import apply_upload
from roc_dash.app.render import render_views
from roc_dash.core import roc_curve
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import prevalence
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.threshold_costs import threshold_profile
from roc_dash.figures.style import format_threshold


# -- 4. one tie rule ----------------------------------------------------------------------
def tied_predictions() -> pd.DataFrame:
    """Scores where three thresholds give the same number of errors (4): 13 clean positives,
    then N P N P (each pair keeps the errors), 31 negatives and 2 positives at the bottom.
    Found by search so that the rounded expected costs of the three differ in the last bits
    and their ``argmin`` is the middle one, as with the digits data of issue 15."""
    labels = [1] * 13 + [0, 1, 0, 1] + [0] * 31 + [1] * 2
    scores = np.round(np.linspace(0.99, 0.01, len(labels)), 4)
    rng = np.random.default_rng(3)
    other = np.round(np.clip(np.asarray(labels) * 0.3 + rng.random(len(labels)) * 0.7, 0, 1), 4)
    return pd.concat([
        pd.DataFrame({"model": "logistic regression", "label": labels, "score": scores}),
        pd.DataFrame({"model": "naive Bayes", "label": labels, "score": other}),
    ], ignore_index=True)


def fewest_errors_threshold(frame: pd.DataFrame) -> tuple[float, list[float]]:
    """Counted by hand: the thresholds "flag iff score >= t" with the fewest errors, and the
    highest of them (the conservative one)."""
    y = frame["label"].to_numpy() == 1
    s = frame["score"].to_numpy()
    errors = {t: int(((s >= t) & ~y).sum() + ((s < t) & y).sum()) for t in np.unique(s)}
    best = min(errors.values())
    tied = sorted((t for t, e in errors.items() if e == best), reverse=True)
    return float(tied[0]), [float(t) for t in tied]


def test_rvw401_tied_costs_the_threshold_profile_picks_the_conservative_vertex():
    frame = tied_predictions()
    lr = frame[frame["model"] == "logistic regression"]
    expected, tied = fewest_errors_threshold(lr)
    assert len(tied) == 3  # the data is what the test is about
    curve = roc_curve(lr["label"].to_numpy() == 1, lr["score"].to_numpy())
    prof = threshold_profile(curve, float(lr["label"].mean()), Economics(1.0, 1.0))
    # the rounded costs of the tied thresholds are not all equal: the old argmin rule
    # picked the middle one
    costs = prof.expected_cost[np.isin(prof.threshold, tied)]
    assert np.ptp(costs) < 1e-15
    assert prof.best_threshold == expected


def test_rvw402_every_view_names_the_same_threshold_on_a_tie(store, cache):
    frame = tied_predictions()
    out = apply_upload(store, [("tied.csv", frame.to_csv(index=False).encode())], [])
    assert out.error == ""
    ids_ = out.dataset_ids
    expected, _ = fewest_errors_threshold(frame[frame["model"] == "logistic regression"])
    p = prevalence(cache.table(ids_))
    roc, pr, cost, op, viz, slope, banner, summary, thr = render_views(
        cache, ids_, model_names(cache, ids_), Conditions(prior_pos=p))
    # the ROC's optimum star sits on the model's point at that threshold (customdata rows
    # [model index, threshold, fpr, tpr]); the PR star's hover names the threshold
    lr = next(t for t in roc.data if (t.name or "").startswith("logistic regression"))
    row = next(r for r in lr.customdata if float(r[1]) == expected)
    star = next(a for a in roc.layout.annotations if a.name == "optimum")
    # (customdata carries 6 significant digits)
    assert (star.x, star.y) == pytest.approx((float(row[2]), float(row[3])), rel=1e-5)
    star = next(a for a in pr.layout.annotations if a.name == "optimum")
    assert f"threshold ≥ {format_threshold(expected)}" in star.hovertext
    text = plain_text(summary)
    assert f"Use logistic regression at score ≥ {expected:g}" in text
    assert f"{expected:g}" in plain_text(op)
    assert thr.layout.meta["model"] == "logistic regression"
    star = next(t for t in thr.data if t.name == "optimum of logistic regression")
    assert star.x[0] == expected
    assert thr.layout.meta["overall"].startswith("★ its optimum is the overall optimum")


def test_rvw403_optimal_vertex_is_the_cheapest_vertex_and_the_hull_optimum():
    from roc_dash.core import convex_hull, optimal_point, optimal_vertex

    rng = np.random.default_rng(7)
    for _ in range(40):
        n = int(rng.integers(5, 80))
        y = rng.random(n) < 0.4
        y[:2] = [True, False]
        s = np.round(rng.random(n) + 0.4 * y, int(rng.integers(1, 3)))  # many ties
        curve = roc_curve(y, s)
        for m in (0.3, 1.0, float(n - y.sum()) / y.sum(), 4.0):
            k = optimal_vertex(curve, m)
            value = curve.tpr - m * curve.fpr
            assert value[k] == pytest.approx(value.max(), abs=1e-12)
            # the conservative end: no vertex flagging fewer cases is as good
            assert (value[:k] < value.max() - 1e-12).all()
            opt = optimal_point(convex_hull(curve), m)
            assert (curve.fpr[k], curve.tpr[k]) == (opt.fpr, opt.tpr)


# -- 1. a second dataset keeps the prior --------------------------------------------------
def test_rvw102_prior_source_is_kept_then_the_links_then_the_last(store):
    from roc_dash.app.features.data import prior_source
    from roc_dash.app.state import parse_query

    a, b = "a" * 24, "b" * 24
    assert prior_source([a, b], a) == a  # a dataset added later does not take over
    assert prior_source([a, b], None, f"?data={a},{b}&psrc={a}") == a
    assert prior_source([a, b], "demo", "") == b  # the chosen one is gone: the last
    assert prior_source([], None) is None
    assert parse_query(f"?psrc={b}")["prior_source"] == b
    assert "prior_source" not in parse_query("?psrc=../../etc")


def test_rvw103_the_status_says_what_the_new_dataset_would_give(store):
    from roc_dash.app.features.data import prior_note

    frames = [make_frame(200, 0.4, 1), make_frame(300, 0.1, 2)]
    ids_ = []
    for k, frame in enumerate(frames):
        out = apply_upload(store, [(f"d{k}.csv", frame.to_csv(index=False).encode())], ids_)
        ids_ = out.dataset_ids
    p0, p1 = (float(f["label"].mean()) for f in frames)
    auto = {"prior": p0, "prior_mode": "auto"}
    note = prior_note(store, ids_, ids_[0], auto)
    assert f"stays p(+) = {p0:.4g}, the prevalence of d0.csv" in note
    assert f"d1.csv's prevalence would give p(+) = {p1:.4g}" in note
    typed = prior_note(store, ids_, ids_[0], {"prior": 0.2, "prior_mode": "manual"})
    assert "stays p(+) = 0.2 (typed)" in typed and "Use the data's prevalence" in typed
    assert prior_note(store, ids_[:1], ids_[0], auto) == ""  # one dataset: nothing to say


def make_frame(n, prevalence, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    return pd.DataFrame({"label": y, "score": np.round(rng.random(n) + y, 4)})


# -- 2. the demo beside uploads; every model tagged with its dataset ---------------------
def test_rvw201_load_demo_after_an_upload_says_it_adds_it(store):
    from roc_dash.app.features.data import demo_status

    assert demo_status(store, []) == "Loaded the demo data."
    frame = make_frame(120, 0.3, 4).assign(model="logistic regression")
    out = apply_upload(store, [("mine.csv", frame.to_csv(index=False).encode())], [])
    # the conditions store may still hold the demo's prior when the button is pressed right
    # after the upload: the note names the source's own prevalence
    text = demo_status(store, out.dataset_ids, out.dataset_ids[0],
                       {"prior": 0.2738, "prior_mode": "auto"})
    assert "Added the demo data beside mine.csv (nothing was replaced)" in text
    assert "×" in text and "remove it" in text
    assert "'logistic regression (demo)'" in text  # how its models are named
    mine = float(frame["label"].mean())
    assert f"stays p(+) = {mine:.4g}, the prevalence of mine.csv" in text  # the prior stays


def test_rvw202_with_two_datasets_every_model_is_tagged_everywhere(store, cache):
    from roc_dash.app.render import resolve_operating  # noqa: F401 - the same module
    from roc_dash.app.server.store import DEMO_ID

    up = make_frame(150, 0.3, 5).assign(model="logistic regression")
    out = apply_upload(store, [("mine.csv", up.to_csv(index=False).encode())], [])
    ids_ = [*out.dataset_ids, DEMO_ID]
    names = model_names(cache, ids_)
    demo = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
    assert names == ["logistic regression (mine.csv)"] + [f"{m} (demo)" for m in demo]
    pins = [{"model": "naive Bayes (demo)", "threshold": 0.3, "label": "A"}]
    roc, pr, cost, op, viz, slope, banner, summary, thr = render_views(
        cache, ids_, names, Conditions(prior_pos=0.3), pinned=pins)
    legends = [t.name for f in (roc, pr, cost) for t in f.data if t.name]
    for model in names:  # every model in every legend, with its dataset
        assert all(any(n.startswith(model) for n in legends_of(f)) for f in (roc, pr, cost))
    untagged = [n for n in legends if n.split(" (")[0] in demo + ["logistic regression"]
                and "(demo)" not in n and "(mine.csv)" not in n]
    assert untagged == []
    strip = plain_text(summary)
    assert "(demo)" in strip or "(mine.csv)" in strip
    compare = plain_text(op)
    assert "naive Bayes (demo)" in compare
    # the model table's Dataset column, row by row
    rows = table_cells(compare_table(cache, ids_))
    assert rows[0][:2] == ["Model", "Dataset"]
    # each row: the model's own name, then its dataset (the tag every other view shows)
    assert sorted(tuple(r[:2]) for r in rows[1:len(names) + 1]) == sorted(
        (n.rsplit(" (", 1)[0], n.rsplit(" (", 1)[1].rstrip(")")) for n in names)
    # one dataset again: no tags, no column
    assert model_names(cache, out.dataset_ids) == ["logistic regression"]
    assert "Dataset" not in table_cells(compare_table(cache, out.dataset_ids))[0]


def legends_of(fig):
    return [t.name for t in fig.data if t.name]


def compare_table(cache, dataset_ids, prior=0.3):
    """The Compare tab's model table (its one builder) for every model of ``dataset_ids``."""
    from roc_dash.app.page_state import PageState
    from roc_dash.app.render import models_table
    from roc_dash.app.state import ControlState

    return models_table(cache, PageState(datasets=tuple(dataset_ids),
                                         conditions=ControlState(prior=prior)))


def table_cells(node) -> list[list[str]]:
    """The first table's rows as text cells (header row first)."""
    from dash import html

    rows = []

    def walk(n):
        if isinstance(n, list | tuple):
            for k in n:
                walk(k)
            return
        if isinstance(n, html.Tr):
            rows.append([plain_text(c) for c in n.children])
            return
        if isinstance(n, html.Table) and rows:
            return  # the first table only
        kids = getattr(n, "children", None)
        if kids is not None and not isinstance(kids, str):
            walk(kids)

    walk(node)
    return rows


# -- 5. the recommendation stays the headline ---------------------------------------------
def test_rvw501_pins_are_compared_below_the_recommendation(cache):
    from roc_dash.app.server.store import DEMO_ID

    models = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
    cond = Conditions(prior_pos=prevalence(cache.table([DEMO_ID])))
    plain = plain_text(render_views(cache, [DEMO_ID], models, cond)[7])
    # a pin off the hull (naive Bayes at 0.5): the headline and its sensitivity stay
    pins = [{"model": "naive Bayes", "threshold": 0.5, "label": "A"},
            {"model": "decision tree", "threshold": 0.3, "label": "B"}]
    strip = render_views(cache, [DEMO_ID], models, cond, pinned=pins)[7]
    # the strip's third slot holds the intervals' line once computed (empty here)
    main, detail, _, compared = (plain_text(k) for k in strip)
    assert plain.startswith(main)  # the same recommendation as without pins
    assert main.startswith("Use logistic regression at score ≥ 0.510192")
    assert "stays optimal while" in detail
    assert compared.startswith("Pinned A: naive Bayes at score ≥ 0.5")
    assert "; B: decision tree at score ≥ " in compared
    assert "against the recommendation" in compared


# -- 7. averaging: readable threshold averages; PR and cost say they pool -----------------
DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]


def test_rvw701_threshold_averaging_draws_error_bars_at_a_few_thresholds(cache):
    from roc_dash.app.server.store import DEMO_ID

    roc = render_views(cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.27),
                       averaging="threshold")[0]
    with_bars = [t for t in roc.data if t.error_x is not None and t.error_x.array is not None]
    assert len(with_bars) == 4  # one per model
    for t in with_bars:
        assert 4 <= len(t.x) <= 6  # not one per sampled threshold
        assert t.showlegend is False
        alpha = float(t.error_x.color.rsplit(",", 1)[1].rstrip(")"))
        assert alpha <= 0.5
    # the mean curves themselves carry every sampled threshold, without bars
    means = [t for t in roc.data if " (AUC " in (t.name or "") and t.name.split(" (")[0]
             in DEMO_MODELS]
    assert len(means) == 4 and all(len(t.x) > 20 and t.error_x.array is None for t in means)
    # bars of different models are staggered along their curves
    firsts = sorted(float(t.x[0]) for t in with_bars)
    assert len(set(np.round(firsts, 6))) == 4
    assert "at 6 thresholds" in roc.layout.title.text


@pytest.mark.parametrize("averaging", ["none", "vertical", "threshold"])
def test_rvw702_pr_and_cost_views_say_they_use_the_pooled_folds(cache, averaging):
    from roc_dash.app.server.store import DEMO_ID

    out = render_views(cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.27),
                       averaging=averaging)
    pr, cost = out[1], out[2]
    word = {"none": "each fold's curve", "vertical": "vertical averaging",
            "threshold": "threshold averaging"}[averaging]
    assert pr.layout.title.text == (f"10 folds pooled: the ROC's {word} does not apply to "
                                    "precision-recall")
    assert cost.layout.title.text.endswith("does not apply to the cost curves")
    pooled = render_views(cache, [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=0.27))
    assert pooled[1].layout.title.text == "10 folds pooled"
