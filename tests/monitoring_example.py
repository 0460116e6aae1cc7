"""Predictions before and after deployment, with a known prior and known shifts.

Binormal scores through a logistic link (probabilities, rounded to 4 decimals): negatives
``N(shift, 1)``, positives ``N(separation, 1)`` on the latent scale. A prior shift changes
only the share of positives; ``shift`` moves the negatives (a change a prior shift cannot
explain).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def sample(n: int, prior: float, *, seed: int, separation: float = 1.5,
           shift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """``(labels, scores)`` of ``n`` cases with share ``prior`` of positives."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prior
    latent = np.where(y, rng.normal(separation, 1.0, n), rng.normal(shift, 1.0, n))
    return y, np.round(1.0 / (1.0 + np.exp(-latent)), 4)


def frame(n: int, prior: float, *, seed: int, model: str = "rf", labels: bool = True,
          **kw) -> pd.DataFrame:
    """A table of predictions (``label`` 0/1 unless ``labels`` is False, ``score``,
    ``model``)."""
    y, s = sample(n, prior, seed=seed, **kw)
    out = pd.DataFrame({"label": y.astype(int), "score": s, "model": model})
    return out if labels else out.drop(columns="label")


def put_file(store, folder, name: str, table: pd.DataFrame) -> str:
    """The id of ``table`` written as the file ``folder / name`` and put in the dataset
    ``store`` as the page loads an upload (slice columns kept)."""
    from roc_dash.io import ReadOptions, load_predictions

    path = folder / name
    table.to_csv(path, index=False)
    result = load_predictions([(name, path.read_bytes())],
                              options=ReadOptions(keep_slice_columns=True))
    return store.put(result.table, files=[name], notes=result.notes, kind=result.kind).id
