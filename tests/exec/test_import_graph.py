"""The executor package has no import circle: ``base`` knows no executor class, the factory owns them all."""

import ast
from pathlib import Path

import interpeval.exec

PACKAGE = Path(interpeval.exec.__file__).parent


def _sibling_imports(path: Path) -> set[str]:
    """The ``interpeval.exec.<module>`` names a module imports (at any depth of the file)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([node.module or ""] if isinstance(node, ast.ImportFrom) else
                 [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        out.update(n.split(".")[2] for n in names if n.startswith("interpeval.exec."))
    return out


def test_base_imports_no_executor_and_the_graph_has_no_cycle():
    graph = {p.stem: _sibling_imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert graph["base"] == set()
    assert {"local", "ray_executor"} <= graph["factory"]
    assert all("factory" not in deps for name, deps in graph.items() if name != "factory")

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(d == goal or (d not in seen and reaches(d, goal, seen | {d})) for d in graph.get(start, ()))

    assert not [name for name in graph if reaches(name, name, set())]
