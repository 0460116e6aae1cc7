"""One rounding rule for every number shown to a person: 6 significant digits.

The page's hovers, the HTML report, the CLI's text and the README's examples show numbers
this way; the JSON report and the CSV exports keep full precision. Nothing here imports the
layers above (figures, report, CLI and app all import it; core does not need it).

* :func:`sig` for text built in Python: ``format(x, ".6g")`` (trailing zeros dropped),
  infinities as ``+∞``/``−∞``, a missing number as ``n/a``.
* :func:`rule_threshold` for every threshold shown (a person may type it into a rule, "flag
  iff score >= t"): :func:`sig` unless that rounds up past ``t``, then its 6 digits rounded
  down (0.9999999994 is shown as 0.999999, not as 1, which would flag nothing); given the
  highest score below ``t``, as many digits as keep the rule's cases exactly. The page, the HTML reports,
  the exports' text and the CLI all show thresholds this way
  (:func:`roc_dash.figures.style.format_threshold` is it).
* :data:`HOVER` for plotly's hovertemplates: ``%{x:.6~g}``, d3-format's same rule (d3's
  ``.6g`` keeps trailing zeros, its ``~`` drops them as Python does).
"""

from __future__ import annotations

import math
from decimal import ROUND_FLOOR, Decimal, localcontext

__all__ = ["SIGNIFICANT_DIGITS", "HOVER", "sig", "signed", "rule_threshold", "percent",
           "limit_percent"]

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


def rule_threshold(value, below=None) -> str:
    """A threshold as a rule's bound: :func:`sig`, or 6 digits rounded down where that rounds up.

    ``score >= text`` must flag every case ``score >= t`` flags: a threshold that 6 digits
    round up (``0.9999999994643758`` to ``1``) would flag none of the cases between them, and
    ``0.46702173`` shown as ``0.467022`` would leave out the case at the threshold itself. Then
    the 6 digits are rounded down instead (``0.999999``, ``0.467021``). ``below``, when the
    caller knows it, is the highest score under ``t``: the text then also stays above it
    (more digits where needed, up to the exact value), so the rule flags exactly the cases
    ``score >= t`` flags.
    """
    text = sig(value)
    if value is None or not math.isfinite(float(value)):
        return text
    t = float(value)
    low = -math.inf if below is None else float(below)
    if low < float(text) <= t:
        return text
    for digits in range(6, 18):
        with localcontext() as context:
            context.prec, context.rounding = digits, ROUND_FLOOR
            floored = format(float(+Decimal(t)), f".{digits}g")
        for candidate in (format(t, f".{digits}g"), floored):  # rounded, else rounded down
            if low < float(candidate) <= t:
                return candidate
    return repr(t)


def percent(v: float) -> str:
    """A rate (0 to 1) in a sentence, every rate of it alike: "57%", "0.35%" below 1% (never
    "0%" above 0, "<0.01%" below 0.01%), "99.6%" above 99% (never "100%" below 1); "—" when
    undefined. (The summary strip's and the constrained choice's notes' rule.)"""
    p = 100.0 * v if v is not None and math.isfinite(v) else math.nan
    if p != p:
        return "—"
    if p in (0.0, 100.0) or 1.0 <= p <= 99.0:
        return f"{p:.0f}%"
    if 0.0 < p < 0.01:
        return "<0.01%"
    return f"{p:.2g}%" if p < 1.0 else f"{math.floor(p * 10) / 10:.1f}%"


def limit_percent(v: float, bound: str = "<=") -> str:
    """A limit (0 to 1) in percent, never rounded past it (review 11): ``"18.75%"`` for
    300 of 1,600 (not ``percent``'s "19%", which an upper limit ``≤`` must not exceed); the
    exact value when 4 significant digits hold it, else 2 decimals rounded toward the
    inside of the limit (down for ``"<="``, up for ``">="``): ``"33.33%"`` for ``≤ 1/3``."""
    if v is None or not math.isfinite(v):
        return "—"
    p = 100.0 * v
    short = f"{p:.4g}"
    if math.isclose(float(short), p, rel_tol=1e-12, abs_tol=1e-12):
        return f"{short}%"
    step = math.floor(p * 100) if bound == "<=" else math.ceil(p * 100)
    return f"{step / 100:.2f}%"
