"""Run the real command line in this process and judge its answer to a bad input or option.

A case is a command line built from files generated into a temporary folder (malformed copies of the real, shipped
data) and the words the error message must contain: the file (or option) and the place (line, record, field).
:func:`judge` sorts an outcome into ``clear``, ``no place`` (error without the file/option or place),
``traceback`` or ``accepted`` (exit code 0 for an invalid input). ``python tests/errors/clear_errors.py`` runs every
case of every module here and prints the counts.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

SRC_DATA = Path(__file__).resolve().parents[2] / "src" / "interpeval" / "data"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


@dataclass
class Outcome:
    code: int
    out: str
    err: str


@dataclass
class Case:
    """``build(folder)`` returns the arguments and the strings the error must name (file, place, what)."""

    name: str
    build: Callable[[Path], tuple[list[str], list[str]]]


def run_cli(args: list[str]) -> Outcome:
    """``interpeval ARGS`` through the real entry point, in this process; exit code, stdout and stderr."""
    from interpeval.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return Outcome(code, out.getvalue(), err.getvalue())


def judge(outcome: Outcome, names: list[str]) -> str:
    """``clear`` | ``no place`` | ``traceback`` | ``accepted`` (see the module docstring)."""
    text = " ".join(outcome.err.split())  # rich wraps long messages; compare with single spaces
    if "Traceback (most recent call last)" in outcome.err:
        return "traceback"
    if outcome.code == 0:
        return "accepted"
    return "clear" if all(" ".join(str(n).split()) in text for n in names) else "no place"


def check(case: Case, folder: Path) -> tuple[str, Outcome, list[str]]:
    args, names = case.build(folder)
    outcome = run_cli(args)
    return judge(outcome, names), outcome, names


def assert_clear(case: Case, folder: Path) -> None:
    verdict, outcome, names = check(case, folder)
    assert verdict == "clear", (f"{case.name}: {verdict} (exit {outcome.code}); must name {names}\n"
                                f"stderr: {outcome.err[-1500:]}\nstdout: {outcome.out[-500:]}")
    assert outcome.code != 0


def copy_lines(source: Path, target: Path, edit: Callable[[list[str]], list[str]]) -> Path:
    """Write ``edit(lines of source)`` to ``target`` (UTF-8, lines keep their ends)."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(edit(lines)), encoding="utf-8")
    return target


def main() -> None:  # pragma: no cover - the counting harness, run by hand
    import importlib
    import sys
    import tempfile
    from collections import Counter

    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for module_path in sorted(here.glob("test_*.py")):
            module = importlib.import_module(module_path.stem)
            for case in getattr(module, "CASES", []):
                folder = Path(tmp) / module_path.stem / case.name
                folder.mkdir(parents=True)
                verdict, outcome, names = check(case, folder)
                counts[verdict] += 1
                if verdict != "clear":
                    print(f"{module_path.stem}::{case.name}: {verdict}: {outcome.err.strip()[-300:]}")
    total = sum(counts.values())
    print(f"{total} invalid inputs and options: " + ", ".join(f"{counts[k]} {k}" for k in
                                                              ("clear", "no place", "traceback", "accepted")))


if __name__ == "__main__":
    main()
