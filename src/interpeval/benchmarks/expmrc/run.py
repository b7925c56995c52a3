"""Run ExpMRC systems (answer source × evidence selector) on the dev sets, score them and store the results.

Every (system, subset) is one :class:`~interpeval.store.Run` keyed by its configuration and the data file's
fingerprint, with one record per question (prediction, answer / evidence / overall score); re-running resumes.
An answer model's outputs are stored once per subset (run ``expmrc-answers``), so a rerun makes no model pass;
scoring is pure and cheap and is redone to build the tables.
Each run also writes its predictions in the official submission format, so ``interpeval expmrc score`` (or the
original ``eval_expmrc.py``) can re-score them.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpeval.benchmarks.base import Benchmark, Record, RunKey, resume
from interpeval.benchmarks.expmrc.baselines import (
    SELECTORS,
    Answer,
    gold_answer,
    overlap_choice,
    sentence_spans,
)
from interpeval.benchmarks.expmrc.data import CHOICE_LABELS, Dataset, Prediction, Question, write_predictions
from interpeval.benchmarks.expmrc.human import human_performance, label_for
from interpeval.benchmarks.expmrc.score import Score, evaluate
from interpeval.models import say_truncated
from interpeval.store import Store, fingerprint_files

OVERLAP_SCORER = "overlap-option-scorer"
"""Name of the unsupervised multiple-choice answerer (no model): see :func:`baselines.overlap_choice`."""


@dataclass(frozen=True)
class System:
    """A row of Table 3: ``answers`` is ``"gold"``, ``"model"`` or ``"overlap"``; ``evidence`` a selector key,
    ``"model"`` (the QA model's evidence head) or ``"human"`` (cross-validation over the references)."""

    key: str
    label: str
    answers: str
    evidence: str


SYSTEMS = (
    System("mss", "MSS", "model", "mss"),
    System("mss_q", "MSS w/ Ques.", "model", "mss_q"),
    System("pa", "PA Sent.", "model", "pa"),
    System("pseudo", "Pseudo-data training (evidence head)", "model", "model"),
    System("ga", "GA Sent. (gold answer; upper bound)", "gold", "ga"),
    System("ge", "GE Sent. (gold answer; upper bound)", "gold", "ge"),
    System("human", "Human (cross-validation over references)", "gold", "human"),
)


@dataclass
class ModelOutput:
    """What an answer model said about one question: its answer and, with an evidence head, its evidence."""

    answer: Answer
    evidence: str | None = None


def qa_outputs(model: Any, dataset: Dataset) -> dict[str, ModelOutput]:
    """Answers (and evidence-head spans) of an extractive-QA model for a span subset."""
    questions = dataset.questions
    preds = model.predict([q.question for q in questions], [q.context for q in questions])
    return {q.qid: ModelOutput(Answer(p["text"], start=p["start"]), p["evidence"]["text"] if "evidence" in p else None)
            for q, p in zip(questions, preds, strict=True)}


def choice_outputs(model: Any | None, dataset: Dataset) -> dict[str, ModelOutput]:
    """Choices of a multiple-choice model (text = passage, option = question + option), or of the unsupervised
    overlap scorer when ``model`` is None."""
    if model is None:
        return {q.qid: ModelOutput(overlap_choice(q, sentence_spans(q.context, dataset.language)))
                for q in dataset.questions}
    ids = model.predict([q.context for q in dataset.questions],
                        [[f"{q.question} {o}" for o in q.options] for q in dataset.questions])
    return {q.qid: ModelOutput(Answer(q.options[int(i)], label=CHOICE_LABELS[int(i)]))
            for q, i in zip(dataset.questions, ids, strict=True)}


class AnswerOutputs(Benchmark):
    """Run ``expmrc-answers``: an answer model's answer (and evidence-head span) per question, stored.

    The only model passes of the ExpMRC baselines; a rerun reads them back. ``chunk`` questions go to one
    ``predict`` call; they and the model's ``batch_size`` are part of the key (batch padding can move a span's float
    logits).
    """

    def __init__(self, model: Any, model_name: str, dataset: Dataset, chunk: int = 64) -> None:
        self.model, self.model_name, self.dataset, self.chunk = model, model_name, dataset, chunk

    def key(self) -> RunKey:
        config = {"subset": self.dataset.subset, "kind": self.dataset.kind, "chunk": self.chunk,
                  "batch_size": getattr(self.model, "batch_size", None)}
        return RunKey("expmrc-answers", config, self.model_name, fingerprint_files(self.dataset.path))

    def instances(self) -> Sequence[Question]:
        return self.dataset.questions

    def instance_id(self, item: Question) -> str:
        return item.qid

    def compute(self, items: Sequence[Question]) -> list[Record]:
        part = dataclasses.replace(self.dataset, questions=tuple(items))
        outputs = (qa_outputs if self.dataset.kind == "span" else choice_outputs)(self.model, part)
        return [Record({"text": o.answer.text, "start": o.answer.start, "label": o.answer.label,
                        "evidence": o.evidence}) for o in (outputs[q.qid] for q in items)]


def stored_outputs(model: Any, model_name: str, dataset: Dataset, store: Store | None) -> dict[str, ModelOutput]:
    """The model's outputs for ``dataset``, computed once per store (without one: an in-memory store); says on stderr
    how many inputs are longer than the model reads (cut to its first ``max_length`` tokens)."""
    if model is not None and dataset.kind == "span":
        say_truncated(model, [q.question for q in dataset.questions], [q.context for q in dataset.questions])
    elif model is not None:  # one input per (passage, question + option), as choice_outputs reads them
        say_truncated(model, [q.context for q in dataset.questions for _ in q.options],
                      [f"{q.question} {o}" for q in dataset.questions for o in q.options])
    rows = resume(AnswerOutputs(model, model_name, dataset), store if store is not None else Store(":memory:")).outputs
    return {r["instance_id"]: ModelOutput(Answer(r["text"], start=r["start"], label=r["label"]), r["evidence"])
            for r in rows}


def applicable(system: System, dataset: Dataset, outputs: Mapping[str, ModelOutput] | None) -> bool:
    """PA Sent. needs span answers, GE Sent. and human performance reference evidences, the evidence-head row a
    model with an evidence head."""
    if system.answers == "model" and outputs is None:
        return False
    if system.evidence in ("ge", "human") and any(q.evidences is None for q in dataset.questions):
        return False
    if system.evidence == "pa" and dataset.kind != "span":
        return False
    return not (system.evidence == "model" and any(o.evidence is None for o in (outputs or {}).values()))


def predict(system: System, dataset: Dataset, outputs: Mapping[str, ModelOutput] | None) -> dict[str, Prediction]:
    """The system's predictions in the official format (answer text for spans, label for choices)."""
    out = {}
    for q in dataset.questions:
        if system.answers == "gold":
            answer, head_evidence = gold_answer(q), None
        else:
            assert outputs is not None
            answer, head_evidence = outputs[q.qid].answer, outputs[q.qid].evidence
        if system.evidence == "model":
            evidence = head_evidence or ""
        else:
            evidence = SELECTORS[system.evidence](q, answer, sentence_spans(q.context, dataset.language))
        out[q.qid] = Prediction(answer.label if answer.label is not None else answer.text, evidence)
    return out


def score_system(system: System, dataset: Dataset, outputs: Mapping[str, ModelOutput] | None,
                 official: bool = True) -> tuple[Score, dict[str, Prediction]]:
    """Predict and score one system on one subset (human performance has no predictions)."""
    if system.evidence == "human":
        return human_performance(dataset, official=official), {}
    predictions = predict(system, dataset, outputs)
    return evaluate(dataset, predictions, official=official, stderr=io.StringIO()), predictions


def run_systems(datasets: Mapping[str, Dataset], answerers: Mapping[str, str],
                outputs_for: Callable[[Dataset], Mapping[str, ModelOutput] | None], out_dir: str | Path,
                store: Store | None = None, systems: tuple[System, ...] = SYSTEMS,
                official: bool = True) -> dict[tuple[str, str], Score]:
    """Every applicable (system, subset) pair: scored, its predictions written to ``out_dir/<subset>/<system>.json``
    and, with a ``store``, recorded as one run each. ``answerers[subset]`` names the answer model."""
    results: dict[tuple[str, str], Score] = {}
    for subset, dataset in datasets.items():
        outputs = outputs_for(dataset)
        for system in systems:
            if not applicable(system, dataset, outputs):
                continue
            score, predictions = score_system(system, dataset, outputs, official)
            results[(system.key, subset)] = score
            if predictions:
                write_predictions(Path(out_dir) / subset / f"{system.key}.json", predictions)
            if store is not None:
                model = answerers[subset] if system.answers == "model" else "gold"
                _record(store, system, dataset, model, official, score, predictions)
    return results


class SystemRecords(Benchmark):
    """Run ``expmrc``: one system on one subset, a record per question with its answer / evidence / all score."""

    distributable = False  # scoring stored answers: no model pass worth sending to a worker

    def __init__(self, system: System, dataset: Dataset, model: str, official: bool, score: Score,
                 predictions: Mapping[str, Prediction]) -> None:
        self.system, self.dataset, self.model, self.official = system, dataset, model, official
        self.score, self.predictions = score, predictions
        self.chunk = max(1, len(score.answer))  # nothing expensive per question: one chunk

    def key(self) -> RunKey:
        label = label_for(self.system.label, self.dataset.kind) if self.system.evidence == "human" else self.system.label
        config = {"system": self.system.key, "label": label, "subset": self.dataset.subset,
                  "official": self.official}
        return RunKey("expmrc", config, self.model, fingerprint_files(self.dataset.path))

    def instances(self) -> list[str]:
        return list(self.score.answer)

    def instance_id(self, item: str) -> str:
        return item

    def compute(self, items: Sequence[str]) -> list[Record]:
        records = []
        for qid in items:
            pred = self.predictions.get(qid)
            output = {} if pred is None else {"answer": pred.answer, "evidence": pred.evidence}
            answer = self.score.answer[qid]
            overall = self.score.joint.get(qid, answer * self.score.evidence[qid])
            records.append(Record(output, {"answer": answer, "evidence": self.score.evidence[qid], "all": overall}))
        return records

    def summarize(self, outputs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
        score = self.score
        return {"": {"ALL_F1": score.all_f1, "ANS_F1": score.ans_f1, "EVI_F1": score.evi_f1, "TOTAL": score.total,
                     "SKIP": len(score.skipped)}}


def _record(store: Store, system: System, dataset: Dataset, model: str, official: bool, score: Score,
            predictions: Mapping[str, Prediction]) -> None:
    resume(SystemRecords(system, dataset, model, official, score, predictions), store)
