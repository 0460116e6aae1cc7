"""The page's words for what the core refuses: one place that turns a core ``ValueError``
worded for a programmer (its arguments' names: ``budget=``, ``fraction=``, ``n_total``,
``prior_pos``, ``K``) into a sentence that names the page's control, the value and what to
type instead. The core's own messages stay as they are (a script reads them); every
callback that shows an exception's text to the user goes through :func:`not_used` or
:func:`in_page_words`, and a message the core already words for people passes unchanged
(its first word capitalised, a full stop at its end)."""

from __future__ import annotations

import re

from ..text.capacity_words import less_than_one_case

__all__ = ["in_page_words", "not_used", "reason_of", "less_than_one_case", "zero_capacity"]

_NUM = r"([-+0-9.eE]+|inf|nan)"


def _g(text: str) -> str:
    """A number of the core's message as the page writes it (6 significant digits)."""
    try:
        return f"{float(text):,.6g}"
    except ValueError:
        return text


def zero_capacity(typed: str, in_cases: bool = True) -> str:
    """The hint under the capacity's box when it is 0 (``typed``: as typed; ``in_cases``:
    a number of cases, not a share): used, but it flags no case (review9)."""
    what = f"{typed} cases" if in_cases else typed
    return (f"A capacity of {what} flags nothing: no case is flagged, every positive is "
            "missed. Give a number of cases above 0 (800) or a share (3%) to flag some.")


def _fraction_as_count(m, control):
    return less_than_one_case(float(m.group(1)), float(m.group(2)))


def _share_out_of_range(m, control):
    return (f"{control} must be a share between 0% and 100% of the cases, not "
            f"{100 * float(m.group(1)):,.6g}%")


def _too_many(m, control):
    return (f"{control} is more than the {_g(m.group(1))} cases of the data: give at most "
            f"{_g(m.group(1))}, or a share (3%)")


#: (pattern of a core message, the page's words for ``control``). Checked in order.
_RULES = (
    (re.compile(rf"budget={_NUM} looks like a fraction of the cases.*n_total={_NUM}"),
     _fraction_as_count),
    (re.compile(rf"fraction must lie in \[0, 1\], got {_NUM}"), _share_out_of_range),
    (re.compile(r"K must lie between 0 and the ([0-9,.eE+]+) cases of the data"), _too_many),
    (re.compile(r"budget must be a non-negative number of cases"),
     lambda m, control: f"{control} must be a number of cases of 0 or more"),
    (re.compile(r"n_total must be a positive number of cases"),
     lambda m, control: "the number of cases it is out of (cases per month, or the volume) "
                        "must be above 0"),
    (re.compile(r"prior_pos must lie strictly between 0 and 1"),
     lambda m, control: "the prior p(+) must lie strictly between 0% and 100%: set the "
                        "prior above 0 and below 1"),
)


def reason_of(exc, control: str = "the value") -> str:
    """The reason in ``exc`` as the page says it (:func:`in_page_words`), its first letter
    as the core wrote it: for inside a sentence."""
    text = " ".join(str(exc).split()).rstrip(".")
    for pattern, words in _RULES:
        m = pattern.search(text)
        if m:
            return words(m, control)
    return text


def in_page_words(exc, control: str = "the value") -> str:
    """The reason in ``exc`` (a core ``ValueError`` or its text) as the page says it, for
    what was typed in ``control`` (``"the capacity"``, ``"the budget"``): one sentence
    ending in a full stop, its first word capitalised (not a name it starts with)."""
    text = reason_of(exc, control)
    if re.match(r"[a-z]+[ ,]", text):  # a word, not a name ("gbm.csv: …", "rf: …")
        text = text[:1].upper() + text[1:]
    return f"{text}."


def not_used(setting: str, exc, control: str | None = None) -> str:
    """``"<setting> not used: <reason>."``, the sentence under a box whose value the core
    refused (``setting``: "Capacity", "Floor", "Cost matrix"; ``control``: how the reason
    names the value, "the capacity" by default)."""
    return f"{setting} not used: {reason_of(exc, control or f'the {setting.lower()}')}."
