"""A read-only attribute that a result type takes from one of its parts."""

from __future__ import annotations


def forwarded(part: str, name: str) -> property:
    """A property returning ``self.<part>.<name>`` (e.g. an operating point's ``fpr`` read
    off its hull optimum), documented as such."""
    return property(lambda self: getattr(getattr(self, part), name),
                    doc=f"``{name}`` of :attr:`{part}`.")
