"""Read SentEval probing task files (``tr|va|te <TAB> label <TAB> sentence``, no header)."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from interpeval.errors import DataError

PARTS = ("tr", "va", "te")


@dataclass
class ProbingTask:
    """One task file: per part the sentences and their string labels; ``language``/``category`` from the name.

    The name follows the converter's ``{treebank}_{group}_{category}`` (e.g. ``hi_pud_no_sorting_Number``); like
    the original's ``lang_category_extraction`` the language is the text before the first ``_``. ``category`` is
    the rest after the treebank prefix, without ``no_sorting_`` (``Number``, ``NOUN_Number``).
    """

    path: Path
    texts: dict[str, list[str]]
    labels: dict[str, list[str]]

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def language(self) -> str:
        return self.name.split("_")[0]

    @property
    def category(self) -> str:
        parts = self.name.split("_", 2)
        rest = parts[-1] if len(parts) == 3 else self.name.split("_")[-1]
        return rest.removeprefix("no_sorting_")


def read_task(path: str | os.PathLike[str]) -> ProbingTask:
    """Parse one file; a wrong column count or an unknown part name is a DataError with the line."""
    path = Path(path)
    texts: dict[str, list[str]] = {p: [] for p in PARTS}
    labels: dict[str, list[str]] = {p: [] for p in PARTS}
    with open(path, encoding="utf-8", newline="") as handle:
        for lineno, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if not row:
                continue
            if len(row) < 3:
                raise DataError(path, f"line {lineno}", f"expected 'part<TAB>label<TAB>sentence', got {len(row)} "
                                "column(s)")
            if row[0] not in texts:
                raise DataError(path, f"line {lineno}", f"unknown part {row[0]!r} (expected tr, va or te)")
            texts[row[0]].append(row[2])
            labels[row[0]].append(row[1])
    if not texts["tr"]:
        raise DataError(path, None, "no 'tr' rows: a probing task needs training sentences")
    return ProbingTask(path, texts, labels)


def task_files(inputs: list[str | os.PathLike[str]]) -> list[Path]:
    """Task files from files and folders (``*.csv`` / ``*.txt`` directly inside each folder), sorted by name."""
    out: list[Path] = []
    for item in map(Path, inputs):
        if item.is_dir():
            out.extend(sorted(p for p in item.iterdir() if p.suffix in (".csv", ".txt") and p.is_file()))
        elif item.is_file():
            out.append(item)
        else:
            raise FileNotFoundError(f"{item}: no such task file or folder")
    if not out:
        raise ValueError(f"no task files (*.csv, *.txt) in {', '.join(map(str, inputs))}")
    return out
