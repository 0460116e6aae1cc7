"""Bands on the PR view at the deployment prevalence (:mod:`roc_dash.core.constraints.pr_bands`):
as traces to add to the PR view (:func:`pr_band_traces`) or on a figure of their own
(:func:`pr_band_figure`). Pure; shared by the page and the HTML report."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.constraints.pr_bands import PrBand
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .style import base_layout_dict, fast_figure, line_style, plain, rgba, style_index

__all__ = ["BAND_UID", "pr_band_traces", "pr_band_figure"]

#: ``uid`` prefix of a band's fill (the model's name follows).
BAND_UID = "pr-band-"


def _what(band: PrBand) -> str:
    kind = f"{band.n_curves} folds" if band.method == "folds" else \
        f"{band.n_curves} bootstrap replicates"
    return f"{band.level:.0%} {band.band} band ({kind})"


def pr_band_traces(name: str, band: PrBand, *, index: int = 0,
                   central: bool = True) -> list[dict]:
    """The band as a filled area between its limits (and, with ``central``, its central
    curve) in the model's colour."""
    style = line_style(index)
    x = np.concatenate((band.recall, band.recall[::-1]))
    y = np.concatenate((band.high, band.low[::-1]))
    out = [{"type": "scatter", "x": x, "y": y, "mode": "lines", "fill": "toself",
            "uid": f"{BAND_UID}{name}", "name": f"{plain(name)} {_what(band)}",
            "legendgroup": name, "fillcolor": rgba(style["color"], 0.18),
            "line": {"width": 0, "color": style["color"]}, "hoverinfo": "skip"}]
    if central:
        out.append({"type": "scatter", "x": band.recall, "y": band.precision, "mode": "lines",
                    "name": plain(name), "legendgroup": name, "showlegend": False,
                    "line": {**style, "width": 2},
                    "customdata": np.column_stack((band.low, band.high)).tolist(),
                    "hovertemplate": (f"<b>{plain(name)}</b><br>recall %{{x:{NUM}}}<br>"
                                      f"precision %{{y:{NUM}}} [%{{customdata[0]:{NUM}}}, "
                                      f"%{{customdata[1]:{NUM}}}]<extra></extra>")})
    return out


def pr_band_figure(bands: Mapping[str, PrBand], *, colors: dict[str, int] | None = None,
                   font_size: int = 14):
    """Each model's PR curve at the deployment prevalence with its band."""
    data = []
    prevalence = None
    for i, (name, band) in enumerate(bands.items()):
        data += pr_band_traces(name, band, index=style_index(colors, name, i))
        prevalence = band.prevalence
    title = "Precision" if prevalence is None else f"Precision at p(+) = {sig(prevalence)}"
    layout = base_layout_dict(x_title="Recall", y_title=title, font_size=font_size)
    return fast_figure(data, layout)
