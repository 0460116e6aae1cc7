"""The shape of the code (arc001-arc005): no import cycles in roc_dash, no module takes another's
private names, the app's features never import one another, the layers below them never
import them, and the app's files and functions stay small.

Edges are read with :mod:`ast` from every ``import`` in every module of the package, at any
depth (an import inside a function is an edge too). A package's ``__init__`` being run by
importing one of its modules is not counted: only the imports written in the code.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import roc_dash

ROOT = Path(roc_dash.__file__).parent
APP = "roc_dash.app"
FEATURES = f"{APP}.features"
#: The modules of the app below its features (the page and create_app sit above them).
BELOW_FEATURES = (f"{APP}.state", f"{APP}.analysis", f"{APP}.render", f"{APP}.overlays",
                  f"{APP}.components", f"{APP}.ids", f"{APP}.help", f"{APP}.server",
                  f"{APP}.view_patches", f"{APP}.page_state", f"{APP}.gestures",
                  f"{APP}.chosen_points", f"{APP}.removal", f"{APP}.link_report")
#: Longest file in roc_dash/app, in lines, and longest function.
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
#: Files over :data:`MAX_FILE_LINES` not yet split (path relative to roc_dash/app); render.py
#: passed 600 lines (599 -> 605) when core's modules moved into subpackages (longer import
#: paths, wrapped), nothing else in it changed.
LONG_FILES_LEFT = {"server/store.py", "render.py"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


@cache
def _tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(encoding="utf-8"))


def _is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module name a ``from ... import`` names."""
    if not node.level:
        return node.module or ""
    package = module if _is_package(module) else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


@cache
def imports(module: str) -> list[tuple[str, str | None, ast.AST]]:
    """``(target module, imported name or None, node)`` for every import in ``module`` of
    a module of roc_dash (``from pkg import mod`` counts as an import of ``pkg.mod``)."""
    tree = _tree(module)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, None, node) for a in node.names if a.name in modules())
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            if target not in modules():
                continue
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in modules():
                    out.append((sub, None, node))
                else:
                    out.append((target, a.name, node))
    return out


def edges() -> dict[str, set[str]]:
    return {m: {t for t, _, _ in imports(m) if t != m} for m in modules()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _private(name: str | None) -> bool:
    return bool(name) and name.startswith("_") and not name.startswith("__")


def private_uses() -> list[str]:
    """``module: name`` for every private name one module takes from another, by import or
    by attribute of an imported module."""
    found = []
    for module in modules():
        bound = {}
        for target, name, node in imports(module):
            if name is None:
                for a in node.names:
                    bound[(a.asname or a.name).split(".")[0]] = target
            elif _private(name) and target != module:
                found.append(f"{module}: {target}.{name}")
        for node in ast.walk(_tree(module)):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in bound and _private(node.attr)
                    and bound[node.value.id] != module):
                found.append(f"{module}: {bound[node.value.id]}.{node.attr}")
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@pytest.mark.slow
def test_arc001_no_import_cycles():
    assert cycles(edges()) == []


def test_arc001_cycles_are_seen():
    """The detector is not blind: a loop of three is one component."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


#: Packages whose modules still share private helpers with one another (core.curves' `_cross`,
#: io.readers' `_mb`, ...): they are being reorganised in a branch of their own (issue 16);
#: once merged, remove them from here and the check covers them too.
PRIVATE_SHARING_LEFT = ("roc_dash.core", "roc_dash.io")


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_arc002_no_private_names_across_modules():
    found = [f for f in private_uses() if not any(
        _within(f.split(":")[0], p) for p in PRIVATE_SHARING_LEFT)]
    assert found == []


def test_arc003_features_never_import_one_another():
    wrong = [f"{m} -> {t}" for m, targets in edges().items() if _within(m, FEATURES)
             and m != FEATURES for t in targets if _within(t, FEATURES) and t != m]
    assert wrong == []


def test_arc004_layers_below_the_features_never_import_them():
    above = (FEATURES, f"{APP}.page")
    wrong = [f"{m} -> {t}" for m, targets in edges().items()
             if any(_within(m, b) for b in BELOW_FEATURES)
             for t in targets if any(_within(t, a) for a in above) or t == APP]
    server = [f"{m} -> {t}" for m, targets in edges().items() if _within(m, f"{APP}.server")
              for t in targets if _within(t, APP) and not _within(t, f"{APP}.server")]
    analysis_core = [f"{m} -> {t}" for m, targets in edges().items()
                     if _within(m, "roc_dash.core")
                     for t in targets if _within(t, APP)]
    assert wrong == [] and server == [] and analysis_core == []


def test_arc005_app_files_and_functions_stay_small():
    app = ROOT / "app"
    long_files = {str(p.relative_to(app)) for p in app.rglob("*.py")
                  if len(p.read_text(encoding="utf-8").splitlines()) > MAX_FILE_LINES}
    assert long_files <= LONG_FILES_LEFT, long_files - LONG_FILES_LEFT
    long_functions = []
    for p in app.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long_functions.append(f"{p.relative_to(app)}:{node.name} ({n} lines)")
    assert long_functions == []
