"""A documented generator of predictions with a realistic ``group`` column (issue 18).

Loan applications from four regions, scored by two models for the risk of default. The
regions differ the way real slices do:

========  ======  ===========  ================================================
region    share   default rate  score quality (separation of the classes, in SD)
========  ======  ===========  ================================================
north     40 %    10 %          good (1.9 gradient boosting, 1.5 logistic)
south     30 %    22 %          fair (1.3, 1.1)
east      20 %    16 %          good (1.7, 1.4)
west      10 %    35 %          poor (0.8, 0.7): fewer records, a different mix
========  ======  ===========  ================================================

Scores are probabilities: a logistic link of a Gaussian latent score whose mean is higher
for defaulters by the separation above; both models score the same applications (an
``id`` column pairs them). West is the small, hard region, where one threshold for all is
far from its own optimum. Run ``python -m tools.slices_example out.csv`` to write a file.

:func:`many_groups` scales the same recipe to any number of groups (the benchmark's 10^6
rows x 20 groups, ``bench/bench_slices.py``): group sizes fall off as Zipf's law (the largest
group about ten times the smallest of 20), default rates spread from 5 % to 40 % and the
separation from 0.6 SD (poor) to 2.0 SD (good), drawn per group from a seeded generator.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

#: region: (share of applications, default rate, separation per model)
REGIONS = {
    "north": (0.40, 0.10, {"gradient boosting": 1.9, "logistic regression": 1.5}),
    "south": (0.30, 0.22, {"gradient boosting": 1.3, "logistic regression": 1.1}),
    "east": (0.20, 0.16, {"gradient boosting": 1.7, "logistic regression": 1.4}),
    "west": (0.10, 0.35, {"gradient boosting": 0.8, "logistic regression": 0.7}),
}


def loan_predictions(n: int = 3000, seed: int = 18) -> pd.DataFrame:
    """``n`` applications scored by each model: columns id, model, label, score, group."""
    rng = np.random.default_rng(seed)
    names = list(REGIONS)
    group = rng.choice(names, n, p=[REGIONS[g][0] for g in names])
    rate = np.array([REGIONS[g][1] for g in group])
    label = rng.random(n) < rate
    frames = []
    for model in REGIONS["north"][2]:
        sep = np.array([REGIONS[g][2][model] for g in group])
        latent = rng.normal(size=n) + sep * label - 1.5
        frames.append(pd.DataFrame({
            "id": np.arange(n), "model": model, "label": label.astype(int),
            "score": np.round(1 / (1 + np.exp(-latent)), 4), "group": group}))
    return pd.concat(frames, ignore_index=True)


def loan_predictions_wide(n: int = 3000, seed: int = 18) -> pd.DataFrame:
    """:func:`loan_predictions` with more columns to slice by: ``product`` (card 50 %,
    personal 35 %, auto 15 %), ``applicant`` ("new"/"returning", 30/70 %), the boolean
    ``online`` and the numeric ``income`` (thousands; a column of numbers, refused as a slice
    without binning). The group column is named ``region``, so no group is chosen by name.
    Same applications for both models (drawn from their ``id``)."""
    frame = loan_predictions(n, seed).rename(columns={"group": "region"})
    rng = np.random.default_rng(seed + 1)
    product = rng.choice(["card", "personal", "auto"], n, p=[0.5, 0.35, 0.15])
    applicant = rng.choice(["new", "returning"], n, p=[0.3, 0.7])
    online = rng.random(n) < 0.6
    income = np.round(rng.lognormal(3.6, 0.4, n), 1)
    ids = frame["id"].to_numpy()
    return frame.assign(product=product[ids], applicant=applicant[ids], online=online[ids],
                        income=income[ids])


def many_groups(n: int = 10**6, n_groups: int = 20, *, models: int = 1, seed: int = 18,
                decimals: int | None = 6) -> pd.DataFrame:
    """``n`` cases in ``n_groups`` groups (``g01``, ``g02``, ...) scored by ``models`` models
    (``model 1``, ...): columns id, model, label, score, group.

    Group ``k`` (1-based) holds a share proportional to ``1 / k``; its default rate and
    each model's separation are drawn uniformly from [0.05, 0.40] and [0.6, 2.0]. Scores
    are rounded to ``decimals`` (None: not rounded, all distinct).
    """
    rng = np.random.default_rng(seed)
    names = [f"g{k:02d}" for k in range(1, n_groups + 1)]
    share = 1.0 / np.arange(1, n_groups + 1)
    code = rng.choice(n_groups, n, p=share / share.sum())
    label = rng.random(n) < rng.uniform(0.05, 0.40, n_groups)[code]
    group = np.asarray(names, dtype=object)[code]
    frames = []
    for m in range(1, models + 1):
        sep = rng.uniform(0.6, 2.0, n_groups)[code]
        score = 1 / (1 + np.exp(-(rng.normal(size=n) + sep * label - 1.5)))
        frames.append(pd.DataFrame({
            "id": np.arange(n), "model": f"model {m}", "label": label.astype(int),
            "score": score if decimals is None else np.round(score, decimals),
            "group": group}))
    return pd.concat(frames, ignore_index=True)


if __name__ == "__main__":
    loan_predictions().to_csv(sys.argv[1] if len(sys.argv) > 1 else sys.stdout, index=False)
