"""What the frozen result dataclasses of core share: their length is the size of one array.

A result whose fields are parallel arrays (one entry a vertex, bin or threshold) says its
length in one line, ``__len__ = length_of("recall")``, instead of writing the method again.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["length_of"]


def length_of(field: str) -> Callable[[object], int]:
    """A ``__len__`` method that returns the size of the array attribute ``field``."""

    def __len__(self) -> int:
        return int(getattr(self, field).size)

    __len__.__doc__ = f"The number of entries: the size of ``{field}``."
    return __len__
