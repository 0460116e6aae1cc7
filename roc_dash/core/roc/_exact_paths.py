"""Exact fast paths from rows to ROC vertices, the area under them and their hull.

Fawcett (2004), section 4, Algorithm 2: sort the scores once, then emit one vertex per
distinct score (ties make one diagonal segment). :mod:`.curves` picks the path; each gives the
same floats as a plain sort would, bit for bit.

* **Unweighted scores** (:func:`sorted_keys`, :func:`vertices_of_keys`): the key of a row is
  ``2 * rank + label``, where ``rank`` orders the scores exactly and highest first (every
  bit of the score is kept; ``-0.0`` and ``+0.0`` share one rank). numpy sorts them as
  unsigned integers, ascending, that is, scores descending (its vectorised quicksort of
  uint64 took 0.86-0.92x the time of the same keys read as float64, which the keys, below
  ``0x7FF0_0000_0000_0000``, also are: finite non-negative numbers ordered as the integers
  are, the order before). After the sort ``key >> 1`` tells the
  runs of equal scores apart and gives each score back bit for bit, and ``key & 1`` is the
  label; the area is counted from the pairs on the way (:func:`area_of_pairs`).
* **Weighted scores** (:func:`weighted_order`, :func:`runs_of_order`): the same keys with
  each row's index in their lowest bits give the rows' order; the rows follow in one gather,
  and the runs are written over the arrays the gather leaves (not fresh pages).
* **Scores on a decimal grid** (:func:`grid_digits`, :func:`runs_on_grid`): integers or
  rounded scores, counted per step of the grid instead of sorted.
* **The hull of a long curve** (:func:`above_sample_hull`): the points not certainly below
  the chords of a sampled hull (whole boxes of them at once), for the exact pass of
  :mod:`.hull`.

Each pass over the rows works on blocks of ``_BLOCK`` rows, so that the several numpy
operations of a step stay in the processor's cache instead of each reading and writing
arrays of the full length.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, 2004, sections 4 (Algorithm 2), 5 (Algorithm 3) and 7.1.
"""

from __future__ import annotations

import numpy as np

from .._sums import dot

__all__ = [
    "AREA_BLOCK", "KeyedRows", "above_sample_hull", "area_of_pairs", "grid_cells",
    "grid_digits", "magnitude_bits", "runs_of_order", "runs_on_grid", "signed_rows",
    "sorted_keys", "trapezoids", "twice_pairs_of_counts", "vertices_of_keys", "weighted_order",
]

_U64 = np.uint64
_ONE = np.uint64(1)
_SIGN = 1 << 63
_WRAP = 1 << 64
#: Keys stay below the smallest float64 pattern that is not a finite number (``+inf``).
_KEY_END = 0x7FF0_0000_0000_0000
#: Largest ``span`` with every key ``2 * rank + 1`` (``rank <= 2 * span``) below ``_KEY_END``.
_SPAN_MAX = (_KEY_END - 2) // 4
_BLOCK = 1 << 15
#: Vertices per block of the area's sum (:func:`trapezoids`): the blocks fix the order of
#: the additions, hence the area to the last bit, wherever it is summed.
AREA_BLOCK = 1 << 16


def trapezoids(f: np.ndarray, t: np.ndarray, a: int, b: int) -> float:
    """Twice the area under the vertices ``a`` to ``b`` of a curve by trapezoids (Fawcett
    2004, section 5, Algorithm 3): one block of :func:`roc_dash.core.roc.curves.auc`'s sum."""
    return dot(f[a + 1:b + 1] - f[a:b], t[a + 1:b + 1] + t[a:b])


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
        if not ranks.size:  # a block inside a run of equal scores
            return
        if ranks[-1] < span:  # all positive (most blocks are of one sign)
            np.subtract(_U64(span + low), ranks, out=out)
            return
        if ranks[0] > span:  # all negative
            np.add(ranks, _U64((_SIGN - span + low) % _WRAP), out=out)
            return
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


def sorted_keys(y: np.ndarray, s: np.ndarray, top: int | None = None, *,
                index_bits: int = 0, room: bool = False) -> KeyedRows | None:
    """The rows' keys, sorted; None when a score is not finite, when a magnitude's pattern
    exceeds ``top`` (default: the largest of ``s``), or when the magnitudes range too widely
    for a key (non-zero ones both below about ``2**-500`` times the largest and above it):
    the caller then checks and sorts another way.

    With ``index_bits``, the keys are of the rank lowest score first, with the row's index
    in place of their lowest ``index_bits`` bits (no label): sorted, they give the rows'
    order, exact but among rows whose keys differ only there (see :func:`weighted_order`).

    With ``room``, the keys are the first third of one block of ``3 (n + 1)`` words, the
    rest of which :func:`vertices_of_keys` writes the two rates into (see there).

    ``s`` float64, ``y`` bool, both one-dimensional of one length.
    """
    n = s.size
    if top is None:
        top = magnitude_bits(max(-float(s.min()), float(s.max()), 0.0))
    low = max(0, top - _SPAN_MAX)
    span = top - low
    bits, sbits, label = s.view(_U64), s.view(np.int64), y.view(np.uint8)
    # one more: room for +inf (thresholds); with `room`, for the two rates too
    keys = np.empty((3 if room else 1) * (n + 1), dtype=_U64)[:n]
    m = min(n, _BLOCK)
    sign = np.empty(m, dtype=np.int64)
    usign = sign.view(_U64)
    flip = _U64((4 * low + 1) % _WRAP)  # all arithmetic below is modulo 2**64
    base = _U64((2 * span + 2 * low) % _WRAP)  # highest score first: base - t
    rising = _U64((2 * span - 2 * low) % _WRAP)  # lowest first: t + rising
    floor = _U64(2 * low)
    high = _U64((_WRAP - 1) ^ ((1 << index_bits) - 1))
    rows = np.arange(m, dtype=_U64)
    # both signs (after a block with a negative score): fewer passes, see _BothSigns
    both = _BothSigns(span, low) if not index_bits else None
    for a in range(0, n, _BLOCK):
        b = min(a + _BLOCK, n)
        k, sg = keys[a:b], usign[:b - a]
        if both is not None and both.seen and both.keys(bits[a:b], sbits[a:b], label[a:b],
                                                          k, sign[:b - a]):
            continue
        largest = int(bits[a:b].max())  # below 2**63: no negative score in the block
        if both is not None and largest >= _SIGN:
            both.seen = True
            if both.keys(bits[a:b], sbits[a:b], label[a:b], k, sign[:b - a]):
                continue
        np.left_shift(bits[a:b], _ONE, out=k)  # 2m: the sign bit drops out
        if (largest if largest < _SIGN else int(k.max()) >> 1) > top:
            return None  # beyond the assumed range, or not finite
        if low:
            smallest = int(k.min())
            if smallest == 0:  # zeros: lift them to 2 low, where no other score is
                np.subtract(k, _ONE, out=sg)
                smallest = int(sg.min()) + 1
                np.maximum(k, floor, out=k)
            if smallest <= 2 * low:
                return None
        if largest >= _SIGN:  # negatives: t = -2m - 1 + 4 low + 1 for them, 2m for others
            np.right_shift(sbits[a:b], 63, out=sign[:b - a])  # all ones if negative
            np.bitwise_xor(k, sg, out=k)
            np.bitwise_and(sg, flip, out=sg)
            np.add(k, sg, out=k)
        if index_bits:
            np.add(k, rising, out=k)  # 2 rank, lowest score first
            np.bitwise_and(k, high, out=k)
            np.add(rows[:b - a], _U64(a), out=sg)
            np.bitwise_or(k, sg, out=k)
        else:
            np.subtract(base, k, out=k)  # 2 rank, highest score first
            np.bitwise_or(k, label[a:b], out=k)
    keys.sort()  # as uint64: faster than as float64 (the same order, see the module)
    return KeyedRows(keys, low, span)


class _BothSigns:
    """:func:`sorted_keys`'s keys of a block of scores of both signs (without index bits),
    in eight passes instead of ten: with ``u = 2 m - (2 low + 1)`` (``m`` the magnitude's
    pattern) and ``t`` all ones for a negative score and 0 otherwise, the key
    ``2 rank + label`` is ``(2 span - 1) - (u ^ t) + (label - t)`` modulo ``2**64``:
    ``2 (span - (m - low)) + label`` if positive, ``2 (span + (m - low)) + label`` if
    negative. Every magnitude is in range (``low < m <= top``) exactly when the largest
    ``u`` is below ``2 span``: a zero, a magnitude at or below ``low`` and one beyond
    ``top`` (or not finite) all give a larger one, and the block is then made the general
    way (:meth:`keys` returns False)."""

    __slots__ = ("seen", "_below", "_last", "_limit")

    def __init__(self, span: int, low: int):
        self.seen = False  # a block with a negative score has been seen
        self._below = _U64((2 * low + 1) % _WRAP)
        self._last = _U64((2 * span - 1) % _WRAP)
        self._limit = 2 * span - 1

    def keys(self, bits, sbits, label, k, sign) -> bool:
        """Write the block's keys into ``k`` (``sign``: int64 room of the block's size);
        False (``k`` written over) when a magnitude is out of range."""
        np.left_shift(bits, _ONE, out=k)  # 2m: the sign bit drops out
        np.subtract(k, self._below, out=k)  # u
        if int(k.max()) > self._limit:
            return False
        t = sign.view(_U64)
        np.right_shift(sbits, 63, out=sign)  # all ones if negative
        np.bitwise_xor(k, t, out=k)
        np.subtract(self._last, k, out=k)
        np.subtract(label, t, out=t)  # label + 1 if negative
        np.add(k, t, out=k)
        return True


def vertices_of_keys(keyed: KeyedRows, n_pos: int, *, few: bool = False,
                     counts: bool = False):
    """``(thresholds, tpr, fpr, area)`` of the ROC vertices from the origin (threshold
    ``+inf``), one per distinct score descending, and the area under them, correctly
    rounded (:func:`area_of_pairs`); with
    ``counts``, ``(thresholds, tp, fp)`` as int64 counts instead of rates. ``n_pos`` of the
    rows are positive; unless ``counts``, at least one of each class. ``few``: few distinct
    scores (runs of equal keys are counted instead of the rows). The keys are used up (the
    thresholds are written over them)."""
    if not few:
        return _vertices_of_rows(keyed, n_pos, counts)
    thresholds, tp, fp = _vertices_of_runs(keyed)
    if counts:
        return thresholds, tp, fp
    n_neg = keyed.keys.size - n_pos
    return (thresholds, np.divide(tp, n_pos), np.divide(fp, n_neg),
            area_of_pairs(twice_pairs_of_counts(tp, fp), n_pos, n_neg))


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
    array of the rows' size besides the two of rates.

    The area is counted, not summed (:func:`area_of_pairs`): the rows are in key order, so
    within a run of equal scores the negatives come first, and each negative row's count of
    positives up to it is the number of positives scored above it. Over all rows those
    counts sum to ``S``; the positive rows' own counts are ``1 .. P``; so the pairs ranked
    right number ``S - P (P + 1) / 2``, to which the pairs of a run of equal scores (its
    positives times its negatives) add one half each."""
    n = keyed.keys.size
    whole = keyed.keys.base  # n + 1 keys (+inf, then one threshold per score), maybe rates
    keyed.keys = None  # they become the thresholds
    keys = whole[:n + 1]
    dtype = np.int64 if counts else np.float64
    if whole.size == 3 * (n + 1):  # the rates' room, after the keys (sorted_keys's `room`)
        tp, fp = whole[n + 1:2 * n + 2].view(dtype), whole[2 * n + 2:].view(dtype)
    else:
        tp, fp = np.empty(n + 1, dtype=dtype), np.empty(n + 1, dtype=dtype)
    tp[0] = fp[0] = 0
    m = min(n, _BLOCK)
    small = np.int32 if n < 2**31 else np.int64  # counts in 32 bits convert faster
    rank, label = np.empty(m, dtype=_U64), np.empty(m, dtype=small)
    ends = np.empty(m, dtype=bool)
    pos, neg = np.empty(m, dtype=small), np.empty(m, dtype=small)
    seen = np.arange(1, m + 1, dtype=small)  # rows up to each row of the block
    above = 0  # positives before the block
    v = 1  # next vertex
    first = keys[0]  # the first key of the block (its place may hold a threshold by now)
    n_neg = n - n_pos
    counted = 0  # S: the rows' counts of positives up to them, summed
    tied = 0  # pairs of a positive and a negative of equal score
    last = (0, 0)  # the counts at the last vertex so far
    closed = True  # the block before ended at a vertex (no run goes on into this one)
    for a in range(0, n, _BLOCK):
        b = min(a + _BLOCK, n)
        c = b - a
        r, e, p, q, lab = rank[:c], ends[:c], pos[:c], neg[:c], label[:c]
        block = keys[a:b]
        np.right_shift(block, _ONE, out=r)
        np.bitwise_and(block, _ONE, out=lab, casting="unsafe")
        r[0] = first >> _ONE
        lab[0] = int(first & _ONE) + above  # the positives above ride in the first row
        np.not_equal(r[:-1], r[1:], out=e[:-1])
        first = keys[b]
        e[-1] = b == n or (first >> _ONE) != r[-1]
        np.cumsum(lab, out=p)
        above = int(p[-1])
        np.subtract(seen[:c], p, out=q)
        seen += c
        if not counts:
            counted += int(p.sum(dtype=np.int64))
        k = int(np.count_nonzero(e))
        if k < c:  # ties: a vertex at the last row of each score
            at = np.flatnonzero(e)
            r, p, q = r[at], p[at], q[at]
        if k and not counts and (k < c or not closed):  # runs of more than one row
            tied += _tied_pairs(p, q, last)
        if k:
            last = (int(p[-1]), int(q[-1]))
        closed = bool(e[-1])  # a block with no vertex leaves its run open
        if counts:
            tp[v:v + k], fp[v:v + k] = p, q
        else:
            np.divide(p, n_pos, out=tp[v:v + k])
            np.divide(q, n_neg, out=fp[v:v + k])
        keyed.scores(r, keys[v:v + k])
        v += k
    keys[0] = _U64(_KEY_END)  # +inf
    thresholds, tp, fp = _shrunk(whole, tp, fp, v, dtype)
    if counts:
        return thresholds, tp, fp
    return thresholds, tp, fp, area_of_pairs(2 * counted - n_pos * (n_pos + 1) + tied,
                                             n_pos, n_neg)


def _tied_pairs(p: np.ndarray, q: np.ndarray, last: tuple[int, int]) -> int:
    """Pairs of a positive and a negative of equal score among the runs ending at the
    vertices whose counts are ``p`` and ``q`` (the counts at the vertex before: ``last``)."""
    dp = np.diff(p, prepend=last[0]).astype(np.int64)
    dq = np.diff(q, prepend=last[1]).astype(np.int64)
    return int(np.dot(dp, dq))


def area_of_pairs(twice_pairs: int, n_pos: int, n_neg: int) -> float:
    """The area under an unweighted ROC curve from its pairs, correctly rounded:
    ``twice_pairs`` is twice the (positive, negative) pairs scored the right way round
    plus the pairs of equal score, so the area is ``twice_pairs / (2 P N)``, the
    Mann-Whitney statistic (Fawcett 2004, section 5: the area equals the probability that
    a random positive is ranked above a random negative, ties counted one half). Divided as
    Python integers, the quotient is the float nearest the exact value."""
    return int(twice_pairs) / (2 * int(n_pos) * int(n_neg))


def twice_pairs_of_counts(tp: np.ndarray, fp: np.ndarray, *, origin: bool = True) -> int:
    """:func:`area_of_pairs`'s ``twice_pairs`` from the whole counts of a curve's points
    in order (``origin``: the first point is (0, 0); else the curve starts at (0, 0) before
    them): the trapezoids' sum ``sum (fp[v] - fp[v-1]) (tp[v] + tp[v-1])``, exact. Every
    term and partial sum is a whole number at most twice the last point's product: int64
    for integer counts; whole float sums (frequency weights) stay floats below ``2**53``,
    where their sums are exact in any order. Summed in blocks of ``AREA_BLOCK`` points into
    two small arrays (fresh arrays of a million points cost more in new pages than the
    arithmetic)."""
    kind = np.int64 if tp.dtype.kind in "iu" and fp.dtype.kind in "iu" else np.float64
    if kind is np.float64 and not 2.0 * float(tp[-1]) * float(fp[-1]) < 2.0 ** 53:
        kind = np.int64
    tp, fp = tp.astype(kind, copy=False), fp.astype(kind, copy=False)
    n = tp.size - 1
    m = max(0, min(AREA_BLOCK, n))
    steps, heights = np.empty(m, dtype=kind), np.empty(m, dtype=kind)
    total = 0 if origin else int(fp[0]) * int(tp[0])
    for a in range(0, n, AREA_BLOCK):
        b = min(a + AREA_BLOCK, n)
        st, he = steps[:b - a], heights[:b - a]
        np.subtract(fp[a + 1:b + 1], fp[a:b], out=st)
        np.add(tp[a + 1:b + 1], tp[a:b], out=he)
        np.multiply(st, he, out=st)
        total += int(st.sum())
    return total


def _shrunk(block: np.ndarray, tp: np.ndarray, fp: np.ndarray, v: int, dtype):
    """``(thresholds, tp, fp)``: the first ``v`` entries of :func:`_vertices_of_rows`'s
    arrays (the thresholds at the start of ``block``), shrunk in place without a copy when
    fewer than the rows. When the rates are in ``block`` too, the three are its thirds (the
    rates moved down to follow the thresholds first), each a view of it."""
    n1 = tp.size
    if tp.base is not block:
        if v < n1:
            for array in (block, tp, fp):
                array.resize(v, refcheck=False)
        return block.view(np.float64), tp, fp
    if v < n1:
        block[v:2 * v] = block[n1:n1 + v]  # numpy copies overlapping parts safely
        block[2 * v:3 * v] = block[2 * n1:2 * n1 + v]
        del tp, fp
        block.resize(3 * v, refcheck=False)
    return block[:v].view(np.float64), block[v:2 * v].view(dtype), block[2 * v:].view(dtype)


def weighted_order(y: np.ndarray, s: np.ndarray, w: np.ndarray,
                   top: int | None = None, *, spare: list | None = None,
                   distinct: list | None = None) -> np.ndarray | None:
    """The rows as complex numbers ``score + i * (w if positive else -w)`` in ascending
    order of score, then of the imaginary part; None when the keys do not take the scores
    (see :func:`sorted_keys`).

    The order numpy's sort of those complex numbers gives (as the weighted runs had it:
    their sums in this order, bit for bit), from one sort of uint64 keys holding each
    row's index in their lowest bits and one gather of the rows; the few rows whose keys
    differ only in those bits (equal scores, or scores apart by less than the index's
    share of a key) are put in order among themselves afterwards.

    ``spare``: a list to which the arrays no longer used are appended (the keys, ``n + 1``
    of 8 bytes, and the rows before the gather, ``n`` of 16 bytes), for
    :func:`runs_of_order` to write into memory already touched rather than fresh pages.
    ``distinct``: a list to which is appended whether every score is distinct (equal
    scores share their keys' high bits, so only the rows put in order afterwards are
    compared), for :func:`runs_of_order`.
    """
    n = s.size
    index_bits = max(1, (n - 1).bit_length())
    sorted_rows = sorted_keys(y, s, top, index_bits=index_bits)
    if sorted_rows is None:
        return None
    keys = sorted_rows.keys
    z = signed_rows(y, s, w)  # the rows, then (gathered) in the keys' order
    # rows sharing a key's high bits with a neighbour: put in order among themselves
    shared = np.empty(n + 1, dtype=bool)
    shared[0] = shared[-1] = False
    high = np.empty(min(n, _BLOCK) + 1, dtype=_U64)
    for a in range(0, n - 1, _BLOCK):
        b = min(a + _BLOCK, n - 1)
        h = high[:b - a + 1]
        np.right_shift(keys[a:b + 1], _U64(index_bits), out=h)
        np.equal(h[1:], h[:-1], out=shared[a + 1:b + 1])
        np.bitwise_and(keys[a:b], _U64((1 << index_bits) - 1), out=keys[a:b])
    keys[-1] &= _U64((1 << index_bits) - 1)
    order = keys.view(np.int64)
    rows, z = z, z[order]
    if spare is not None:
        spare += [keys.base, rows]
    del keys, order, sorted_rows, rows
    ties = False  # rows of equal scores share their keys' high bits: only those can tie
    second = np.flatnonzero(shared)  # rows sharing their high bits with the row before
    if second.size:  # few rows: everything below is on them, not on every row
        rows = np.union1d(second - 1, second)  # rows sharing with a neighbour
        group = np.cumsum(shared[rows + 1] & ~shared[rows])  # a group starts: shares after
        part = z[rows]
        part = part[np.lexsort((part.imag, part.real, group))]
        z[rows] = part
        # neighbours in `rows` are neighbours in `z`, or of two groups (unequal scores)
        ties = bool(np.equal(part.real[1:], part.real[:-1]).any())
    if distinct is not None:
        distinct.append(not ties)
    return z


def signed_rows(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The rows as complex numbers ``score + i * (w if positive else -w)`` (``-w``: ``w``
    with its sign bit flipped, so a zero weight of a negative row is ``-0.0``, as numpy's
    negative gives it).

    The imaginary parts are the weights' bit patterns XOR the sign bit of the negative rows,
    block by block (integer operations: a masked copy of the weights over their negatives,
    as before, took about 0.5x the time of a sort of the scores at 10^6 rows; this, 0.2x).
    """
    n = s.size
    z = np.empty(n, dtype=np.complex128)
    z.real = s
    imag, bits, label = z.imag.view(_U64), w.view(_U64), y.view(np.uint8)
    sign = np.empty(min(n, _BLOCK), dtype=_U64)
    for a in range(0, n, _BLOCK):
        b = min(a + _BLOCK, n)
        t = sign[:b - a]
        np.copyto(t, label[a:b])  # 1 for a positive row, 0 for a negative one
        np.subtract(t, _ONE, out=t)  # 0, or all ones
        np.left_shift(t, _U64(63), out=t)  # 0, or the sign bit
        np.bitwise_xor(bits[a:b], t, out=imag[a:b])
    return z


def runs_of_order(z: np.ndarray, spare: list | None = None, distinct: bool = False):
    """``(thresholds, positives_at_or_below, negatives_at_or_below)`` of the rows ``z``
    (:func:`weighted_order`: scores ascending in the real parts, signed weights in the
    imaginary ones), block by block.

    The weights of each class are summed row after row in that order, as one cumulative sum
    of complex numbers (real part: the positives' weights, imaginary: the negatives'; each
    part summed on its own, so the sums are those of two separate cumulative sums), the
    running total carried from block to block into the block's first row.

    ``spare``: :func:`weighted_order`'s (emptied here): the thresholds are written over its
    keys and the sums over its rows, instead of into fresh arrays. ``distinct``: every score
    is known distinct (:func:`weighted_order`'s): each row is a run, and the pass that finds
    where runs end is skipped.
    """
    n = z.size
    score, signed = z.real, z.imag
    last = None if distinct else _run_ends(score)  # the last row of each score
    d = n if distinct else int(np.count_nonzero(last))
    keys, sums = spare or (None, None)
    if spare:
        spare.clear()
        thresholds = keys.view(np.float64)  # n + 1 of them
        sums = sums.view(np.float64)  # 2 n
        pos_le, neg_le = sums[:d], sums[n:n + d]
    else:
        thresholds, pos_le, neg_le = np.empty(d + 1), np.empty(d), np.empty(d)
    thresholds[0] = np.inf
    m = min(n, _BLOCK)
    part = np.empty(m, dtype=np.complex128)
    # each class's weights apart, by the sign bit (integer operations; numpy's maximum and
    # minimum of the strided parts took twice as long): a zero weight may come out as +0.0
    # where max(x, 0.0) gave -0.0, which changes no sum (the running sums start at +0.0,
    # the carry's 0j added to the first row, and +0.0 + -0.0 is +0.0)
    bits = signed.view(np.int64)
    negative = np.empty(m, dtype=np.int64)
    carry = 0j
    v = 0  # runs so far
    for a in range(0, n, _BLOCK):
        b = min(a + _BLOCK, n)
        p, g, sb = part[:b - a], negative[:b - a], bits[a:b]
        re, im = p.real.view(np.int64), p.imag.view(np.int64)
        np.right_shift(sb, 63, out=g)  # all ones where the signed weight's sign bit is set
        np.bitwise_and(sb, g, out=im)  # those rows' signed weights, 0 elsewhere
        np.bitwise_xor(sb, im, out=re)  # the other rows' weights, 0 elsewhere
        np.bitwise_and(g, np.int64(-_SIGN), out=g)  # the sign bit alone
        np.bitwise_xor(im, g, out=im)  # |signed weight|
        p[0] += carry
        np.cumsum(p, out=p)
        carry = p[-1]
        k = b - a if distinct else int(np.count_nonzero(last[a:b]))
        s = score[a:b]
        if k < b - a:
            at = np.flatnonzero(last[a:b])
            p, s = p[at], s[at]
        pos_le[v:v + k], neg_le[v:v + k] = p.real, p.imag
        np.add(s[::-1], 0.0, out=thresholds[d - v - k + 1:d - v + 1])  # -0.0 -> +0.0
        v += k
    if keys is not None and d < n:  # shrink in place, without a copy
        del thresholds
        keys.resize(d + 1, refcheck=False)
        thresholds = keys.view(np.float64)
    return thresholds, pos_le, neg_le


def _run_ends(score: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the ascending ``score`` ends (a bool per row)."""
    n = score.size
    last = np.empty(n, dtype=bool)
    for a in range(0, n - 1, _BLOCK):
        b = min(a + _BLOCK, n - 1)
        np.not_equal(score[a + 1:b + 1], score[a:b], out=last[a:b])
    last[-1] = True
    return last


# ---------------------------------------------------------------------------------------
# Scores on a decimal grid (integers, or rounded to a few decimals): counted, not sorted.

#: Decimal grids tried: integer scores, or integers over ``10**d``.
_GRID_DIGITS = 6
#: Most grid steps counted (the table of counts), and at most an eighth of the rows.
_GRID_CELLS = 1 << 20


def grid_cells(n: int) -> int:
    """How many steps of a grid are counted for ``n`` rows."""
    return min(_GRID_CELLS, max(n // 8, 1024))


def grid_digits(sample: np.ndarray, cells: int) -> tuple[int, float] | None:
    """``(d, low)``: the fewest decimals ``d`` (0 to ``_GRID_DIGITS``) such that every
    sampled score is the float64 nearest ``k / 10**d`` for an integer ``k`` (what
    ``np.round(x, d)`` and parsing a decimal with ``d`` digits give), and the smallest such
    ``k``; None if there is no such ``d`` or the ``k`` span half the ``cells`` or more."""
    for d in range(_GRID_DIGITS + 1):
        scale = 10.0 ** d
        with np.errstate(invalid="ignore", over="ignore"):
            k = np.rint(sample * scale)
            if np.array_equal(k / scale, sample):
                low, high = float(k.min()), float(k.max())
                if high - low < cells // 2 and max(-low, high) < 2.0 ** 52:
                    return d, low
                return None
    return None


def runs_on_grid(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, digits: int,
                 low: float, cells: int):
    """``(thresholds, positives_at_or_below, negatives_at_or_below)`` of scores that are all
    ``k / 10**digits`` with ``k`` integers from about ``low`` on (see :func:`grid_digits`),
    by counting each class per step of the grid (``np.bincount``, weights summed in the
    rows' order), or None when a score is off the grid or the ``k`` span ``cells`` steps
    or more.

    Every score is checked: it is the float64 nearest ``k / 10**digits``, so distinct
    scores have distinct ``k`` and the order of the ``k`` is theirs; the thresholds are
    ``k / 10**digits`` again, the scores bit for bit (``-0.0`` as ``+0.0``).
    """
    n = s.size
    scale = 10.0 ** digits
    origin = low - cells // 4  # room below the sample's smallest
    codes = np.empty(n, dtype=np.int64)
    m = min(n, _BLOCK)
    k, back, same = np.empty(m), np.empty(m), np.empty(m, dtype=bool)
    label = y.view(np.uint8)
    top = -np.inf
    with np.errstate(invalid="ignore", over="ignore"):
        for a in range(0, n, _BLOCK):
            b = min(a + _BLOCK, n)
            kb, bb, sb = k[:b - a], back[:b - a], same[:b - a]
            np.multiply(s[a:b], scale, out=kb)
            np.rint(kb, out=kb)
            np.divide(kb, scale, out=bb)
            if not np.equal(bb, s[a:b], out=sb).all():
                return None  # off the grid (or not finite)
            kb -= origin
            if kb.min() < 0:
                return None
            top = max(top, float(kb.max()))
            if top >= cells:
                return None
            cb = codes[a:b]
            np.copyto(cb, kb, casting="unsafe")
            cb <<= 1
            cb |= label[a:b]
    cells = 2 * (int(top) + 1)
    rows = np.bincount(codes, minlength=cells)
    if w is None:
        pos, neg = rows[1::2], rows[0::2]
    else:
        sums = np.bincount(codes, weights=w, minlength=cells)
        pos, neg = sums[1::2], sums[0::2]
    del codes
    present = np.flatnonzero(rows[0::2] + rows[1::2])
    thresholds = np.empty(present.size + 1)
    thresholds[0] = np.inf
    np.divide((present[::-1] + origin).astype(np.float64), scale, out=thresholds[1:])
    thresholds[1:] += 0.0  # -0.0 -> +0.0
    # cumulative sums over every step (adding the empty ones' zeros changes nothing)
    return thresholds, np.cumsum(pos)[present], np.cumsum(neg)[present]


# ---------------------------------------------------------------------------------------
# The convex hull of a long ROC chain: the points worth its exact pass.

#: One point in this many is sampled for the chords of :func:`above_sample_hull`.
_SAMPLE_STEP = 64
#: A point counts as below a chord when it is below by more than this much of the chord's
#: extent ``dx + dy``: far above the rounding of rates and of the test (``2**-49`` of it).
_BELOW_RTOL = 2.0 ** -30


def above_sample_hull(x: np.ndarray, y: np.ndarray, hull_of_sample) -> np.ndarray:
    """Indices of the points of a long ROC chain not certainly below its hull, ascending.

    Every point of the chain below a chord joining two of its points lies inside the hull,
    so is no vertex of it. The chords are the segments of the upper hull of every
    ``_SAMPLE_STEP``-th point (close to the chain's own hull), and each point is tested
    against the chord spanning its position. (A point on a chord is kept, as is a point
    within a rounding margin below it.) ``hull_of_sample(sx, sy)``: the indices of the
    sampled points on (or near) their upper hull, ascending.

    The points from one point of the chain to another lie in the box of those two (the
    chain rises in both rates), and a chord's slope is not negative: when the box's upper
    left corner is below the chord, so is every point in it, computed in floats too
    (rounding keeps the order). So the boxes between sampled points are tested first, then
    boxes of ``_SUB_STEP`` points of those not below, then the points of those left. The
    boxes' corners are read through views of the rates (the sampled points' own, then rows
    of ``_SAMPLE_STEP`` and ``_SUB_STEP`` points), not gathered one index at a time.
    """
    n = x.size
    sample = np.arange(0, n, _SAMPLE_STEP)
    if sample[-1] != n - 1:
        sample = np.append(sample, n - 1)
    sx, sy = x[sample], y[sample]
    ends = hull_of_sample(sx, sy)  # positions in the sample
    slope, bound, rows = _chords(x, y, sample[ends])
    # the boxes between consecutive sampled points: their upper left corners are the
    # sampled points themselves, each chord's slope and bound repeated over its boxes
    first, last = int(ends[0]), int(ends[-1])
    per_chord = np.diff(ends)
    hit = sy[first + 1:last + 1] - np.repeat(slope, per_chord) * sx[first:last]
    box = np.flatnonzero(hit >= np.repeat(bound, per_chord))
    box += first  # box b: from sampled point b up to b + 1 (excluded)
    chord = np.searchsorted(ends, box, "right") - 1
    keep = [np.array([n - 1])]
    keep += [np.arange(a, first_column) for a, first_column in rows]
    # boxes of whole sub-boxes (all but the last few points'), as rows of views
    whole = (n - _SUB_STEP) // _SAMPLE_STEP if _SAMPLE_STEP % _SUB_STEP == 0 else 0
    inside = box < whole
    if not inside.all():
        tail = ~inside
        keep.append(_points_of_boxes(x, y, sample[box[tail]], sample[box[tail] + 1],
                                     chord[tail], slope, bound))
        box, chord = box[inside], chord[inside]
    if box.size:
        keep.append(_points_of_whole_boxes(x, y, box, chord, slope, bound, whole))
    return np.sort(np.concatenate(keep))


def _points_of_whole_boxes(x, y, box, chord, slope, bound, whole: int) -> np.ndarray:
    """:func:`above_sample_hull`'s points kept in the boxes ``box`` (each from point
    ``_SAMPLE_STEP * box`` on, below ``whole``) of ``chord``: the sub-boxes' upper left
    corners and then the points of the sub-boxes left, as rows of views of ``x`` and ``y``."""
    step, sub = _SAMPLE_STEP, _SUB_STEP
    parts = step // sub
    corner_x = x[:step * whole].reshape(whole, step)[:, ::sub]  # sub-boxes' first points
    corner_y = y[sub:sub + step * whole].reshape(whole, step)[:, ::sub]  # the next ones
    hit = corner_y[box] - slope[chord][:, None] * corner_x[box] >= bound[chord][:, None]
    at = np.flatnonzero(hit)
    of_box = at // parts
    part = box[of_box] * parts + at % parts  # sub-box j: points sub * j to sub * j + sub
    chord = chord[of_box]
    px = x[:step * whole].reshape(-1, sub)[part]
    py = y[:step * whole].reshape(-1, sub)[part]
    at = np.flatnonzero(py - px * slope[chord][:, None] >= bound[chord][:, None])
    return part[at // sub] * sub + at % sub


def _points_of_boxes(x, y, lo, hi, chord, slope, bound) -> np.ndarray:
    """:func:`above_sample_hull`'s points kept in the boxes from ``lo`` to ``hi`` (at most
    ``_SAMPLE_STEP`` points, excluded) of ``chord``: boxes of ``_SUB_STEP`` points, then
    the points of those left, each range by its indices."""
    lo, hi, chord = _split(lo, hi, chord, _SAMPLE_STEP, _SUB_STEP)
    hit = y[hi] - slope[chord] * x[lo] >= bound[chord]  # the box's upper left corner
    lo, _, chord = _split(lo[hit], hi[hit], chord[hit], _SUB_STEP, 1)
    return lo[y[lo] - x[lo] * slope[chord] >= bound[chord]]


def _split(lo: np.ndarray, hi: np.ndarray, chord: np.ndarray, size: int, step: int):
    """The boxes from ``lo`` to ``hi`` (at most ``size`` points each) cut into boxes of
    ``step`` points (the last of each maybe fewer), each with its box's ``chord``."""
    parts = -(-size // step)
    new_lo = lo[:, None] + np.arange(0, parts * step, step)
    end = np.broadcast_to(hi[:, None], new_lo.shape)
    some = new_lo < end  # not past the box's end
    new_lo = new_lo[some]
    return (new_lo, np.minimum(new_lo + step, end[some]),
            np.broadcast_to(chord[:, None], some.shape)[some])


#: Points in the boxes tested between the sampled points' and the points'.
_SUB_STEP = 8


def _chords(x: np.ndarray, y: np.ndarray, ends: np.ndarray):
    """``(slope, bound, rows)`` of the chords between the points ``ends`` of a chain: a point
    under chord ``j`` (from ``ends[j]`` up to ``ends[j + 1]``, excluded) is kept when
    ``y - x * slope[j] >= bound[j]``. A column's bound is ``+inf``: only its top, the next
    chord's first point, can be a vertex. So is a row's, whose first column's points,
    ``range(lo, first_column)``, are kept instead (only its top can be a vertex).

    The margin below a chord is relative to its extent ``(dx + dy) / dx``, which bounds the
    rounding of the test (and the rounded slope's departure from the chord).
    """
    ex, ey = x[ends], y[ends]
    dx, dy = np.diff(ex), np.diff(ey)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = dy / dx
        bound = ey[:-1] - slope * ex[:-1] - _BELOW_RTOL * (1.0 + slope)
    flat = (dx == 0) | (dy == 0)
    slope[flat], bound[flat] = 0.0, np.inf
    rows = []
    for j in np.flatnonzero((dx != 0) & (dy == 0)).tolist():
        lo, hi = int(ends[j]), int(ends[j + 1])
        rows.append((lo, lo + int(np.searchsorted(x[lo:hi], ex[j], "right"))))
    return slope, bound, rows
