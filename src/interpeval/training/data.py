"""Reading the shared data folder for the recipes: SQuAD-format records, GLUE rows, masked-LM chunks, QA
examples with ExpMRC pseudo evidence, and what a recipe's data is once prepared."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpeval.errors import InterpevalError
from interpeval.training.examples import MLMExample, QAExample
from interpeval.training.splits import part_of

SQUADSHIFTS = ("new_wiki", "reddit", "amazon_reviews")


@dataclass
class TestSet:
    """Held-out examples, what they are, and the trivial baseline's scores on them."""

    examples: list[Any]
    what: str
    baseline_name: str
    baseline: dict[str, float]
    #: scores a model on the examples when the kind's default (:func:`interpeval.training.scoring.evaluate`) is not
    #: the benchmark's own scorer
    scorer: Callable[[Any, list[Any]], dict[str, float]] | None = None


@dataclass
class Prepared:
    """A recipe's data: train / dev examples, held-out tests, the exact split, label names."""

    train: list[Any]
    dev: list[Any]
    tests: dict[str, TestSet]
    split: dict[str, Any]
    label_names: list[str] | None = None
    folds: list[tuple[list[Any], list[Any]]] = field(default_factory=list)
    #: the passages the examples were cut from (masked-LM chunks): the head's lineage lists these instead
    trained_texts: list[str] | None = None



def read_json(path: Path) -> Any:
    if not path.is_file():
        raise InterpevalError(f"{path}: missing (is --data-root the shared data folder?)")
    return json.loads(path.read_text(encoding="utf-8"))


def squad_records(path: Path) -> list[dict[str, Any]]:
    """Flat question records of a SQuAD-format file: title, context, question, answers, impossible."""
    out = []
    for article in read_json(path)["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answers = qa.get("answers") or []
                out.append({"id": str(qa["id"]), "title": article.get("title", ""), "context": paragraph["context"],
                            "question": qa["question"] if isinstance(qa["question"], str) else qa["question"][0],
                            "answers": [(int(a["answer_start"]), a["text"]) for a in answers],
                            "impossible": bool(qa.get("is_impossible")) or not answers,
                            "evidences": list(qa.get("evidences") or [])})
    return out


def vendored_contexts() -> set[str]:
    """Paragraphs of the SQuAD-family samples shipped in the package (QUACKIE evaluates on them): never trained on."""
    folder = Path(__file__).resolve().parents[1] / "data" / "squad"
    return {r["context"] for f in sorted(folder.glob("*.json")) for r in squad_records(f)}


def shift_part(domain: str, record: dict[str, Any], vendored: set[str]) -> str:
    """SQuADShifts split: by article (new_wiki, amazon) or by paragraph (reddit is one "article")."""
    if record["context"] in vendored:
        return "test"
    return part_of(record["context"] if domain == "reddit" else f"{domain}/{record['title']}")



def _pseudo_evidence(question: str, context: str, start: int, text: str, language: str) -> tuple[int, str]:
    """ExpMRC pseudo evidence: the sentence most similar to question + gold answer (``mss_q``)."""
    from interpeval.benchmarks.expmrc.baselines import Answer, mss_q, sentence_spans
    from interpeval.benchmarks.expmrc.data import Question

    q = Question(qid="", question=question, context=context, answers=(text,), evidences=None,
                 answer_starts=(start,))
    evidence = mss_q(q, Answer(text, start), sentence_spans(context, language))
    return context.find(evidence), evidence


def qa_example(record: dict[str, Any], language: str = "en", evidence: bool = True) -> QAExample:
    if record["impossible"]:
        return QAExample(record["question"], record["context"], -1, "")
    start, text = record["answers"][0]
    example = QAExample(record["question"], record["context"], start, text)
    if evidence:
        example.evidence_start, example.evidence_text = _pseudo_evidence(record["question"], record["context"],
                                                                         start, text, language)
    return example



def glue_rows(root: Path, task: str) -> list[dict[str, str]]:
    import csv

    path = root / "glue" / task / "dev.tsv"
    if not path.is_file():
        raise InterpevalError(f"{path}: missing (is --data-root the shared data folder?)")
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))



def mlm_texts(texts: Sequence[str], words_per_chunk: int = 90) -> list[MLMExample]:
    """Paragraphs cut into chunks of about ``words_per_chunk`` words (CJK characters count as words)."""
    out = []
    for text in texts:
        if re.search(r"[\u3400-\u9fff]", text):
            step = words_per_chunk * 2
            out += [MLMExample(text[i:i + step]) for i in range(0, len(text), step)]
            continue
        words = text.split()
        out += [MLMExample(" ".join(words[i:i + words_per_chunk])) for i in range(0, len(words), words_per_chunk)]
    return [e for e in out if len(e.text) > 20]



def unique_contexts(path: Path) -> list[str]:
    return list(dict.fromkeys(r["context"] for r in squad_records(path)))
