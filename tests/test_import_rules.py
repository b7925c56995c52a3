"""Downhill only: no module of interpeval imports one on a higher floor, and no modules import each other in a circle.

Every module under src/interpeval is parsed with :mod:`ast` (nothing is imported) and placed on a floor of
:data:`FLOORS`, the table docs/ARCHITECTURE.md shows; every import — at module level or inside a function, absolute
or relative — must go to the same floor or a lower one. Violations that other developers are removing this round
sit in :data:`PENDING`, each naming who removes it; an entry that no longer occurs fails too, so it is deleted with
the import it excused.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "ARCHITECTURE.md"

#: the floors, lowest first: (name, module patterns). A pattern names a module and its submodules; ``*`` stands
#: for one name (a benchmark's package); the most specific pattern (the most names) places a module.
FLOORS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", ("interpeval", "interpeval.errors", "interpeval.stats", "interpeval.text")),
    ("store", ("interpeval.store",)),
    ("plug-ins", ("interpeval.plugins", "interpeval.paper")),
    ("models", ("interpeval.models",)),
    ("explain", ("interpeval.explain",)),
    ("metrics", ("interpeval.metrics",)),
    ("exec", ("interpeval.exec",)),
    ("validate", ("interpeval.validate",)),
    ("report formats", ("interpeval.report",)),
    ("runs", ("interpeval.benchmarks.base",)),
    ("evaluate", ("interpeval.evaluate",)),
    ("benchmarks", ("interpeval.benchmarks",)),
    ("training", ("interpeval.training",)),
    ("views", ("interpeval.report.views", "interpeval.report.static", "interpeval.report.reproduce",
               "interpeval.benchmarks.*.views",
               "interpeval.benchmarks.*.reproduce")),
    ("web", ("interpeval.web",)),
    ("cli", ("interpeval.cli", "interpeval.benchmarks.*.cli", "interpeval.benchmarks.*.jobs")),
]

#: (importing module, imported module or package) pairs that break the rules today and are being removed now
PENDING: dict[tuple[str, str], str] = {
}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} imports {self.imported}"


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(src: Path) -> dict[str, Path]:
    return {module_name(p, src): p for p in sorted((src / "interpeval").rglob("*.py"))}


def imports(src: Path) -> list[Import]:
    """Every import of an interpeval module by an interpeval module; ``from a import b`` counts as importing
    ``a.b`` when that is a module, else ``a``."""
    known = modules(src)
    found = []
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, *([base] if base else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            else:
                continue
            found += [Import(name, t, node.lineno) for t in targets if t.split(".")[0] == "interpeval"]
    return found


def _pattern(pattern: str) -> re.Pattern[str]:
    body = r"\.".join("[^.]+" if part == "*" else re.escape(part) for part in pattern.split("."))
    return re.compile(body + ("" if pattern == "interpeval" else r"(\..+)?") + "$")


_PLACES = sorted(((len(p.split(".")), floor, _pattern(p)) for floor, (_, patterns) in enumerate(FLOORS)
                  for p in patterns), key=lambda place: -place[0])


def floor_of(module: str) -> int | None:
    """The index in :data:`FLOORS` of the module's floor (None: no pattern places it)."""
    return next((floor for _, floor, pattern in _PLACES if pattern.match(module)), None)


def _pending(edge: Import) -> bool:
    return any(edge.importer == a and (edge.imported == b or edge.imported.startswith(b + ".")) for a, b in PENDING)


def uphill(edges: list[Import]) -> list[Import]:
    """Imports from a lower floor to a higher one."""
    return [e for e in edges if (floor_of(e.imported) or 0) > (floor_of(e.importer) or 0)]


def circles(edges: list[Import]) -> list[list[str]]:
    """Groups of modules that import each other (directly or through others). A module's import of its own parent
    package is left out: a package's ``__init__`` is the door to its modules (the metrics registry finds its
    modules through it, ``interpeval suite`` runs the root CLI it builds)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        if e.importer != e.imported and not e.importer.startswith(e.imported + "."):
            graph.setdefault(e.importer, set()).add(e.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


EDGES = imports(SRC)


def test_every_module_has_a_floor():
    assert [m for m in modules(SRC) if floor_of(m) is None] == []


def test_no_import_runs_uphill():
    wrong = [f"{e} (floor {FLOORS[floor_of(e.importer)][0]} -> {FLOORS[floor_of(e.imported)][0]})"
             for e in uphill(EDGES) if not _pending(e)]
    assert wrong == [], "imports from a lower floor to a higher one:\n" + "\n".join(wrong)


def test_no_modules_import_each_other_in_a_circle():
    kept = [e for e in EDGES if not _pending(e)]
    assert circles(kept) == []


def test_no_benchmark_imports_another():
    """A benchmark is one package: what two benchmarks share lives on a lower floor."""
    def package(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 3 and parts[1] == "benchmarks" else None

    crossing = [str(e) for e in EDGES if package(e.importer) and package(e.imported)
                and package(e.importer) != package(e.imported)]
    assert crossing == []


def test_every_pending_violation_still_occurs():
    """Whoever removes an import that :data:`PENDING` excuses deletes its entry."""
    gone = [f"{a} -> {b} ({who})" for (a, b), who in PENDING.items()
            if not any(e.importer == a and (e.imported == b or e.imported.startswith(b + ".")) for e in EDGES)]
    assert gone == [], "PENDING entries that no longer occur:\n" + "\n".join(gone)


def test_the_documented_floors_are_the_tested_ones():
    """docs/ARCHITECTURE.md shows :data:`FLOORS` as a table: floor number, name, modules."""
    rows = re.findall(r"^\| (\d+) \| ([^|]+?) \| ([^|]+?) \|", ARCHITECTURE.read_text(encoding="utf-8"), re.M)
    documented = [(int(n), name, tuple(re.findall(r"`([^`]+)`", mods))) for n, name, mods in rows]
    assert documented == [(i, name, patterns) for i, (name, patterns) in enumerate(FLOORS)]


@pytest.mark.parametrize(("statement", "imported"), [("from interpeval.web.app import create_app", "interpeval.web.app"),
                                                   ("import interpeval.cli.suite", "interpeval.cli.suite"),
                                                   ("from ..web import app", "interpeval.web.app")])
@pytest.mark.parametrize("inside_a_function", [False, True])
def test_the_checker_catches_a_planted_uphill_import(tmp_path, statement, imported, inside_a_function):
    """A store module that imports the web app (or the CLI) — at module level or inside a function, absolute or
    relative — is reported, with its line; the web app's downhill import of the store is not."""
    for package in ("interpeval", "interpeval/store", "interpeval/web", "interpeval/cli"):
        (tmp_path / package).mkdir(parents=True, exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "interpeval/web/app.py").write_text("from interpeval.store import sqlite\n\ncreate_app = None\n")
    (tmp_path / "interpeval/cli/suite.py").write_text("")
    (tmp_path / "interpeval/store/sqlite.py").write_text("import interpeval.errors\n")
    code = f"def load():\n    {statement}\n" if inside_a_function else f"{statement}\n"
    (tmp_path / "interpeval/store/planted.py").write_text(code)
    found = uphill(imports(tmp_path))
    assert [(e.importer, e.imported, e.line) for e in found] == [
        ("interpeval.store.planted", imported, 2 if inside_a_function else 1)]


def test_the_checker_catches_a_planted_circle(tmp_path):
    (tmp_path / "interpeval/exec").mkdir(parents=True)
    for name, code in (("__init__", ""), ("exec/__init__", ""), ("exec/base", "def f():\n    from . import local\n"),
                       ("exec/local", "from interpeval.exec.base import f\n")):
        (tmp_path / f"interpeval/{name}.py").write_text(code)
    assert circles(imports(tmp_path)) == [["interpeval.exec.base", "interpeval.exec.local"]]
