"""The architecture's import contracts (`.importlinter`) hold, and they fail when a
layer imports what it must not: a copy of the package with one forbidden import breaks the
contract that names it (so a kept contract means something)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
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
    ("core/roc/hull.py", "import plotly.graph_objects", "core is pure analysis"),
    ("core/roc/hull.py", "from roc_dash.core.decisions import economics", "core in floors"),
    ("core/decisions/economics.py", "from roc_dash.core.assembly import analysis",
     "core in floors"),
    ("core/labels.py", "from roc_dash.core.roc import curves", "core in floors"),
    # a type taken from the floor above, even for type checking only, is a broken floor
    ("core/decisions/uncertainty.py", "import typing\nif typing.TYPE_CHECKING:\n"
     "    from roc_dash.core.assembly.analysis import analyse", "core in floors"),
    ("io/columns.py", "import flask", "io reads files"),
    ("io/columns.py", "from roc_dash.figures import roc", "the packages in floors"),
    ("text/rounding.py", "from roc_dash.core import labels", "the packages in floors"),
    ("figures/cost.py", "import dash", "figures are pure functions"),
    ("report/exports.py", "import dash", "reports are files"),
    ("decision/record.py", "import dash", "decision records and the CI gate"),
    ("decision/gate.py", "from roc_dash.app import ids", "the packages in floors"),
    ("app/features/pins.py", "from . import views", "the app's features do not import"),
    ("app/server/store.py", "from .. import state", "the app in layers"),
    ("app/ids.py", "from . import state", "the app in layers"),
    ("notebook/__init__.py", "import dash", "notebook figures are the page's figures"),
])
def test_con002_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    target = _copy(tmp_path) / module
    target.write_text(target.read_text() + f"\n{line}  # a broken rule\n")
    assert _broken(tmp_path) == [contract]


@pytest.mark.parametrize("module, contract", [
    ("app/drawing_helpers.py", "the app in layers"),
    ("loose_module.py", "the packages in floors"),
    ("core/loose_module.py", "core in floors"),
])
def test_con003_a_module_without_its_floor_breaks_the_layers(tmp_path, module, contract):
    """The layers are exhaustive: a new module of the app or of roc_dash that is not given
    its floor in `.importlinter` is refused, even before it imports anything."""
    (_copy(tmp_path) / module).write_text('"""A new module, not placed yet."""\n')
    assert _broken(tmp_path) == [contract]


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "roc_dash", tmp_path / "roc_dash",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "assets"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path / "roc_dash"


def _broken(tmp_path: Path) -> list[str]:
    """The contracts broken in the copy under ``tmp_path``, each named by the start of its
    name that the tests use (one line of lint-imports' report per broken contract)."""
    out = _lint(tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    broken = [ln.removesuffix(" BROKEN") for ln in out.stdout.splitlines()
              if ln.endswith("BROKEN")]
    known = ("core is pure analysis", "core in floors", "io reads files", "the packages in floors",
             "figures are pure functions", "reports are files",
             "decision records and the CI gate", "the app's features do not import",
             "the app in layers", "notebook figures are the page's figures")
    return [next((k for k in known if ln.startswith(k)), ln) for ln in broken]
