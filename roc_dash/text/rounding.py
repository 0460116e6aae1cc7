"""One rounding rule for every number shown to a person: 6 significant digits.

The page's hovers, the HTML report, the CLI's text and the README's examples show numbers
this way; the JSON report and the CSV exports keep full precision. Nothing here imports the
layers above (figures, report, CLI and app all import it; core does not need it).

* :func:`sig` for text built in Python: ``format(x, ".6g")`` (trailing zeros dropped),
  infinities as ``+∞``/``−∞``, a missing number as ``n/a``.
* :func:`rule_threshold` for every threshold shown (a person may type it into a rule, "flag
  iff score >= t"): :func:`sig` unless that rounds up past ``t``, then ``t`` exactly
  (0.9999999994 is not shown as 1, which would flag nothing). The page, the HTML reports,
  the exports' text and the CLI all show thresholds this way
  (:func:`roc_dash.figures.style.format_threshold` is it).
* :data:`HOVER` for plotly's hovertemplates: ``%{x:.6~g}``, d3-format's same rule (d3's
  ``.6g`` keeps trailing zeros, its ``~`` drops them as Python does).
"""

from __future__ import annotations

import math

__all__ = ["SIGNIFICANT_DIGITS", "HOVER", "sig", "signed", "rule_threshold"]

#: Significant digits of every number shown to a person.
SIGNIFICANT_DIGITS = 6
#: The d3 format of a number in a plotly hovertemplate: ``f"%{{x:{HOVER}}}"``.
HOVER = f".{SIGNIFICANT_DIGITS}~g"


def sig(value) -> str:
    """``value`` to :data:`SIGNIFICANT_DIGITS` significant digits, as a person reads it.

    ``None`` and NaN give ``"n/a"``, infinities ``"+∞"``/``"−∞"``; any other real number
    ``format(value, ".6g")``.
    """
    if value is None:
        return "n/a"
    v = float(value)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return "+∞" if v > 0 else "−∞"
    return format(v, f".{SIGNIFICANT_DIGITS}g")


def signed(value) -> str:
    """:func:`sig` with the sign always written (``+0.0123``, ``-0.05``): a difference."""
    text = sig(value)
    return text if text.startswith(("+", "-", "−", "n/a")) else "+" + text


def rule_threshold(value) -> str:
    """A threshold as a rule's bound: :func:`sig`, or the exact value where that rounds up.

    ``score >= sig(t)`` must flag every case ``score >= t`` flags; a threshold that 6 digits
    round up (``0.9999999994643758`` to ``1``) would flag none of the cases between them.
    Then the shortest text that reads back as ``t`` exactly (``repr``) is shown.
    """
    text = sig(value)
    if value is None or not math.isfinite(float(value)) or float(text) <= float(value):
        return text
    return repr(float(value))
