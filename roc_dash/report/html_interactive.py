"""The interactive part of the standalone HTML report: cost and prior controls that move the
iso line and the optimum in the browser, with no server.

The report embeds, as JSON, the exact ROC convex hulls (the joint hull and each model's):
every vertex with its rates, its threshold and the confusion counts of the operating point it
stands for. ``report_assets/standalone.js`` (inlined after ``assets/optimum.js``, the page's
and the report's one browser copy of the rule, ``window.rocDashOptimum``) applies the one rule
of :func:`roc_dash.core.roc.hull.optimal_point` to them (Fawcett 2004, section 7.1: the optimum
maximises ``TPR − m·FPR`` over the hull; ties by :func:`~roc_dash.core.roc.hull.iso_gaps` with
:data:`~roc_dash.core.roc.hull.TIE_RTOL`, the conservative end of a tied segment), computes the
slope as :func:`~roc_dash.core.roc.iso_performance.iso_performance_slope` does and the point's
figures as :func:`~roc_dash.core.decisions.operating.operating_point` does, in the same floating-point
operations, so that it names the same vertex and the same numbers as Python.
"""

from __future__ import annotations

import html
import json
import math
from importlib import resources

from ..core.analysis_types import Analysis
from ..core.decisions.operating import vertex_at_threshold
from ..core.roc.hull import TIE_RTOL, RocHull

__all__ = ["interactive_payload", "interactive_html", "standalone_script", "try_words"]


def _number(v: float):
    """A float for JSON: the infinities and NaN (a threshold) as strings, read back by the
    script's ``num``; every finite float round-trips exactly (``repr``)."""
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _hull_rows(hull: RocHull, curves: dict, fallback) -> dict:
    """The vertices of ``hull`` as columns: the hull's own ``fpr``, ``tpr``, ``threshold`` and
    model (for the optimum's rule), and the operating point each stands for, read off its
    model's curve at that threshold (:func:`~roc_dash.core.decisions.operating.vertex_at_threshold`)
    with that vertex's rates and test-set counts, as ``operating_point`` does. Vertices of
    no model (the trivial classifiers) are read off ``fallback``'s curve."""
    out: dict[str, list] = {k: [] for k in ("fpr", "tpr", "threshold", "model", "point_fpr",
                                             "point_tpr", "point_threshold", "tp", "fp", "fn",
                                             "tn")}
    for f, t, thr, name in zip(hull.fpr, hull.tpr, hull.thresholds, hull.models, strict=True):
        model = str(name) if str(name) in curves else fallback
        curve = curves[model]
        k = vertex_at_threshold(curve, thr)
        cf, ct = float(curve.fpr[k]), float(curve.tpr[k])
        tp, fp = ct * curve.n_pos, cf * curve.n_neg
        out["fpr"].append(float(f))
        out["tpr"].append(float(t))
        out["threshold"].append(_number(thr))
        out["model"].append(model)
        out["point_fpr"].append(cf)
        out["point_tpr"].append(ct)
        out["point_threshold"].append(_number(curve.thresholds[k]))
        out["tp"].append(tp)
        out["fp"].append(fp)
        out["fn"].append(float(curve.n_pos - tp))
        out["tn"].append(float(curve.n_neg - fp))
    return out


def interactive_payload(analysis: Analysis) -> dict:
    """What the report's script needs, as plain JSON-able data: the conditions it opens at,
    the tie tolerance, the joint hull and each model's hull (see :func:`_hull_rows`)."""
    c = analysis.conditions
    curves = {m.name: m.curve for m in analysis.models}
    first = analysis.models[0].name
    return {
        "conditions": {"cost_fp": float(c.cost_fp), "cost_fn": float(c.cost_fn),
                       "prior_pos": float(c.prior_pos), "benefit_tp": float(c.benefit_tp),
                       "benefit_tn": float(c.benefit_tn)},
        "tie_rtol": TIE_RTOL,
        "joint": _hull_rows(analysis.hull, curves, first),
        "models": [{"name": m.name, "hull": _hull_rows(m.hull, {m.name: m.curve}, m.name)}
                   for m in analysis.models],
    }


def standalone_script() -> str:
    """The report's script, to inline: the optimum rule it shares with the page
    (``roc_dash/assets/optimum.js``), then ``roc_dash/report_assets/standalone.js``."""
    files = resources.files("roc_dash")
    return "\n".join(files.joinpath(name).read_text(encoding="utf-8")
                     for name in ("assets/optimum.js", "report_assets/standalone.js"))


def _json_for_script(data) -> str:
    """JSON safe inside ``<script>``: no ``</`` can close the element early."""
    return json.dumps(data, allow_nan=False, separators=(",", ":")).replace("</", "<\\/")


_CONTROLS = """
<h2 id="rr-try">Try other costs and priors</h2>
<p class="muted">Move a slider or type a number: the iso-performance line, the optimum and its
markers in the three views, the sentence and the confusion matrix below follow, computed in
this page over the exact convex hulls (no server). The tables and the decision above and the
average precision in the PR legend stay at the exported conditions.{constrained}</p>
<div class="controls" id="rr-controls">
{rows}
<button type="button" id="rr-reset">Back to the exported conditions</button>
</div>
<p class="summary" id="rr-sentence"></p>
<div class="grid2">
<div><h3>Confusion matrix on the test set</h3><table class="confusion" id="rr-confusion"></table>
</div>
<div><h3>Per 1,000 cases at the prior</h3><table class="confusion" id="rr-per1000"></table>
</div>
</div>
<h3>Each model's own optimum</h3><table id="rr-models"></table>
"""

_ROW = ('<label class="ctl"><span>{label}</span><input type="range" id="rr-{key}-slider" '
        'min="{lo}" max="{hi}" step="{step}" aria-label="{label} (slider)">'
        '<input type="number" id="rr-{key}" min="{nmin}" {nmax} step="any" value="{value}" '
        'aria-label="{label}"></label>')

CSS = """
.controls{display:grid;grid-template-columns:1fr;gap:.4rem;background:#f5f8fb;
border:1px solid #dfe3e8;border-radius:6px;padding:.6rem .8rem;margin-bottom:.8rem}
.ctl{display:grid;grid-template-columns:17rem 1fr 9rem;align-items:center;gap:.8rem}
.ctl input[type=number]{width:8.5rem;font:inherit}.grid2{display:grid;
grid-template-columns:1fr 1fr;gap:1rem}table.confusion td,table.confusion th{min-width:6rem}
#rr-reset{justify-self:start}
"""


def try_words(constraints: str) -> str:
    """What the controls do under a capacity or floors (``constraints``: the words naming
    them, as the operating point's box has them; ``""``: none): the script recomputes the
    optimum over the hulls under the costs and the prior alone, so it says that the
    constraints are left out here and where the choice under them is made again."""
    if not constraints:
        return ""
    return (f" This page leaves out {html.escape(constraints)}: once moved, the controls "
            "show the optimum under the costs and the prior alone, not the point the "
            "decision above chose under them, which is not recomputed here. To choose "
            "under them at other costs or priors, change those in roc-dash (the Decide "
            "tab keeps them) or run roc-dash decide with them.")


def interactive_html(analysis: Analysis, constraints: str = "") -> str:
    """The controls, the live sentence and tables, the embedded hulls and the script;
    ``""`` without models. The figures are found by their ids ``rr-roc``, ``rr-pr`` and
    ``rr-cost`` (see :func:`roc_dash.report.html.render_html`). ``constraints``: the
    capacity and floors the report's decision is under (:func:`try_words`)."""
    if not analysis.models:
        return ""
    c = analysis.conditions
    rows = "\n".join(_ROW.format(label=label, key=key, lo=lo, hi=hi, step=step, nmin=nmin,
                                 nmax=nmax, value=html.escape(repr(float(value))))
                     for label, key, lo, hi, step, nmin, nmax, value in (
        ("Cost of a false positive c(FP)", "cost_fp", -3, 3, 0.01, 0, "", c.cost_fp),
        ("Cost of a false negative c(FN)", "cost_fn", -3, 3, 0.01, 0, "", c.cost_fn),
        ("Deployment prior p(+)", "prior_pos", 0.001, 0.999, 0.001, 0, 'max="1"',
         c.prior_pos)))
    return (_CONTROLS.format(rows=rows, constrained=try_words(constraints))
            + '<script type="application/json" id="rr-data">'
            + _json_for_script(interactive_payload(analysis)) + "</script>\n<script>"
            + standalone_script() + "</script>")

