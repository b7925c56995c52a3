"""Read SentEval probing task files (``tr|va|te <TAB> label <TAB> sentence``, no header)."""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path

from interpeval.errors import DataError
from interpeval.validate import read_text

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
    """Parse one file; every malformed row is a DataError naming the line, checked before any encoding starts.

    A row is ``part<TAB>label<TAB>sentence`` with a known part and a non-empty label and sentence; a task needs
    ``tr`` rows with at least two labels and some ``te`` rows.
    """
    path = Path(path)
    texts: dict[str, list[str]] = {p: [] for p in PARTS}
    labels: dict[str, list[str]] = {p: [] for p in PARTS}
    rows = csv.reader(io.StringIO(read_text(path), newline=""), delimiter="\t")
    lineno = 0
    try:
        for lineno, row in enumerate(rows, start=1):  # noqa: B007 - lineno names the line of a csv.Error
            if not row:
                continue
            if len(row) != 3:
                raise DataError(path, f"line {lineno}", f"expected 'part<TAB>label<TAB>sentence', got {len(row)} "
                                "column(s)")
            part, label, text = row
            if part not in texts:
                raise DataError(path, f"line {lineno}", f"unknown part {part!r} (expected tr, va or te)")
            if not label.strip() or not text.strip():
                raise DataError(path, f"line {lineno}", f"empty {'label' if not label.strip() else 'sentence'}")
            texts[part].append(text)
            labels[part].append(label)
    except csv.Error as err:
        raise DataError(path, f"line {lineno + 1}", f"not tab-separated values ({err})") from None
    if not texts["tr"]:
        raise DataError(path, None, "no 'tr' rows: a probing task needs training sentences")
    if len(set(labels["tr"])) < 2:
        raise DataError(path, None, f"the 'tr' rows have only the label {labels['tr'][0]!r}; a probe needs two")
    if not texts["te"]:
        raise DataError(path, None, "no 'te' rows: nothing to score the probe on")
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
            raise DataError(item, None, "no such task file or folder")
    if not out:
        raise DataError(", ".join(map(str, inputs)), None, "no task files (*.csv, *.txt) in it")
    return out
