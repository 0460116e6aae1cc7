"""The monitor's modules are under the architecture's contracts (`.importlinter`): a forbidden
import in each breaks the contract that names it (mon050), the way
tests/unit/project/test_contracts.py shows it for the others."""

from __future__ import annotations

import pytest

from tests.unit.project import test_contracts as contracts


@pytest.mark.parametrize("module, line, contract", [
    ("core/monitoring/shift.py", "import plotly.graph_objects", "core is pure analysis"),
    ("core/monitoring/monitor.py", "import dash", "core is pure analysis"),
    ("io/windows.py", "from roc_dash.report import html_monitor", "the packages in floors"),
    ("decision/monitoring.py", "import plotly", "decision records and the CI gate"),
    ("figures/monitoring.py", "from roc_dash.cli import monitor", "the packages in floors"),
    ("core/monitoring/reference.py", "from roc_dash.io import errors",
     "the packages in floors"),
    ("core/monitoring/labelled.py", "from roc_dash.core.assembly import analysis",
     "core in floors"),
    ("report/html_monitor.py", "import dash", "reports are files"),
])
def test_mon050_a_forbidden_import_in_the_monitor_breaks_its_contract(tmp_path, module, line,
                                                                      contract):
    contracts.test_con002_a_forbidden_import_breaks_its_contract(tmp_path, module, line,
                                                                 contract)
