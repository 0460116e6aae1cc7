"""The Slices ring as a path (moved by plotly wherever it is grabbed): a circle."""

import re

import numpy as np
import pytest

from roc_dash.figures.slices import HANDLE_RADIUS, ring_path
from tests.rings import ring_centre


def _bezier_points(path: str) -> np.ndarray:
    """Points along the path's cubic segments (de Casteljau's formula)."""
    nums = [float(v) for v in re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?", path)]
    pts = np.array(nums).reshape(-1, 2)
    start, out = pts[0], []
    t = np.linspace(0, 1, 50)[:, None]
    for k in range(1, len(pts), 3):
        c1, c2, end = pts[k:k + 3]
        out.append((1 - t) ** 3 * start + 3 * (1 - t) ** 2 * t * c1 + 3 * (1 - t) * t ** 2 * c2
                   + t ** 3 * end)
        start = end
    return np.vstack(out)


def test_rng002_the_ring_path_is_a_circle_round_its_point():
    x, y = 0.3125, 0.71
    path = ring_path(x, y)
    assert path.startswith("M") and path.endswith("Z")
    assert ring_centre({"path": path}) == pytest.approx((x, y), abs=1e-15)
    radius = np.hypot(*(_bezier_points(path) - [x, y]).T)
    # four Bézier quarters stay within 0.03 % of the circle (the known bound of the
    # kappa = 0.5523 approximation is 0.027 %)
    assert radius == pytest.approx(HANDLE_RADIUS, rel=3e-4)
    assert ring_path(np.float64(0.1), np.float64(0.2)) == ring_path(0.1, 0.2)  # plain numbers
