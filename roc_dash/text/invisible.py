"""Invisible characters, taken out of every name someone supplies.

Unicode's *format* characters (general category ``Cf``) draw nothing. Among them the
bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) reverse the
text after them: a model named ``"\\u202egnp.lr"`` is drawn ``rl.png``, and the text that
follows the name in a legend or a table cell (``" (test.csv)"``, an AUC) is drawn reversed too
("Trojan source", CVE-2021-42574). Others (zero-width space U+200B, joiners, the byte-order
mark U+FEFF, U+206A–U+206F) make two names that look the same: ``rf`` and ``r\\u200bf``.
No model, class, fold, group, file or view name needs them.

* The readers (:mod:`roc_dash.io`) take them out of names, with the surrounding whitespace
  they already trim, and compare column names without them. Two different names that
  become one without them are refused (:func:`merged_names`): rows of one model must never
  join another model's curve unnoticed.
* The figures' :func:`roc_dash.figures.style.plain` takes them out of whatever else reaches
  a figure; notes and saved views' names lose them when stored.

Nothing here imports the layers above.
"""

from __future__ import annotations

import functools
import sys
import unicodedata
from collections.abc import Iterable

__all__ = ["BIDI_CONTROLS", "INVISIBLE_PATTERN", "invisible_characters", "merged_names",
           "shown_plainly", "without_invisible"]

#: The direction controls among them (embeddings, overrides, isolates, marks).
BIDI_CONTROLS = ("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                 "\u2066\u2067\u2068\u2069")
#: An RE2 pattern (pyarrow's ``replace_substring_regex``) matching any one of them.
INVISIBLE_PATTERN = r"\p{Cf}"


@functools.cache
def invisible_characters() -> str:
    """Every format character (``Cf``) of Python's Unicode database (163 in Unicode 15;
    looked up once, on first use: ~0.1 s)."""
    return "".join(chr(c) for c in range(sys.maxunicode + 1)
                   if unicodedata.category(chr(c)) == "Cf")


@functools.cache
def _drop() -> dict:
    return str.maketrans(dict.fromkeys(invisible_characters()))


def without_invisible(text: str) -> str:
    """``text`` without its invisible characters (:func:`invisible_characters`)."""
    return text.translate(_drop())


def shown_plainly(text: str) -> str:
    """``text`` with each invisible character written as its code point, ``<U+202E>``, for
    messages that must show where two names differ."""
    return "".join(f"<U+{ord(c):04X}>" if ord(c) in _drop() else c for c in str(text))


def merged_names(names: Iterable[str]) -> tuple[str, str] | None:
    """Two of ``names`` that differ other than by surrounding whitespace and become the
    same name without invisible characters, or None (names that differ only by surrounding
    whitespace are one name, as the readers have always taken them)."""
    seen: dict[str, str] = {}
    for name in names:
        if name is None:
            continue
        trimmed = str(name).strip()
        if trimmed == without_invisible(trimmed):
            key = trimmed
        else:
            key = without_invisible(trimmed).strip()
        other = seen.setdefault(key, trimmed)
        if other != trimmed:
            return other, trimmed
    return None
