"""The results store: bad --store paths are clear errors before any work; failed runs are marked and resume."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from clear_errors import SRC_DATA, Case, assert_clear, run_cli

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.errors import DataError
from interpeval.store import Store

SST2 = SRC_DATA / "sentences" / "sst2-dev-20.tsv"
HINDI_TASK_SOURCE = SRC_DATA / "ud" / "UD_Hindi-PUD" / "hi_pud-ud-test.conllu"


def _lines(folder: Path) -> Path:
    path = folder / "lines.txt"
    path.write_text("".join(line.split("\t")[0] + "\n" for line in SST2.read_text(encoding="utf-8").splitlines()[1:6]),
                    encoding="utf-8")
    return path


def _not_sqlite(folder: Path) -> Path:
    path = folder / "results.sqlite"
    shutil.copy(SST2, path)  # a real TSV file where the store should be
    return path


def _corrupt_sqlite(folder: Path) -> Path:
    path = folder / "results.sqlite"
    with Store(path) as store:
        store.run("attribute", {"x": 1})
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # keep the header, break the schema page
    path.write_bytes(bytes(data))
    return path


def _file(folder: Path) -> Path:
    path = folder / "file"
    path.write_text("x", encoding="utf-8")
    return path


# each maker returns (the --store value, what the message must say about it)
STORES = {
    "folder": (lambda d: d, "is a folder"),
    "not-sqlite": (_not_sqlite, "not an SQLite database"),
    "under-a-file": (lambda d: _file(d) / "results.sqlite", "is a file"),
}

COMMANDS = {
    "attribute": lambda d, s: ["attribute", str(_lines(d)), "--store", str(s)],
    "evaluate": lambda d, s: ["evaluate", "a fine film", "--model", "tiny-sequence-classification", "--store", str(s)],
    "quackie": lambda d, s: ["quackie", "run", "--store", str(s), "--out", str(d / "out"), "--method", "Random"],
    "probing-report": lambda d, s: ["probing", "report", "--store", str(s), "--out", str(d / "report")],
    "runs-list": lambda d, s: ["runs", "list", "--store", str(s)],
    "runs-show": lambda d, s: ["runs", "show", "1", "--store", str(s)],
    "runs-export": lambda d, s: ["runs", "export", "1", str(d / "x.csv"), "--store", str(s)],
    "expmrc-baselines": lambda d, s: ["expmrc", "baselines", "--store", str(s), "--out", str(d / "out"),
                                      "--subsets", "squad", "--qa-model", ""],
}


def _store_case(command: str, store: str) -> Case:
    def build(folder: Path) -> tuple[list[str], list[str]]:
        make, problem = STORES[store]
        path = make(folder)
        return COMMANDS[command](folder, path), ["--store", str(path), problem]
    return Case(f"{command}-{store}", build)


CASES = [_store_case(c, s) for c in COMMANDS for s in STORES]


def _existing_store(folder: Path) -> Path:
    path = folder / "s.sqlite"
    with Store(path) as store:
        run = store.run("attribute", {"file": "lines.txt"})
        run.record("1", {"x": 1}, {"sum": 0.5})
        run.finish()
    return path


CASES += [
    Case("corrupt-sqlite", lambda d: (["runs", "list", "--store", str(_corrupt_sqlite(d))],
                                      [str(d / "results.sqlite"), "results store"])),
    Case("read-missing-store", lambda d: (["runs", "list", "--store", str(d / "typo.sqlite")],
                                          ["--store", "typo.sqlite", "no such store"])),
    Case("show-unknown-run", lambda d: (["runs", "show", "42", "--store", str(_existing_store(d))],
                                        ["no run with id 42", "s.sqlite"])),
    Case("export-unknown-run", lambda d: (["runs", "export", "42", str(d / "x.csv"), "--store", str(_existing_store(d))],
                                          ["no run with id 42"])),
    Case("export-unknown-format", lambda d: (["runs", "export", "1", str(d / "x.xlsx"), "--store",
                                              str(_existing_store(d))], ["PATH", "x.xlsx", ".csv"])),
    Case("export-to-a-folder", lambda d: (["runs", "export", "1", str(d), "--store", str(_existing_store(d))],
                                          ["PATH", str(d)])),
    Case("export-under-a-file", lambda d: (["runs", "export", "1", str(_file(d) / "x.csv"), "--store",
                                            str(_existing_store(d))], ["PATH", "is a file"])),
    Case("export-unknown-table", lambda d: (["runs", "export", "1", str(d / "x.csv"), "--table", "runs", "--store",
                                             str(_existing_store(d))], ["--table", "'runs'"])),
    Case("probing-report-not-probing", lambda d: (["probing", "report", "--run", "1", "--store",
                                                   str(_existing_store(d)), "--out", str(d / "r")],
                                                  ["run 1", "not a probing run"])),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_store_is_a_clear_error(case, tmp_path):
    assert_clear(case, tmp_path)


def test_env_store_pointing_at_a_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("INTERPEVAL_STORE", str(tmp_path))
    outcome = run_cli(["attribute", str(_lines(tmp_path))])
    assert outcome.code == 2 and "Traceback" not in outcome.err
    assert f"$INTERPEVAL_STORE: {tmp_path}: is a folder" in " ".join(outcome.err.split())


def test_export_makes_a_missing_folder(tmp_path):
    store = _existing_store(tmp_path)
    target = tmp_path / "new" / "deeper" / "metrics.csv"
    outcome = run_cli(["runs", "export", "1", str(target), "--store", str(store)])
    assert outcome.code == 0, outcome.err
    assert target.read_text(encoding="utf-8").splitlines()[0] == "instance_id,group,name,value"


def test_store_class_rejects_bad_paths(tmp_path):
    for path in (tmp_path, _not_sqlite(tmp_path), _file(tmp_path) / "x.sqlite"):
        with pytest.raises(DataError, match=str(path)):
            Store(path)


def test_nothing_is_stored_for_a_run_that_fails_validation(tmp_path):
    store = tmp_path / "s.sqlite"
    for bad in (["--chunk", "-1"], ["--param", "n_steps=0"], ["--method", "nope"]):
        outcome = run_cli(["attribute", str(_lines(tmp_path)), "--store", str(store), *bad])
        assert outcome.code == 2, outcome.err
    assert not store.exists()


class _Lines(Benchmark):
    """Items 0..9, two per chunk; ``fail_at`` makes compute raise on that item (a crash mid-way)."""

    name = "lines-test"
    chunk = 2

    def __init__(self, fail_at: int | None) -> None:
        self.fail_at, self.computed = fail_at, []

    def key(self) -> RunKey:
        return RunKey(self.name, {"n": 10})

    def instances(self) -> list[int]:
        return list(range(10))

    def instance_id(self, item: int) -> str:
        return str(item)

    def compute(self, items):
        if self.fail_at in items:
            raise RuntimeError("worker died")
        self.computed += items
        return [Record({"value": i * i}) for i in items]


def test_run_that_fails_midway_is_marked_failed_and_resumes(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        with pytest.raises(RuntimeError, match="worker died"):
            resume(_Lines(fail_at=5), store)
        (info,) = store.runs()
        assert info.status == "failed" and info.n_instances == 4  # chunks [0, 1] and [2, 3] were kept
        again = _Lines(fail_at=None)
        outcome = resume(again, store)
        assert again.computed == [4, 5, 6, 7, 8, 9]
        assert [o["value"] for o in outcome.outputs] == [i * i for i in range(10)]
        (info,) = store.runs()
        assert info.status == "finished" and info.n_instances == 10


def test_interrupted_run_is_failed_not_finished(tmp_path):
    class Interrupted(_Lines):
        def compute(self, items):
            if 4 in items:
                raise KeyboardInterrupt
            return super().compute(items)

    path = tmp_path / "s.sqlite"
    with Store(path) as store, pytest.raises(KeyboardInterrupt):
        resume(Interrupted(None), store)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT status FROM runs").fetchone()[0] == "failed"
