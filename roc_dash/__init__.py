"""roc-dash: ROC analysis of classifier predictions, as a library, a CLI and a Dash app.

In a notebook: :func:`plot_roc`, :func:`plot_pr` and :func:`plot_cost` draw the page's views
of your predictions in one call, :func:`show` runs the dashboard on them
(:mod:`roc_dash.notebook`, :mod:`roc_dash.showing`); :func:`constraints_of` and its
``plot_*`` decide under a capacity, floors on metrics or a cost matrix
(:mod:`roc_dash.constraints_api`). They are imported on first use, so
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
    "show": "showing",
    # decisions under constraints (roc_dash.constraints_api)
    "constraints_of": "constraints_api",
    "plot_gains": "constraints_api",
    "plot_lift": "constraints_api",
    "plot_floors": "constraints_api",
    "plot_reliability_bands": "constraints_api",
    "plot_pr_bands": "constraints_api",
    "decide_classes": "constraints_api",
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
