#!/usr/bin/env python3
"""Move roc-dash's modules into packages by job, and rewrite every reference to the old paths.

Usage (from the root of a roc-dash checkout, e.g. the lead after merging a branch)::

    python3 scripts/move_modules.py            # move what is still at an old path, rewrite
    python3 scripts/move_modules.py --dry-run  # only list the files it would change
    python3 scripts/move_modules.py --repo /work/main --no-ruff
    python3 scripts/move_modules.py --only top   # (or core) one half of the map

Then check: ``.venv/bin/ruff check . && .venv/bin/lint-imports --no-cache``. A module a branch
added loose to roc_dash/ or roc_dash/core/ must be given a floor in ``.importlinter`` (the
layers contracts are exhaustive): move it into its package (add it to :data:`MOVES` and run
this again, or ``git mv`` it and run this again to fix its imports).

What it does, in order:

1. ``git mv`` every module still at its old path to its new one (:data:`MOVES`; the modules of
   :data:`BECOME_PACKAGES` become their package's ``__init__.py``, keeping their dotted name).
   A module found at both paths (e.g. a branch re-created it) is reported, not touched.
2. Rewrites the references to an old module in ``roc_dash/``, ``tests/``, ``bench/``,
   ``scripts/``, ``docs/``, ``examples/`` (the notebook's JSON too), ``app.py``,
   ``gunicorn.conf.py``, ``Dockerfile``, ``README.md``, ``.importlinter``, ``Makefile``,
   ``pyproject.toml``, ``.ci/``, ``deploy/``:

   * ``import``/``from`` statements, absolute and relative (a relative import in a moved file
     is read relative to where it stands now if that names an existing module and the names
     it imports exist there, else relative to where the file came from: a line a branch
     added to the old file is fixed too); ``from roc_dash import cli_gate`` becomes
     ``from roc_dash.cli import decide_check as cli_gate`` (the local name kept);
   * the result types that moved out of ``core/assembly/analysis.py`` (:data:`NAME_MOVES`)
     are imported from their new module;
   * dotted names anywhere (strings such as ``mock.patch("roc_dash.gate.x")``,
     ``-m roc_dash.cli_gate``, docstrings, docs), file paths ``roc_dash/core/hull.py`` (and
     ``core/hull.py``), and in Markdown the short ``core.hull`` form;

   then sorts the imports of the Python files it changed (``ruff check --select I --fix``).

Idempotent: only references to old paths are touched (no new path starts with an old one),
so running it again changes nothing. It never edits anything else in a file. A literal old
path that must stay (a test about old pickles) is spelt in pieces so that it is not matched.
Not done by it: code a branch changed inside the five result classes that moved from
``core/assembly/analysis.py`` to ``core/analysis_types.py`` (a merge conflict: apply the
change in ``core/analysis_types.py``), and ``_LAZY`` in ``roc_dash/__init__.py``.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

P = "roc_dash."

#: Modules that become their package's ``__init__.py`` (same dotted name: nothing to rewrite
#: but the relative imports inside them).
BECOME_PACKAGES = ["roc_dash.cli", "roc_dash.decision", "roc_dash.report", "roc_dash.notebook"]

#: old module -> new module
MOVES: dict[str, str] = {
    # command line: `roc-dash` (roc_dash.cli:main), its shared arguments, decide and check
    "roc_dash.cli_args": "roc_dash.cli.args",
    "roc_dash.cli_gate": "roc_dash.cli.decide_check",
    # decisions: the record (roc_dash.decision is the package), the CI gate's criteria
    "roc_dash.decision_record": "roc_dash.decision.record",
    "roc_dash.gate": "roc_dash.decision.gate",
    # reports: JSON (roc_dash.report is the package), HTML, CSV, text
    "roc_dash.slices_report": "roc_dash.report.slices",
    "roc_dash.html_report": "roc_dash.report.html",
    "roc_dash.html_interactive": "roc_dash.report.html_interactive",
    "roc_dash.html_plotly": "roc_dash.report.html_plotly",
    "roc_dash.comparison_text": "roc_dash.report.comparison_text",
    "roc_dash.exports": "roc_dash.report.exports",
    # notebook: the figures (roc_dash.notebook is the package) and show()
    "roc_dash.showing": "roc_dash.notebook.showing",
    # text shown to a person
    "roc_dash.rounding": "roc_dash.text.rounding",
    "roc_dash.invisible": "roc_dash.text.invisible",
    # io: datasets side by side (not combining classifiers)
    "roc_dash.io.combine": "roc_dash.io.side_by_side",
    # core: ROC space (curves, hull, the curves read from them)
    "roc_dash.core.curves": "roc_dash.core.roc.curves",
    "roc_dash.core.curve_geometry": "roc_dash.core.roc.curve_geometry",
    "roc_dash.core.hull": "roc_dash.core.roc.hull",
    "roc_dash.core.iso_performance": "roc_dash.core.roc.iso_performance",
    "roc_dash.core.averaging": "roc_dash.core.roc.averaging",
    "roc_dash.core.per_fold_curves": "roc_dash.core.roc.per_fold_curves",
    "roc_dash.core.score_scales": "roc_dash.core.roc.score_scales",
    "roc_dash.core.fold_thresholds": "roc_dash.core.roc.fold_thresholds",
    "roc_dash.core.confusion": "roc_dash.core.roc.confusion",
    "roc_dash.core.precision_recall": "roc_dash.core.roc.precision_recall",
    "roc_dash.core.pr_interpolation": "roc_dash.core.roc.pr_interpolation",
    "roc_dash.core.precision_recall_gain": "roc_dash.core.roc.precision_recall_gain",
    "roc_dash.core.cost_curves": "roc_dash.core.roc.cost_curves",
    # core: statistics and intervals
    "roc_dash.core.statistics": "roc_dash.core.inference.statistics",
    "roc_dash.core.partial_auc": "roc_dash.core.inference.partial_auc",
    "roc_dash.core.cross_validation": "roc_dash.core.inference.cross_validation",
    "roc_dash.core.model_comparison": "roc_dash.core.inference.model_comparison",
    "roc_dash.core.noninferiority": "roc_dash.core.inference.noninferiority",
    "roc_dash.core.calibration": "roc_dash.core.inference.calibration",
    # core: costs and decisions
    "roc_dash.core.economics": "roc_dash.core.decisions.economics",
    "roc_dash.core.operating": "roc_dash.core.decisions.operating",
    "roc_dash.core.threshold_costs": "roc_dash.core.decisions.threshold_costs",
    "roc_dash.core.optimality": "roc_dash.core.decisions.optimality",
    "roc_dash.core.chosen_point": "roc_dash.core.decisions.decision_summary",
    "roc_dash.core.uncertainty": "roc_dash.core.decisions.uncertainty",
    "roc_dash.core.optimum_wins": "roc_dash.core.decisions.optimum_frequency",
    "roc_dash.core.point_intervals": "roc_dash.core.decisions.point_intervals",
    "roc_dash.core._point_resampling": "roc_dash.core.decisions._point_resampling",
    "roc_dash.core.proportion_intervals": "roc_dash.core.decisions.proportion_intervals",
    "roc_dash.core.decision_curve": "roc_dash.core.decisions.decision_curve",
    "roc_dash.core.data_fingerprint": "roc_dash.core.decisions.data_fingerprint",
    "roc_dash.core.drift": "roc_dash.core.decisions.drift",
    "roc_dash.core._exact_paths": "roc_dash.core.roc._exact_paths",
    "roc_dash.cli_constraints": "roc_dash.cli.constraints",
    "roc_dash.constraints_api": "roc_dash.notebook.constraints",
    "roc_dash.constraints_html": "roc_dash.report.constraints_html",
    "roc_dash.constraints_report": "roc_dash.report.constraints",
    "roc_dash.estimators": "roc_dash.decision.estimators",
    "roc_dash.multiclass_decision": "roc_dash.decision.multiclass",
    "roc_dash.cli_monitor": "roc_dash.cli.monitor",
    "roc_dash.monitor_report": "roc_dash.decision.monitor_report",
    "roc_dash.html_monitor": "roc_dash.report.html_monitor",
    "roc_dash.monitoring": "roc_dash.decision.monitoring",
    "roc_dash.core.choice_correction": "roc_dash.core.decisions.choice_correction",
    # core: combining classifiers
    "roc_dash.core.budget_mix": "roc_dash.core.combining.capacity_mix",
    "roc_dash.core.concavity_repair": "roc_dash.core.combining.concavity_repair",
    "roc_dash.core.logical_combining": "roc_dash.core.combining.logical_combining",
    "roc_dash.core.superiority": "roc_dash.core.combining.superiority",
    # core: input kinds
    "roc_dash.core.canonical_kinds": "roc_dash.core.kinds.canonical_kinds",
    "roc_dash.core.multiclass": "roc_dash.core.kinds.multiclass",
    "roc_dash.core.soft_labels": "roc_dash.core.kinds.soft_labels",
    "roc_dash.core.instance_costs": "roc_dash.core.kinds.instance_costs",
    "roc_dash.core.leaves": "roc_dash.core.kinds.leaves",
    # core: one model group by group
    "roc_dash.core.slices": "roc_dash.core.subgroups.slices",
    "roc_dash.core.group_thresholds": "roc_dash.core.subgroups.group_thresholds",
    # core: assembly
    "roc_dash.core.assembly.beyond_binary": "roc_dash.core.assembly.extensions",
}

#: (module, name) -> the module that defines the name now (the analysis's result types, on a
#: floor below the modules that read them).
NAME_MOVES: dict[tuple[str, str], str] = {
    ("roc_dash.core.assembly.analysis", name): "roc_dash.core.analysis_types"
    for name in ("Conditions", "Operating", "ModelAnalysis", "Comparison", "Analysis")
}

TARGETS = ["roc_dash", "tests", "bench", "scripts", "docs", "examples", ".ci", "deploy",
           "app.py", "gunicorn.conf.py", "Dockerfile", "README.md", ".importlinter",
           "Makefile", "pyproject.toml", "compose.yaml"]
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".cfg", ".ini", ".txt", ".yaml", ".yml",
                 ".js", ".sh", ".conf", ".json", ".rst"}
TEXT_NAMES = {"Dockerfile", "Makefile", ".importlinter", "run"}
SKIP_DIRS = {".venv", "__pycache__", ".git", "node_modules", ".pytest_cache", ".hypothesis"}

INVERSE = {new: old for old, new in MOVES.items()}


def _check_map() -> None:
    for new in MOVES.values():
        for old in MOVES:
            assert new != old and not new.startswith(old + "."), (old, new)
    assert len(set(MOVES.values())) == len(MOVES), "two modules moved to one place"
    assert not (set(BECOME_PACKAGES) & set(MOVES))


def parent(name: str) -> str:
    return name.rpartition(".")[0]


# ---------------------------------------------------------------------------------------------
# the tree as it stands


class Tree:
    """The modules of roc_dash on disk (after the moves) and the names each binds."""

    def __init__(self, root: Path):
        self.root = root
        self.files: dict[str, Path] = {}
        for path in sorted((root / "roc_dash").rglob("*.py")):
            if any(part in SKIP_DIRS for part in path.parts):
                continue
            self.files[self.module_of(path)] = path
        self._bound: dict[str, set[str]] = {}
        self._defined: dict[str, set[str]] = {}

    def module_of(self, path: Path) -> str:
        parts = list(path.relative_to(self.root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def is_package(self, name: str) -> bool:
        return name in self.files and self.files[name].name == "__init__.py"

    def bound(self, name: str) -> set[str]:
        """The names a module binds at its top level (imports too)."""
        self._scan(name)
        return self._bound[name]

    def defined(self, name: str) -> set[str]:
        """The names a module defines at its top level (not those it imports)."""
        self._scan(name)
        return self._defined[name]

    def _scan(self, name: str) -> None:
        if name not in self._bound:
            out: set[str] = set()
            imported: set[str] = set()
            try:
                tree = ast.parse(self.files[name].read_text(encoding="utf-8"))
            except (SyntaxError, KeyError, UnicodeDecodeError):
                tree = ast.Module(body=[], type_ignores=[])
            stack = list(tree.body)
            while stack:
                node = stack.pop()
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    out.add(node.name)
                elif isinstance(node, ast.Import | ast.ImportFrom):
                    imported.update((a.asname or a.name).split(".")[0] for a in node.names)
                elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        out.update(x.id for x in ast.walk(t) if isinstance(x, ast.Name))
                elif isinstance(node, ast.If | ast.Try | ast.With):
                    for field in ("body", "orelse", "finalbody", "handlers"):
                        stack.extend(getattr(node, field, []) or [])
                elif isinstance(node, ast.ExceptHandler):
                    stack.extend(node.body)
            self._defined[name] = out
            self._bound[name] = out | imported

    def resolves(self, module: str, names: list[str], importer: str) -> bool:
        """Does ``from module import names`` work in the new tree (and not from itself)?"""
        if module == importer or module not in self.files:
            return False
        return all(n == "*" or f"{module}.{n}" in self.files or n in self.bound(module)
                   for n in names)

    def defines(self, module: str, names: list[str]) -> bool:
        """Are ``names`` submodules of ``module`` or defined in it (not merely imported)?"""
        return module in self.files and all(
            f"{module}.{n}" in self.files or n in self.defined(module) for n in names)


# ---------------------------------------------------------------------------------------------
# dotted names and paths


def map_dotted(name: str, tree: Tree) -> str:
    """``name`` (a module, or a module then attributes) with its old module replaced."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        old = ".".join(parts[:i])
        if old in MOVES:
            if i < len(parts) and ".".join(parts[:i + 1]) in tree.files:
                return name  # already a module under the package of that name
            rest = parts[i:]
            return ".".join([MOVES[old], *rest])
    return name


DOTTED = re.compile(r"(?<![\w.])roc_dash(?:\.[A-Za-z_]\w*)+")
PATH = re.compile(r"(?<![\w/.-])roc_dash(?:/[A-Za-z_]\w*)+\.py\b")
SHORT_PATH = re.compile(r"(?<![\w/.-])(?:core|io)(?:/[A-Za-z_]\w*)+\.py\b")
SHORT_DOTTED = re.compile(r"(?<![\w./-])core(?:\.[A-Za-z_]\w*)+")
#: the renamed modules' last names, in relative Sphinx references (``:mod:`.budget_mix```)
RENAMED = {old.rpartition(".")[2]: new.rpartition(".")[2] for old, new in MOVES.items()
           if old.rpartition(".")[2] != new.rpartition(".")[2]}


def _renamed_role(m: re.Match) -> str:
    return m.group(1) + RENAMED[m.group(2)]


def role_pattern() -> re.Pattern:
    names = "|".join(sorted(RENAMED, key=len, reverse=True)) or "(?!)"
    return re.compile(r"(:[a-z]+:`~?\.)(" + names + r")\b")


def _path_of(name: str, tree: Tree) -> str:
    if tree.is_package(name) or name in BECOME_PACKAGES:
        return name.replace(".", "/") + "/__init__.py"
    return name.replace(".", "/") + ".py"


def map_path(path: str, tree: Tree) -> str:
    dotted = path[:-3].replace("/", ".")
    if dotted.endswith(".__init__"):
        return path
    if dotted in MOVES:
        return _path_of(MOVES[dotted], tree)
    if dotted in BECOME_PACKAGES:
        return _path_of(dotted, tree)
    return path


def rewrite_text(text: str, tree: Tree, markdown: bool) -> str:
    text = DOTTED.sub(lambda m: map_dotted(m.group(0), tree), text)
    text = PATH.sub(lambda m: map_path(m.group(0), tree), text)
    text = SHORT_PATH.sub(
        lambda m: map_path("roc_dash/" + m.group(0), tree)[len("roc_dash/"):], text)
    text = role_pattern().sub(_renamed_role, text)
    if markdown:
        text = SHORT_DOTTED.sub(
            lambda m: map_dotted(P + m.group(0), tree)[len(P):], text)
    return text


# ---------------------------------------------------------------------------------------------
# import statements


def _resolve(base: str, level: int, module: str | None) -> str:
    parts = base.split(".") if base else []
    if level > 1:
        parts = parts[:len(parts) - (level - 1)]
    if module:
        parts += module.split(".")
    return ".".join(parts)


def _relative(base: str, target: str) -> str | None:
    b, t = base.split("."), target.split(".")
    common = 0
    while common < min(len(b), len(t)) and b[common] == t[common]:
        common += 1
    if common == 0:
        return None
    return "." * (len(b) - common + 1) + ".".join(t[common:])


class FileContext:
    def __init__(self, path: Path, tree: Tree, root: Path):
        self.tree = tree
        self.module = None
        self.base_now = self.base_then = None
        try:
            rel = path.relative_to(root / "roc_dash")
        except ValueError:
            return
        del rel
        self.module = tree.module_of(path)
        is_init = path.name == "__init__.py"
        self.base_now = self.module if is_init else parent(self.module)
        if self.module in INVERSE:  # moved here from a module file
            self.base_then = parent(INVERSE[self.module])
        elif is_init and self.module in BECOME_PACKAGES:  # was roc_dash/<name>.py
            self.base_then = parent(self.module)
        else:
            self.base_then = self.base_now


def _target(node: ast.ImportFrom, ctx: FileContext) -> str | None:
    """The absolute module a ``from`` statement names, read as the file means it."""
    if not node.level:
        return node.module
    if ctx.module is None:
        return None
    names = [a.name for a in node.names]
    now = _resolve(ctx.base_now, node.level, node.module)
    if ctx.base_then == ctx.base_now:
        return now
    then = _resolve(ctx.base_then, node.level, node.module)
    if ctx.tree.resolves(now, names, ctx.module):
        # both readings work: the one where the names are defined, not merely imported
        mapped = map_dotted(then, ctx.tree)
        if (mapped != now and not ctx.tree.defines(now, names)
                and ctx.tree.defines(mapped, names)):
            return then
        return now
    return then


def _names_text(names: list[tuple[str, str | None]]) -> list[str]:
    return [n if a is None or a == n else f"{n} as {a}" for n, a in names]


def _statement(module_text: str, names: list[tuple[str, str | None]], indent: str,
               comment: str) -> str:
    items = _names_text(names)
    one = f"from {module_text} import {', '.join(items)}"
    if len(indent) + len(one) + len(comment) <= 100:
        return one + comment
    inner = "".join(f"{indent}    {item},\n" for item in items)
    return f"from {module_text} import ({comment}\n{inner}{indent})"


def fix_from(node: ast.ImportFrom, source: str, ctx: FileContext) -> str | None:
    target = _target(node, ctx)
    if not target or not (target == "roc_dash" or target.startswith(P)):
        return None
    mapped = map_dotted(target, ctx.tree)
    groups: dict[str, list[tuple[str, str | None]]] = {}
    aliases_changed = False
    for a in node.names:
        old_sub = f"{target}.{a.name}"
        if (a.name != "*" and old_sub in MOVES and f"{mapped}.{a.name}" not in ctx.tree.files
                and a.name not in ctx.tree.bound(mapped)):  # a package's name, not its module
            new = MOVES[old_sub]
            dest, name = parent(new), new.rpartition(".")[2]
            alias = a.asname or (a.name if name != a.name else None)
            aliases_changed |= name != a.name
            groups.setdefault(dest, []).append((name, alias))
        else:
            dest = NAME_MOVES.get((mapped, a.name), mapped)
            if dest not in ctx.tree.files or dest == ctx.module:
                dest = mapped
            groups.setdefault(dest, []).append((a.name, a.asname))
    relative = node.level > 0

    def text_of(dest: str) -> str:
        if relative:
            rel = _relative(ctx.base_now, dest)
            if rel is not None:
                return rel
        return dest

    original_module = "." * node.level + (node.module or "")
    if len(groups) == 1 and not aliases_changed:
        (dest,) = groups
        new_text = text_of(dest)
        if new_text == original_module:
            return None
        # the module alone changes: keep the statement's own layout
        return re.sub(r"^(from\s+)([.\w]+)(\s+import\b)",
                      lambda m: m.group(1) + new_text + m.group(3), source, count=1)
    indent = " " * node.col_offset
    first = source.splitlines()[0]
    comment = ""
    if "#" in first:
        comment = "  " + first[first.index("#"):].strip()
    return ("\n" + indent).join(_statement(text_of(d), names, indent, comment)
                                for d, names in groups.items())


def fix_import(node: ast.Import, ctx: FileContext) -> str | None:
    changed = False
    items = []
    for a in node.names:
        new = map_dotted(a.name, ctx.tree) if a.name.startswith(P) else a.name
        changed |= new != a.name
        items.append(new if a.asname is None else f"{new} as {a.asname}")
    return f"import {', '.join(items)}" if changed else None


def _offsets(text: str) -> list[int]:
    starts, pos = [0], 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    return starts


def rewrite_imports(text: str, ctx: FileContext) -> str:
    try:
        module = ast.parse(text)
    except SyntaxError as exc:
        print(f"  not parsed ({exc}); dotted names and paths only", file=sys.stderr)
        return text
    lines = text.splitlines(keepends=True)
    starts = _offsets(text)

    def offset(line: int, col: int) -> int:
        raw = lines[line - 1].encode("utf-8")[:col]
        return starts[line - 1] + len(raw.decode("utf-8", errors="replace"))

    edits = []
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom | ast.Import):
            a = offset(node.lineno, node.col_offset)
            b = offset(node.end_lineno, node.end_col_offset)
            source = text[a:b]
            if isinstance(node, ast.ImportFrom):
                new = fix_from(node, source, ctx)
            else:
                new = fix_import(node, ctx)
            if new is not None and new != source:
                edits.append((a, b, new))
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    return text


# ---------------------------------------------------------------------------------------------
# moves and the walk


def git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)


def move_files(root: Path, dry: bool, use_git: bool) -> list[str]:
    moves = [(m, m) for m in BECOME_PACKAGES] + list(MOVES.items())
    done = []
    for old, new in moves:
        src = root / (old.replace(".", "/") + ".py")
        if old == new:
            dst = root / old.replace(".", "/") / "__init__.py"
        else:
            new_dir = root / new.replace(".", "/")
            dst = (new_dir / "__init__.py") if new in BECOME_PACKAGES else \
                root / (new.replace(".", "/") + ".py")
            del new_dir
        if not src.exists():
            continue
        if dst.exists():
            print(f"BOTH EXIST, merge by hand: {src.relative_to(root)} and "
                  f"{dst.relative_to(root)}", file=sys.stderr)
            continue
        done.append(f"{src.relative_to(root)} -> {dst.relative_to(root)}")
        if dry:
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        init = dst.parent / "__init__.py"
        if use_git:
            out = git(root, "mv", str(src.relative_to(root)), str(dst.relative_to(root)))
            if out.returncode != 0:  # not tracked: a plain rename
                src.rename(dst)
        else:
            src.rename(dst)
        if not init.exists():
            init.write_text("")
            if use_git:
                git(root, "add", str(init.relative_to(root)))
    return done


def files_to_scan(root: Path):
    for target in TARGETS:
        path = root / target
        if path.is_file():
            yield path
        elif path.is_dir():
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
                for f in filenames:
                    p = Path(dirpath) / f
                    if p.resolve() == Path(__file__).resolve():
                        continue  # its own map names the old modules on purpose
                    if p.suffix in TEXT_SUFFIXES or p.name in TEXT_NAMES:
                        yield p


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=".", help="the checkout's root (default: here)")
    ap.add_argument("--dry-run", action="store_true", help="list the changes, write nothing")
    ap.add_argument("--no-git-mv", action="store_true", help="rename without git mv")
    ap.add_argument("--no-ruff", action="store_true", help="do not sort the imports after")
    ap.add_argument("--ruff", default=None, help="ruff executable (default .venv/bin/ruff)")
    ap.add_argument("--only", choices=["top", "core"], default=None,
                    help="only the moves outside roc_dash/core (top) or inside it (core)")
    args = ap.parse_args(argv)
    _check_map()
    if args.only:
        in_core = args.only == "core"
        for old in list(MOVES):
            if old.startswith("roc_dash.core.") != in_core:
                del MOVES[old]
        INVERSE.clear()
        INVERSE.update({new: old for old, new in MOVES.items()})
        RENAMED.clear()
        RENAMED.update({old.rpartition(".")[2]: new.rpartition(".")[2]
                        for old, new in MOVES.items()
                        if old.rpartition(".")[2] != new.rpartition(".")[2]})
        if not in_core:
            BECOME_PACKAGES.clear()
            BECOME_PACKAGES.extend(["roc_dash.cli", "roc_dash.decision", "roc_dash.report",
                                    "roc_dash.notebook"])
        else:
            BECOME_PACKAGES.clear()
    root = Path(args.repo).resolve()
    if not (root / "roc_dash").is_dir():
        ap.error(f"{root} holds no roc_dash/ package")
    for line in move_files(root, args.dry_run, not args.no_git_mv):
        print("moved", line)
    tree = Tree(root)
    if args.dry_run:  # the tree as it would be
        for new in MOVES.values():
            tree.files.setdefault(new, root / (new.replace(".", "/") + ".py"))
    changed_py = []
    for path in files_to_scan(root):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        new = text
        if path.suffix == ".py":
            new = rewrite_imports(new, FileContext(path, tree, root))
        new = rewrite_text(new, tree, markdown=path.suffix == ".md")
        if new != text:
            print("rewrote", path.relative_to(root))
            if not args.dry_run:
                path.write_text(new, encoding="utf-8")
                if path.suffix == ".py":
                    changed_py.append(str(path))
    if changed_py and not args.no_ruff and not args.dry_run:
        ruff = args.ruff or str(root / ".venv/bin/ruff")
        if not Path(ruff).exists():
            ruff = "ruff"
        try:
            subprocess.run([ruff, "check", "--select", "I", "--fix", "--quiet",
                            "--exit-zero", *changed_py], cwd=root, check=False)
        except FileNotFoundError:
            print("ruff not found: sort the imports with `ruff check --select I --fix .`",
                  file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
