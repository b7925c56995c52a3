"""IQS's study kind (plug-in part ``studies``): people answer the paper's questions about a marked explanation.

``iqs``: payload ``{"text": str, "words": [str], "marks": ["red" | "green" | "", ...] (one per word),
"legend": {"red": str, "green": str}, "questions": [{"id": str, "text": str, "type": "choice", "options": [str]}
| {"id": str, "text": str, "type": "words", "among": "red" | "green" | "not-red" | "not-green" | "any"}],
"iqs": {...what scoring needs: the method, the model's output, marked words, word scores}}``; answer
``{"answers": {question id: option | [word index, ...]}}``. The ``iqs`` block is private: annotators never see
which method they judge.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from interpeval.store.studies import StudyKind, index_list, register_kind

KIND = "iqs"


def _validate_iqs(payload: dict[str, Any], answer: dict[str, Any], task: str, draft: bool = False) -> None:
    given = answer.get("answers")
    if not isinstance(given, dict):
        raise ValueError("an IQS answer is {'answers': {question id: value}}")
    known = {q["id"] for q in payload.get("questions", [])}
    unknown = sorted(set(given) - known)
    if unknown:
        raise ValueError(f"answers to unknown questions {unknown}; the questions are {sorted(known)}")
    marks = payload.get("marks") or [""] * len(payload.get("words", []))
    among = {"red": lambda m: m == "red", "green": lambda m: m == "green", "not-red": lambda m: m != "red",
             "not-green": lambda m: m != "green", "any": lambda m: True}
    for question in payload.get("questions", []):
        qid, value = question["id"], given.get(question["id"])
        if draft and value is None:
            continue
        if question.get("type") == "choice":
            if value not in question.get("options", []):
                raise ValueError(f"question {qid}: pick one of {question.get('options')}")
        else:
            ids = index_list(value if value is not None else [], len(marks), f"question {qid}")
            allowed = among[question.get("among", "any")]
            wrong = [i for i in ids if not allowed(marks[i])]
            if wrong:
                raise ValueError(f"question {qid}: words {wrong} are not {question.get('among')}")


def _check_outputs(payloads: list[dict[str, Any]], config: dict[str, Any]) -> None:
    """A study that names its IQS task (config ``iqs.task``, as ``interpeval iqs study create`` writes it) is
    refused before anyone answers when an item's model output does not fit the task: reproducibility needs the
    probabilities of the task's two classes (red, green), or one number for a regression task."""
    from interpeval.benchmarks.iqs.tasks import TASKS
    from interpeval.metrics.iqs import PROBABILITY_SUM_TOLERANCE

    iqs = config.get("iqs")
    task = TASKS.get(str(iqs.get("task"))) if isinstance(iqs, dict) else None
    if task is None:
        return
    for i, payload in enumerate(payloads):
        y = payload["iqs"].get("y_model") if isinstance(payload.get("iqs"), dict) else None
        if task.kind == "regression":
            fits = isinstance(y, (int, float)) and not isinstance(y, bool)
            wanted = "one number (the model's regression output)"
        else:
            fits = (isinstance(y, list) and len(y) == len(task.sides)
                    and all(isinstance(p, (int, float)) and not isinstance(p, bool) and 0 <= p <= 1 for p in y)
                    and abs(sum(y) - 1.0) <= PROBABILITY_SUM_TOLERANCE)
            wanted = f"the model's probabilities of {task.red} and {task.green}, summing to 1"
        if not fits:
            raise ValueError(f"item {i}: iqs.y_model is {y!r}; a {task.name} study needs {wanted}")


register_kind(StudyKind(KIND, "study_iqs.html", _validate_iqs, private=("iqs",),
                        validate_draft=partial(_validate_iqs, draft=True), check_study=_check_outputs))
