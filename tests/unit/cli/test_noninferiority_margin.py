"""``roc-dash check --not-worse-than``: the margin is required, and a margin of 0 is named
for what it is, a superiority test. A candidate identical to the baseline (the same scores,
or a monotone recalibration of them: the same ROC curve) is non-inferior at any positive
margin and fails the superiority test with p = 1/2 (DeLong's difference 0, standard error
0: the boundary of H0), checked here against scipy's normal distribution."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from roc_dash.cli import main


@pytest.fixture
def twins(tmp_path):
    """A model and its recalibration (a monotone map of the same scores), same rows."""
    rng = np.random.default_rng(3)
    y = (rng.random(500) < 0.3).astype(int)
    s = np.round(rng.normal(size=500) + 1.1 * y, 4)
    recal = 1 / (1 + np.exp(-(0.8 * s - 0.2)))
    ids = np.arange(500)
    frame = pd.concat([pd.DataFrame({"model": "base", "id": ids, "label": y, "score": s}),
                       pd.DataFrame({"model": "recal", "id": ids, "label": y,
                                     "score": recal})])
    path = tmp_path / "twins.csv"
    frame.to_csv(path, index=False)
    return path


def test_nim001_not_worse_than_without_a_margin_is_refused_naming_superiority(twins, capsys):
    code = main(["check", str(twins), "--model", "recal", "--not-worse-than", "base"])
    out = capsys.readouterr()
    assert code == 2 and out.out == "", out.out
    assert "--not-worse-than needs --margin" in out.err
    assert "superiority test" in out.err and "p = 0.5" in out.err


def test_nim002_identical_candidate_passes_non_inferiority_fails_superiority(twins, capsys):
    code = main(["check", str(twins), "--model", "recal", "--not-worse-than", "base",
                 "--margin", "0"])
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "not-worse-than[recal]" in ln)
    # difference 0 and SE 0: z = 0 at the boundary of H0, one-sided p = 1 - Φ(0)
    assert code == 1 and line.startswith("FAIL")
    assert f"p = {norm.sf(0.0):.6g}" in line and "A superiority test (margin 0)" in line
    code = main(["check", str(twins), "--model", "recal", "--not-worse-than", "base",
                 "--margin", "0.02"])
    line = next(ln for ln in capsys.readouterr().out.splitlines()
                if "not-worse-than[recal]" in ln)
    assert code == 0 and line.startswith("PASS")
    assert "A non-inferiority test with margin 0.02." in line and "H0: difference <= -0.02" in line


def test_nim003_help_says_the_margin_is_required_and_zero_is_superiority(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "needs --margin" in text
    assert "0 makes it a superiority test" in text
