"""IQS terms from items and answers, against values worked out by hand from REFERENCE §6."""

from __future__ import annotations

import math

import pytest

from interpeval.benchmarks.iqs.score import (
    Answer,
    Item,
    agreement,
    human_sets,
    score_methods,
    select_answers,
    simplicity_by_method,
    trivial_baseline,
    weight_grid,
)
from interpeval.benchmarks.iqs.tasks import TASKS
from interpeval.errors import InterpevalError

SST2, STSB = TASKS["sst2"], TASKS["stsb"]
WORDS = tuple("abcdefghijkl")


def item(id_, method, green, red, y_model, sample="s1", words=WORDS):
    return Item(id_, sample, method, words, frozenset(green), frozenset(red), y_model)


def test_feat_h_is_the_shown_set_corrected_by_answers_2_to_5():
    it = item("i", "m", green={0, 1}, red={3}, y_model=[0.2, 0.8])
    a = Answer("i", "ann", "positive", remove_red=frozenset({3}), remove_green=frozenset({1}),
               add_red=frozenset(), add_green=frozenset({2}))
    assert human_sets(SST2, it, a) == {"negative": set(), "positive": {0, 2}}
    # positive: |{0}| / |{0, 1, 2}| = 1/3 ; negative: H = {} vs M = {3} -> 0 ; plausibility = (1/3 + 0) / 2
    (score,) = score_methods(SST2, [it], [a])
    assert score.plausibility["mean"] == pytest.approx(1 / 6)
    assert score.plausibility_per_class == pytest.approx({"positive": 1 / 3, "negative": 0.0})


def test_both_empty_jaccard_counts_as_agreement():
    it = item("i", "m", green=set(), red=set(), y_model=[0.5, 0.5])
    (score,) = score_methods(SST2, [it], [Answer("i", "ann", "positive")])
    assert score.plausibility["mean"] == 1.0  # both classes: H = M = {} -> 1
    # one class empty on both sides, the other half right: (1 + 1/2) / 2
    it2 = item("j", "m", green={0, 1}, red=set(), y_model=[0.5, 0.5])
    (score2,) = score_methods(SST2, [it2], [Answer("j", "ann", "positive", remove_green=frozenset({1}))])
    assert score2.plausibility["mean"] == pytest.approx(0.75)


def test_simplicity_n_chunk_up_to_ten_is_one_and_the_log_is_guarded():
    items = [item("a", "ten", green=range(6), red=range(6, 10), y_model=[0.5, 0.5], sample="s1"),
             item("b", "ten", green=(), red=(), y_model=[0.5, 0.5], sample="s2"),
             item("c", "eleven", green=range(11), red=(), y_model=[0.5, 0.5], sample="s1"),
             item("d", "eleven", green=range(6), red=range(6, 12), y_model=[0.5, 0.5], sample="s2")]
    simple = simplicity_by_method(items)
    assert simple["ten"]["simplicity"]["mean"] == 1.0  # N = 10 and N = 0: N − 9 <= 1 -> 1 (no log of <= 0)
    assert simple["ten"]["n_chunks"] == 5.0
    # N = 11 -> 1/(ln 2 + 1); N = 12 -> 1/(ln 3 + 1)
    expected = (1 / (math.log(2) + 1) + 1 / (math.log(3) + 1)) / 2
    assert simple["eleven"]["simplicity"]["mean"] == pytest.approx(expected)


def test_reproducibility_log_loss_for_classification_with_the_zero_guard():
    it = item("i", "m", green={0}, red=(), y_model=[0.25, 0.75])
    answers = [Answer("i", "a1", "positive"), Answer("i", "a2", "negative")]
    (score,) = score_methods(SST2, [it], answers)
    # -ln 0.75 and -ln 0.25
    expected = (1 / (1 - math.log(0.75)) + 1 / (1 - math.log(0.25))) / 2
    assert score.reproducibility["mean"] == pytest.approx(expected)
    sure = item("j", "m", green={0}, red=(), y_model=[0.0, 1.0])
    (guarded,) = score_methods(SST2, [sure], [Answer("j", "a1", "negative")])
    # p = 0 is clipped at machine epsilon: 1 / (-ln(eps) + 1), finite and positive
    assert guarded.reproducibility["mean"] == pytest.approx(1 / (-math.log(2.220446049250313e-16) + 1))


def test_reproducibility_mae_for_stsb():
    items = [item("i", "m", green={0}, red={1}, y_model=3.2, sample="s1"),
             item("j", "m", green={0}, red={1}, y_model=1.0, sample="s2")]
    answers = [Answer("i", "a1", 4.0), Answer("j", "a1", 1.0)]
    (score,) = score_methods(STSB, items, answers)
    # |4.0 − 3.2| = 0.8 -> 1/1.8 ; |1 − 1| = 0 -> 1
    assert score.reproducibility["mean"] == pytest.approx((1 / 1.8 + 1) / 2)
    # regression classes are the two signs: green = similar, red = dissimilar
    assert set(score.plausibility_per_class) == {"similar", "dissimilar"}


def test_iqs_table1_and_table2_values_and_ranking():
    # method "good": its marks are what the annotator wants and the guess is the model's class (p = 0.9)
    # method "poor": 12 marked words (simplicity 1/(ln 3 + 1)), the annotator removes half of them, guesses wrong
    good = item("g", "good", green={0}, red={1}, y_model=[0.1, 0.9])
    poor = item("p", "poor", green=range(6), red=range(6, 12), y_model=[0.1, 0.9])
    answers = [Answer("g", "a1", "positive"),
               Answer("p", "a1", "negative", remove_green=frozenset({3, 4, 5}), remove_red=frozenset({9, 10, 11}))]
    scores = {s.method: s for s in score_methods(SST2, [good, poor], answers)}
    g, p = scores["good"], scores["poor"]
    r_good, r_poor = 1 / (1 - math.log(0.9)), 1 / (1 - math.log(0.1))
    s_poor = 1 / (math.log(3) + 1)
    assert (g.plausibility["mean"], g.simplicity["mean"], g.reproducibility["mean"]) == pytest.approx(
        (1.0, 1.0, r_good))
    assert (p.plausibility["mean"], p.simplicity["mean"], p.reproducibility["mean"]) == pytest.approx(
        (0.5, s_poor, r_poor))
    assert g.iqs == pytest.approx((1 + 1 + r_good) / 3)
    assert p.iqs == pytest.approx((0.5 + s_poor + r_poor) / 3)
    # over the 66 triples each a_i averages 1/3, so the mean equals IQS at 1/3 each
    assert p.grid["mean"] == pytest.approx(p.iqs) and p.grid["n"] == 66
    assert (g.rank, p.rank, g.grid_rank, p.grid_rank) == (1, 2, 1, 2)


def test_agreement_between_annotators():
    it = item("i", "m", green={0, 1}, red={2}, y_model=[0.5, 0.5])
    answers = [Answer("i", "a1", "positive"), Answer("i", "a2", "positive", remove_green=frozenset({1})),
               Answer("i", "a3", "negative")]
    out = agreement(SST2, [it], answers)
    # label pairs: (a1,a2) same, (a1,a3) differ, (a2,a3) differ -> 1/3
    assert out["label_agreement"] == pytest.approx(1 / 3)
    # word Jaccard per pair (green, red): a1-a2 (1/2, 1), a1-a3 (1, 1), a2-a3 (1/2, 1) -> means 3/4, 1, 3/4
    assert out["word_agreement"] == pytest.approx((0.75 + 1 + 0.75) / 3)
    assert (out["pairs"], out["items"]) == (3, 1)
    stsb = item("k", "m", green={0}, red=(), y_model=3.0)
    # 3.0 and 4.5 lie on the same side of 2.5; 2.0 does not
    out = agreement(STSB, [stsb], [Answer("k", "a1", 3.0), Answer("k", "a2", 4.5), Answer("k", "a3", 2.0)])
    assert out["label_agreement"] == pytest.approx(1 / 3)


def test_agreement_counts_items_with_two_answers_and_two_empty_sets_agree():
    # item i: two annotators, nothing shown or corrected: both classes empty on both sides → Jaccard 1; item j has
    # one answer only: no pair, not counted
    items = [item("i", "m", green=(), red=(), y_model=[0.5, 0.5]), item("j", "m", green=(), red=(), y_model=[0.5, 0.5])]
    out = agreement(SST2, items, [Answer("i", "a1", "positive"), Answer("i", "a2", "negative"),
                                  Answer("j", "a1", "positive")])
    assert out == {"label_agreement": 0.0, "word_agreement": 1.0, "pairs": 1, "items": 1}
    alone = agreement(SST2, items, [Answer("i", "a1", "positive"), Answer("j", "a1", "positive")])
    assert list(alone) == ["label_agreement", "word_agreement", "pairs", "items"]
    assert math.isnan(alone["label_agreement"]) and math.isnan(alone["word_agreement"])
    assert (alone["pairs"], alone["items"]) == (0, 2)


def test_trivial_baseline_of_a_regression_and_of_a_negative_majority():
    # STS-B outputs 1.0 and 3.0: the constant answer is their mean 2.0, |2 − y| = 1 → reproducibility 1/2; nothing
    # marked and nothing corrected → plausibility 1; IQS = (1 + 1 + 1/2) / 3 = 5/6. Over the 66 weights IQS is
    # 1 − a3/2; a3 = k/10 for 11 − k of the triples: mean of k 10/3, of k² 55/3 → mean 5/6, std √(65/9) / 20.
    items = [item("i", "m", (), (), 1.0, sample="s1"), item("j", "m", (), (), 3.0, sample="s2")]
    base = trivial_baseline(STSB, items, [Answer("i", "a1", 0.0), Answer("j", "a1", 5.0)])
    assert base["constant_answer"] == pytest.approx(2.0)
    assert [base[k] for k in ("plausibility", "simplicity", "reproducibility", "iqs", "grid_mean", "grid_std")] == (
        pytest.approx([1.0, 1.0, 0.5, 5 / 6, 5 / 6, math.sqrt(65 / 9) / 20]))
    # SST-2 outputs leaning negative on two of three items: the constant answer is "negative"
    items = [item("i", "m", (), (), [0.9, 0.1], sample="s1"), item("j", "m", (), (), [0.7, 0.3], sample="s2"),
             item("k", "m", (), (), [0.2, 0.8], sample="s3")]
    base = trivial_baseline(SST2, items, [Answer(i, "a1", "positive") for i in "ijk"])
    assert base["constant_answer"] == "negative"
    assert base["reproducibility"] == pytest.approx(
        (1 / (1 - math.log(0.9)) + 1 / (1 - math.log(0.7)) + 1 / (1 - math.log(0.2))) / 3)


def test_select_answers_names_what_is_missing():
    with pytest.raises(InterpevalError, match="^no simulated answers in this study$"):
        select_answers([Answer("i", "ann", "positive")], simulated=True)
    with pytest.raises(InterpevalError, match=r"^no human answers in this study \(simulated answers are scored only "
                                              r"with --simulated-annotator, and labelled as such\)$"):
        select_answers([], simulated=False)


def test_trivial_baseline_marks_nothing_and_answers_a_constant():
    items = [item("i", "m", green={0}, red=(), y_model=[0.2, 0.8], sample="s1"),
             item("j", "m", green=(), red=(), y_model=[0.6, 0.4], sample="s2"),
             item("k", "m", green={1}, red=(), y_model=[0.3, 0.7], sample="s3")]
    answers = [Answer("i", "a1", "positive"), Answer("j", "a1", "negative"), Answer("k", "a1", "positive",
                                                                                 remove_green=frozenset({1}))]
    base = trivial_baseline(SST2, items, answers)
    # Feat_H: i {0} -> (0 + 1)/2 ; j {} -> 1 ; k {} -> 1
    assert base["plausibility"] == pytest.approx((0.5 + 1 + 1) / 3)
    assert base["constant_answer"] == "positive"  # the model's majority class
    assert base["reproducibility"] == pytest.approx(
        (1 / (1 - math.log(0.8)) + 1 / (1 - math.log(0.4)) + 1 / (1 - math.log(0.7))) / 3)
    assert base["simplicity"] == 1.0


def test_simulated_and_human_answers_never_mix():
    answers = [Answer("i", "ann", "positive"), Answer("i", "simulated-1", "positive", simulated=True)]
    assert [a.annotator for a in select_answers(answers, simulated=False)] == ["ann"]
    assert [a.annotator for a in select_answers(answers, simulated=True)] == ["simulated-1"]
    with pytest.raises(InterpevalError, match="no human answers"):
        select_answers(answers[1:], simulated=False)


def test_bad_answers_are_named():
    it = item("i", "m", green={0}, red={1}, y_model=[0.5, 0.5])
    with pytest.raises(InterpevalError, match=r"answer of 'x' on item 'i': add_red has word indices \[40\]"):
        score_methods(SST2, [it], [Answer("i", "x", "positive", add_red=frozenset({40}))])
    with pytest.raises(InterpevalError, match="removes words that were not shown"):
        score_methods(SST2, [it], [Answer("i", "x", "positive", remove_red=frozenset({0}))])
    with pytest.raises(InterpevalError, match="label must be one of negative, positive"):
        score_methods(SST2, [it], [Answer("i", "x", "great")])
    with pytest.raises(InterpevalError, match=r"label must be a number in \[0, 5\]"):
        score_methods(STSB, [item("k", "m", (), (), 1.0)], [Answer("k", "x", 7.0)])
    with pytest.raises(InterpevalError, match="unknown item 'zz'"):
        score_methods(SST2, [it], [Answer("zz", "x", "positive")])
    with pytest.raises(InterpevalError, match="method 'm2' has no answers"):
        score_methods(SST2, [it, item("j", "m2", (), (), [0.5, 0.5])], [Answer("i", "x", "positive")])


def test_answer_checks_at_their_bounds():
    it = item("i", "m", green={0}, red={1}, y_model=[0.5, 0.5])  # 12 words: indices 0..11
    for key in ("remove_red", "add_green"):
        for bad in (12, -1):
            with pytest.raises(InterpevalError, match=rf"^answer of 'x' on item 'i': {key} has word indices \[{bad}\] "
                                                      r"outside 0\.\.11$"):
                score_methods(SST2, [it], [Answer("i", "x", "positive", **{key: frozenset({bad})})])
    stsb = item("k", "m", (), (), 2.0)
    for label in (True, "3"):  # a bool is no similarity score, nor is a string
        with pytest.raises(InterpevalError, match=r"^answer of 'x' on item 'k': label must be a number in \[0, 5\]"):
            score_methods(STSB, [stsb], [Answer("k", "x", label)])
    # both ends of the range are valid answers: |0 − 2| = 2 → 1/3, |5 − 2| = 3 → 1/4
    (scored,) = score_methods(STSB, [stsb], [Answer("k", "x", 0.0), Answer("k", "y", 5.0)])
    assert scored.reproducibility["mean"] == pytest.approx((1 / 3 + 1 / 4) / 2)


def test_iqs_at_other_weights():
    # all weight on reproducibility: IQS = 1 / (1 − ln 0.8), whatever the other two terms (both 1 here)
    it = item("i", "m", green={0}, red={1}, y_model=[0.2, 0.8])
    (scored,) = score_methods(SST2, [it], [Answer("i", "x", "positive")], weights=(0.0, 0.0, 1.0))
    assert scored.iqs == pytest.approx(1 / (1 - math.log(0.8)))


def test_weight_grid_by_hand():
    # tenths summing to 1: Σ_{i=0..10} (11 − i) = 66 triples; halves: 6; whole steps: the three corners
    assert len(weight_grid()) == 66 and len(weight_grid(2)) == 6
    assert sorted(weight_grid(1)) == [(0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0)]
    for steps in (0, 2.5, True):
        with pytest.raises(ValueError, match=rf"^steps: must be an integer >= 1, got {steps!r}$"):
            weight_grid(steps)


def test_items_and_answers_from_their_stored_form():
    it = Item.from_dict({"id": 7, "sample_id": "s1", "method": "m", "words": ["a", "b"], "green": ["1"], "red": [],
                         "y_model": [0.5, 0.5]})
    assert it == Item("7", "s1", "m", ("a", "b"), frozenset({1}), frozenset(), [0.5, 0.5])
    stored = {"item_id": "7", "annotator": "ann", "label": "positive", "add_red": [0], "remove_green": None}
    assert Answer.from_dict(stored) == Answer("7", "ann", "positive", add_red=frozenset({0}))  # not simulated
    assert Answer.from_dict({**stored, "simulated": 1}).simulated is True
