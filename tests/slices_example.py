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
far from its own optimum. Run ``python -m tests.slices_example out.csv`` to write a file.
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


if __name__ == "__main__":
    loan_predictions().to_csv(sys.argv[1] if len(sys.argv) > 1 else sys.stdout, index=False)
