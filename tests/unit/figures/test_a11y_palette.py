"""Models told apart without colour, and colours told apart under colour-vision deficiency
(WCAG 2.1 1.4.1 use of colour, 1.4.11 non-text contrast).

The colour checks simulate deuteranopia and protanopia with Machado, Oliveira & Fernandes'
matrices (severity 1.0) in linear sRGB and measure CIE76 colour differences (ΔE*ab, D65) in
CIELAB, written out here from the definitions (sRGB: IEC 61966-2-1; CIELAB: CIE 15:2004),
independent of the package. Thresholds (ΔE*ab, under normal vision and both simulations):

* the first four model colours (a typical review) pairwise at least 20;
* the first six at least 15; all eight at least 12;
* every model colour at least 12 from the chance line's grey, the hull's near-black and the
  optimum's red.

(For scale: the palette before had a pair at 17.9 among its first four and the decision
tree's green at 9.6 from the chance line's grey under deuteranopia.)

References
----------
Machado, G. M., Oliveira, M. M. and Fernandes, L. A. F. (2009). A physiologically-based model
for simulation of color vision deficiency. IEEE Transactions on Visualization and Computer
Graphics 15(6), 1291-1298 (Table 1, severity 1.0).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.constraints.capacity import gains_curve
from roc_dash.figures.cost import cost_figure
from roc_dash.figures.gains import gains_figure, lift_figure
from roc_dash.figures.precision_recall import pr_figure
from roc_dash.figures.roc import roc_figure
from roc_dash.figures.style import (
    CHANCE_DASH,
    DASHES,
    HULL_COLOR,
    OPTIMUM_COLOR,
    PALETTE,
    REFERENCE_COLOR,
    SYMBOLS,
    model_style,
)
from tests.unit.app.test_a11y_contrast import contrast

MACHADO = {
    "normal": np.eye(3),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}
SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805],
                        [0.2126, 0.7152, 0.0722],
                        [0.0193, 0.1192, 0.9505]])
D65 = np.array([0.95047, 1.0, 1.08883])


def linear(hex_colour: str) -> np.ndarray:
    h = hex_colour.lstrip("#")
    c = np.array([int(h[k:k + 2], 16) for k in (0, 2, 4)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(rgb_linear: np.ndarray) -> np.ndarray:
    t = SRGB_TO_XYZ @ np.clip(rgb_linear, 0, 1) / D65
    d = 6 / 29
    f = np.where(t > d ** 3, np.cbrt(t), t / (3 * d * d) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: str, b: str, vision: str) -> float:
    m = MACHADO[vision]
    return float(np.linalg.norm(lab(m @ linear(a)) - lab(m @ linear(b))))


def test_a11y040_colour_science_matches_known_values():
    # CIELAB of sRGB white and pure red (CIE 15:2004 with sRGB's D65 white)
    np.testing.assert_allclose(lab(linear("#FFFFFF")), [100, 0, 0], atol=0.02)
    np.testing.assert_allclose(lab(linear("#FF0000")), [53.24, 80.09, 67.20], atol=0.05)
    for m in MACHADO.values():  # greys stay grey under every simulation
        np.testing.assert_allclose(m @ np.ones(3), np.ones(3), atol=1e-5)
    # the classic confusion: red and green nearly merge under deuteranopia, not in normal vision
    assert delta_e("#D62728", "#2CA02C", "normal") > 80
    assert delta_e("#D62728", "#2CA02C", "deuteranopia") < 0.35 * delta_e(
        "#D62728", "#2CA02C", "normal")


@pytest.mark.parametrize("colour", PALETTE)
def test_a11y041_every_model_colour_has_3_to_1_on_white(colour):
    assert contrast(colour, "#ffffff") >= 3.0, colour


@pytest.mark.parametrize("vision", list(MACHADO))
def test_a11y042_model_colours_stay_apart_under_colour_vision_deficiency(vision):
    for n, least in ((4, 20), (6, 15), (len(PALETTE), 12)):
        worst = min((delta_e(a, b, vision), a, b)
                    for a, b in itertools.combinations(PALETTE[:n], 2))
        assert worst[0] >= least, (vision, n, worst)
    for reference in (REFERENCE_COLOR, HULL_COLOR, OPTIMUM_COLOR):
        worst = min((delta_e(c, reference, vision), c) for c in PALETTE)
        assert worst[0] >= 12, (vision, reference, worst)


def test_a11y043_dash_and_symbol_pairs_are_distinct_and_never_the_chance_lines():
    period = len(DASHES) * len(SYMBOLS) // math.gcd(len(DASHES), len(SYMBOLS))
    pairs = [(model_style(k)["line"]["dash"], model_style(k)["marker"]["symbol"])
             for k in range(period)]
    assert len(set(pairs)) == period == 24
    assert CHANCE_DASH not in DASHES
    # nor the symbols of the optimum (star), the capacity and slice rules (diamond), pins
    assert not set(SYMBOLS) & {"star", "diamond", "circle-open"}
    assert all("markers" in model_style(k)["mode"] for k in range(period))


def _model_traces(fig, names):
    """The traces drawing a model's curve (its legend entry), by the model's name."""
    out = {}
    for t in fig.data:
        name = t.name or ""
        model = next((m for m in names if name == m or name.startswith(m + " ")), None)
        if model is not None and t.showlegend is not False:
            out[model] = t
    return out


def _chance(fig):
    return next(t for t in fig.data if (t.name or "").startswith(("chance", "random")))


def test_a11y044_every_view_draws_each_model_with_its_own_dash_and_symbol(demo_table):
    analysis = analyse(demo_table, Conditions())
    names = [m.name for m in analysis.models]
    gains = {m.name: gains_curve(m.curve, prior_pos=0.3) for m in analysis.models}
    figures = {"roc": roc_figure(analysis), "det": roc_figure(analysis, det=True),
               "pr": pr_figure(analysis), "prg": pr_figure(analysis, mode="prg"),
               "cost": cost_figure(analysis), "gains": gains_figure(gains),
               "lift": lift_figure(gains)}
    for view, fig in figures.items():
        traces = _model_traces(fig, names)
        assert set(traces) == set(names), (view, sorted(traces))
        styles = {m: (t.line.dash, t.marker.symbol) for m, t in traces.items()}
        assert all("markers" in t.mode for t in traces.values()), view
        assert all(t.marker.maxdisplayed for t in traces.values()), view
        assert len(set(styles.values())) == len(names), (view, styles)
        if view in ("roc", "gains", "lift"):
            chance = _chance(fig)
            assert chance.line.dash == CHANCE_DASH and "markers" not in chance.mode
            assert all(dash != CHANCE_DASH for dash, _ in styles.values()), (view, styles)
            assert all(t.line.color != chance.line.color for t in traces.values())


@pytest.fixture
def demo_table():
    from roc_dash.app.server.store import load_demo

    return load_demo().table
