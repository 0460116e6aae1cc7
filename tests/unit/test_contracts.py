"""The architecture's import contracts (`.importlinter`, issue 16) hold, and they fail when a
layer imports what it must not: a copy of the package with one forbidden import breaks the
contract that names it (so a kept contract means something)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run([str(LINT), "--no-cache"], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_con001_the_contracts_are_kept():
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


@pytest.mark.parametrize("module, line, contract", [
    ("core/hull.py", "import plotly.graph_objects", "core is pure analysis"),
    ("io/columns.py", "from roc_dash.figures import roc", "io reads files"),
    ("figures/cost.py", "import dash", "figures are pure functions"),
    ("app/features/pins.py", "from . import views", "the app's features do not import"),
    ("app/server/store.py", "from .. import state", "the app in layers"),
    ("gate.py", "from roc_dash.app import ids", "decision records and the CI gate"),
    ("notebook.py", "import dash", "notebook figures are the page's figures"),
])
def test_con002_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    shutil.copytree(ROOT / "roc_dash", tmp_path / "roc_dash",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "assets"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    target = tmp_path / "roc_dash" / module
    target.write_text(target.read_text() + f"\n{line}  # a broken rule\n")
    out = _lint(tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    broken = [ln for ln in out.stdout.splitlines() if ln.endswith("BROKEN")]
    assert len(broken) == 1 and broken[0].startswith(contract), out.stdout
