"""The one table of optimum cases (``tests/fixtures/optimum_cases.json``), read for core in
Python and for ``assets/optimum.js`` in Chromium: each case's hull (core's, built from the
vertices), its slope (core's :func:`iso_performance_slope` of the typed conditions, or the
slope given) and the vertex and tied end the fixture expects (as hull indices)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from roc_dash.core.roc.hull import RocHull, hull_of_points
from roc_dash.core.roc.iso_performance import iso_performance_slope

FIXTURE = Path(__file__).parent / "fixtures" / "optimum_cases.json"


@dataclass(frozen=True)
class OptimumCase:
    name: str
    hull: RocHull
    slope: float
    exact_points: tuple[tuple[Fraction, Fraction], ...]  # the vertices, exactly
    exact_slope: Fraction | None  # None: infinite
    index: int
    end: int | None

    def js_hull(self) -> dict:
        return {"fpr": self.hull.fpr.tolist(), "tpr": self.hull.tpr.tolist()}


def _exact(text: str) -> Fraction:
    return Fraction(text)


def _slope(case: dict) -> tuple[float, Fraction | None]:
    """The double core computes, and the exact slope of the typed numbers as a double can
    hold it (beyond the largest double: infinite; below the smallest normal one: 0)."""
    if "slope" in case:
        s = case["slope"]
        return float(s), None if s == "inf" else _exact(s)
    c = case["conditions"]
    m = iso_performance_slope(float(c["cost_fp"]), float(c["cost_fn"]), float(c["prior_pos"]))
    p = _exact(c["prior_pos"])
    exact = _exact(c["cost_fp"]) * (1 - p) / (_exact(c["cost_fn"]) * p)
    if exact > Fraction(np.finfo(np.float64).max):
        return m, None
    if exact < Fraction(float(np.finfo(np.float64).tiny)):
        return m, Fraction(0)
    return m, exact


def load_cases() -> list[OptimumCase]:
    out = []
    for case in json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]:
        h = case["hull"]
        if "fp" in h:
            n, p = h["n_neg"], h["n_pos"]
            exact = tuple((Fraction(f, n), Fraction(t, p)) for f, t in zip(h["fp"], h["tp"],
                                                                         strict=True))
            hull = hull_of_points(np.asarray(h["fp"], float) / n, np.asarray(h["tp"], float) / p,
                                  totals=(float(n), float(p)))
            keys = list(zip(h["fp"], h["tp"], strict=True))
        else:
            exact = tuple((_exact(repr(f)), _exact(repr(t))) for f, t in zip(h["fpr"], h["tpr"],
                                                                               strict=True))
            hull = hull_of_points(np.asarray(h["fpr"]), np.asarray(h["tpr"]))
            keys = list(zip(h["fpr"], h["tpr"], strict=True))
        assert len(hull) == len(keys), f"{case['name']}: the vertices are not a convex hull"
        slope, exact_slope = _slope(case)
        e = case["expect"]
        out.append(OptimumCase(
            name=case["name"], hull=hull, slope=slope, exact_points=exact,
            exact_slope=exact_slope, index=keys.index(tuple(e["vertex"])),
            end=None if e["end"] is None else keys.index(tuple(e["end"]))))
    return out


def brute_force(case: OptimumCase) -> tuple[int, int | None]:
    """The optimum by exhaustion in exact arithmetic: the vertices maximising
    ``TPR − m·FPR`` (with ``m`` infinite, the least FPR), the first of them (flagging fewest)
    and the other end if two tie."""
    pts = case.exact_points
    if case.exact_slope is None:
        score = [-f for f, _ in pts]
    else:
        score = [t - case.exact_slope * f for f, t in pts]
    best = max(score)
    top = [k for k, s in enumerate(score) if s == best]
    assert len(top) <= 2 and (len(top) == 1 or top[1] == top[0] + 1)
    return top[0], (top[1] if len(top) == 2 else None)
