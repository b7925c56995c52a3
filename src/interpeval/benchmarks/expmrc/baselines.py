"""Sentence-level evidence baselines of the ExpMRC paper (§4.1 / §6.4) and their upper bounds.

A *system* pairs an answer source with an evidence selector; every selector returns one or more whole sentences of
the passage. Sentences: English splits after ``.!?`` followed by whitespace
(:func:`~interpeval.text.sentences.sent_tokenize_simple`), Chinese after ``。！？`` and ellipses, keeping closing
quotes (:func:`~interpeval.text.sentences.sent_tokenize_zh`).

Similarity (the paper does not define it in code, REFERENCE §2.5 "NOT FOUND"): here it is the ExpMRC token F1
itself (:func:`~interpeval.metrics.mrc.expmrc_f1`: a bag-of-token overlap over the benchmark's own tokens, so words
for English and characters for Chinese). Ties go to the earlier sentence.

- ``mss``: the sentence most similar to the predicted answer (for multiple choice: the chosen option's text);
- ``mss_q``: most similar to the question followed by the predicted answer;
- ``pa``: the sentence containing the predicted answer span (span subsets only: a choice is not a span);
- ``ga`` (upper bound): the sentence containing the gold answer span; for multiple choice, ``mss`` of the gold option;
- ``ge`` (upper bound): the sentences covering the first reference evidence in the passage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from interpeval.benchmarks.expmrc.data import CHOICE_LABELS, Question
from interpeval.metrics.mrc import mixed_segmentation, normalize_tokens, token_f1
from interpeval.text.align import word_spans
from interpeval.text.sentences import sent_tokenize_simple, sent_tokenize_zh


@dataclass(frozen=True)
class Answer:
    """A predicted answer: its text, its character start in the passage (span answers) and its label (choices)."""

    text: str
    start: int | None = None
    label: str | None = None


def sentence_spans(text: str, language: str) -> list[tuple[int, int]]:
    """Character spans of the passage's sentences (English ``.!?`` rule or the Chinese rules)."""
    split = sent_tokenize_zh if language == "zh" else sent_tokenize_simple
    return word_spans(text, split(text))


def _tokens(text: str) -> list[str]:
    return normalize_tokens(mixed_segmentation(text))


def most_similar(query: str, passage: str, spans: list[tuple[int, int]]) -> str:
    """The sentence with the highest ExpMRC token F1 to ``query`` (first one on ties)."""
    query_tokens = _tokens(query)
    scores = [token_f1(_tokens(passage[s:e]), query_tokens) for s, e in spans]
    s, e = spans[max(range(len(spans)), key=scores.__getitem__)]
    return passage[s:e]


def _sentence_at(passage: str, spans: list[tuple[int, int]], offset: int) -> str:
    """The sentence containing character ``offset`` (the next one if it falls between sentences)."""
    for s, e in spans:
        if offset < e:
            return passage[s:e]
    s, e = spans[-1]
    return passage[s:e]


def _covering(passage: str, spans: list[tuple[int, int]], start: int, end: int) -> str:
    """The contiguous run of sentences overlapping ``[start, end)``."""
    inside = [(s, e) for s, e in spans if s < end and e > start] or [min(spans, key=lambda p: abs(p[0] - start))]
    return passage[inside[0][0]:inside[-1][1]]


def _answer_query(q: Question, answer: Answer) -> str:
    return q.options[CHOICE_LABELS.index(answer.label)] if answer.label is not None else answer.text


def mss(q: Question, answer: Answer, spans: list[tuple[int, int]]) -> str:
    return most_similar(_answer_query(q, answer), q.context, spans)


def mss_q(q: Question, answer: Answer, spans: list[tuple[int, int]]) -> str:
    return most_similar(f"{q.question} {_answer_query(q, answer)}", q.context, spans)


def pa(q: Question, answer: Answer, spans: list[tuple[int, int]]) -> str:
    if answer.start is None:
        raise ValueError(f"question {q.qid}: the PA-sentence baseline needs a span answer with its offset")
    return _sentence_at(q.context, spans, answer.start)


def ga(q: Question, answer: Answer, spans: list[tuple[int, int]]) -> str:
    if q.options:
        return most_similar(q.gold_option, q.context, spans)
    start = q.answer_starts[0]
    if start < 0 or q.context[start:start + len(q.answers[0])] != q.answers[0]:
        start = max(q.context.find(q.answers[0]), 0)
    return _sentence_at(q.context, spans, start)


def ge(q: Question, answer: Answer, spans: list[tuple[int, int]]) -> str:
    if not q.evidences:
        raise ValueError(f"question {q.qid}: the GE-sentence upper bound needs reference evidences")
    evidence = q.evidences[0].strip()
    start = q.context.find(evidence)
    if start < 0:
        return most_similar(evidence, q.context, spans)
    return _covering(q.context, spans, start, start + len(evidence))


Selector = Callable[[Question, Answer, list[tuple[int, int]]], str]
SELECTORS: dict[str, Selector] = {"mss": mss, "mss_q": mss_q, "pa": pa, "ga": ga, "ge": ge}
SELECTOR_NAMES = {"mss": "MSS", "mss_q": "MSS w/ Ques.", "pa": "PA Sent.", "ga": "GA Sent. (upper bound)",
                  "ge": "GE Sent. (upper bound)"}


def gold_answer(q: Question) -> Answer:
    """The first reference answer (span) or the gold label (choice)."""
    if q.options:
        return Answer(q.gold_option, label=q.answers[0])
    return Answer(q.answers[0], start=q.answer_starts[0] if q.answer_starts else None)


def overlap_choice(q: Question, spans: list[tuple[int, int]]) -> Answer:
    """Unsupervised multiple-choice scorer (no model): each option scores the best ExpMRC token F1 between
    "question + option" and a passage sentence; the highest-scoring option wins (first on ties)."""
    best, best_score = 0, -1.0
    sentence_tokens = [_tokens(q.context[s:e]) for s, e in spans]
    for i, option in enumerate(q.options):
        query = _tokens(f"{q.question} {option}")
        score = max(token_f1(tokens, query) for tokens in sentence_tokens)
        if score > best_score:
            best, best_score = i, score
    return Answer(q.options[best], label=CHOICE_LABELS[best])
