"""One number style per sentence the page builds (snt001-snt004): the summary strip says the
share flagged, the positives found and the precision all as percentages (it said "flags
18% … precision 0.920228"); a share below 1% is not "0%"; the capacity table's note on the
mix of two thresholds says its queue rate, precision and recall alike; thresholds, interval
ends included (the strip's line and the operating card's intervals alike), by the rule's
rounding (``rule_threshold``: never rounded up past them)."""

import dataclasses
import re

import numpy as np
import pytest

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.components import pinned_words, plain_text, summary_strip
from roc_dash.app.constrained import parse_settings
from roc_dash.app.features import intervals as feature
from roc_dash.app.features.constraints import model_views, summary_table
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.decisions.decision_summary import decision_summary
from roc_dash.core.decisions.economics import Economics
from roc_dash.text.rounding import rule_threshold, sig
from tests.conftest import DEMO_MODELS as MODELS

PRIOR, CFP, CFN = 0.3, 1.0, 4.0
ECONOMICS = Economics(cost_fp=CFP, cost_fn=CFN)


@pytest.fixture
def analysis(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    return cache.analysis([DEMO_ID], MODELS, Conditions(prior_pos=PRIOR, cost_fp=CFP,
                                                        cost_fn=CFN))


def test_snt001_the_strips_sentence_gives_its_rates_as_percentages(analysis):
    s = decision_summary(analysis, None, ECONOMICS)
    # the oracle: the precision at the prior from the point's rates
    precision = PRIOR * s.tpr / (PRIOR * s.tpr + (1 - PRIOR) * s.fpr)
    text = plain_text(summary_strip(s)[0])
    rates = re.search(r"flags (\S+) of cases, finds (\S+) of positives, precision (\S+),",
                      text)
    assert rates, text
    assert all(r.endswith("%") for r in rates.groups()), text
    assert rates.group(3) == f"{100 * precision:.0f}%"
    assert not re.search(r"precision 0\.\d", text)


def test_snt002_a_share_below_one_percent_is_not_zero(analysis):
    s = decision_summary(analysis, None, ECONOMICS)
    small = dataclasses.replace(s, flagged=0.0035, tpr=0.004, nothing_flagged=False)
    words = pinned_words("A", small)
    assert "flags 0.35%, finds 0.4% of positives" in words, words
    strip = plain_text(summary_strip(small)[0])
    assert "flags 0.35% of cases, finds 0.4% of positives" in strip, strip


def test_snt003_the_capacity_notes_mix_says_its_rates_alike(analysis):
    capacity, _, _, _ = parse_settings("7%", "")
    views = model_views(analysis, capacity, ())
    text = plain_text(summary_table(views))
    num = r"([\d.]+%?)"
    mixes = re.findall(rf"exactly {num} by mixing two thresholds: precision {num}, recall "
                       rf"{num}", text)
    assert mixes, text
    for queue, precision, recall in mixes:
        assert all(x.endswith("%") for x in (queue, precision, recall)), mixes
    cp = next(v.capacity for v in views if v.capacity.binding and v.capacity.mix.k not in
              (0.0, 1.0) and v.capacity.mix.fpr_a != v.capacity.mix.fpr_b)
    assert f"precision {100 * cp.precision:.0f}%, recall {100 * cp.recall:.0f}%" in text


def test_snt004_the_threshold_intervals_ends_are_rules_bounds():
    """An end that 6 digits round up (0.46702173 to 0.467022) is rounded down (0.467021),
    as every threshold the page shows."""
    from roc_dash.core.decisions.point_intervals import point_intervals

    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    s = np.where(y, rng.normal(1, 1, 300), rng.normal(0, 1, 300))
    u = point_intervals(y, s, 0.3, ECONOMICS, n_boot=50, seed=0).optimum
    t = dataclasses.replace(u.threshold, low=0.46702173, high=0.9999999994643758)
    u2 = dataclasses.replace(u, threshold=t)
    text = feature.strip_text(u2)
    assert sig(0.46702173) == "0.467022" and sig(0.9999999994643758) == "1"
    assert f"threshold {rule_threshold(0.46702173)}–{rule_threshold(0.9999999994643758)}" \
        in text, text
    assert "threshold 0.467021–0.999999" in text
    # the operating card's intervals table says the same ends as the strip's line
    from types import SimpleNamespace
    table = plain_text(feature.intervals_table([("Optimum", SimpleNamespace(model="m"), u2)]))
    assert "[0.467021–0.999999]" in table, table
