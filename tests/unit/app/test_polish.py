"""Polish after the review meeting: tooltips, report, threshold view, wording."""

from __future__ import annotations

from dash import dcc, html

from roc_dash.app.page import build_layout

CONTROLS = (html.Button, dcc.Input, dcc.Textarea, dcc.Dropdown, dcc.RadioItems, dcc.Checklist,
            dcc.Slider)


def _walk(node, titled=False, labels=None):
    """(component, covered) for every control: covered when it, an enclosing element or
    the label of its box or of its control group carries a title."""
    labels = {} if labels is None else labels
    title = getattr(node, "title", None)
    here = titled or bool(title)
    children = getattr(node, "children", None)
    if isinstance(node, CONTROLS):
        yield node, here
    if children is None or isinstance(children, str | int | float):
        return
    kids = children if isinstance(children, list | tuple) else [children]
    # a group (div.control) whose label has a title covers what it holds
    group = any(isinstance(k, html.Label) and getattr(k, "title", None) for k in kids)
    for k in kids:
        yield from _walk(k, here or group, labels)


def _labels(node, out):
    if isinstance(node, html.Label) and getattr(node, "htmlFor", None) and \
            getattr(node, "title", None):
        out.add(node.htmlFor)
    children = getattr(node, "children", None)
    if isinstance(children, list | tuple):
        for k in children:
            _labels(k, out)
    elif children is not None and not isinstance(children, str | int | float):
        _labels(children, out)
    return out


def test_pol101_every_control_in_the_layout_has_a_title():
    layout = build_layout()
    labelled = _labels(layout, set())
    missing = [getattr(c, "id", None) or getattr(c, "children", None)
               for c, covered in _walk(layout)
               if not covered and getattr(c, "id", None) not in labelled]
    assert not missing, f"controls without a tooltip: {missing}"
    assert sum(1 for _ in _walk(layout)) > 30


def test_pol102_named_controls_carry_their_sources():
    from roc_dash.app.help import HELP

    assert "Flach & Kull 2015" in HELP["pr_radio"] and "Davis & Goadrich 2006" in HELP["pr_radio"]
    for key in ("delta_auc", "z", "p_value"):
        assert "DeLong et al. 1988" in HELP[key]


def test_pol103_sensitivity_words_use_the_one_rounding_rule():
    from types import SimpleNamespace as NS

    from roc_dash.app.components import sensitivity_words

    rng = NS(uses_benefits=False, tpr=0.6, fpr=0.2,
             ratio=NS(low=3.0, high=9.0, low_open=False, high_open=False),
             prior=NS(low=0.28, high=0.32245, low_open=False, high_open=False))
    text = sensitivity_words(rng)
    assert "between 3 and 9" in text and "between 0.28 and 0.32245" in text  # 6 significant
    # plain English: no article before a ratio, one before the prior
    assert "while c(FN)/c(FP) is between" in text and "the c(FN)" not in text
    assert "while the prior p(+) is between" in text
    open_ended = NS(**{**vars(rng), "ratio": NS(low=1, high=2, low_open=True, high_open=True)})
    assert "whatever c(FN)/c(FP) at this prior" in sensitivity_words(open_ended)


def test_pol104_a_difference_that_rounds_to_zero_has_no_sign():
    from roc_dash.app.components import _signed

    assert _signed(-1e-6, 3, pct=True) == "0.0 pt"
    assert _signed(-0.02, 3, pct=True) == "-2.0 pt"
    assert _signed(-1e-7, 4) == "-1e-07"  # 6 significant digits, sign kept
    assert _signed(-1e-17, 4) == "0" and _signed(0.0, 4) == "0"  # noise about 0: unsigned


def test_pol105_a_typed_pin_that_is_not_a_number_says_why():
    from roc_dash.app.features.pins import pin_from_input

    pin, why = pin_from_input("naive Bayes", "abc")
    assert pin is None and "“abc” is not a number" in why
    pin, why = pin_from_input("naive Bayes", " ")
    assert pin is None and "Type a score threshold" in why
    assert pin_from_input("naive Bayes", "0.5")[0] == {"model": "naive Bayes", "threshold": 0.5}


def test_pol106_threshold_view_names_its_model_and_whether_its_optimum_is_the_overall_one(tmp_path):
    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.server.store import DEMO_ID, DatasetStore
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.core.decisions.economics import Economics
    from roc_dash.figures.threshold import threshold_figure

    cache = AnalysisCache(DatasetStore(tmp_path / "data"))
    models = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
    analysis = cache.analysis([DEMO_ID], models, Conditions(prior_pos=0.27))
    best = analysis.optimal.model
    other = next(m for m in models if m != best)
    e = Economics(cost_fp=1.0, cost_fn=1.0)
    fig = threshold_figure(analysis, best, e)
    assert best in fig.layout.title.text
    assert "is the overall optimum" in fig.layout.title.subtitle.text
    assert f"optimum of {best}" in [t.name for t in fig.data]
    fig = threshold_figure(analysis, other, e)
    text = fig.layout.title.text + " " + fig.layout.title.subtitle.text
    assert other in text and "not the overall optimum" in text and best in text
    assert f"optimum of {other}" in [t.name for t in fig.data]


def test_pol107_html_report_carries_every_pin_the_comparison_the_summary_and_the_views(tmp_path):
    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.components import plain_text
    from roc_dash.app.render import decision_views
    from roc_dash.app.server.store import DEMO_ID, DatasetStore
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.core.decisions.economics import Economics
    from roc_dash.core.decisions.operating import pinned_points
    from roc_dash.report.html import ReportState, render_html

    cache = AnalysisCache(DatasetStore(tmp_path / "data"))
    models = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
    analysis = cache.analysis([DEMO_ID], models, Conditions(prior_pos=0.27))
    pins = pinned_points(analysis, [
        {"model": "naive Bayes", "threshold": 0.5, "label": "A"},
        {"model": "decision tree", "threshold": 0.3, "label": "B"},
        {"model": "logistic regression", "threshold": 0.2, "label": "C"}])
    strip, _ = decision_views(analysis, [], Economics(cost_fp=1.0, cost_fn=1.0))
    summary = plain_text(strip)
    assert summary.startswith("Use logistic regression") and "stays optimal while" in summary
    page = render_html(analysis, state=ReportState(
        pins=tuple(pins), operating=pins[-1], summary=summary,
        views=(("screening", "http://x/?cfn=5"),)))
    for letter in "ABC":
        assert f"pinned {letter}" in page
    assert "Operating points compared" in page and "Δ cost per 1,000 cases" in page
    assert "Δ flagged" in page and "stays optimal while" in page
    assert '<a href="http://x/?cfn=5">screening</a>' in page


def test_pol108_iso_f1_labels_sit_inside_the_pr_frame_and_the_hover_marker_is_a_dot(tmp_path):
    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.server.store import DEMO_ID, DatasetStore
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.figures import pr_figure

    cache = AnalysisCache(DatasetStore(tmp_path / "data"))
    analysis = cache.analysis([DEMO_ID], ["naive Bayes"], Conditions(prior_pos=0.27))
    fig = pr_figure(analysis)
    labels = [a for a in fig.layout.annotations if (a.text or "").startswith("F1=")]
    assert labels and all(a.x < 1.0 and a.xanchor == "right" for a in labels)
    hover = fig.layout.annotations[0]
    assert hover.name == "hover" and hover.arrowhead == 6  # a circle at the point
