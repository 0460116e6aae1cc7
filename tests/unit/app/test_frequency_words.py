"""How often the optimum wins, in words (fqw001): a count of a few folds, a tie shared as
a fraction of a fold and said so, a share of many resamples."""

from __future__ import annotations

from roc_dash.app.components import frequency_words
from roc_dash.core.decisions.optimum_frequency import OptimumFrequency


def test_fqw001_folds_are_counted_resamples_shared():
    five = OptimumFrequency(fractions={"lr": 0.9, "rf": 0.1}, wins={"lr": 4.5, "rf": 0.5},
                            n=5, method="folds")
    assert frequency_words("lr", five) == ("lr is the optimum in 4.5 of the 5 folds (a fold "
                                           "where models tie is shared).")
    whole = OptimumFrequency(fractions={"lr": 0.8, "rf": 0.2}, wins={"lr": 4.0, "rf": 1.0},
                             n=5, method="folds")
    assert frequency_words("rf", whole) == "rf is the optimum in 1 of the 5 folds."
    boot = OptimumFrequency(fractions={"lr": 0.615, "rf": 0.385},
                            wins={"lr": 123.0, "rf": 77.0}, n=200, method="bootstrap")
    assert frequency_words("lr", boot) == "lr is the optimum in 62% of the 200 resamples."

