"""docs/slices.md speaks of the Slices card as it is (dsc001): every label of the card's
column selectors is named in the page, and the page does not say that choosing a column
other than ``group`` is missing."""

from __future__ import annotations

from pathlib import Path

from roc_dash.app.features import slices

ROOT = Path(__file__).resolve().parents[3]


def _labels(node):
    """The texts of the ``html.Label`` components under ``node``."""
    if getattr(node, "_type", None) == "Label":
        yield node.children
    children = getattr(node, "children", None)
    for child in children if isinstance(children, list | tuple) else [children]:
        if hasattr(child, "_type"):
            yield from _labels(child)


def test_dsc001_the_slices_page_names_the_cards_column_selectors():
    text = (ROOT / "docs" / "slices.md").read_text(encoding="utf-8")
    labels = [t for t in _labels(slices.card()) if t in ("Slice by", "crossed with")]
    assert sorted(labels) == ["Slice by", "crossed with"]
    for label in labels:
        assert f"*{label}*" in text
    assert "not there yet" not in text
