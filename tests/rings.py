"""The centre of a Slices ring as the figure holds it (tests' reading of
``roc_dash.figures.slices.ring_path``: a path; or a circle, as rings were drawn before)."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?", re.I)


def ring_centre(shape) -> tuple[float, float]:
    """``(fpr, tpr)`` at the middle of the ring's coordinates' ranges (x, y alternating)."""
    get = shape.get if isinstance(shape, dict) else lambda k: getattr(shape, k, None)
    path = get("path")
    if path:
        nums = [float(v) for v in _NUMBER.findall(path)]
        xs, ys = nums[0::2], nums[1::2]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return (get("x0") + get("x1")) / 2, (get("y0") + get("y1")) / 2


def ring_size(shape) -> tuple[float, float]:
    """The ring's width and height (data units)."""
    nums = [float(v) for v in _NUMBER.findall(shape["path"])]
    xs, ys = nums[0::2], nums[1::2]
    return max(xs) - min(xs), max(ys) - min(ys)
