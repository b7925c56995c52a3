"""Classifier training data: split by article (no evaluated question is trained on), negatives, split record."""

from __future__ import annotations

import json

import pytest

from interpeval.benchmarks.quackie.data import HELD_OUT_ARTICLES, SquadQuestion, dataset_path, load_squad
from interpeval.benchmarks.quackie.training import (
    classification_examples,
    mismatches,
    qa_examples,
    split_by_article,
    subsample_unanswerable,
    write_split,
)


def _q(i, title, answerable=True):
    context = f"{title} paragraph {i}. It is here."
    return SquadQuestion(i, f"id{i}", title, f"Question {i}?", context, (0,) if answerable else (),
                         (title,) if answerable else (), not answerable)


QUESTIONS = [_q(0, "A"), _q(1, "A", False), _q(2, "B"), _q(3, "B"), _q(4, "C", False), _q(5, "C")]


def test_split_keeps_whole_articles_apart():
    train, held = split_by_article(QUESTIONS, held_out=["B"])
    assert {q.title for q in train} == {"A", "C"} and {q.title for q in held} == {"B"}
    with pytest.raises(ValueError, match="held-out articles not in the data: Z"):
        split_by_article(QUESTIONS, held_out=["Z"])


def test_vendored_squad_is_exactly_the_held_out_articles():
    train, held = split_by_article(load_squad(dataset_path("SQuAD")))
    assert train == [] and {q.title for q in held} == set(HELD_OUT_ARTICLES)


def test_mismatches_pair_questions_with_other_articles_contexts():
    pairs = mismatches(QUESTIONS, fraction=1.0, seed=3)
    by_question = {q.question: q for q in QUESTIONS}
    assert len(pairs) == 4  # every answerable question once
    for question, context in pairs:
        assert context.split(" ")[0] != by_question[question].title
    assert pairs == mismatches(QUESTIONS, fraction=1.0, seed=3)  # seeded
    assert len(mismatches(QUESTIONS, fraction=0.5)) == 2
    with pytest.raises(ValueError, match="at least two articles"):
        mismatches(QUESTIONS[:2], fraction=0.5)


def test_examples_labels_and_no_answer_convention():
    cls = classification_examples(QUESTIONS, mismatch_fraction=0.5, seed=0)
    assert [e.label for e in cls[:6]] == [1, 0, 1, 1, 0, 1] and [e.label for e in cls[6:]] == [0, 0]
    assert cls[0].text == "Question 0?" and cls[0].pair == QUESTIONS[0].context
    qa = qa_examples(QUESTIONS, mismatch_fraction=0.5, seed=0)
    assert (qa[0].answer_start, qa[0].answer_text) == (0, "A")
    assert all((e.answer_start, e.answer_text) == (-1, "") for e in [qa[1], qa[4], *qa[6:]])


def test_split_record_is_read_back(tmp_path):
    train, held = split_by_article(QUESTIONS, held_out=["B"])
    path = write_split(tmp_path, train, held, "x.json", 0.25, 0)
    data = json.loads(path.read_text())
    assert data["train_articles"] == ["A", "C"] and data["held_out_articles"] == ["B"]

    from interpeval.benchmarks.quackie.run import training_articles

    assert training_articles(str(tmp_path)) == ("A", "C")


def test_subsample_unanswerable_keeps_every_answerable_question():
    kept = subsample_unanswerable(QUESTIONS, 0.5, seed=0)
    # 4 answerable always kept; round(0.5 * 2) = 1 of the 2 unanswerable (q1, q4); original order.
    assert [q.index for q in kept if q.answer_starts] == [0, 2, 3, 5]
    assert len([q for q in kept if not q.answer_starts]) == 1
    assert [q.index for q in kept] == sorted(q.index for q in kept)
    assert subsample_unanswerable(QUESTIONS, 1.0) == QUESTIONS and subsample_unanswerable(QUESTIONS, 0.0) == [
        q for q in QUESTIONS if q.answer_starts]
