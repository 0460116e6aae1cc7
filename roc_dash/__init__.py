"""roc-dash: ROC analysis of classifier predictions, as a library, a CLI and a Dash app."""

__version__ = "0.1.0"
