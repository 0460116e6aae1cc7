"""Calibration: can the shown models' scores be read as probabilities? (Compare tab.)

One card: the reliability diagram of every shown model with the hull's calibration map
(PAV ≡ ROCCH, Fawcett & Niculescu-Mizil 2007), a table of the Brier score, the expected and
maximum calibration errors and a note per model (scores outside ``[0, 1]``, or badly
calibrated), the binning of the diagram, and *Download calibrated scores*: every row of the
shown models with its hull-calibrated probability.

Numbers come from :mod:`roc_dash.core.inference.calibration` on the curves of the views' cached
analysis (pooled folds, as the cost curves), the figure from
:mod:`roc_dash.figures.calibration`; the callbacks compute nothing themselves.
"""

from __future__ import annotations

import pandas as pd
from dash import Input, Output, State, dcc, html
from dash.exceptions import PreventUpdate

from ...core.analysis_types import Analysis
from ...core.assembly.analysis import AnalysisTimeout
from ...core.constraints.calibration_intervals import (
    CalibrationUncertainty,
    calibration_uncertainty,
)
from ...core.inference.calibration import STRATEGIES, Calibration, calibration_from_curve
from ...figures.calibration import calibration_figure
from ...figures.calibration_bands import fit_text
from ...figures.style import line_style, plain, style_index
from ...text.rounding import sig
from .. import ids
from ..analysis import SHOWN_FIELDS, model_names, shown_analysis, timeout_message
from ..components import empty_figure, swatch, values_from_link
from ..page_state import PageState, dependencies, tab_gate
from ..state import FONT, tab_shown

__all__ = ["BIN_CHOICES", "calibration_card", "model_calibrations", "calibration_table",
           "calibrated_frame", "calibration_outputs", "model_uncertainties", "band_traces",
           "fit_rows", "register"]

#: Numbers of reliability bins offered (10 is scikit-learn's default).
BIN_CHOICES = (5, 10, 15, 20, 30)
_HELP = ("Can the scores be read as probabilities? Each bin's mean score against its observed "
         "fraction of positives (on the diagonal: calibrated); the step line is the ROC convex "
         "hull's calibration map, which equals isotonic (PAV) calibration (Fawcett & "
         "Niculescu-Mizil 2007). Folds are pooled.")
_DOWNLOAD_HELP = ("A CSV of every row of the shown models: its score and the probability the "
                  "hull's calibration map gives it (fitted on these rows: in-sample).")
_RECALIBRATE_HELP = (
    "Download decision (top bar) stores this recalibration of the chosen model's scores "
    "beside the threshold, fitted on its rows, as roc-dash decide --recalibrate does: the "
    "classifier the record gives returns the recalibrated probabilities from predict_proba "
    "and still thresholds the raw score (every map is non-decreasing). Logistic: "
    "σ(a + b·logit(score)), the slope and intercept below; Platt: σ(a + b·score), for any "
    "score; isotonic: the hull's step map.")
#: The calibration card's choices of the recalibration the decision stores.
RECALIBRATE_OPTIONS = ({"label": "none", "value": ""},
                       {"label": "logistic recalibration", "value": "logistic"},
                       {"label": "Platt", "value": "platt"},
                       {"label": "isotonic (hull)", "value": "isotonic"})


def calibration_card(graph_config: dict):
    """The reliability diagram, the table of calibration numbers and the download."""
    return html.Div(className="card calibration-card", id=ids.CAL_CARD, children=[
        html.Div(className="card-head", children=[
            html.H2("Calibration: are the scores probabilities?", title=_HELP),
            html.Div(className="cal-controls", children=[
                html.Label("Bins", htmlFor=ids.CAL_BINS, className="control-label",
                           title="Number of reliability bins"),
                dcc.Dropdown(id=ids.CAL_BINS, value=10, clearable=False, searchable=False,
                             options=[{"label": str(b), "value": b} for b in BIN_CHOICES],
                             className="cal-bins"),
                dcc.RadioItems(id=ids.CAL_STRATEGY, value="uniform", inline=True,
                               className="radios inline",
                               options=[{"label": "equal width", "value": "uniform"},
                                        {"label": "equal count", "value": "quantile"}]),
                html.Button("Download calibrated scores", id=ids.CAL_DOWNLOAD_BUTTON,
                            n_clicks=0, className="button", title=_DOWNLOAD_HELP),
                dcc.Download(id=ids.CAL_DOWNLOAD),
            ]),
        ]),
        html.Div(className="cal-recalibrate", children=[
            html.Label("Apply to the decision:", htmlFor=ids.CAL_RECALIBRATE,
                       className="control-label", title=_RECALIBRATE_HELP),
            dcc.RadioItems(id=ids.CAL_RECALIBRATE, value="", inline=True,
                           className="radios inline", options=list(RECALIBRATE_OPTIONS)),
        ]),
        html.Div(id=ids.CAL_TABLE, className="table-scroll"),
        dcc.Loading(type="circle", delay_show=400,
                    overlay_style={"visibility": "visible", "opacity": 0.55},
                    children=dcc.Graph(id=ids.CAL_GRAPH, config=graph_config,
                                       className="graph cal-graph")),
        dcc.Store(id=ids.CAL_DRAWN, data=None),
    ])


def model_calibrations(analysis: Analysis, *, n_bins: int = 10,
                       strategy: str = "uniform") -> dict[str, Calibration]:
    """Each model's calibration (name -> result, in the analysis' order), from its pooled
    curve and hull (:func:`~roc_dash.core.inference.calibration.calibration_from_curve`)."""
    n_bins = n_bins if n_bins in BIN_CHOICES else 10
    strategy = strategy if strategy in STRATEGIES else "uniform"
    return {m.name: calibration_from_curve(m.curve, n_bins=n_bins, strategy=strategy,
                                           hull=m.hull) for m in analysis.models}


def _num(v: float) -> str:
    return sig(v)  # the one rounding rule (roc_dash.text.rounding)


def calibration_table(results: dict[str, Calibration], colors: dict[str, int]):
    """One row per model: Brier, ECE, MCE, whether the scores lie in [0, 1], the note."""
    head = [("Model", "the model's line in the diagram"),
            ("Brier", "mean squared difference of score and label (lower is better)"),
            ("ECE", "expected calibration error: count-weighted mean |observed − predicted| "
                    "over the bins (Naeini et al. 2015)"),
            ("MCE", "maximum calibration error: the largest |observed − predicted| of a bin"),
            ("Scores in [0, 1]", "only then can they be probabilities"),
            ("Note", "")]
    rows = []
    for name, cal in results.items():
        k = colors.get(name)
        note = cal.note or "Close to calibrated on these bins."
        rows.append(html.Tr([
            html.Td([swatch(k), name] if k is not None else name),
            html.Td(_num(cal.brier), className="num"),
            html.Td(_num(cal.ece), className="num"),
            html.Td(_num(cal.mce), className="num"),
            html.Td("yes" if cal.in_unit_interval else "no"),
            html.Td(note, className="cal-note" + (" warn" if cal.notes else ""))]))
    return html.Table(className="models cal-table", children=[
        html.Thead(html.Tr([html.Th(h, title=t) for h, t in head])), html.Tbody(rows)])


def calibrated_frame(table: pd.DataFrame, results: dict[str, Calibration]) -> pd.DataFrame:
    """The rows of the models in ``results`` with ``calibrated_probability``: the hull map's
    probability of each score (:meth:`~roc_dash.core.inference.calibration.HullCalibration.calibrated_scores`).

    Columns: ``model``, ``dataset`` (when several are loaded), ``id`` and ``fold`` (when the
    data has them), ``label`` (1 positive, 0 negative), ``score``, ``weight`` (when not all 1) and
    ``calibrated_probability``; rows in the table's order."""
    parts = []
    for name, cal in results.items():
        rows = table[table["model"] == name]
        cols = ["model", *[c for c in ("dataset", "id", "fold") if c in rows.columns
                           and (c != "dataset" or rows[c].nunique() > 1)],
                "label", "score"]
        if "weight" in rows.columns and not (rows["weight"] == 1).all():
            cols.append("weight")
        part = rows[cols].copy()
        part["label"] = part["label"].astype(int)  # 1 positive, 0 negative
        part["calibrated_probability"] = cal.hull_map.calibrated_scores(
            rows["score"].to_numpy(dtype=float))
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def model_uncertainties(analysis: Analysis, *, n_bins: int = 10, strategy: str = "uniform",
                        level: float = 0.95) -> dict[str, CalibrationUncertainty]:
    """Each model's reliability bands (Wilson), calibration slope and intercept (logistic
    recalibration, Wald intervals) and Spiegelhalter's test, on the card's bins
    (:func:`~roc_dash.core.constraints.calibration_intervals.calibration_uncertainty`)."""
    n_bins = n_bins if n_bins in BIN_CHOICES else 10
    strategy = strategy if strategy in STRATEGIES else "uniform"
    return {m.name: calibration_uncertainty(m.curve, n_bins=n_bins, strategy=strategy,
                                            level=level) for m in analysis.models}


def band_traces(uncertain: dict[str, CalibrationUncertainty], colors: dict[str, int]
                ) -> list[dict]:
    """Each model's bins with their intervals as error bars (added to the diagram)."""
    out = []
    for i, (name, u) in enumerate(uncertain.items()):
        b = u.bands
        if b is None:
            continue
        color = line_style(style_index(colors, name, i))["color"]
        out.append({"type": "scatter", "x": b.mean_predicted, "y": b.fraction_positive,
                    "mode": "markers", "name": f"{plain(name)}: {b.level:.0%} band",
                    "legendgroup": name, "showlegend": False, "uid": f"cal-band-{i}",
                    "marker": {"color": color, "size": 1, "opacity": 0},
                    "error_y": {"type": "data", "symmetric": False,
                                "array": b.high - b.fraction_positive,
                                "arrayminus": b.fraction_positive - b.low,
                                "color": color, "thickness": 1.5, "width": 4},
                    "hovertemplate": f"{plain(name)}: {b.level:.0%} interval of the bin's "
                                     "fraction positive<extra></extra>"})
    return out


def fit_rows(uncertain: dict[str, CalibrationUncertainty]):
    """The slope, intercept and Spiegelhalter's test per model, one line each."""
    level = next((u.fit.level for u in uncertain.values() if u.fit is not None), None)
    head = ("Calibration slope and intercept (logistic recalibration, "
            + (f"{level:.0%} " if level else "") + "Wald intervals; calibrated: slope 1, "
            "intercept 0) and Spiegelhalter's test; the diagram's bars are each bin's "
            "Wilson interval:")
    return html.Div(className="cal-fit", children=[
        html.P(head, className="hint"),
        html.Ul([html.Li(f"{name}: {fit_text(u)}", title=" ".join(u.notes))
                 for name, u in uncertain.items()])])


def calibration_outputs(analysis: Analysis | None, names: list[str], *, n_bins=10,
                        strategy="uniform", font_size=14, level=0.95):
    """``(figure, table)`` of the card: the diagram with each bin's interval, the table
    and the calibration slope, intercept and Spiegelhalter's test of each model."""
    if analysis is None:
        return empty_figure(font_size), html.P("No models.", className="hint")
    colors = {n: k for k, n in enumerate(names)}
    results = model_calibrations(analysis, n_bins=n_bins, strategy=strategy)
    uncertain = model_uncertainties(analysis, n_bins=n_bins, strategy=strategy, level=level)
    figure = calibration_figure(results, colors=colors, font_size=font_size)
    figure.add_traces(band_traces(uncertain, colors))
    return figure, html.Div([calibration_table(results, colors), fit_rows(uncertain)])


def _shown(cache, page: PageState):
    """The names of all loaded models (their colours) and the views' analysis of the shown
    ones (:func:`..analysis.shown_analysis`)."""
    return model_names(cache, page.datasets), shown_analysis(cache, page)


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The card's figure and table (only while the Compare tab is shown, and when it is
    opened), the download, and the recalibration the decision stores read from the link."""
    values_from_link(app, (("recalibration", ids.CAL_RECALIBRATE),))

    @app.callback(
        output={"figure": Output(ids.CAL_GRAPH, "figure"),
                "table": Output(ids.CAL_TABLE, "children"),
                "drawn": Output(ids.CAL_DRAWN, "data")},
        # after the views, as the superiority card: it follows every change of data or models
        inputs={"viz": State(ids.VIZ_DATA, "data"), "n_bins": Input(ids.CAL_BINS, "value"),
                "strategy": Input(ids.CAL_STRATEGY, "value"),
                "presentation": Input(ids.PRESENTATION, "value"),
                "tab": tab_gate("compare"), "page": dependencies(State, *SHOWN_FIELDS),
                "drawn": State(ids.CAL_DRAWN, "data")},
    )
    def calibration_view(viz, n_bins, strategy, presentation, tab, page, drawn):
        page = PageState.from_dash(page)
        # the views' key leaves out the costs and the prior, which calibration ignores: a
        # new cost redraws the views, not this card
        key = [viz.get("key") if isinstance(viz, dict) else None, n_bins, strategy,
               bool(presentation)]
        if not tab_shown(tab, "compare") or page.conditions is None or (
                key == drawn and key[0] is not None):
            raise PreventUpdate
        font = FONT[bool(presentation)]
        try:
            names, analysis = _shown(cache, page)
        except AnalysisTimeout as exc:  # the views' banner says it too
            return {"figure": empty_figure(font), "table": html.P(
                timeout_message(exc, len(page.models or names)), className="hint"),
                "drawn": None}
        figure, table = calibration_outputs(analysis, names, n_bins=n_bins, strategy=strategy,
                                            font_size=font, level=page.level)
        return {"figure": figure, "table": table, "drawn": key}

    @app.callback(
        output=Output(ids.CAL_DOWNLOAD, "data"),
        inputs={"clicks": Input(ids.CAL_DOWNLOAD_BUTTON, "n_clicks"),
                "page": dependencies(State, *SHOWN_FIELDS)},
        prevent_initial_call=True,
    )
    def download(clicks, page):
        page = PageState.from_dash(page)
        if not clicks:
            raise PreventUpdate
        try:
            _, analysis = _shown(cache, page)
        except AnalysisTimeout:
            raise PreventUpdate from None  # the card and the views' banner say why
        if analysis is None:
            raise PreventUpdate
        frame = calibrated_frame(cache.table(list(page.datasets),
                                             page.control.reference_class),
                                 model_calibrations(analysis))
        return dcc.send_string(frame.to_csv(index=False), "roc-dash-calibrated-scores.csv")
