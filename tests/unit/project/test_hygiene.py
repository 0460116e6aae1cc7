"""The test suite's own rules, checked in its source (issue 15 §1).

Browser tests wait for the event they need with one generous limit (``ROC_DASH_TEST_WAIT``),
never a fixed sleep or a short per-call timeout; tests write only under pytest's temporary
folders, never a fixed path such as ``/tmp/<name>``, ``$HOME`` or the checkout.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
BROWSER = sorted((TESTS / "browser").glob("*.py"))
#: The tests and the helpers they share with the benchmarks and scripts (tools/).
ALL = sorted(TESTS.rglob("*.py")) + sorted((TESTS.parent / "tools").glob("*.py"))


def _callee(call: ast.Call) -> tuple[str, str]:
    """``("time", "sleep")`` for ``time.sleep(...)``, ``("", "sleep")`` for ``sleep(...)``."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
    return owner, name


def _calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield (node, *_callee(node))


def sleeps(source: str, path: str = "") -> list[int]:
    """Lines that sleep: ``time.sleep``/``sleep`` calls (in gestures.py only inside
    ``pace`` and the poll of ``wait_until``), and ``pace`` called outside gestures.py."""
    in_gestures = path.endswith("gestures.py")
    allowed = {"pace", "wait_until"} if in_gestures else set()
    found = []

    class Visitor(ast.NodeVisitor):
        stack: list[str] = []

        def visit_FunctionDef(self, node):  # noqa: N802 - ast's name
            self.stack.append(node.name)
            self.generic_visit(node)
            self.stack.pop()

        def visit_Call(self, node):  # noqa: N802
            owner, name = _callee(node)
            where = self.stack[-1] if self.stack else ""
            if name == "sleep" and owner in ("time", "") and where not in allowed:
                found.append(node.lineno)
            if name == "pace" and not in_gestures:
                found.append(node.lineno)
            self.generic_visit(node)

    Visitor().visit(ast.parse(source))
    return sorted(set(found))


def short_waits(source: str) -> list[int]:
    """Lines of a wait (``wait_until``, ``wait_for_*``, ``WebDriverWait``) given its own
    limit instead of the suite's one (``WAIT``)."""
    lines = []
    for call, _, name in _calls(ast.parse(source)):
        if name == "wait_until" or name.startswith("wait_for") or name == "WebDriverWait":
            limits = [k.value for k in call.keywords if k.arg == "timeout"]
            if name == "WebDriverWait" and len(call.args) > 1:
                limits.append(call.args[1])
            if name == "wait_until" and len(call.args) > 1:
                limits.append(call.args[1])
            if any(not (isinstance(v, ast.Name) and v.id == "WAIT") for v in limits):
                lines.append(call.lineno)
    return lines


def test_hyg001_browser_tests_never_sleep():
    offenders = {p.name: sleeps(p.read_text(), str(p)) for p in BROWSER}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_hyg001_the_check_catches_a_sleep():
    assert sleeps("import time\ndef t():\n    time.sleep(0.5)\n", "test_x.py") == [3]
    assert sleeps("from time import sleep\nsleep(1)\n", "test_x.py") == [2]
    assert sleeps("from .gestures import pace\ndef t():\n    pace(1)\n", "test_x.py") == [3]
    # the poll of wait_until and the pacing of a gesture are the only pauses in gestures.py
    assert sleeps("def pace(s):\n    time.sleep(s)\n", "gestures.py") == []
    assert sleeps("def drag():\n    time.sleep(0.1)\n", "gestures.py") == [2]


def test_hyg002_browser_waits_use_the_one_generous_limit():
    offenders = {p.name: short_waits(p.read_text()) for p in BROWSER}
    assert {k: v for k, v in offenders.items() if v} == {}
    from tests.browser import gestures

    assert gestures.WAIT >= 60 or "ROC_DASH_TEST_WAIT" in __import__("os").environ
    import inspect

    assert inspect.signature(gestures.wait_until).parameters["timeout"].default is None


def test_hyg002_the_check_catches_a_short_timeout():
    assert short_waits("wait_until(f, timeout=10, message='x')\n") == [1]
    assert short_waits("dash_duo.wait_for_element('#a', timeout=5)\n") == [1]
    assert short_waits("dash_duo.wait_for_contains_text('#a', 'b', 15)\n") == []  # positional
    assert short_waits("wait_until(f, message='x')\n") == []
    assert short_waits("dash_duo.wait_for_page(timeout=WAIT)\n") == []


FIXED_PATH = re.compile(r"""["'](/tmp/|/var/tmp/|~/)|mkdtemp\(|gettempdir\(|Path\.home\(\)""")


def test_hyg003_tests_write_only_under_pytest_tmp_folders():
    offenders = [f"{p.relative_to(TESTS.parent)}:{n}" for p in ALL if p.name != "test_hygiene.py"
                 for n, line in enumerate(p.read_text().splitlines(), 1)
                 if FIXED_PATH.search(line)]
    assert offenders == []
    fixed = "/" + "tmp/pol/roc.png"  # built here so that this file names no absolute path
    assert FIXED_PATH.search(f"shutil.copy(path, {fixed!r})")
    assert FIXED_PATH.search("Path(tempfile.mkdtemp())")


def test_hyg003_screenshots_default_to_the_session_tmp_folder(pytestconfig, monkeypatch):
    """Without ``ROC_DASH_ARTIFACTS`` the browser screenshots go under pytest's basetemp."""
    source = (TESTS / "browser" / "conftest.py").read_text()
    assert "/tmp" not in source and "tmp_path_factory" in source
    base = pytestconfig._tmp_path_factory.getbasetemp()
    from tests.browser.conftest import artifacts

    monkeypatch.delenv("ROC_DASH_ARTIFACTS", raising=False)
    folder = artifacts.__wrapped__(pytestconfig._tmp_path_factory)
    assert base in folder.parents


@pytest.mark.parametrize("var", ["ROC_DASH_DATA_DIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"])
def test_hyg004_default_folders_point_into_the_session_tmp(pytestconfig, var):
    import os

    base = pytestconfig._tmp_path_factory.getbasetemp()
    assert base in Path(os.environ[var]).parents
    assert base in Path(os.environ["HOME"]).parents and Path.home() == Path(os.environ["HOME"])


ROOT = TESTS.parent
MAKE_NAMED = re.compile(r"[`(]make ([A-Za-z][\w./-]*)")


def make_targets() -> set[str]:
    return {m.group(1) for m in re.finditer(r"^([\w./$()-]+):(?!=)", (ROOT / "Makefile")
                                            .read_text(), re.M)}


def named_make_commands() -> dict[str, set[str]]:
    """``make <target>`` named in the README and docs pages (shell blocks and inline code) and in the
    messages/docstrings of the code, tests, benchmarks and scripts."""
    found: dict[str, set[str]] = {}
    files = [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("roc_dash/**/*.py"), *ROOT.glob("tests/**/*.py"),
             *ROOT.glob("bench/*.py"), *ROOT.glob("scripts/*.py")]
    for path in files:
        if path.name == "test_hygiene.py":
            continue
        text = path.read_text(encoding="utf-8")
        names = set(MAKE_NAMED.findall(text))
        if path.suffix == ".md":
            names |= set(re.findall(r"^\s*make ([A-Za-z][\w./-]*)", text, re.M))
        for name in names:
            found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def test_hyg005_every_make_command_named_exists():
    targets = make_targets()
    assert {"test", "run", "java-deps", "browser-deps"} <= targets
    missing = {k: v for k, v in named_make_commands().items() if k not in targets}
    assert missing == {}
    assert MAKE_NAMED.findall("reason='(make test-spark)'") == ["test-spark"]


def rule(makefile: str, target: str) -> tuple[list[str], str]:
    """The prerequisites and the recipe of ``target`` in ``makefile``."""
    head, body = re.search(rf"^{re.escape(target)}:(.*)\n((?:\t.*\n)*)", makefile, re.M).groups()
    return head.split(), body


def test_hyg006_make_test_all_installs_java_for_the_spark_test_and_ci_runs_it():
    makefile = (ROOT / "Makefile").read_text()
    deps, recipe = rule(makefile, "test-all")
    assert {"java-deps", "browser-deps", "nginx-deps", "redis-deps", "node-deps"} <= set(deps)
    # everything: the quick tier (in parallel) and then the slow tier, headless
    runs = [line.strip() for line in recipe.splitlines() if "pytest" in line]
    quick = re.search(r"^QUICK := (.*)$", makefile, re.M).group(1)
    assert quick.startswith('-m "not slow"')
    assert len(runs) == 2 and "$(QUICK)" in runs[0]
    assert "--headless" in runs[1] and "-m slow " in runs[1]
    java = makefile.split("\njava-deps:", 1)[1].split("\n\n", 1)[0]
    assert "default-jre-headless" in java and "apt-get install" in java
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-2:] == ["make lint", "make test-all"]
    # what CI runs is a command the README shows
    assert re.search(r"^make test-all\b", (ROOT / "README.md").read_text(), re.M)


def test_hyg009_make_test_is_the_quick_tier_and_needs_no_browser_java_or_nginx():
    makefile = (ROOT / "Makefile").read_text()
    deps, recipe = rule(makefile, "test")
    assert not {"java-deps", "browser-deps", "nginx-deps", "node-deps"} & set(deps)
    assert "$(QUICK)" in recipe and re.search(r'^QUICK := -m "not slow"( -n auto)?$', makefile, re.M)
    assert re.search(r"^make test\b", (ROOT / "README.md").read_text(), re.M)


def fixed_machine_paths(source: str) -> list[int]:
    """Lines with a string literal naming a folder of one machine (``/work/...``,
    ``/root/...``, ``/home/...``): tests write under pytest's temporary folder only."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.match(
                r"^/(work|root|home)(/|$)", node.value):
            found.append(node.lineno)
    return sorted(found)


def test_hyg007_no_test_names_a_folder_of_one_machine():
    assert fixed_machine_paths('SHOTS = "/work/shots/x.png"\nok = "/tmp"\n') == [1]
    offenders = {str(p.relative_to(ROOT)): lines for p in ALL
                 if (lines := fixed_machine_paths(p.read_text(encoding="utf-8")))}
    assert offenders == {}, f"tests that name a folder of one machine: {offenders}"


#: What a reader of the package or its documentation cannot follow: a path to the team's own
#: copy of the papers, and the number of an issue in the team's tracker.
UNFOLLOWABLE = re.compile(r"shared/papers|\bissues? [0-9]+\b", re.I)


def unfollowable(text: str) -> list[str]:
    """The lines of ``text`` citing the papers' folder or an internal issue number."""
    return [line.strip() for line in text.splitlines() if UNFOLLOWABLE.search(line)]


def test_hyg008_package_readme_and_docs_cite_no_papers_folder_nor_issue_numbers():
    """Sources are cited by authors, year, title, venue and section (numpydoc References),
    and a change is described by what it does, not by its number in the tracker."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *(p for p in sorted((ROOT / "roc_dash").rglob("*")) if p.is_file()
               and p.suffix in (".py", ".js", ".css", ".md", ".html", ".txt"))]
    assert len(files) > 100
    found = {str(p.relative_to(ROOT)): lines for p in files
             if (lines := unfollowable(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_hyg008_the_check_catches_a_path_or_an_issue_number():
    assert unfollowable('Fawcett (2004) (``../shared/papers/000_*``), section 7.1\nok') == [
        "Fawcett (2004) (``../shared/papers/000_*``), section 7.1"]
    assert len(unfollowable("(issue 14)\nIssue 17's targets\nissues 3 and 4\nissue-free")) == 3
    assert unfollowable("plotly/dash#3971, the 14 issues left, tissue 5") == []


def imports_of_tests(source: str) -> list[int]:
    """Lines importing the ``tests`` package (or a module of it)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
        if any(n == "tests" or n.startswith("tests.") for n in names):
            found.append(node.lineno)
    return found


def test_hyg010_benchmarks_and_scripts_never_import_the_tests():
    """What the tests share with bench/ and scripts/ lives in tools/, which both import."""
    files = sorted((ROOT / "bench").rglob("*.py")) + sorted((ROOT / "scripts").rglob("*.py"))
    assert len(files) > 10
    offenders = {str(p.relative_to(ROOT)): lines for p in files
                 if (lines := imports_of_tests(p.read_text(encoding="utf-8")))}
    assert offenders == {}


def test_hyg010_the_check_catches_an_import_of_the_tests():
    source = ("import tests.bombs\nfrom tests import bombs\nfrom tests.harness import x\n"
              "import testsuite\nfrom tools import bombs\nfrom . import tests\n"
              "def f():\n    from tests.hostile.test_nginx import NGINX\n")
    assert imports_of_tests(source) == [1, 2, 3, 8]


@pytest.mark.parametrize(("where", "fixtures", "marks", "reasons"), [
    ("unit/test_x.py", ["tmp_path"], [], set()),
    ("unit/test_x.py", ["dash_duo"], [], {"browser", "slow"}),
    ("unit/test_x.py", ["open_server"], [], {"server", "slow"}),
    ("browser/test_x.py", ["tmp_path"], [], {"browser", "slow"}),
    ("hostile/test_x.py", [], [], {"server", "slow"}),
    ("unit/test_x.py", [], ["kernel"], {"kernel", "slow"}),
    ("unit/test_x.py", [], ["slow", "parametrize"], {"slow"}),
])
def test_hyg011_the_tiers_put_servers_browsers_and_kernels_in_the_slow_tier(
        where, fixtures, marks, reasons):
    from tests.conftest import slow_reasons

    assert slow_reasons(TESTS / where, fixtures, marks) == reasons


def test_hyg011_every_test_here_carries_its_tier(request):
    """The marks are on the collected items (what ``-m "not slow"`` selects by)."""
    assert request.node.get_closest_marker("slow") is None
    session_items = request.session.items
    browser = [i for i in session_items if "tests/browser/" in str(i.path).replace("\\", "/")]
    assert all(i.get_closest_marker("slow") and i.get_closest_marker("browser") for i in browser)
