"""ExpMRC files: the four dev sets (span and multiple-choice formats) and prediction files, with validation.

The official scorer crashes with a bare ``KeyError`` on a malformed record; here every problem is a
:class:`~interpeval.errors.DataError` naming the file and the question id (REFERENCE §2.2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from interpeval.errors import DataError
from interpeval.validate import read_text

SUBSETS = ("squad", "cmrc2018", "race", "c3")
LANGUAGE = {"squad": "en", "cmrc2018": "zh", "race": "en", "c3": "zh"}
CHOICE_LABELS = "ABCDEFGH"


@dataclass(frozen=True)
class Question:
    """One ExpMRC question in either format.

    ``qid`` is the prediction key: the question id (span) or ``f"{article_id}-{j}"`` (multiple choice).
    ``answers`` are the reference answer texts (span) or the one gold label such as ``"C"`` (multiple choice);
    ``evidences`` the reference evidence strings, ``None`` where a multiple-choice file has no evidences.
    """

    qid: str
    question: str
    context: str
    answers: tuple[str, ...]
    evidences: tuple[str, ...] | None
    answer_starts: tuple[int, ...] = ()
    options: tuple[str, ...] = ()
    article_id: str = ""

    @property
    def gold_option(self) -> str:
        """The text of the gold option (multiple choice)."""
        return self.options[CHOICE_LABELS.index(self.answers[0])]


@dataclass(frozen=True)
class Dataset:
    """A loaded ExpMRC file: ``kind`` is ``"span"`` or ``"choice"``, ``subset`` one of :data:`SUBSETS`."""

    path: str
    version: str
    kind: str
    subset: str
    questions: tuple[Question, ...]

    @property
    def language(self) -> str:
        return LANGUAGE[self.subset]

    def __len__(self) -> int:
        return len(self.questions)


@dataclass(frozen=True)
class Prediction:
    """One entry of a prediction file; values are kept as written (the scorer applies ``str()`` where the original does)."""

    answer: Any
    evidence: Any


def subset_of(version: str) -> tuple[str, str]:
    """``(kind, subset)`` from a file's ``version``, dispatched as the original (substring tests, in its order)."""
    for subset in SUBSETS:
        if subset in version:
            return ("span" if subset in ("squad", "cmrc2018") else "choice"), subset
    raise ValueError(f"Unsupported version: {version}")


def dev_path(subset: str) -> Path:
    """The vendored dev set of ``subset`` (``squad``, ``cmrc2018``, ``race`` or ``c3``)."""
    if subset not in SUBSETS:
        raise ValueError(f"unknown ExpMRC subset {subset!r}; one of {', '.join(SUBSETS)}")
    return Path(str(resources.files("interpeval") / "data" / "expmrc" / subset / f"expmrc-{subset}-dev.json"))


def sample_submission_path(subset: str) -> Path:
    """The vendored official sample submission for ``subset``'s dev set."""
    dev_path(subset)
    return Path(str(resources.files("interpeval") / "data" / "expmrc" / "sample_submission" / f"{subset}.json"))


def _read_json(path: str | Path) -> Any:
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(path, f"line {err.lineno}", f"not valid JSON ({err.msg})") from None


def _list(value: Any, path: str | Path, where: str, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise DataError(path, where, f"{field!r} must be a list, got {type(value).__name__}")
    return value


def _text(value: Any, path: str | Path, where: str, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        got = repr(value) if isinstance(value, str) else type(value).__name__
        raise DataError(path, where, f"{field!r} must be a non-empty string, got {got}")
    return value


def _first_use(seen: dict[str, str], key: str, where: str, path: str | Path, what: str) -> None:
    """Reject a second use of an id or title (a duplicated record would otherwise be merged or double-counted)."""
    if key in seen:
        raise DataError(path, where, f"{what} {key!r} occurs twice (first at {seen[key]})")
    seen[key] = where


def _strings(value: Any, path: str | Path, where: str, field: str, allow_empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(path, where, f"{field!r} must be a list of strings, got {type(value).__name__}")
    if not value and not allow_empty:
        raise DataError(path, where, f"{field!r} is empty")
    return tuple(value)


def _need(record: Any, keys: tuple[str, ...], path: str | Path, where: str) -> None:
    if not isinstance(record, dict):
        raise DataError(path, where, f"expected a JSON object, got {type(record).__name__}")
    missing = [k for k in keys if k not in record]
    if missing:
        raise DataError(path, where, f"missing {', '.join(repr(k) for k in missing)}")


def _span_questions(data: list[Any], path: str | Path) -> list[Question]:
    questions = []
    ids: dict[str, str] = {}
    titles: dict[str, str] = {}
    for i, article in enumerate(data):
        _need(article, ("paragraphs",), path, f"data[{i}]")
        if isinstance(article.get("title"), str):
            _first_use(titles, article["title"], f"data[{i}]", path, "article title")
        for j, para in enumerate(_list(article["paragraphs"], path, f"data[{i}]", "paragraphs")):
            _need(para, ("context", "qas"), path, f"data[{i}].paragraphs[{j}]")
            context = _text(para["context"], path, f"data[{i}].paragraphs[{j}]", "context")
            for k, qa in enumerate(_list(para["qas"], path, f"data[{i}].paragraphs[{j}]", "qas")):
                position = f"data[{i}].paragraphs[{j}].qas[{k}]"
                named = isinstance(qa, dict) and isinstance(qa.get("id"), str) and qa["id"] != ""
                where = f"question {qa['id']}" if named else position
                _need(qa, ("id", "question", "answers", "evidences"), path, where)
                if not named:
                    raise DataError(path, position, f"question id must be a non-empty string (prediction files key "
                                                    f"on it), got {qa['id']!r}")
                _first_use(ids, qa["id"], where, path, "question id")
                answers = qa["answers"]
                if not isinstance(answers, list) or not answers:
                    raise DataError(path, where, "'answers' must be a non-empty list")
                for a in answers:
                    if not isinstance(a, dict) or not isinstance(a.get("text"), str):
                        raise DataError(path, where, "each answer must be an object with a string 'text'")
                    start = a.get("answer_start", -1)
                    if isinstance(start, bool) or not isinstance(start, int):
                        raise DataError(path, where, f"'answer_start' must be an integer offset, got {start!r}")
                questions.append(Question(
                    qid=qa["id"], question=_text(qa["question"], path, where, "question"), context=context,
                    answers=tuple(a["text"] for a in answers),
                    answer_starts=tuple(a.get("answer_start", -1) for a in answers),
                    evidences=_strings(qa["evidences"], path, where, "evidences")))
    return questions


def _choice_questions(data: list[Any], path: str | Path) -> list[Question]:
    questions = []
    ids: dict[str, str] = {}
    for i, article in enumerate(data):
        named = isinstance(article, dict) and isinstance(article.get("id"), str) and article["id"] != ""
        _need(article, ("id", "article", "questions", "options", "answers"), path,
              f"article {article['id']}" if named else f"data[{i}]")
        if not isinstance(article["id"], str) or not article["id"]:
            raise DataError(path, f"data[{i}]", f"article id must be a non-empty string, got {article['id']!r}")
        where = f"article {article['id']}"
        _first_use(ids, article["id"], where, path, "article id")
        context = _text(article["article"], path, where, "article")
        n = len(_list(article["questions"], path, where, "questions"))
        for key in ("options", "answers") + (("evidences",) if "evidences" in article else ()):
            if not isinstance(article[key], list) or len(article[key]) != n:
                raise DataError(path, where, f"{key!r} must be a list with one entry per question ({n})")
        for j in range(n):
            qid = f"{article['id']}-{j}"
            options = _strings(article["options"][j], path, f"question {qid}", "options")
            gold = article["answers"][j]
            if not isinstance(gold, str) or gold not in CHOICE_LABELS[:len(options)]:
                raise DataError(path, f"question {qid}",
                                f"answer {gold!r} is not one of {', '.join(CHOICE_LABELS[:len(options)])}")
            evidences = (_strings(article["evidences"][j], path, f"question {qid}", "evidences")
                         if "evidences" in article else None)
            questions.append(Question(qid=qid, question=_text(article["questions"][j], path, f"question {qid}",
                                                              "question"),
                                      context=context, answers=(gold,), evidences=evidences, options=options,
                                      article_id=article["id"]))
    return questions


def load_dataset(path: str | Path) -> Dataset:
    """Read and validate an ExpMRC data file (any subset; dispatched on ``version`` as the official scorer)."""
    raw = _read_json(path)
    _need(raw, ("version", "data"), path, "top level")
    if not isinstance(raw["data"], list):
        raise DataError(path, "top level", "'data' must be a list")
    try:
        kind, subset = subset_of(str(raw["version"]))
    except ValueError as err:
        raise DataError(path, "version", str(err)) from None
    questions = _span_questions(raw["data"], path) if kind == "span" else _choice_questions(raw["data"], path)
    if not questions:
        raise DataError(path, "data", "no questions")
    return Dataset(str(path), str(raw["version"]), kind, subset, tuple(questions))


def load_predictions(path: str | Path, lenient: bool = False) -> dict[str, Prediction]:
    """Read a prediction file ``{qid: {"answer": str, "evidence": str}}``.

    A non-string answer or evidence (a number, null, a list) is an error; ``lenient=True`` accepts it as the
    official scorer does, which scores ``str(value)`` — so ``["a", "b"]`` is scored as the text ``['a', 'b']`` —
    and accepts an empty file (every question then scores 0 and counts as skipped).
    """
    raw = _read_json(path)
    if not isinstance(raw, dict):
        raise DataError(path, "top level", "expected an object {question id: {answer, evidence}}")
    if not raw and not lenient:
        raise DataError(path, "top level", "holds no predictions (the official scorer would score every question 0; "
                                           "--official does the same)")
    out = {}
    for qid, entry in raw.items():
        _need(entry, ("answer", "evidence"), path, f"question {qid}")
        if not lenient:
            for key in ("answer", "evidence"):
                if not isinstance(entry[key], str):
                    raise DataError(path, f"question {qid}", f"{key!r} must be a string, got "
                                    f"{type(entry[key]).__name__} {json.dumps(entry[key], ensure_ascii=False)[:60]} "
                                    "(the official scorer would score its str(); --lenient does the same)")
        out[qid] = Prediction(entry["answer"], entry["evidence"])
    return out


def write_predictions(path: str | Path, predictions: dict[str, Prediction]) -> Path:
    """Write predictions in the official submission format (UTF-8, not ASCII-escaped)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {qid: {"answer": p.answer, "evidence": p.evidence} for qid, p in predictions.items()}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    return path
