"""The official ExpMRC scorer: same numbers and the same JSON line as ``eval_expmrc.py`` (REFERENCE §2.1, §2.4)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO

from interpeval import metrics
from interpeval.benchmarks.expmrc.data import Dataset, Prediction, Question
from interpeval.errors import DataError


@dataclass
class Score:
    """Per-question answer and evidence scores (0 for an unanswered question) and the three percentages.

    ``joint`` holds a question's overall score where it is not simply answer × evidence (human performance
    averages the products over annotators); the official scorer never sets it.
    """

    version: str
    answer: dict[str, float]
    evidence: dict[str, float]
    skipped: list[str] = field(default_factory=list)
    joint: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.answer)

    @property
    def all_f1(self) -> float:
        if self.joint:
            return metrics.get("expmrc_all_f1").over_dataset([1.0] * len(self.joint),
                                                             [self.joint[qid] for qid in self.answer])
        return metrics.get("expmrc_all_f1").over_dataset(list(self.answer.values()), list(self.evidence.values()))

    @property
    def ans_f1(self) -> float:
        return metrics.get("expmrc_ans_f1").over_dataset(list(self.answer.values()))

    @property
    def evi_f1(self) -> float:
        return metrics.get("expmrc_evi_f1").over_dataset(list(self.evidence.values()))

    def official(self, prediction_file: str) -> dict[str, object]:
        """The original's output object: three ``"%.3f"`` strings, TOTAL, SKIP, VERSION and FILE, in its order."""
        return {"ALL_F1": f"{self.all_f1:.3f}", "ANS_F1": f"{self.ans_f1:.3f}", "EVI_F1": f"{self.evi_f1:.3f}",
                "TOTAL": self.total, "SKIP": len(self.skipped), "VERSION": self.version, "FILE": prediction_file}

    def official_line(self, prediction_file: str) -> str:
        """The exact line the original prints (``json.dumps`` defaults: ASCII escapes, ``", "`` separators)."""
        return json.dumps(self.official(prediction_file))


def check_coverage(dataset: Dataset, predictions: Mapping[str, Prediction], path: str, lenient: bool = False,
                   stderr: TextIO | None = None) -> None:
    """A prediction file that answers none of the questions is the wrong file (an error unless ``lenient``, which
    warns and lets it score 0 as the original does);
    keys that are not questions of ``dataset`` are ignored, as by the original, with a warning on ``stderr``."""
    stderr = sys.stderr if stderr is None else stderr
    questions = {q.qid for q in dataset.questions}
    foreign = [qid for qid in predictions if qid not in questions]
    if len(foreign) == len(predictions):
        if predictions and not lenient:
            raise DataError(path, f"question {foreign[0]}", f"none of its {len(foreign)} question ids is a question "
                                                             f"of {dataset.path} (wrong data file? --official scores it as the original "
                                                             "does: 0 everywhere)")
        stderr.write(f"warning: {path}: answers none of the {len(questions)} questions of {dataset.path}; scored as "
                     "the official scorer does: 0 everywhere, every question counted in SKIP\n")
    if foreign:
        stderr.write(f"warning: {path}: {len(foreign)} of {len(predictions)} predictions are not questions of "
                     f"{dataset.path} and are ignored (first: {foreign[0]!r})\n")


def evaluate(dataset: Dataset, predictions: Mapping[str, Prediction], official: bool = True,
             stderr: TextIO | None = None) -> Score:
    """Score ``predictions`` on ``dataset``; each unanswered question is reported on ``stderr`` as the original.

    Span: answer = max-F1 over reference answers of ``str(answer)``, evidence likewise over reference evidences.
    Multiple choice: answer = exact label match; evidence = max-F1 over the references, 0 when the file has none.
    ``official=False`` switches the tokenisation quirks off (see :mod:`interpeval.metrics.mrc`).
    """
    stderr = sys.stderr if stderr is None else stderr
    score = Score(dataset.version, {}, {})
    for q in dataset.questions:
        pred = predictions.get(q.qid)
        if pred is None:
            stderr.write(f"Unanswered question: {q.qid}\n")
            score.skipped.append(q.qid)
            score.answer[q.qid] = score.evidence[q.qid] = 0.0
            continue
        answer, evidence = score_question(q, pred, official=official)
        score.answer[q.qid], score.evidence[q.qid] = answer, 0.0 if evidence is None else evidence
    return score


def score_question(question: Question, prediction: Prediction, official: bool = True) -> tuple[float, float | None]:
    """One answered question's answer and evidence score, as the official scorer computes them (see
    :func:`evaluate`); evidence None where the file has no reference evidence (:func:`evaluate` counts it 0)."""
    f1 = metrics.get("expmrc_f1")
    if question.options:  # multiple choice (span questions have none)
        answer = metrics.get("expmrc_choice_match")(question.answers[0], prediction.answer)
    else:
        answer = f1(question.answers, str(prediction.answer), official=official)
    evidence = None if question.evidences is None else f1(question.evidences, prediction.evidence, official=official)
    return answer, evidence
