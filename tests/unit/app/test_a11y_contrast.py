"""Contrast of text and focus rings (WCAG 2.1 1.4.3 and 1.4.11), by the WCAG formula."""

from __future__ import annotations

import re
from pathlib import Path

from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.render import render_views
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions

CSS = Path(__file__).resolve().parents[3] / "roc_dash" / "assets" / "style.css"


def luminance(hex_colour: str) -> float:
    """Relative luminance of an sRGB colour (WCAG 2.1, definition of relative luminance)."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = []
    for k in (0, 2, 4):
        c = int(h[k:k + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_a11y020_contrast_formula_matches_known_pairs():
    # black on white is 21:1; WCAG's own example: #767676 on white is the lightest grey
    # passing 4.5:1
    assert round(contrast("#000", "#fff"), 2) == 21.0
    assert contrast("#767676", "#ffffff") >= 4.5 > contrast("#777777", "#ffffff")


def test_a11y021_iso_f1_labels_have_text_contrast(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    models = model_names(cache, [DEMO_ID])
    _, pr, *_ = render_views(cache, [DEMO_ID], models, Conditions(prior_pos=0.3))
    labels = [a for a in pr.layout.annotations if str(a.text).startswith("F1=")]
    assert labels
    background = pr.layout.plot_bgcolor or "#ffffff"
    for a in labels:
        assert contrast(a.font.color, background) >= 4.5, (a.text, a.font.color)


def test_a11y022_focus_ring_has_3_to_1_on_white():
    css = CSS.read_text(encoding="utf-8")
    rule = re.search(r"^:focus-visible\s*\{[^}]*outline:\s*\d+px solid (#[0-9a-fA-F]{3,6})",
                     css, re.M)
    assert rule, "a page-wide :focus-visible outline"
    assert contrast(rule.group(1), "#ffffff") >= 3.0
    assert contrast(rule.group(1), "#fffdf4") >= 3.0  # the summary strip's cream
