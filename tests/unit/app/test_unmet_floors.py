"""Review 11 item 3: floors no model meets. The message named no model, gave the figures of
the first model shown (not the closest), and with a confidence began "No threshold meets the
constraints: The threshold meets every floor at the conservative bounds ...". Now the page's
strip, the capacity and floors card and ``roc-dash decide`` say the same: the closest model
first with its best figures (checked by brute force over the demo file read with pandas),
then each other model; with a confidence, that the figures are the estimates."""

import numpy as np
import pandas as pd

from roc_dash.app import ids
from roc_dash.app.components import plain_text
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.cli import main

from .test_app_constrained_strip import _ops, page_of  # noqa: F401  (fixture)
from .test_app_constraints import CFN, CFP, DEMO, MODELS, PRIOR

FLOORS = ("precision >= 0.6", "recall >= 0.8")


def _best_figures():
    """Per model (max precision with recall >= 0.8, max recall with precision >= 0.6) over
    every single threshold at PRIOR, by brute force."""
    rows = pd.read_csv(DEMO)
    out = {}
    for m in MODELS:
        r = rows[rows["model"] == m]
        y, s = (r["label"] == "pos").to_numpy(), r["score"].to_numpy(float)
        prec, rec = [], []
        for t in [np.inf, *np.unique(s)]:
            tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
            flagged = PRIOR * tpr + (1 - PRIOR) * fpr
            if flagged == 0:
                continue
            precision = PRIOR * tpr / flagged
            if tpr >= 0.8:
                prec.append(precision)
            if precision >= 0.6:
                rec.append(tpr)
        out[m] = (max(prec), max(rec))
    return out


def _closest_words():
    best = _best_figures()
    name = min(MODELS, key=lambda m: (max(0, 0.6 - best[m][0]) + max(0, 0.8 - best[m][1]),
                                      MODELS.index(m)))
    p, r = best[name]
    return name, (f"Closest: {name} (precision ≥ 0.6: reaches precision {p:.6g} with the "
                  f"other floors met; recall ≥ 0.8: reaches recall {r:.6g} with the other "
                  "floors met)")


def test_unf001_page_and_cli_name_the_closest_model_with_its_figures(page_of, capsys, tmp_path):  # noqa: F811
    name, words = _closest_words()
    assert name != MODELS[0]  # the old message gave the first model's figures
    cache, _, page = page_of(floors="; ".join(FLOORS))
    line = plain_text(_ops(strip_update(cache, page, ids.VIZ_DATA)["summary"])[(1,)])
    assert line.startswith("No threshold meets the constraints: none of the 4 models shown "
                           "does.") and words in line
    best = _best_figures()
    for other in MODELS:  # the others' figures too, short
        p, r = best[other]
        assert f"{other} precision {p:.6g}, recall {r:.6g}" in line or other == name
    argv = ["decide", str(DEMO), "--prior", str(PRIOR), "--cost-fp", str(CFP), "--cost-fn",
            str(CFN), "--floor", FLOORS[0], "--floor", FLOORS[1], "-o", str(tmp_path / "unused.json")]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert words in err
    # the page's words are the CLI's (the page's first letter capitalised, its tail added)
    said = err.split("no threshold meets the constraints: ", 1)[1].strip()
    assert said in line


def test_unf002_with_a_confidence_the_message_does_not_contradict_itself(page_of, capsys, tmp_path):  # noqa: F811
    _, words = _closest_words()
    cache, _, page = page_of(floors="; ".join(FLOORS), floor_confidence="95%")
    line = plain_text(_ops(strip_update(cache, page, ids.VIZ_DATA)["summary"])[(1,)])
    assert "meets every floor at the conservative" not in line and words in line
    assert "figures are the estimates on the data" in line
    argv = ["decide", str(DEMO), "--prior", str(PRIOR), "--cost-fp", str(CFP), "--cost-fn",
            str(CFN), "--floor", FLOORS[0], "--floor", FLOORS[1], "--floor-confidence",
            "0.95", "-o", str(tmp_path / "unused.json")]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "meets every floor at the conservative" not in err
    assert "figures are the estimates on the data" in err and words in err


def test_unf003_the_html_report_says_what_the_cli_says(tmp_path, capsys):
    _, words = _closest_words()
    common = ["--prior", str(PRIOR), "--cost-fp", str(CFP), "--cost-fn", str(CFN), "--floor",
              FLOORS[0], "--floor", FLOORS[1]]
    out = tmp_path / "r.html"
    assert main(["report", str(DEMO), *common, "--format", "html", "-o", str(out)]) == 0
    report = out.read_text()
    assert main(["decide", str(DEMO), *common, "-o", str(tmp_path / "d.json")]) != 0
    said = capsys.readouterr().err.split("no threshold meets the constraints: ", 1)[1].strip()
    assert words in said and said in report
