"""The three IQS tasks (REFERENCE §6): SST-2 sentiment, STS-B similarity (regression), QNLI entailment.

Each task has two *sides*: the class the explanation's green words support and the class its red words support
(SST-2: positive / negative; QNLI: entailment / not entailment; STS-B: similar / dissimilar, i.e. the sign of the
contribution to the similarity score). These are the "classes" of the plausibility term, the two colours the
annotators see, and, for STS-B, the two halves of the protocol (score above / below ``threshold``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from interpeval.errors import DataError, InterpevalError


@dataclass(frozen=True)
class Task:
    """One IQS task. ``sides`` = (red class, green class); ``raw_labels`` maps a class to its label in the file."""

    name: str
    title: str
    kind: str  # "classification" or "regression"
    loss: str  # the reproducibility loss of REFERENCE §6: "log" or "mae"
    sides: tuple[str, str]
    raw_labels: tuple[str, str] = ("", "")
    threshold: float | None = None  # regression: the class boundary (STS-B scores lie in 0–5)
    score_range: tuple[float, float] | None = None
    question: str = ""  # question 1 as the annotators read it
    default_file: str = ""
    detokenize: bool = False  # undo the PTB tokenisation of SST files (as the zoo's SST-2 head was trained)

    @property
    def green(self) -> str:
        return self.sides[1]

    @property
    def red(self) -> str:
        return self.sides[0]

    def side_of(self, label: str | float) -> str:
        """The class of a gold label (regression: ``green`` when the score is above the threshold)."""
        if self.kind == "regression":
            return self.green if float(label) > float(self.threshold or 0.0) else self.red
        return self.sides[self.raw_labels.index(str(label))]


TASKS: dict[str, Task] = {
    "sst2": Task("sst2", "SST-2 (sentiment)", "classification", "log", ("negative", "positive"), ("0", "1"),
                 question="What sentiment did the model predict for this sentence?", default_file="sst2-test.txt",
                 detokenize=True),
    "stsb": Task("stsb", "STS-B (semantic similarity)", "regression", "mae", ("dissimilar", "similar"),
                 threshold=2.5, score_range=(0.0, 5.0),
                 question="What similarity score (0 = unrelated, 5 = same meaning) did the model output?",
                 default_file="stsb-dev.tsv"),
    "qnli": Task("qnli", "QNLI (question entailment)", "classification", "log", ("not_entailment", "entailment"),
                 ("not_entailment", "entailment"),
                 question="Did the model predict that the sentence contains the answer to the question?",
                 default_file="qnli-dev-800.tsv"),
}


@dataclass(frozen=True)
class Sample:
    """One input of a task: ``id`` is ``<file name>:<line>``; ``label`` the gold class (classification) or score."""

    id: str
    text: str
    pair: str | None
    label: str | float
    side: str


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise InterpevalError(f"unknown IQS task {name!r}; tasks: {', '.join(TASKS)}")
    return TASKS[name]


def default_path(task: Task) -> Path:
    """The vendored file of ``task`` (see ``interpeval/data/iqs/SOURCES.md``)."""
    return Path(str(resources.files("interpeval") / "data" / "iqs" / task.default_file))


def load_samples(task: Task, path: str | Path | None = None) -> list[Sample]:
    """Every record of ``path`` (default: the vendored file): GLUE TSV with a header, or SST's
    ``label<space>sentence`` lines. A malformed record is a :class:`DataError` naming file and line.
    SST-2 text has its PTB tokenisation undone (``wo n't`` → ``won't``)."""
    samples = _load(task, Path(path) if path is not None else default_path(task))
    if not task.detokenize:
        return samples
    from interpeval.text.ptb import detokenize_ptb

    return [replace(s, text=detokenize_ptb(s.text)) for s in samples]


def _load(task: Task, path: Path) -> list[Sample]:
    if not path.is_file():
        raise InterpevalError(f"{path}: no such file")
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise DataError(path, 1, "empty file")
    if "\t" in lines[0]:
        return _read_tsv(task, path, lines)
    if task.name != "sst2":
        raise DataError(path, 1, f"{task.name} needs a GLUE TSV file with a header line")
    out = []
    for line, record in enumerate(lines, start=1):
        label, _, text = record.partition(" ")
        if label not in task.raw_labels or not text.strip():
            raise DataError(path, line, f"expected '<0|1> <sentence>', got {record[:60]!r}")
        out.append(Sample(f"{path.name}:{line}", text.strip(), None, task.side_of(label), task.side_of(label)))
    return out


_COLUMNS = {"sst2": ("sentence", None, "label"), "stsb": ("sentence1", "sentence2", "score"),
            "qnli": ("question", "sentence", "label")}


def _read_tsv(task: Task, path: Path, lines: list[str]) -> list[Sample]:
    header = lines[0].split("\t")
    text_col, pair_col, label_col = _COLUMNS[task.name]
    missing = [c for c in (text_col, pair_col, label_col) if c is not None and c not in header]
    if missing:
        raise DataError(path, 1, f"header lacks the {task.name} column(s) {', '.join(missing)} (has {header})")
    out = []
    for line, record in enumerate(lines[1:], start=2):
        fields = record.split("\t")
        if len(fields) != len(header):
            raise DataError(path, line, f"{len(fields)} fields, the header has {len(header)}")
        row = dict(zip(header, fields, strict=True))
        raw = row[label_col].strip()
        if task.kind == "regression":
            try:
                label: str | float = float(raw)
            except ValueError:
                raise DataError(path, line, f"{label_col} {raw!r} is not a number") from None
        elif raw not in task.raw_labels:
            raise DataError(path, line, f"{label_col} {raw!r} is not one of {', '.join(task.raw_labels)}")
        else:
            label = task.side_of(raw)
        text = row[text_col].strip()
        if not text:
            raise DataError(path, line, f"empty {text_col}")
        out.append(Sample(f"{path.name}:{line}", text, row[pair_col].strip() if pair_col else None, label,
                          task.side_of(label if task.kind == "regression" else raw)))
    return out
