"""Numbers the server reads from its environment (``ROC_DASH_*`` variables)."""

from __future__ import annotations

import os

__all__ = ["env_number"]


def env_number(name: str, default: float) -> float:
    """The positive number in the environment variable ``name``; ``default`` when it is
    unset, not a number, zero or negative."""
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default
