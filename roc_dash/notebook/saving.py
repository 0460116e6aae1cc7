"""Saving a figure to a file: HTML always, images through the optional ``kaleido``.

:func:`save_figure` writes any Plotly figure of roc-dash (``roc_dash.plot_roc(...)``, a
display's ``figure_``) by the path's suffix: ``.html`` (interactive, self-contained:
Plotly's JavaScript inside, opens offline) and ``.json`` need nothing more; ``.png``,
``.jpg``/``.jpeg``, ``.webp``, ``.svg`` and ``.pdf`` are drawn by Plotly's ``kaleido``
(``pip install 'roc-dash[image]'``), which drives a Chrome or Chromium of the machine
(kaleido 1.x looks for one itself; ``BROWSER_PATH`` names it when it does not find it).
Without them the error says so and what to do, and HTML still works.

Examples
--------
>>> import roc_dash, tempfile, pathlib
>>> fig = roc_dash.plot_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> with tempfile.TemporaryDirectory() as folder:
...     path = roc_dash.save_figure(fig, pathlib.Path(folder) / "roc.html")
...     path.read_text(encoding="utf-8").lower().startswith("<!doctype html>")
True
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

__all__ = ["save_figure", "ImageExportError", "IMAGE_FORMATS"]

#: Suffixes written as images by kaleido, and Plotly's name of each format.
IMAGE_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp",
                 ".svg": "svg", ".pdf": "pdf"}

#: Suffixes written by Plotly alone.
TEXT_FORMATS = (".html", ".htm", ".json")

_INSTALL = "pip install 'roc-dash[image]' (or pip install kaleido)"


class ImageExportError(RuntimeError):
    """An image (PNG, SVG, PDF...) cannot be written on this machine: kaleido or a Chrome
    is missing. The message says which, and what to do; ``.html`` still works."""


def _kaleido_missing() -> bool:
    return importlib.util.find_spec("kaleido") is None


def save_figure(fig, path, *, width: int | None = None, height: int | None = None,
                scale: float | None = None, include_plotlyjs="embed") -> Path:
    """Write ``fig`` to ``path``, in the format its suffix names.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        E.g. :func:`roc_dash.plot_roc`'s figure or a display's ``figure_``.
    path : str or Path
        Ending in ``.html`` (or ``.htm``), ``.json``, ``.png``, ``.jpg``/``.jpeg``,
        ``.webp``, ``.svg`` or ``.pdf``. Its folder must exist.
    width, height : int, optional
        Image size in CSS pixels (images only; default: the figure's, else 700 × 500).
    scale : float, optional
        Multiplies the resolution of raster images (``scale=2`` for a sharp PNG).
    include_plotlyjs : "embed", "cdn" or bool
        HTML only: ``"embed"`` (default) puts Plotly's JavaScript in the file, which then
        opens offline (about 4.7 MB); ``"cdn"`` links it from the web (small file).

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    ValueError
        The suffix is not one of these, or the folder does not exist.
    ImageExportError
        An image was asked for and kaleido, or the Chrome it drives, is not there.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in TEXT_FORMATS and suffix not in IMAGE_FORMATS:
        known = ", ".join((*TEXT_FORMATS, *IMAGE_FORMATS))
        raise ValueError(f"cannot save a figure as {path.name!r}: give a path ending in one "
                         f"of {known} (.html needs nothing more; images need kaleido).")
    if not path.parent.is_dir():
        raise ValueError(f"cannot save {path.name!r}: the folder {str(path.parent)!r} does "
                         "not exist; create it first or give another path.")
    if suffix in (".html", ".htm"):
        embed = include_plotlyjs == "embed"
        fig.write_html(path, include_plotlyjs=True if embed else include_plotlyjs,
                       full_html=True)
    elif suffix == ".json":
        fig.write_json(path)
    else:
        _write_image(fig, path, IMAGE_FORMATS[suffix], width=width, height=height, scale=scale)
    return path


def _write_image(fig, path: Path, fmt: str, **size) -> None:
    what = f"{path.suffix.lower()[1:].upper()} ({path.name!r})"
    if _kaleido_missing():
        raise ImageExportError(
            f"saving a figure as {what} needs the optional kaleido package, which is not "
            f"installed: {_INSTALL}. Kaleido also needs Chrome or Chromium on the machine. "
            "Saving as .html needs nothing more.")
    size = {k: v for k, v in size.items() if v is not None}
    try:
        fig.write_image(path, format=fmt, **size)
    except Exception as exc:  # kaleido's errors have no common base: classified by text
        text = f"{type(exc).__name__}: {exc}"
        if "chrome" in text.lower() or "browser" in text.lower():
            named = os.environ.get("BROWSER_PATH")
            where = (f"BROWSER_PATH names {named!r}: give the path of a Chrome or Chromium "
                     "executable there, or unset it" if named else
                     "install one (e.g. apt-get install chromium, or plotly_get_chrome), or "
                     "set BROWSER_PATH to its executable")
            raise ImageExportError(
                f"saving a figure as {what} needs Chrome or Chromium, which kaleido could not "
                f"start ({_first_line(text)}): {where}. Saving as .html needs nothing "
                "more.") from exc
        raise


def _first_line(text: str, n: int = 160) -> str:
    """The error's type and the first line of its message that says something."""
    kind, _, message = text.partition(": ")
    line = next((ln.strip() for ln in message.splitlines() if ln.strip()), "")
    line = line if len(line) <= n else line[: n - 1] + "…"
    return f"{kind}: {line}" if line else kind
