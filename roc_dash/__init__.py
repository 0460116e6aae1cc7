"""roc-dash: ROC analysis of classifier predictions, as a library, a CLI and a Dash app.

In a notebook: :func:`plot_roc`, :func:`plot_pr` and :func:`plot_cost` draw the page's views
of your predictions in one call, :func:`show` runs the dashboard on them
(:mod:`roc_dash.notebook`, :mod:`roc_dash.notebook.showing`), as do the display objects in
scikit-learn's shape :class:`RocDisplay`, :class:`PrecisionRecallDisplay` and
:class:`CostDisplay`, and :func:`save_figure` writes a figure to HTML, PNG, SVG or PDF
(:mod:`roc_dash.notebook.displays`, :mod:`roc_dash.notebook.saving`); :func:`monitor` checks a
shipped decision window by window (:mod:`roc_dash.decision.monitoring`); :func:`constraints_of` and its
``plot_*`` decide under a capacity, floors on metrics or a cost matrix
(:mod:`roc_dash.notebook.constraints`). They are imported on first use, so
``import roc_dash`` stays light (no Plotly, no Dash).
"""

__version__ = "0.1.0"

#: Public names imported on first use, and the module that defines each.
_LAZY = {
    "plot_roc": "notebook",
    "plot_pr": "notebook",
    "plot_cost": "notebook",
    "predictions_table": "notebook",
    "analysis_of": "notebook",
    "show": "notebook.showing",
    # scikit-learn's display objects and saving a figure
    "RocDisplay": "notebook.displays",
    "PrecisionRecallDisplay": "notebook.displays",
    "CostDisplay": "notebook.displays",
    "save_figure": "notebook.saving",
    "monitor": "decision.monitoring",
    # decisions under constraints (roc_dash.notebook.constraints)
    "constraints_of": "notebook.constraints",
    "plot_gains": "notebook.constraints",
    "plot_lift": "notebook.constraints",
    "plot_floors": "notebook.constraints",
    "plot_reliability_bands": "notebook.constraints",
    "plot_pr_bands": "notebook.constraints",
    "decide_classes": "notebook.constraints",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
