"""Review 11 item 15: capacity 300 of 1,600 cases (18.75%) was said "share flagged ≤ 19%" in
the strip, the record and the CLI: a limit rounded up. The limit is now never rounded past
it, in all three (one function, ``floor_words``)."""

import json

import numpy as np

from roc_dash.app import ids
from roc_dash.app.components import plain_text
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.cli import main
from roc_dash.text.rounding import limit_percent
from tests.unit.app.test_app_constrained_strip import _ops, page_of  # noqa: F401 (fixture)
from tests.unit.app.test_app_constraints import CFN, CFP, DEMO, PRIOR


def test_lpc001_a_limit_is_never_rounded_past():
    assert limit_percent(300 / 1600) == "18.75%"
    assert limit_percent(1 / 3) == "33.33%" and limit_percent(1 / 3, ">=") == "33.34%"
    assert limit_percent(0.2) == "20%" and limit_percent(1.0) == "100%"
    rng = np.random.default_rng(0)
    for v in rng.random(2000):
        assert float(limit_percent(v)[:-1]) <= 100 * v + 1e-9
        assert float(limit_percent(v, ">=")[:-1]) >= 100 * v - 1e-9


def test_lpc002_strip_record_and_cli_say_the_capacitys_limit_unrounded(page_of, tmp_path,  # noqa: F811
                                                                      capsys):
    k, n = 83, 442  # 18.778...% of the demo's 442 cases per model: "19%" rounded
    words = "share flagged ≤ 18.77%"
    cache, _, page = page_of(capacity=str(k))
    detail = plain_text(_ops(strip_update(cache, page, ids.VIZ_DATA)["summary"])[(1,)])
    assert words in detail and "≤ 19%" not in detail
    out = tmp_path / "d.json"
    assert main(["decide", str(DEMO), "--prior", str(PRIOR), "--cost-fp", str(CFP),
                 "--cost-fn", str(CFN), "--capacity", str(k), "--replicates", "20", "-o",
                 str(out)]) == 0
    err = capsys.readouterr().err
    notes = " ".join(json.loads(out.read_text())["notes"])
    for text in (err, notes):
        assert words in text and "≤ 19%" not in text
    assert round(100 * k / n, 2) > 18.77  # the words round down, as they must
