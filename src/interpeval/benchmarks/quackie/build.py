"""QUACKIE instances: the question is fixed, the context is the input, and the answer's sentence is the ground truth.

The ground-truth sentence is the one holding a gold ``answer_start`` (one one-hot vector per gold answer, REFERENCE
§1.2). ``official=True`` reproduces the original ``findanswer`` walk, which assumes exactly one separator character
between punkt sentences; the default locates the start in the sentences' true character spans.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from interpeval.benchmarks.quackie.data import SquadQuestion
from interpeval.text.sentences import sent_spans

if TYPE_CHECKING:  # importing interpeval.models loads torch: the web app's QUACKIE views need none of it
    from interpeval.models.lineage import Lineage


def official_answer_sentence(sentences: Sequence[str], answer_start: int) -> int:
    """QUACKIE's ``findanswer``: walk the sentences subtracting ``len(sentence) + 1`` (QUIRK: one separator).

    A start on the separator maps to the next sentence; a start beyond the last sentence (which extra whitespace
    can cause) maps to the last sentence.
    """
    if not sentences:
        raise ValueError("sentences is empty: a context needs at least one sentence")
    c = answer_start
    for j, sentence in enumerate(sentences):
        if c < len(sentence):
            return j
        c -= len(sentence) + 1
    return len(sentences) - 1


def answer_sentence(spans: Sequence[tuple[int, int]], answer_start: int) -> int:
    """Index of the sentence holding character ``answer_start``, from true spans.

    Whitespace between sentences maps to the next sentence and a start past the end to the last one, as the
    official walk does when there is exactly one separator (so both agree on single-spaced text).
    """
    if not spans:
        raise ValueError("spans is empty: a context needs at least one sentence")
    for j, (_, end) in enumerate(spans):
        if answer_start < end:
            return j
    return len(spans) - 1


@dataclass(frozen=True)
class Instance:
    """One answerable question: ``sentences``/``spans`` are punkt sentences of the context (true offsets);
    ``gt`` holds the ground-truth sentence index of each gold answer (duplicates kept, as in the original)."""

    id: str
    index: int
    title: str
    question: str
    context: str
    sentences: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    gt: tuple[int, ...]

    def gts(self) -> list[np.ndarray]:
        """One one-hot vector over sentences per gold answer (the form the metrics take)."""
        out = []
        for j in self.gt:
            vec = np.zeros(len(self.sentences), dtype=int)
            vec[j] = 1
            out.append(vec)
        return out


def build_instance(question: SquadQuestion, official: bool = False) -> Instance:
    """The instance of one answerable question; raises ``ValueError`` for an unanswerable one."""
    if not question.answer_starts:
        raise ValueError(f"question {question.id!r} has no gold answer")
    spans = tuple(sent_spans(question.context))
    sentences = tuple(question.context[s:e] for s, e in spans)
    if official:
        gt = tuple(official_answer_sentence(sentences, a) for a in question.answer_starts)
    else:
        gt = tuple(answer_sentence(spans, a) for a in question.answer_starts)
    return Instance(question.id, question.index, question.title, question.question, question.context, sentences,
                    spans, gt)


def build_instances(questions: Iterable[SquadQuestion], official: bool = False,
                    trained: Lineage | None = None) -> tuple[list[Instance], dict[str, int]]:
    """Instances of the answerable questions, in file order, and the counts of what was dropped and why.

    ``trained`` (the explained model's lineage) drops the questions whose paragraph it trained or was selected on.
    """
    instances: list[Instance] = []
    skipped = {"unanswerable": 0, "trained_on": 0}
    for q in questions:
        if trained is not None and trained.seen(q.context):
            skipped["trained_on"] += 1
        elif not q.answer_starts:  # QUACKIE rule 2: SQuAD 2.0 unanswerable question
            skipped["unanswerable"] += 1
        else:
            instances.append(build_instance(q, official))
    return instances, skipped
