"""ROC vertices from one ``np.sort`` of integer keys that carry each row's label.

The fast exact path of :func:`roc_dash.core.curves.roc_curve` for unweighted rows. Fawcett
(2004), section 4, Algorithm 2: sort the scores once, then emit one vertex per distinct score.

The key of a row is ``2 * rank + label``, where ``rank`` orders the scores exactly and
highest first (every bit of the score is kept; ``-0.0`` and ``+0.0`` share one rank). The
keys are below ``0x7FF0_0000_0000_0000``, so read as float64 they are finite non-negative
numbers ordered as the integers are: numpy sorts them with the same vectorised quicksort as
the scores themselves (``np.sort`` of float64), ascending, that is, scores descending. After
the sort ``key >> 1`` tells the runs of equal scores apart and gives each score back bit for
bit, and ``key & 1`` is the label.

Each pass over the rows works on blocks of ``_BLOCK`` rows, so that the several numpy
operations of a step stay in the processor's cache instead of each reading and writing
arrays of the full length.
"""

from __future__ import annotations

import numpy as np

__all__ = ["KeyedRows", "sorted_keys", "vertices_of_keys"]

_U64 = np.uint64
_ONE = np.uint64(1)
_SIGN = 1 << 63
_WRAP = 1 << 64
#: Keys stay below the smallest float64 pattern that is not a finite number (``+inf``).
_KEY_END = 0x7FF0_0000_0000_0000
#: Largest ``span`` with every key ``2 * rank + 1`` (``rank <= 2 * span``) below ``_KEY_END``.
_SPAN_MAX = (_KEY_END - 2) // 4
_BLOCK = 1 << 15


class KeyedRows:
    """Sorted keys, and what it takes to read the scores back from their ranks.

    A score whose IEEE pattern without the sign bit is ``m`` has rank ``span - (m - low)``
    if positive, ``span + (m - low)`` if negative and ``span`` if zero: ``low`` is 0 unless
    the magnitudes span more than ``_SPAN_MAX``, and then every non-zero one is above it.
    """

    __slots__ = ("keys", "low", "span")

    def __init__(self, keys: np.ndarray, low: int, span: int):
        self.keys, self.low, self.span = keys, low, span

    def scores(self, ranks: np.ndarray, out: np.ndarray) -> None:
        """Write into ``out`` (a uint64 view of float64) the scores of the ascending
        ``ranks`` (descending scores): positives, zeros and negatives each in one step."""
        span, low = self.span, self.low
        positives = int(np.searchsorted(ranks, _U64(span), side="left"))
        non_negatives = int(np.searchsorted(ranks, _U64(span), side="right"))
        np.subtract(_U64(span + low), ranks[:positives], out=out[:positives])
        out[positives:non_negatives] = 0
        np.add(ranks[non_negatives:], _U64((_SIGN - span + low) % _WRAP),
               out=out[non_negatives:])


#: The bits of the largest finite float64: every finite magnitude is at most this.
_FINITE_MAX = 0x7FEF_FFFF_FFFF_FFFF


def magnitude_bits(x: float) -> int:
    """The IEEE pattern of ``|x|`` (at most that of the largest finite float64)."""
    return min(int(np.float64(abs(x)).view(_U64)), _FINITE_MAX)


def sorted_keys(y: np.ndarray, s: np.ndarray, top: int | None = None) -> KeyedRows | None:
    """The rows' keys, sorted; None when a score is not finite, when a magnitude's pattern
    exceeds ``top`` (default: the largest of ``s``), or when the magnitudes range too widely
    for a key (non-zero ones both below about ``2**-500`` times the largest and above it):
    the caller then checks and sorts another way.

    ``s`` float64, ``y`` bool, both one-dimensional of one length.
    """
    n = s.size
    if top is None:
        top = magnitude_bits(max(-float(s.min()), float(s.max()), 0.0))
    low = max(0, top - _SPAN_MAX)
    span = top - low
    bits, sbits, label = s.view(_U64), s.view(np.int64), y.view(np.uint8)
    keys = np.empty(n, dtype=_U64)
    sign = np.empty(min(n, _BLOCK), dtype=np.int64)
    usign = sign.view(_U64)
    flip = _U64((4 * low + 1) % _WRAP)  # all arithmetic below is modulo 2**64
    base = _U64((2 * span + 2 * low) % _WRAP)
    floor = _U64(2 * low)
    for a in range(0, n, _BLOCK):
        b = min(a + _BLOCK, n)
        k, sg = keys[a:b], usign[:b - a]
        np.left_shift(bits[a:b], _ONE, out=k)  # 2m: the sign bit drops out
        if int(k.max()) > 2 * top:  # beyond the assumed range, or not finite
            return None
        if low:
            smallest = int(k.min())
            if smallest == 0:  # zeros: lift them to 2 low, where no other score is
                np.subtract(k, _ONE, out=sg)
                smallest = int(sg.min()) + 1
                np.maximum(k, floor, out=k)
            if smallest <= 2 * low:
                return None
        np.right_shift(sbits[a:b], 63, out=sign[:b - a])  # all ones if negative, else 0
        np.bitwise_xor(k, sg, out=k)  # positives 2m, negatives -2m - 1
        np.bitwise_and(sg, flip, out=sg)
        np.add(k, sg, out=k)
        np.subtract(base, k, out=k)  # 2 rank
        np.bitwise_or(k, label[a:b], out=k)
    keys.view(np.float64).sort()
    return KeyedRows(keys, low, span)


def vertices_of_keys(keyed: KeyedRows, n_pos: int, *, few: bool = False,
                     counts: bool = False):
    """``(thresholds, tpr, fpr)`` of the ROC vertices from the origin (threshold ``+inf``),
    one per distinct score descending; with ``counts``, ``(thresholds, tp, fp)`` as int64
    counts instead of rates. ``n_pos`` of the rows are positive; unless ``counts``, at least
    one of each class. ``few``: few distinct scores (runs of equal keys are counted instead
    of the rows)."""
    if not few:
        return _vertices_of_rows(keyed, n_pos, counts)
    thresholds, tp, fp = _vertices_of_runs(keyed)
    if counts:
        return thresholds, tp, fp
    return thresholds, np.divide(tp, n_pos), np.divide(fp, keyed.keys.size - n_pos)


def _vertices_of_runs(keyed: KeyedRows):
    """:func:`vertices_of_keys` counting runs of equal keys (score and label)."""
    keys = keyed.keys
    n = keys.size
    change = np.empty(n, dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=change[:-1])
    change[-1] = True
    last = np.flatnonzero(change)  # the last row of each run of equal keys
    del change
    key = keys[last]
    length = np.diff(last, prepend=-1)
    positive = (key & _ONE).astype(bool)
    rank = key >> _ONE
    final = np.empty(rank.size, dtype=bool)  # the last run of each score
    np.not_equal(rank[1:], rank[:-1], out=final[:-1])
    final[-1] = True
    tp = np.zeros(int(np.count_nonzero(final)) + 1, dtype=np.int64)
    fp = np.zeros_like(tp)
    tp[1:] = np.cumsum(np.where(positive, length, 0))[final]
    fp[1:] = np.cumsum(np.where(positive, 0, length))[final]
    thresholds = np.empty(tp.size)
    thresholds[0] = np.inf
    keyed.scores(rank[final], thresholds[1:].view(_U64))
    return thresholds, tp, fp


def _vertices_of_rows(keyed: KeyedRows, n_pos: int, counts: bool):
    """:func:`vertices_of_keys` for many distinct scores, block by block: the class counts
    of every row, kept at the last row of each score.

    The thresholds are written over the keys (vertex ``v`` at position ``v``, never beyond
    the row being read but the first of the next block, which is read beforehand): no
    array of the rows' size besides the two of rates."""
    keys = keyed.keys
    n = keys.size
    keys.resize(n + 1, refcheck=False)  # the thresholds' place: +inf, then one per score
    thresholds = keys.view(np.float64)
    dtype = np.int64 if counts else np.float64
    tp, fp = np.empty(n + 1, dtype=dtype), np.empty(n + 1, dtype=dtype)
    tp[0] = fp[0] = 0
    m = min(n, _BLOCK)
    rank, label = np.empty(m, dtype=_U64), np.empty(m, dtype=_U64)
    ends = np.empty(m, dtype=bool)
    pos, neg = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
    seen = np.arange(1, m + 1, dtype=np.int64)  # rows up to each row of the block
    above = 0  # positives before the block
    v = 1  # next vertex
    first = keys[0]  # the first key of the block (its place may hold a threshold by now)
    n_neg = n - n_pos
    for a in range(0, n, _BLOCK):
        b = min(a + _BLOCK, n)
        c = b - a
        r, e, p, q = rank[:c], ends[:c], pos[:c], neg[:c]
        np.right_shift(keys[a:b], _ONE, out=r)
        np.bitwise_and(keys[a:b], _ONE, out=label[:c])
        r[0], label[0] = first >> _ONE, first & _ONE
        np.not_equal(r[:-1], r[1:], out=e[:-1])
        first = keys[b]
        e[-1] = b == n or (first >> _ONE) != r[-1]
        np.cumsum(label[:c].view(np.int64), out=p)
        p += above
        above = int(p[-1])
        np.subtract(seen[:c], p, out=q)
        seen += c
        k = int(np.count_nonzero(e))
        if k < c:  # ties: a vertex at the last row of each score
            at = np.flatnonzero(e)
            r, p, q = r[at], p[at], q[at]
        if counts:
            tp[v:v + k], fp[v:v + k] = p, q
        else:
            np.divide(p, n_pos, out=tp[v:v + k])
            np.divide(q, n_neg, out=fp[v:v + k])
        keyed.scores(r, keys[v:v + k])
        v += k
    thresholds[0] = np.inf
    keyed.keys = None  # they are the thresholds now
    if v < n + 1:  # shrink in place, without a copy
        for array in (keys, tp, fp):
            array.resize(v, refcheck=False)
        thresholds = keys.view(np.float64)
    return thresholds, tp, fp
