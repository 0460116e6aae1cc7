"""The sum of the products of two vectors, in numpy's own loop rather than BLAS threads.

``np.dot`` of two float vectors calls BLAS (``ddot``), which OpenBLAS splits across threads
beyond a few thousand values. On a server whose cores are busy with other requests (two
cores, several workers, each with threads) those threads wait for one another: one dot of
65,536 values took 20 ms instead of 0.03 ms on the loaded development machine, and the first
views of 10^7 rows make hundreds of them (each fold's AUC, average precision and influence
sums). ``np.einsum`` sums the same products in one thread.
"""

from __future__ import annotations

import numpy as np

__all__ = ["dot"]


def dot(a: np.ndarray, b: np.ndarray) -> float:
    """``sum(a * b)`` of two one-dimensional arrays of one length, as a float."""
    return float(np.einsum("i,i->", a, b))
