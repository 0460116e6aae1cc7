"""The partial-AUC comparison (issue 17 item 3, "bootstrap for partial AUC") in the CLI's
JSON and HTML reports (given ``--fpr-max``) and in the page's Model comparison card: the
numbers against scikit-learn's McClish partial AUC and a naive paired stratified bootstrap
written here (its p-values adjusted by statsmodels' ``multipletests``)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from statsmodels.stats.multitest import multipletests

from roc_dash.app import analysis as app_analysis
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.components import plain_text
from roc_dash.app.features import comparison as card
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.cli import main
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.io import load_predictions
from roc_dash.text.rounding import signed


def _three_models(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    base = rng.normal(size=n)
    frames = [pd.DataFrame({"model": name, "id": np.arange(n), "label": y,
                            "score": np.round(base + gap * y + rng.normal(scale=0.7, size=n),
                                              3)})
              for name, gap in (("a", 1.5), ("b", 1.0), ("c", 0.4))]
    return pd.concat(frames), y == 1


def _naive(frame, y, fpr_max, n_boot, seed):
    """Paired stratified bootstrap: per replicate, positives then negatives drawn as
    multinomial counts from one ``default_rng(seed)``; pAUC by scikit-learn on the rows
    repeated by their counts; SE the SD of the differences, two-sided normal p."""
    names = list(dict.fromkeys(frame["model"]))
    s = {n: frame[frame["model"] == n]["score"].to_numpy() for n in names}
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    boot = np.empty((n_boot, len(names)))
    for b in range(n_boot):
        counts = np.zeros(y.size, int)
        for rows in (pos, neg):
            counts[rows] = rng.multinomial(rows.size, np.ones(rows.size) / rows.size)
        idx = np.repeat(np.arange(y.size), counts)
        boot[b] = [roc_auc_score(y[idx], s[n][idx], max_fpr=fpr_max) for n in names]
    full = [roc_auc_score(y, s[n], max_fpr=fpr_max) for n in names]
    out = {}
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            se = np.std(boot[:, i] - boot[:, j], ddof=1)
            d = full[i] - full[j]
            out[i, j] = (d, se, 2 * norm.sf(abs(d / se)))
    return names, out


def test_pci030_cli_json_and_html_hold_the_naive_bootstrap_matrix(tmp_path, capsys):
    frame, y = _three_models()
    path = tmp_path / "three.csv"
    frame.to_csv(path, index=False)
    assert main(["report", str(path), "--fpr-max", "0.3", "--replicates", "40", "--seed",
                 "2", "-o", str(tmp_path / "r.json")]) == 0
    doc = json.loads((tmp_path / "r.json").read_text())
    c = doc["comparison_partial_auc"]
    names, want = _naive(frame, y, 0.3, 40, 2)
    assert c["models"] == names and (c["max_fpr"], c["n_boot"], c["seed"]) == (0.3, 40, 2)
    for (i, j), (d, se, p) in want.items():
        assert c["difference"][i][j] == pytest.approx(d, abs=1e-12)
        assert c["std_error"][i][j] == pytest.approx(se, rel=1e-9)
        assert c["p_value"][i][j] == pytest.approx(p, rel=1e-9)
    raw = [want[k][2] for k in sorted(want)]
    np.testing.assert_allclose([c["p_holm"][i][j] for i, j in sorted(want)],
                               multipletests(raw, method="holm")[1], rtol=1e-9)
    np.testing.assert_allclose([c["p_bh"][i][j] for i, j in sorted(want)],
                               multipletests(raw, method="fdr_bh")[1], rtol=1e-9)
    assert main(["report", str(path), "--fpr-max", "0.3", "--replicates", "40", "--seed",
                 "2", "--format", "html", "-o", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert "Partial AUC over FPR ≤ 0.3 (McClish)" in page
    assert f"{signed(want[0, 1][0])} (p " in page
    # without --fpr-max: no such key (the report's keys stay those of rep012)
    assert main(["report", str(path), "--replicates", "40", "-o", str(tmp_path / "d.json")]) == 0
    assert "comparison_partial_auc" not in json.loads((tmp_path / "d.json").read_text())


def test_pci031_page_card_offers_the_partial_auc_matrix(tmp_path, monkeypatch):
    frame, y = _three_models(seed=1)
    path = tmp_path / "three.csv"
    frame.to_csv(path, index=False)
    store = DatasetStore(tmp_path / "store")
    table = load_predictions([path]).table
    dataset_id = store.put(table, files=["three.csv"]).id
    monkeypatch.setattr(app_analysis, "PAUC_BOOT", 30)
    cache = AnalysisCache(store)
    state = ControlState().to_store()
    analysis = analyse(table, Conditions())
    shown = cache.analysis([dataset_id], ["a", "b", "c"], Conditions(), None)
    assert shown.conditions.fpr_max == 0.2
    assert shown is not None
    part = app_analysis.pauc_comparison(cache, [dataset_id], shown, state)
    names, want = _naive(frame, y, analysis.conditions.fpr_max, 30, 0)
    assert list(part.models) == names
    for (i, j), (d, se, _p) in want.items():
        assert part.difference[i, j] == pytest.approx(d, abs=1e-12)
        assert part.std_error[i, j] == pytest.approx(se, rel=1e-9)
    text = plain_text(card.comparison_panel(shown, "raw", part))
    assert "ΔpAUC over FPR ≤ 0.2" in text and "30 replicates" in text
    assert f"{signed(want[0, 1][0])}" in text
    auc_text = plain_text(card.comparison_panel(shown, "raw"))
    assert "DeLong" in auc_text and "ΔpAUC" not in auc_text
    assert not math.isnan(part.p_holm[0, 1])


def test_pci032_page_html_export_has_the_matrix_when_the_card_shows_it(tmp_path, monkeypatch):
    from roc_dash.app import create_app

    from .test_strip_intervals import _export_html

    frame, y = _three_models(seed=3)
    path = tmp_path / "three.csv"
    frame.to_csv(path, index=False)
    store = DatasetStore(tmp_path / "store")
    dataset_id = store.put(load_predictions([path]).table, files=["three.csv"]).id
    monkeypatch.setattr(app_analysis, "PAUC_BOOT", 30)
    app = create_app(store=store)
    state = ControlState().to_store()
    page = _export_html(app, state, ["a", "b", "c"], "pauc", [dataset_id])
    assert "Partial AUC over FPR ≤ 0.2 (McClish)" in page and "30 replicates" in page
    names, want = _naive(frame, y, 0.2, 30, 0)
    for (i, j), (d, _se, _p) in want.items():
        assert f"{signed(d)} (p " in page, (names[i], names[j])
    assert "Partial AUC over FPR" not in _export_html(app, state, ["a", "b", "c"], "auc",
                                                      [dataset_id])
