"""The training examples of each kind and the files they are read from (GLUE .tsv, SQuAD .json, .jsonl, .txt)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.errors import DataError, InterpevalError
from interpeval.models import lineage


@dataclass
class ClassificationExample:
    """A text (or text pair) with a class id (sequence-classification) or a number (regression)."""

    text: str
    label: int | float
    pair: str | None = None


@dataclass
class QAExample:
    """A SQuAD-style question; ``answer_start = -1`` and ``answer_text = ""`` mark an unanswerable one."""

    question: str
    context: str
    answer_start: int
    answer_text: str
    evidence_start: int | None = None
    evidence_text: str | None = None


@dataclass
class ChoiceExample:
    """A multiple-choice item: context, question (``_`` marks a cloze blank), options, gold option index, and
    optionally an evidence span of the context (character start and text) for the evidence head."""

    context: str
    question: str
    options: list[str]
    label: int
    evidence_start: int | None = None
    evidence_text: str | None = None


@dataclass
class MLMExample:
    """A text for masked-language-model fine-tuning."""

    text: str


EXAMPLE_TYPES: dict[str, type] = {
    "masked-lm": MLMExample, "sequence-classification": ClassificationExample, "regression": ClassificationExample,
    "extractive-qa": QAExample, "multiple-choice": ChoiceExample,
}



def read_tsv(path: str | Path, kind: str = "sequence-classification") -> tuple[list[ClassificationExample],
                                                                                list[str] | None]:
    """GLUE-style TSV with a header (SST-2 ``sentence,label``; STS-B ``sentence1,sentence2,score``; QNLI
    ``question,sentence,label``) → examples and the label names (None for regression)."""
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows:
        raise DataError(path, 1, "empty file")
    header = rows[0]
    pairs = [("sentence1", "sentence2"), ("question", "sentence"), ("sentence", None), ("text", None)]
    text_col, pair_col = next(((a, b) for a, b in pairs if a in header and (b is None or b in header)), (None, None))
    label_col = next((c for c in ("label", "score") if c in header), None)
    if text_col is None or label_col is None:
        raise DataError(path, 1, f"header {header} needs a text column (sentence / sentence1+sentence2 / "
                                 "question+sentence / text) and a label or score column")
    raw = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise DataError(path, line, f"{len(row)} fields, the header has {len(header)}")
        record = dict(zip(header, row, strict=True))
        raw.append((line, record[text_col], record[pair_col] if pair_col else None, record[label_col].strip()))
    if kind == "regression":
        out = []
        for line, text, pair, label in raw:
            try:
                out.append(ClassificationExample(text, float(label), pair))
            except ValueError:
                raise DataError(path, line, f"{label_col} {label!r} is not a number") from None
        return out, None
    names = sorted({label for *_, label in raw})
    index = {name: i for i, name in enumerate(names)}
    if all(name.isdigit() for name in names):  # numeric GLUE labels keep their own ids
        index = {name: int(name) for name in names}
        names = [str(i) for i in range(max(index.values()) + 1)]
    return [ClassificationExample(text, index[label], pair) for _, text, pair, label in raw], names


def read_squad(path: str | Path) -> list[QAExample]:
    """SQuAD 1.1/2.0 JSON → one example per question (first gold answer; unanswerable → ``answer_start=-1``)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["data"]
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        raise DataError(path, "", f"not SQuAD JSON ({err})") from None
    out = []
    for article in data:
        for paragraph in article.get("paragraphs", []):
            context = paragraph["context"]
            for qa in paragraph.get("qas", []):
                answers = qa.get("answers") or []
                if not isinstance(qa.get("is_impossible", False), bool):
                    raise DataError(path, qa.get("id", ""), f"'is_impossible' must be true or false, got "
                                                            f"{qa['is_impossible']!r}")
                if qa.get("is_impossible") or not answers:
                    out.append(QAExample(qa["question"], context, -1, ""))
                    continue
                start, text = int(answers[0]["answer_start"]), answers[0]["text"]
                if context[start:start + len(text)] != text:
                    raise DataError(path, qa.get("id", ""), f"answer {text!r} is not at offset {start} of the context")
                out.append(QAExample(qa["question"], context, start, text))
    return out


def read_jsonl(path: str | Path, kind: str) -> list[Any]:
    """JSON lines whose keys are the fields of the kind's example dataclass."""
    path = Path(path)
    cls = EXAMPLE_TYPES[kind]
    out = []
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            out.append(cls(**json.loads(text)))
        except (json.JSONDecodeError, TypeError) as err:
            raise DataError(path, line, f"not a {cls.__name__} record ({err})") from None
    return out


def read_examples(kind: str, path: str | Path) -> tuple[list[Any], list[str] | None]:
    """Examples for ``kind`` from a file, by extension: ``.tsv`` (GLUE), ``.json`` (SQuAD), ``.jsonl``, ``.txt``
    (masked-lm, one text per line). Returns the examples and the label names when the file defines them."""
    path = Path(path)
    if not path.is_file():
        raise InterpevalError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".tsv" and kind in ("sequence-classification", "regression"):
        return read_tsv(path, kind)
    if suffix == ".json" and kind == "extractive-qa":
        return read_squad(path), None
    if suffix == ".jsonl":
        return read_jsonl(path, kind), None
    if suffix == ".txt" and kind == "masked-lm":
        return [MLMExample(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()], None
    raise InterpevalError(f"{path}: cannot read {suffix or 'this'} files for {kind}; use .tsv (classification, "
                          "regression), SQuAD .json (extractive-qa), .txt (masked-lm) or .jsonl")


def _units(example: Any) -> list[tuple[str, str | None]]:
    """What a lineage hashes of one example: the input as the model reads it and each passage read alone."""
    if isinstance(example, ClassificationExample):
        return [(example.text, example.pair)] + ([(example.pair, None)] if example.pair else [])
    if isinstance(example, QAExample):
        return [(example.question, example.context), (example.context, None)]
    if isinstance(example, ChoiceExample):
        return [(example.context, None)]
    return [(example.text, None)]


def example_lineage(examples: Sequence[Any]) -> dict[str, Any]:
    """The :data:`~interpeval.models.lineage.LINEAGE` record of the examples a head trained or was selected on."""
    return lineage.record((u for e in examples for u in _units(e)),
                          "every training and dev input as the model read it (text + pair, question + context) and "
                          "each passage alone (the pair of a text pair, a QA or choice context, a masked-LM text)")


def lineage_summary(record: dict[str, Any]) -> dict[str, Any]:
    """What a card says of its lineage: the file, what it hashed, how many hashes."""
    return {"file": lineage.LINEAGE, "what": record["what"], "n": len(record["sha1"])}
