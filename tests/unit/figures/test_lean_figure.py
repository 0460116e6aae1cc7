"""``LeanFigure`` sends the same JSON as plotly's own ``to_dict``, without its deep copy."""

from __future__ import annotations

import base64
import json

import numpy as np
import plotly.graph_objects as go
from plotly.utils import PlotlyJSONEncoder

from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.render import render_views
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions
from roc_dash.figures.style import LeanFigure, fast_figure


def _sent(as_dict) -> str:
    return json.dumps(as_dict, cls=PlotlyJSONEncoder, sort_keys=True)


def _demo_figures(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    out = render_views(cache, [DEMO_ID], model_names(cache, [DEMO_ID]), Conditions())
    return [v for v in out if isinstance(v, go.Figure)]


def test_lnf001_demo_views_send_what_plotly_sends(tmp_path):
    figures = _demo_figures(tmp_path)
    lean = [f for f in figures if isinstance(f, LeanFigure)]
    assert len(lean) >= 3, "the views are built as LeanFigure"
    customdata = 0
    for fig in lean:
        own = go.Figure.to_dict(fig)  # plotly's method: deep copy, full walk
        plotly_own = _sent(own)
        ours = fig.to_dict()
        for mine, theirs in zip(ours["data"], own["data"], strict=True):
            if isinstance(mine.get("customdata"), list) and isinstance(
                    theirs.get("customdata"), dict):
                customdata += 1
                _same_rows(mine.pop("customdata"), theirs.pop("customdata"))
        assert _sent(ours) == _sent(own)
        # the figure itself is left as it was: a second send is the same
        assert _sent(go.Figure.to_dict(fig)) == plotly_own
    assert customdata >= 4  # the curves' customdata arrays went out as lists


def _same_rows(rows: list, spec: dict) -> None:
    """customdata sent as lists equals plotly's typed array of it; a row whose threshold
    is +inf (NaN) is the model index alone (``style.threshold_rows``)."""
    shape = tuple(int(n) for n in str(spec["shape"]).split(","))
    want = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=spec["dtype"]).reshape(shape)
    assert len(rows) == len(want)
    for row, full in zip(rows, want, strict=True):
        if len(row) == 1:
            assert np.isnan(full[1]) and row[0] == full[0]
        else:
            np.testing.assert_array_equal(np.array(row, dtype=float), full)


def test_lnf002_arrays_become_typed_arrays_lists_stay_lists():
    x = np.linspace(0, 1, 50)
    fig = fast_figure(
        [{"type": "scatter", "x": x, "y": x ** 2, "customdata": [[0, 0.5, 0.1, 0.2]] * 50,
          "text": np.array(["a"] * 50, dtype=object),
          "marker": {"color": np.arange(50)}}],
        {"shapes": [{"type": "line", "x0": 0, "x1": 1, "y0": 0, "y1": 1}],
         "xaxis": {"range": np.array([0.0, 1.0])},
         "updatemenus": [{"buttons": [{"args": [{"x": [np.arange(3)]}]}]}]})
    sent = fig.to_dict()
    assert _sent(sent) == _sent(go.Figure.to_dict(fig))
    trace = sent["data"][0]
    assert set(trace["x"]) == {"dtype", "bdata"} and trace["x"]["dtype"] == "f8"
    assert set(trace["marker"]["color"]) >= {"dtype", "bdata"}
    assert trace["customdata"] == [[0, 0.5, 0.1, 0.2]] * 50  # a list: dcc.Graph reads it
    assert isinstance(sent["layout"]["xaxis"]["range"], np.ndarray)  # 'range' is sent as is
    assert isinstance(fig.data[0].x, np.ndarray)  # the figure keeps its arrays
