"""Groups left out of a slice (a single class, or no weight): the page's Slices card and the
JSON and HTML reports say which, why, and the prior the optima use (the other groups'
prevalence unless one is given), with every number checked against pandas on the rows."""

from __future__ import annotations

import html
import json

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.components import plain_text
from roc_dash.app.features.slices import slices_outputs
from roc_dash.cli import main
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.io import load_predictions
from roc_dash.report.slices import why_left_out
from roc_dash.text.rounding import sig

STATE = {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2}  # as the CONDITIONS store


def _frame(seed: int = 18, n: int = 1200) -> pd.DataFrame:
    """Three regions with both classes and ``islands``, whose 90 cases are all negative."""
    rng = np.random.default_rng(seed)
    group = rng.choice(["north", "south", "east"], n).astype(object)
    label = rng.random(n) < 0.4
    group[:90], label[:90] = "islands", False
    return pd.DataFrame({"model": "gb", "label": label.astype(int),
                         "score": np.round(rng.normal(size=n) + 1.3 * label, 3),
                         "group": group})


def _report(tmp_path, frame, *args) -> str:
    path = tmp_path / "preds.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "report.out"
    assert main(["report", str(path), "-o", str(out), *args]) == 0
    return out.read_text()


def test_xlo001_json_report_names_the_group_left_out_and_the_prior(tmp_path):
    frame = _frame()
    entry = json.loads(_report(tmp_path, frame, "--format", "json"))["slices"]["models"][0]
    others = frame[frame["group"] != "islands"]
    assert entry["left_out"] == [{"name": "islands", "rows": 90, "n_pos": 0.0,
                                  "n_neg": 90.0, "reason": "negatives only"}]
    prior = entry["prior"]
    assert prior["source"] == "analysed_groups"
    assert prior["value"] == pytest.approx(others["label"].mean(), rel=1e-12)
    assert prior["prevalence_analysed_groups"] == pytest.approx(others["label"].mean())
    assert prior["prevalence_all_groups"] == pytest.approx(frame["label"].mean(), rel=1e-12)
    assert prior["value"] != pytest.approx(prior["prevalence_all_groups"])
    note = entry["left_out_note"]
    assert "Left out: islands (90 rows, negatives only)" in note
    assert (f"Prior p(+) used: {sig(others['label'].mean())}, the prevalence of the other "
            f"groups (of every group, those left out included: {sig(frame['label'].mean())})"
            in note)
    given = json.loads(_report(tmp_path, frame, "--format", "json", "--prior", "0.3"))
    entry = given["slices"]["models"][0]
    assert entry["prior"]["source"] == "given" and entry["prior"]["value"] == 0.3
    assert entry["left_out_note"].endswith("Prior p(+) used: 0.3, the prior given.")


def test_xlo002_html_report_says_it_too(tmp_path):
    frame = _frame()
    page = _report(tmp_path, frame, "--format", "html")
    others = frame[frame["group"] != "islands"]
    assert html.escape("Left out: islands (90 rows, negatives only)") in page
    assert html.escape(f"Prior p(+) used: {sig(others['label'].mean())}") in page
    assert "left out: negatives only" in page  # the group's row of the table


def test_xlo003_the_slices_card_says_which_why_and_the_prior():
    frame = _frame()
    table = load_predictions([("preds.csv", frame.to_csv(index=False).encode())]).table
    source, _, _, summary, rows = slices_outputs(table, "gb", STATE, "group_optima")
    assert "4 groups" in source
    said = plain_text(summary)
    assert "Left out: islands (90 rows, negatives only)" in said
    assert "no ROC curve" in said
    assert "Prior p(+) used: 0.2, the page's prior." in said
    assert "left out: negatives only" in plain_text(rows)
    # without a group left out, nothing is said
    kept = table[table["group"].astype(str) != "islands"]
    _, _, _, summary, _ = slices_outputs(kept, "gb", STATE, "group_optima")
    assert "Left out" not in plain_text(summary)


def test_xlo004_why_and_the_prevalences_follow_the_weighted_counts():
    rng = np.random.default_rng(4)
    n = 600
    g = rng.choice(np.array(["a", "b"]), n).astype(object)
    y = rng.random(n) < 0.3
    w = rng.choice([0.5, 1.0, 2.0], n)
    g[:20], y[:20] = "pos", True
    g[20:30], w[20:30] = "weightless", 0.0
    s = rng.normal(size=n) + y
    result = slice_analysis(y, s, g, weights=w)
    reasons = {r.name: why_left_out(r) for r in result.rocs if not r.defined}
    assert reasons == {"pos": "positives only", "weightless": "no weight"}
    kept = np.isin(g, ["a", "b"])
    assert result.prevalence_all == pytest.approx(w[y].sum() / w.sum())
    assert result.prevalence_analysed == pytest.approx(w[kept & y].sum() / w[kept].sum())
    assert result.prior_pos == pytest.approx(result.prevalence_analysed)
    assert not result.prior_given
    assert slice_analysis(y, s, g, weights=w, prior_pos=0.25).prior_given
