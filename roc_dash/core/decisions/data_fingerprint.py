"""A fingerprint of one model's predictions: which data a decision was taken on.

:func:`data_fingerprint` hashes the weighted distribution of (score, label) pairs with
sha256, the only thing the ROC curve, its hull, the optimum and the counts at a threshold
depend on (Fawcett 2004, section 4, Algorithm 2 reads nothing else),
so it identifies the data of a decision record (:mod:`roc_dash.decision`) independently of
the file format and the row order.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 4; Algorithm 2.
"""

from __future__ import annotations

import math
import struct
from hashlib import sha256

import numpy as np

from .._validation import check_binary_inputs

__all__ = ["data_fingerprint", "FINGERPRINT_METHOD"]

#: Names the serialization of :func:`data_fingerprint`.
FINGERPRINT_METHOD = "roc-dash-data-v1"


def data_fingerprint(labels, scores, weights=None) -> str:
    """A sha256 fingerprint of one model's predictions, independent of row order and format.

    Everything a decision record says about its data (curve, optimum, counts) depends only
    on the weighted distribution of (score, label) pairs, so that is what is hashed; CSV,
    Parquet, any row order and any split into files give the same fingerprint, and any
    changed score, label or weight changes it. The serialization, version
    ``roc-dash-data-v1``:

    1. labels as booleans (True = positive), scores as float64 (``-0.0`` as ``+0.0``),
       weights as float64 (1 for every row without weights); rows of weight 0 are left out;
    2. one entry per distinct (score, label) pair, holding the sum of its rows' weights,
       correctly rounded (:func:`math.fsum`, so independent of the order; without weights
       the row count);
    3. entries sorted by score ascending, the negative entry before the positive one at an
       equal score;
    4. the bytes: the ASCII text ``roc-dash-data-v1`` and a newline (``0x0A``); the number
       of entries ``K`` as an 8-byte little-endian unsigned integer; the ``K`` scores as
       IEEE-754 float64 little-endian; the ``K`` labels as one byte each (``0x01`` positive,
       ``0x00`` negative); the ``K`` weight sums as float64 little-endian.

    Parameters
    ----------
    labels, scores, weights
        As for :func:`~roc_dash.core.roc.curves.roc_curve`.

    Returns
    -------
    str
        ``"sha256:"`` and 64 lowercase hexadecimal digits of the bytes above.

    Notes
    -----
    An aggregating engine (``--engine duckdb``) sums each (model, fold, score, label) group's
    fractional weights in floating point before they get here, so with fractional weights
    its fingerprint may differ from the in-memory one; whole weights agree exactly.
    """
    y, s, w = check_binary_inputs(labels, scores, weights)
    w = np.ones(s.size) if w is None else w
    keep = w > 0
    y, s, w = y[keep], s[keep] + 0.0, w[keep]  # + 0.0 turns -0.0 into +0.0
    order = np.lexsort((w, y, s))
    s, y, w = s[order], y[order], w[order]
    start = np.ones(s.size, dtype=bool)
    start[1:] = (s[1:] != s[:-1]) | (y[1:] != y[:-1])
    first = np.flatnonzero(start)
    total = np.add.reduceat(w, first) if first.size else np.empty(0)
    size = np.diff(np.append(first, s.size))
    if (w != np.floor(w)).any():  # fractional weights: the correctly rounded sums (one or
        for k in np.flatnonzero(size > 2):  # two terms are rounded once already)
            total[k] = math.fsum(w[first[k]:first[k] + size[k]])
    payload = b"".join([
        FINGERPRINT_METHOD.encode("ascii") + b"\n",
        struct.pack("<Q", first.size),
        s[first].astype("<f8").tobytes(),
        y[first].astype(np.uint8).tobytes(),
        np.asarray(total, dtype="<f8").tobytes(),
    ])
    return "sha256:" + sha256(payload).hexdigest()
