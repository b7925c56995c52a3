"""Probing task files: malformed copies of a task converted from the shipped Hindi treebank, through `probing run`.

Every case fails before the encoder is loaded: the task files and the options are checked first.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear

from interpeval.benchmarks.probing.senteval import read_task
from interpeval.benchmarks.probing.ud import UDConverter

HINDI = SRC_DATA / "ud" / "UD_Hindi-PUD" / "hi_pud-ud-test.conllu"
_TASK: list[str] = []


def task_lines() -> list[str]:
    """The lines of one real task file (``hi_pud_no_sorting_Number``), converted once per process."""
    if not _TASK:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            UDConverter().convert([HINDI], tmp)
            _TASK.extend((Path(tmp) / "hi_pud_no_sorting_Number.csv").read_text(encoding="utf-8")
                         .splitlines(keepends=True))
    return list(_TASK)


def _run(folder: Path, path: Path, *extra: str) -> list[str]:
    return ["probing", "run", str(path), "--store", str(folder / "s.sqlite"), "--cache", str(folder / "cache"),
            *extra]


def _case(name: str, edit, *must: str) -> Case:
    """``edit(lines) -> 1-based line number or 0`` changes a copy of the real task file."""
    def build(folder: Path) -> tuple[list[str], list[str]]:
        lines = task_lines()
        line = edit(lines)
        path = folder / "hi_pud_no_sorting_Number.csv"
        path.write_text("".join(lines), encoding="utf-8")
        return _run(folder, path), [str(path), *([f"line {line}"] if line else []), *must]
    return Case(name, build)


def _row(k: int, change) -> object:
    def edit(lines: list[str]) -> int:
        cols = lines[k].rstrip("\n").split("\t")
        lines[k] = change(cols) + "\n"
        return k + 1
    return edit


def _only(part: str):
    def edit(lines: list[str]) -> int:
        lines[:] = [line for line in lines if not line.startswith(part + "\t")]
        return 0
    return edit


def _one_label(lines: list[str]) -> int:
    label = next(line.split("\t")[1] for line in lines if line.startswith("tr\t"))
    lines[:] = [line for line in lines if not line.startswith("tr\t") or line.split("\t")[1] == label]
    return 0


CASES = [
    _case("two-columns", _row(4, lambda c: "\t".join(c[:2])), "column"),
    _case("one-column", _row(9, lambda c: c[2]), "column"),
    _case("four-columns", _row(12, lambda c: "\t".join([*c, "extra"])), "column"),
    _case("unknown-part", _row(7, lambda c: "\t".join(["train", *c[1:]])), "unknown part"),
    _case("part-uppercase", _row(7, lambda c: "\t".join(["TR", *c[1:]])), "unknown part"),
    _case("empty-label", _row(20, lambda c: "\t".join([c[0], "", c[2]])), "empty label"),
    _case("empty-sentence", _row(21, lambda c: "\t".join([c[0], c[1], " "])), "empty sentence"),
    _case("spaces-for-tabs", _row(30, lambda c: " ".join(c)), "column"),
    _case("no-train-rows", _only("tr"), "no 'tr' rows"),
    _case("no-test-rows", _only("te"), "no 'te' rows"),
    _case("one-label", _one_label, "only the label"),
    _case("empty-file", lambda lines: (lines.clear(), 0)[1], "no 'tr' rows"),
]


def _raw(name: str, make, *must: str) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        path = folder / "hi_pud_no_sorting_Number.csv"
        data = "".join(task_lines()).encode("utf-8")
        payload, line = make(data)
        path.write_bytes(payload)
        return _run(folder, path), [str(path), f"line {line}", *must]
    return Case(name, build)


def _latin1(data: bytes) -> tuple[bytes, int]:
    at = data.index(b"\n", 2000) + 1 + 10
    return data[:at] + b"\xe9" + data[at:], data[:at].count(b"\n") + 1


CASES += [
    _raw("non-utf8", _latin1, "UTF-8"),
    _raw("gzip", lambda d: (gzip.compress(d[:4000], mtime=0), 1), ""),
    _raw("utf16", lambda d: (d[:3000].decode("utf-8", "ignore").encode("utf-16"), 1), "UTF-8"),
]


def _valid_task(folder: Path) -> Path:
    path = folder / "hi_pud_no_sorting_Number.csv"
    path.write_text("".join(task_lines()), encoding="utf-8")
    return path


def _option(name: str, extra: tuple[str, ...], *must: str) -> Case:
    return Case(name, lambda d: (_run(d, _valid_task(d), *extra), list(must)))


def _cache_under_file(folder: Path) -> tuple[list[str], list[str]]:
    (folder / "f").write_text("x", encoding="utf-8")
    return ["probing", "run", str(_valid_task(folder)), "--store", str(folder / "s.sqlite"), "--cache",
            str(folder / "f" / "cache")], ["--cache", "is a file"]


CASES += [
    Case("missing-task-file", lambda d: (_run(d, d / "nope.csv"), [str(d / "nope.csv"), "no such task file"])),
    Case("folder-without-tasks", lambda d: (_run(d, d), [str(d), "no task files"])),
    _option("layers-not-numbers", ("--layers", "1,two"), "--layers", "'1,two'"),
    _option("layer-zero", ("--layers", "0,3"), "--layers", ">= 1"),
    _option("unknown-aggregation", ("--aggregations", "avg,median"), "--aggregations", "'median'"),
    _option("unknown-probe", ("--probes", "svm"), "--probes", "'svm'"),
    _option("unknown-executor", ("--executor", "spark"), "--executor", "'spark'"),
    _option("zero-workers", ("--workers", "0"), "--workers", ">= 1"),
    _option("zero-batch", ("--batch-size", "0"), "--batch-size", ">= 1"),
    _option("negative-threads", ("--threads", "-2"), "--threads", ">= 1"),
    Case("cache-under-a-file", _cache_under_file),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_task_file_is_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)
    assert not (tmp_path / "cache").exists()  # nothing was encoded
    assert not (tmp_path / "s.sqlite").exists()  # and nothing stored


def test_the_real_task_file_reads(tmp_path):
    task = read_task(_valid_task(tmp_path))
    assert task.name == "hi_pud_no_sorting_Number" and len(set(task.labels["tr"])) >= 2 and task.texts["te"]
