"""Task builder and ground truth (REFERENCE §1.1–1.2): every expected index below is derived by hand in a comment."""

from __future__ import annotations

import json

import numpy as np
import pytest

from interpeval.benchmarks.quackie.build import (
    answer_sentence,
    build_instance,
    build_instances,
    official_answer_sentence,
)
from interpeval.benchmarks.quackie.data import (
    DATASETS,
    HELD_OUT_ARTICLES,
    SQUAD2_TRAIN_ARTICLES,
    dataset_path,
    load_squad,
)
from interpeval.errors import DataError
from interpeval.models.lineage import Lineage, content_hash
from interpeval.text.sentences import sent_tokenize


def _one(tmp_path, context, start, text):
    qas = [{"id": "q", "question": "Q?", "answers": [{"text": text, "answer_start": start}]}]
    return load_squad(_squad(tmp_path, context, qas))[0]


def _squad(tmp_path, context, qas, version="v2.0", title="T"):
    path = tmp_path / "squad.json"
    path.write_text(json.dumps({"version": version, "data": [{"title": title, "paragraphs": [
        {"context": context, "qas": qas}]}]}))
    return path


# --- the official walk (findanswer) --------------------------------------------------------------------------

def test_walk_start_on_separator_goes_to_next_sentence():
    # "It rained." has length 10; the separator is char 10. c=10 is not < 10 → c = 10-11 = -1 < 16 → sentence 1.
    assert official_answer_sentence(["It rained.", "Then it stopped."], 10) == 1
    assert answer_sentence([(0, 10), (11, 27)], 10) == 1


def test_walk_start_beyond_the_end_marks_the_last_sentence():
    # c=100 → 100-11=89 → 89-17=72: the loop never breaks, so the last index (1) is marked.
    assert official_answer_sentence(["It rained.", "Then it stopped."], 100) == 1
    assert answer_sentence([(0, 10), (11, 27)], 100) == 1


def test_walk_inside_sentences():
    # c=0 < 10 → 0; c=11 → 11-11=0 < 16 → 1; c=26 (final '.') → 15 < 16 → 1.
    sentences = ["It rained.", "Then it stopped."]
    assert [official_answer_sentence(sentences, c) for c in (0, 9, 11, 26)] == [0, 0, 1, 1]


def test_walk_drifts_with_two_spaces(tmp_path):
    # "He ran.  He fell.  He was 5.  He won." → punkt spans [0,7) [9,17) [19,28) [30,37), two spaces between.
    # The answer "5" starts at 19+7 = 26, inside sentence 2 (true offsets).
    # Walk: c=26 → 26-8=18 → 18-9=9; sentence 2 has length 9 and 9 < 9 is false → c=-1 → sentence 3. QUIRK.
    context = "He ran.  He fell.  He was 5.  He won."
    question = _one(tmp_path, context, 26, "5")
    assert build_instance(question, official=False).gt == (2,)
    assert build_instance(question, official=True).gt == (3,)


def test_walk_drift_without_separator_on_real_data():
    # SQuADShifts new_wiki "Acronym": punkt splits "...C.D.'s, C.D.s, or CDs." with NO separator at chars 132 and
    # 283 (spans (0,132),(132,150) and (151,283),(283,328)), so the walk subtracts one char too many twice.
    # The answer starts at 613 = the first char of sentence 6 (span (613,674)); the walk reaches sentence 5 with
    # c = 613-133-19-133-46-88 = 194 < 195 = len(sentence 5) → sentence 5. True offsets give 6.
    questions = {q.id: q for q in load_squad(dataset_path("NEW_WIKI"))}
    q = questions["5d65a9df2b22cd4dfcfbcaf4"]
    assert q.answer_starts == (613, 613, 613)
    assert build_instance(q).gt == (6, 6, 6)
    assert build_instance(q, official=True).gt == (5, 5, 5)


def test_default_and_official_agree_on_single_spaced_text(tmp_path):
    context = "Paris is big. It has a river. The river is the Seine."
    # spans [0,13) [14,29) [30,53); "The river is the " has 17 chars, so "Seine" starts at 47 → sentence 2.
    q = _one(tmp_path, context, 47, "Seine")
    assert build_instance(q).gt == build_instance(q, official=True).gt == (2,)


# --- instances ------------------------------------------------------------------------------------------------

def test_several_gold_answers_give_one_gt_each_duplicates_kept(tmp_path):
    context = "Paris is big. It has a river. The river is the Seine."
    qas = [{"id": "a", "question": "Which river?", "answers": [
        {"text": "Seine", "answer_start": 47}, {"text": "the Seine", "answer_start": 43},
        {"text": "a river", "answer_start": 21}]}]
    inst = build_instance(load_squad(_squad(tmp_path, context, qas))[0])
    # spans [0,13) [14,29) [30,53): 47 and 43 lie in sentence 2; 21 ("a river" = 14+7) in sentence 1.
    assert inst.gt == (2, 2, 1)
    assert [g.tolist() for g in inst.gts()] == [[0, 0, 1], [0, 0, 1], [0, 1, 0]]
    assert inst.sentences == ("Paris is big.", "It has a river.", "The river is the Seine.")


def test_single_sentence_context(tmp_path):
    qas = [{"id": "a", "question": "How big?", "answers": [{"text": "big", "answer_start": 9}]}]
    inst = build_instance(load_squad(_squad(tmp_path, "Paris is big", qas))[0])
    assert inst.sentences == ("Paris is big",) and inst.gt == (0,)
    assert [g.tolist() for g in inst.gts()] == [[1]]


def test_unanswerable_and_trained_paragraphs_are_dropped_and_counted(tmp_path):
    qas = [{"id": "a", "question": "Who?", "answers": [], "is_impossible": True},
           {"id": "b", "question": "How big?", "answers": [{"text": "big", "answer_start": 9}]}]
    questions = load_squad(_squad(tmp_path, "Paris is big.", qas, title="Paris"))
    instances, skipped = build_instances(questions)
    assert [i.id for i in instances] == ["b"] and skipped == {"unanswerable": 1, "trained_on": 0}
    trained = Lineage("m", frozenset({content_hash("PARIS  is big.")}), "paragraphs")  # case and spacing do not count
    instances, skipped = build_instances(questions, trained=trained)
    assert instances == [] and skipped == {"unanswerable": 0, "trained_on": 2}


def test_question_given_as_a_list_takes_the_first(tmp_path):
    qas = [{"id": "a", "question": ["How big?", "ignored"], "answers": [{"text": "big", "answer_start": 9}]}]
    assert load_squad(_squad(tmp_path, "Paris is big.", qas))[0].question == "How big?"


# --- bad input ------------------------------------------------------------------------------------------------

def test_answer_not_at_its_offset_names_the_record(tmp_path):
    qas = [{"id": "a", "question": "How big?", "answers": [{"text": "big", "answer_start": 3}]}]
    with pytest.raises(DataError, match=r"squad.json:data\[0\]\.paragraphs\[0\]\.qas\[0\]\.answers\[0\]: answer 'big'"):
        load_squad(_squad(tmp_path, "Paris is big.", qas))


def test_missing_field_and_bad_json(tmp_path):
    with pytest.raises(DataError, match=r"qas\[0\]: missing field 'answers'"):
        load_squad(_squad(tmp_path, "Paris is big.", [{"id": "a", "question": "Q?"}]))
    bad = tmp_path / "bad.json"
    bad.write_text('{"data": [\n  {"title": "x",}\n]}')
    with pytest.raises(DataError, match=r"bad.json:line 2: not valid JSON"):
        load_squad(bad)
    with pytest.raises(ValueError, match="unknown dataset 'NYT'"):
        dataset_path("NYT")


# --- the vendored data ----------------------------------------------------------------------------------------

def test_vendored_datasets_load_and_sentences_are_punkt_exact():
    counts = {}
    for name in DATASETS:
        instances, skipped = build_instances(load_squad(dataset_path(name)))
        counts[name] = (len(instances), skipped["unanswerable"])
        for inst in instances[:40]:
            assert list(inst.sentences) == sent_tokenize(inst.context)
            assert all(0 <= j < len(inst.sentences) for j in inst.gt)
    # SOURCES.md: SQuAD subset 725 questions, of which 411 unanswerable; SQuADShifts always answerable.
    assert counts == {"SQuAD": (314, 411), "NEW_WIKI": (203, 0), "Reddit": (200, 0), "Amazon": (203, 0)}
    titles = {q.title for q in load_squad(dataset_path("SQuAD"))}
    assert titles == set(HELD_OUT_ARTICLES) and not titles & set(SQUAD2_TRAIN_ARTICLES)


def test_gt_vectors_are_one_hot():
    inst = build_instances(load_squad(dataset_path("Reddit")))[0][0]
    for g in inst.gts():
        assert g.sum() == 1 and len(g) == len(inst.sentences) and g.dtype == np.int_


def test_answerability_scores_with_balanced_accuracy(monkeypatch):
    from interpeval.benchmarks.quackie import verify
    from interpeval.benchmarks.quackie.data import SquadQuestion
    from interpeval.benchmarks.quackie.training import evaluate_answerability
    from interpeval.models import Target, tiny

    def question(i, answerable):
        return SquadQuestion(i, str(i), "t", "who ?", "a b c .", (0,) if answerable else (), ("a",) if answerable
                             else (), not answerable)

    questions = [question(0, True), question(1, True), question(2, True), question(3, False)]
    monkeypatch.setattr(verify, "answerable_probability", lambda *a: np.array([0.9, 0.8, 0.2, 0.1]))
    scores = evaluate_answerability(tiny("extractive-qa"), Target("p_answer"), questions)
    # predicted answerable: 1, 1, 0, 0 → recall 2/3, the unanswerable one right: balanced (2/3 + 1) / 2
    assert scores == {"n": 4, "answerable": 3, "accuracy": 0.75, "recall": pytest.approx(2 / 3), "precision": 1.0,
                      "balanced_accuracy": pytest.approx(5 / 6)}
    assert "balanced_accuracy" not in evaluate_answerability(tiny("extractive-qa"), Target("p_answer"),
                                                             questions[:1] * 4)
