"""What a server worker imports (issue 14: "< 400 MB peak per worker under the load test").

Every module a worker imports stays resident in it for its life, three workers over. The
libraries below are needed by none of the page's requests, or only by a rare one that imports
them itself (the DuckDB/Spark engines of ``roc-dash report``, scikit-learn for a decision
record): importing them with the app cost a worker ~40 MB resident for ``scipy.stats`` alone
(it brings ``scipy.optimize``, ``scipy.linalg`` and ``scipy.sparse``; measured with
``/proc/self/smaps_rollup``). Each test runs a fresh interpreter, as gunicorn's worker does,
and reads its ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

#: Imported by no request of the page (or lazily by the rare one that needs it).
HEAVY = ("scipy.stats", "scipy.optimize", "scipy.linalg", "scipy.sparse", "duckdb",
         "statsmodels", "sklearn", "pyspark", "plotly.express", "matplotlib")


def _modules_after(code: str, tmp_path: Path) -> set[str]:
    """The names in ``sys.modules`` once ``code`` has run in a fresh interpreter at the
    repository's root (as ``gunicorn app:server`` runs), with its data under ``tmp_path``."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    env = {"ROC_DASH_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_imf001_importing_the_app_leaves_the_heavy_libraries_out(tmp_path):
    modules = _modules_after("import app", tmp_path)
    assert "roc_dash.app" in modules and "scipy.special" in modules  # the import did run
    assert sorted(m for m in HEAVY if m in modules) == []


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_imf002_serving_the_page_leaves_them_out_too(tmp_path):
    """What gunicorn.conf.py's warm-up does in each worker: the page, then its layout."""
    modules = _modules_after(
        "import app\nfrom werkzeug.test import Client\nc = Client(app.server)\n"
        "assert c.get('/').status_code == 200\n"
        "assert c.get('/_dash-layout').status_code == 200\n", tmp_path)
    assert sorted(m for m in HEAVY if m in modules) == []


@pytest.mark.parametrize("heavy", ["scipy.stats", "duckdb"])
@pytest.mark.slow
def test_imf003_the_check_sees_an_import(tmp_path, heavy):
    """The check itself: a module imported beside the app is found."""
    assert heavy in _modules_after(f"import app\nimport {heavy}", tmp_path)
