"""Where browser tests put their screenshots: ``$ROC_DASH_ARTIFACTS`` if set (to keep
them), else this session's pytest temporary folder (the ``artifacts`` fixture of
``conftest.py`` sets it before any test runs). Never a fixed path of one machine."""

from __future__ import annotations

import os
from pathlib import Path


class _Shots:
    folder: Path | None = None

    def _base(self) -> Path:
        kept = os.environ.get("ROC_DASH_ARTIFACTS")
        base = Path(kept) if kept else self.folder
        if base is None:
            raise RuntimeError("no folder for screenshots: run the tests with pytest")
        base.mkdir(parents=True, exist_ok=True)
        return base

    def __truediv__(self, name: str) -> Path:
        return self._base() / name

    def mkdir(self, **_) -> None:
        self._base()


#: ``SHOTS / "name.png"``: a path in the session's screenshot folder.
SHOTS = _Shots()
