"""Read SQuAD 1.1 / 2.0-format files into flat question records, and name the QUACKIE datasets.

QUACKIE evaluates on SQuAD 2.0 dev and the SQuADShifts test sets; both are SQuAD-format JSON, so any file in that
format is a QUACKIE dataset. Small real subsets ship in ``interpeval/data/squad`` (see its SOURCES.md); the same
file names in another folder (``data_dir=``) give the full sets.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from interpeval.errors import DataError, OptionError
from interpeval.validate import input_file, read_text

#: CLI dataset name → file name (QUACKIE's names; SQuADShifts NYT is not available offline).
DATASETS: dict[str, str] = {
    "SQuAD": "squad2-dev-part.json",
    "NEW_WIKI": "squadshifts-new_wiki.json",
    "Reddit": "squadshifts-reddit.json",
    "Amazon": "squadshifts-amazon_reviews.json",
}

#: Articles of ``squad2-dev-part.json`` kept out of classifier training (and vendored for evaluation).
HELD_OUT_ARTICLES: tuple[str, ...] = ("Normans", "1973_oil_crisis", "Harvard_University")
#: The articles of ``squad2-dev-part.json`` a zoo QA / answerability head trains on: neither the held-out articles
#: above nor ExpMRC SQuAD dev's; the other 6 are test only (``interpeval.training.english``).
SQUAD2_TRAIN_ARTICLES: tuple[str, ...] = ("Computational_complexity_theory", "European_Union_law", "Force",
                                          "Huguenot", "Immune_system", "Imperialism", "Islamism", "Packet_switching",
                                          "Scottish_Parliament", "Warsaw")


@dataclass(frozen=True)
class SquadQuestion:
    """One question with its context; ``index`` is its position in file order (QUACKIE's sample index)."""

    index: int
    id: str
    title: str
    question: str
    context: str
    answer_starts: tuple[int, ...]
    answer_texts: tuple[str, ...]
    is_impossible: bool


def vendored_dir() -> Path:
    """The folder of the small real subsets shipped with the package."""
    return Path(__file__).resolve().parents[2] / "data" / "squad"


def dataset_path(name: str, data_dir: str | Path | None = None) -> Path:
    """Path of dataset ``name`` (a key of :data:`DATASETS`, or a path to any SQuAD-format file)."""
    if name in DATASETS:
        path = Path(data_dir or vendored_dir()) / DATASETS[name]
    else:
        path = Path(name)
        if path.suffix != ".json":
            raise OptionError("--dataset", f"unknown dataset {name!r}: use one of {', '.join(DATASETS)} or a "
                                           "SQuAD-format .json file")
    return input_file(path)


def _need(obj: object, key: str, kind: type | tuple[type, ...], path: Path, where: str) -> object:
    if not isinstance(obj, dict) or key not in obj:
        raise DataError(path, where, f"missing field {key!r}")
    value = obj[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise DataError(path, where, f"field {key!r} must be {names}, got {type(value).__name__}")
    return value


def load_squad(path: str | Path) -> list[SquadQuestion]:
    """All questions of a SQuAD-format file, in file order, validated (answers must match their context)."""
    path = Path(path)
    try:
        doc = json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise DataError(path, f"line {err.lineno}", f"not valid JSON ({err.msg})") from None
    articles = _need(doc, "data", list, path, "top level")
    if not articles:
        raise DataError(path, "data", "is empty: no articles")
    out: list[SquadQuestion] = []
    ids: dict[str, str] = {}
    for a, article in enumerate(articles):
        title = str(article.get("title", "")) if isinstance(article, dict) else ""
        for p, paragraph in enumerate(_need(article, "paragraphs", list, path, f"data[{a}]")):
            where_p = f"data[{a}].paragraphs[{p}]"
            context = _need(paragraph, "context", str, path, where_p)
            for q, qa in enumerate(_need(paragraph, "qas", list, path, where_p)):
                where = f"{where_p}.qas[{q}]"
                question = _need(qa, "question", (str, list), path, where)
                if isinstance(question, list):  # QUACKIE: sample["question"][0] when it is not a str
                    if not question or not isinstance(question[0], str):
                        raise DataError(path, where, "field 'question' is an empty list or not a list of str")
                    question = question[0]
                starts, texts = [], []
                for n, answer in enumerate(_need(qa, "answers", list, path, where)):
                    where_a = f"{where}.answers[{n}]"
                    start = _need(answer, "answer_start", int, path, where_a)
                    if isinstance(start, bool):
                        raise DataError(path, where_a, "field 'answer_start' must be int, got bool")
                    text = _need(answer, "text", str, path, where_a)
                    if not 0 <= start < len(context) or context[start:start + len(text)] != text:
                        raise DataError(path, where_a, f"answer {text!r} is not at answer_start={start} of the context")
                    starts.append(start)
                    texts.append(text)
                impossible = qa.get("is_impossible", False)
                if not isinstance(impossible, bool):
                    raise DataError(path, where, f"field 'is_impossible' must be true or false, got {impossible!r}")
                if not starts and not impossible and "is_impossible" not in qa:
                    raise DataError(path, where, "no answers and no 'is_impossible' flag")
                qid = str(_need(qa, "id", (str, int), path, where))
                if qid in ids:
                    raise DataError(path, where, f"question id {qid!r} occurs twice (first at {ids[qid]})")
                ids[qid] = where
                out.append(SquadQuestion(len(out), qid, title, question, context, tuple(starts), tuple(texts),
                                         impossible))
    if not out:
        raise DataError(path, "data", "holds no questions")
    return out
