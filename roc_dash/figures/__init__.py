"""Pure functions from core results to ``plotly.graph_objects.Figure``."""

from .cost import cost_figure
from .precision_recall import pr_figure
from .roc import roc_figure
from .style import GRAPH_CONFIG

__all__ = ["GRAPH_CONFIG", "cost_figure", "pr_figure", "roc_figure"]
