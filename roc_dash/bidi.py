"""Invisible direction controls, taken out of every name someone supplies.

Unicode's bidirectional embedding, override and isolate controls (U+202A–U+202E,
U+2066–U+2069), the direction marks (U+200E, U+200F, U+061C) are invisible, and an override
reverses the text after it: a model named ``"\\u202egnp.lr"`` is drawn ``rl.png``, and the
text that follows the name in a legend or a table cell (``" (test.csv)"``, an AUC) is drawn
reversed too ("Trojan source", CVE-2021-42574). No model, class, fold, group or file name
needs them: the readers (:mod:`roc_dash.io`) take them out of names with the surrounding
whitespace they already trim (so names that differ only by them are one name, as names
that differ only by surrounding spaces are), and the figures' :func:`roc_dash.figures.style.plain`
takes them out of whatever else reaches a figure (column headers that name models).
Nothing here imports the layers above.
"""

from __future__ import annotations

__all__ = ["BIDI_CONTROLS", "BIDI_PATTERN", "without_bidi"]

#: The invisible direction controls (embeddings, overrides, isolates, marks).
BIDI_CONTROLS = ("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                 "\u2066\u2067\u2068\u2069")
#: A regular expression (Python ``re`` and RE2, for pyarrow) matching any one of them.
BIDI_PATTERN = "[" + BIDI_CONTROLS + "]"

_DROP = str.maketrans(dict.fromkeys(BIDI_CONTROLS))


def without_bidi(text: str) -> str:
    """``text`` without :data:`BIDI_CONTROLS`."""
    return text.translate(_DROP)
