"""Pure functions from core results to ``plotly.graph_objects.Figure``."""

from .roc import roc_figure
from .style import GRAPH_CONFIG

__all__ = ["GRAPH_CONFIG", "roc_figure"]
