"""Human performance by cross-validation over the references (ExpMRC paper: each annotation in turn vs the others).

Span subsets: reference k plays annotator k, who "predicts" answer k and evidence k (k < min(#answers, #evidences));
both are scored with the official per-question formula against the references left after removing k, and the
question's answer, evidence and overall (answer × evidence) scores are the means over k. Multiple choice: the
label is unique (and annotators' own choices were not released), so the answer score is **fixed at 1 (100), not
measured**, and the evidence score is the mean over k of evidence k against the other evidences; every table labels
that answer score (and the overall score, which is then the evidence score) as fixed (:func:`label_for`).

This is a dev-set estimate from the released references; the paper's own human figures may use another protocol.
"""

from __future__ import annotations

from interpeval import metrics
from interpeval.benchmarks.expmrc.data import Dataset
from interpeval.benchmarks.expmrc.score import Score

FIXED_ANSWER = "answer fixed at 100 (multiple choice: one gold label, no annotator choices released), not measured"


def answer_measured(kind: str) -> bool:
    """Whether human performance measures the answer score for a subset of ``kind`` (``span`` or ``choice``)."""
    return kind == "span"


def label_for(label: str, kind: str) -> str:
    """The human row's label for a subset of ``kind``: says so where the answer score is fixed, not measured."""
    return label if answer_measured(kind) else f"{label}; {FIXED_ANSWER}"


def _without(items: tuple[str, ...], k: int) -> list[str]:
    return list(items[:k] + items[k + 1:])


def human_performance(dataset: Dataset, official: bool = True) -> Score:
    """Per-question human scores; questions with fewer than two references of a kind are skipped (listed)."""
    f1 = metrics.get("expmrc_f1")
    score = Score(dataset.version, {}, {})
    for q in dataset.questions:
        evidences = q.evidences or ()
        n = len(evidences) if dataset.kind == "choice" else min(len(q.answers), len(evidences))
        if n < 2:
            score.skipped.append(q.qid)
            continue
        answers, scored, joint = [], [], []
        for k in range(n):
            if dataset.kind == "span":
                answers.append(f1(_without(q.answers, k), q.answers[k], official=official))
            else:
                answers.append(1.0)  # fixed, not measured: see FIXED_ANSWER
            scored.append(f1(_without(evidences, k), evidences[k], official=official))
            joint.append(answers[-1] * scored[-1])
        score.answer[q.qid] = sum(answers) / n
        score.evidence[q.qid] = sum(scored) / n
        score.joint[q.qid] = sum(joint) / n
    return score
