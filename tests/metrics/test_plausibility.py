"""Plausibility metrics: Baidu/TrustAI token-F1 and IoU-F1 (REFERENCE §4.2), ferret (§5.4); values derived by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpeval.metrics import get
from interpeval.metrics.plausibility import (
    auprc,
    average_precision,
    ferret_token_f1,
    ferret_token_f1_dataset,
    ferret_token_iou,
    iou_f1_trustai,
    jaccard,
    macro_f1_paddlenlp,
    macro_f1_trustai,
    paddlenlp_golds,
    pick_max_golden_evid,
    token_f1,
    token_f1_multi,
    top_k_tokens,
)

# --- set F1 / Jaccard ------------------------------------------------------------------------------------


def test_token_f1_hand_value():
    # tp = {2, 3}; P = 2/3, R = 2/4 -> F1 = 2 * (1/3) / (7/6) = 4/7
    assert token_f1([1, 2, 3], [2, 3, 4, 5]) == pytest.approx(4 / 7)


def test_token_f1_empty_sets_give_zero():
    assert token_f1([], [1, 2]) == 0.0
    assert token_f1([1], []) == 0.0
    assert token_f1([], []) == 0.0
    assert token_f1([1], [2]) == 0.0


def test_token_f1_uses_sets():
    assert token_f1([1, 1, 2], [1, 2]) == 1.0


def test_token_f1_bad_input():
    with pytest.raises(ValueError, match=r"pred: element 1 is 'a'"):
        token_f1([1, "a"], [1])
    with pytest.raises(ValueError, match=r"gold: element 0 is -1"):
        token_f1([1], [-1])
    with pytest.raises(ValueError, match="gold: expected a sequence of integer indices"):
        token_f1([1], None)


def test_jaccard():
    assert jaccard(["a", "b"], ["b", "c"]) == pytest.approx(1 / 3)
    assert jaccard([], []) == 0.0
    assert jaccard([], [], empty=1.0) == 1.0
    with pytest.raises(ValueError, match="a: expected a collection of items, got a string"):
        jaccard("ab", ["a"])


# --- pick_max_golden_evid ----------------------------------------------------------------------------------


def test_pick_max_union_beats_singles():
    # singles: F1({1,2},{0,1}) = F1({1,2},{2,3}) = 0.5; union {0,1,2,3}: P = 1, R = 1/2 -> 2/3
    gold, f1 = pick_max_golden_evid([1, 2], [[0, 1], [2, 3]])
    assert gold == [0, 1, 2, 3] and f1 == pytest.approx(2 / 3)


def test_pick_max_first_single_wins_ties_and_union_needs_strictly_greater():
    # both singles give 2/3; the union {0,8,9} gives 1/2 (< 2/3) -> first single kept
    gold, f1 = pick_max_golden_evid([0], [[0, 9], [0, 8]])
    assert gold == [0, 9] and f1 == pytest.approx(2 / 3)


def test_pick_max_union_skips_golds_without_overlap_and_restarts():
    # {5} has F1 0 so it never joins; {0,1} ∪ {2} gives P = 1, R = 2/3 -> 0.8 beats the best single ({2}: 2/3)
    gold, f1 = pick_max_golden_evid([0, 2], [[5], [0, 1], [2]])
    assert gold == [0, 1, 2] and f1 == pytest.approx(0.8)


def test_pick_max_union_not_taken_when_it_lowers_f1():
    gold, f1 = pick_max_golden_evid([1], [[1], [1, 2]])
    assert gold == [1] and f1 == 1.0


def test_pick_max_zero_gives_empty_gold():
    assert pick_max_golden_evid([7], [[1], [2]]) == ([], 0.0)


def test_pick_max_lone_gold_used_directly():
    assert pick_max_golden_evid([7], [[1, 2]]) == ([1, 2], 0.0)
    assert token_f1_multi([1], [[1, 2]]) == pytest.approx(2 / 3)


def test_pick_max_bad_input():
    with pytest.raises(ValueError, match="golds: is empty"):
        pick_max_golden_evid([1], [])
    with pytest.raises(ValueError, match=r"golds\[1\]: element 0 is 1.5"):
        pick_max_golden_evid([1], [[1], [1.5]])


# --- Baidu dataset aggregation -----------------------------------------------------------------------------


def _senti():
    golds = {1: [[[0, 1]]], 2: [[[3]]], 3: [[[4]]]}
    preds = {1: [[0]], 2: [[3]], 9: [[1]]}  # id 9 has no gold, id 3 has no prediction
    return preds, golds


def test_quirk_paddlenlp_macro_divides_by_gold_count():
    preds, golds = _senti()
    # F1_1 = 2/3, F1_2 = 1; missing id 3 counts 0; denominator |golds| = 3
    assert macro_f1_paddlenlp(preds, golds) == pytest.approx((2 / 3 + 1) / 3)


def test_quirk_trustai_macro_divides_by_found_times_sequences():
    preds, golds = _senti()
    assert macro_f1_trustai(preds, golds) == pytest.approx((2 / 3 + 1) / 2)
    assert macro_f1_trustai({9: [[1]]}, golds) == 0.0


def test_similarity_variant_averages_the_two_sides():
    golds = paddlenlp_golds([{"sent_id": 1, "rationale_q_idx": ["0", "1"], "rationale_t_idx": [2]},
                             {"sent_id": 2, "rationale_q_idx": [0], "rationale_t_idx": [0]}], "similarity")
    preds = {1: [[0, 1], [3]]}
    # F1_q = 1, F1_t = 0 -> 0.5 for id 1; id 2 missing -> PaddleNLP 0.5/2, TrustAI 0.5
    assert macro_f1_paddlenlp(preds, golds) == pytest.approx(0.25)
    assert macro_f1_trustai(preds, golds) == pytest.approx(0.5)


def test_mrc_variant_flat_gold():
    golds = paddlenlp_golds([{"sent_id": "a", "rationales": [3, 4]}], "mrc")
    assert golds == {"a": [[[3, 4]]]}
    assert macro_f1_paddlenlp({"a": [[4]]}, golds) == pytest.approx(2 / 3)


def test_senti_golds_conversion_with_alternatives():
    golds = paddlenlp_golds([{"sent_id": 5, "rationales": [["0", "1"], [2]]}], "senti")
    assert golds == {5: [[[0, 1], [2]]]}
    # pred {1, 2}: union {0,1,2} -> P = 1, R = 2/3 -> 0.8
    assert macro_f1_paddlenlp({5: [[1, 2]]}, golds) == pytest.approx(0.8)


def test_paddlenlp_golds_bad_records():
    with pytest.raises(ValueError, match=r"records\[0\] \(sent_id 1\): missing field 'rationale_t_idx'"):
        paddlenlp_golds([{"sent_id": 1, "rationale_q_idx": [1]}], "similarity")
    with pytest.raises(ValueError, match=r"records\[0\] \(sent_id 1\): rationale indices must be integers"):
        paddlenlp_golds([{"sent_id": 1, "rationales": [["x"]]}], "senti")
    with pytest.raises(ValueError, match="task: must be one of"):
        paddlenlp_golds([], "qa")


def test_quirk_iou_f1_threshold_int_iou_times_10():
    golds = {1: [[[0, 1, 2, 3]]], 2: [[[3, 4, 5, 6, 7]]]}
    preds = {1: [[0, 1]], 2: [[3, 4]]}
    # IoU_1 = 2/4 = 0.5 -> int(5.0) = 5 counts; IoU_2 = 2/5 -> int(4.0) = 4 does not
    assert iou_f1_trustai(preds, golds) == pytest.approx(0.5)


def test_iou_f1_gold_is_picked_by_f1():
    # golds {0} and {0,1,2,3}: pred {0,1}: F1 {0} = 2/3, F1 {0,1,2,3} = 2/3 (tie, first kept);
    # union {0,1,2,3}: 2/3 is not > 2/3 -> gold {0}: IoU 1/2 -> match
    assert iou_f1_trustai({1: [[0, 1]]}, {1: [[[0], [0, 1, 2, 3]]]}) == 1.0


def test_dataset_bad_input():
    with pytest.raises(ValueError, match=r"preds\[2\]: has 2 sequences, other predictions have 1"):
        macro_f1_trustai({1: [[0]], 2: [[0], [1]]}, {1: [[[0]]]})
    with pytest.raises(ValueError, match=r"golds\[1\]: has 2 sequences, preds\[1\] has 1"):
        macro_f1_paddlenlp({1: [[0]]}, {1: [[[0]], [[1]]]})
    with pytest.raises(ValueError, match="golds: expected a non-empty mapping"):
        macro_f1_paddlenlp({1: [[0]]}, {})
    with pytest.raises(ValueError, match=r"preds\[1\]\[0\]: element 0 is 'x'"):
        macro_f1_paddlenlp({1: [["x"]]}, {1: [[[0]]]})


def test_pick_max_union_grows_only_on_a_strict_gain():
    # pred {0, 1}; golds {0}, {1, 2, 3}, {1}. Singles: 2/3, 2/5, 2/3 → best {0} (the later tie is not taken).
    # Union from the first: {0} (2/3); + {1, 2, 3} gives {0, 1, 2, 3}: P 1, R 1/2 → 2/3, no strict gain, not taken;
    # + {1} gives {0, 1}: F1 1. (Had the equal step been taken, {1} would be covered and skipped: 2/3.)
    assert pick_max_golden_evid([0, 1], [[0], [1, 2, 3], [1]]) == ([0, 1], 1.0)
    # golds {1, 2, 3}, {0}: the union {0, 1, 2, 3} reaches 2/3, only equal to the single {0}: the single stays
    assert pick_max_golden_evid([0, 1], [[1, 2, 3], [0]]) == ([0], pytest.approx(2 / 3))


def test_ferret_top_k_defaults_to_5_and_takes_the_later_of_tied_tokens():
    assert top_k_tokens([7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]).tolist() == [0, 1, 2, 3, 4]
    # eight tokens tie at 1 (the odd positions of 17): the five later ones, highest index first
    assert top_k_tokens([i % 2 for i in range(17)], k=5).tolist() == [15, 13, 11, 9, 7]
    with pytest.raises(ValueError, match="^scores: is empty$"):
        top_k_tokens([])
    with pytest.raises(ValueError, match="^k: must be an integer >= 1, got 0$"):
        top_k_tokens([1.0], k=0)
    with pytest.raises(ValueError, match=r"^pred: element 0 is 'x' \(must be an integer index\)$"):
        pick_max_golden_evid(["x"], [[0]])


def test_iou_f1_between_five_elevenths_and_a_half_and_with_an_empty_union():
    # gold 0..9, pred 4..12: |∩| = 6, |∪| = 13, IoU 6/13 = 0.46 < 0.5 → int(4.6) = 4: no match;
    # gold {0, 1, 2}, pred {1, 2, 3}: IoU 2/4 → a match. TrustAI: 1 of 2.
    golds = {1: [[list(range(10))]], 2: [[[0, 1, 2]]]}
    assert iou_f1_trustai({1: [list(range(4, 13))], 2: [[1, 2, 3]]}, golds) == 0.5
    # an empty prediction shares nothing with either of two golds, so the gold picked is [] and the union is
    # empty: IoU 0 (REFERENCE §4.2), not a match; a lone gold is used as it is: IoU 0 / 2
    assert iou_f1_trustai({1: [[]]}, {1: [[[0], [1]]]}) == 0.0
    assert iou_f1_trustai({1: [[]]}, {1: [[[0, 1]]]}) == 0.0


def test_a_prediction_without_a_gold_record_is_skipped_not_the_end():
    # "x" has no gold record: skipped; "a" still counts (TrustAI divides by the found one: F1 1)
    preds, golds = {"x": [[1]], "a": [[0]]}, {"a": [[[0]]]}
    assert macro_f1_trustai(preds, golds) == 1.0 and iou_f1_trustai(preds, golds) == 1.0
    assert macro_f1_paddlenlp(preds, golds) == 1.0  # Σ F1 / #golds = 1 / 1


def test_dataset_errors_name_the_record():
    with pytest.raises(ValueError, match="^preds: expected a mapping id -> rationale per sequence, got list$"):
        macro_f1_trustai([[0]], {1: [[[0]]]})
    with pytest.raises(ValueError, match="^golds: expected a non-empty mapping id -> gold alternatives per sequence$"):
        macro_f1_trustai({1: [[0]]}, [])
    with pytest.raises(ValueError, match=r"^preds\[1\]: is empty$"):
        macro_f1_trustai({1: []}, {1: [[[0]]]})
    with pytest.raises(ValueError, match=r"^golds\[1\]: is empty$"):
        macro_f1_trustai({1: [[0]]}, {1: []})
    with pytest.raises(ValueError, match=r"^golds\[1\]\[0\]: is empty$"):
        macro_f1_trustai({1: [[0]]}, {1: [[]]})
    with pytest.raises(ValueError, match=r"^golds\[1\]\[0\]\[0\]: element 0 is 'x' \(must be an integer index\)$"):
        macro_f1_trustai({1: [[0]]}, {1: [[["x"]]]})
    with pytest.raises(ValueError, match=r"^records\[0\]: expected a golden record with 'sent_id'$"):
        paddlenlp_golds([{"rationales": [[1]]}], "senti")


# --- ferret ------------------------------------------------------------------------------------------------


def test_quirk_auprc_is_trapezoid_not_average_precision():
    # points (recall, precision): (1, 1/2), (1, 2/3), (1/2, 1/2), (1/2, 1), (0, 1)
    # trapezoid: (2/3 + 1/2)/2 * 1/2 + 1 * 1/2 = 19/24 ; AP (steps): 1/2 * 1 + 1/2 * 2/3 = 5/6
    r, s = [1, 0, 1, 0], [0.9, 0.8, 0.1, 0.0]
    assert auprc(r, s) == pytest.approx(19 / 24)
    assert average_precision(r, s) == pytest.approx(5 / 6)


def test_auprc_only_pos_clips_negatives():
    r, s = [1, 0, 1, 0], [0.9, -0.5, -0.1, 0.3]
    # clipped [0.9, 0, 0, 0.3]: points (1, 1/2), (1/2, 1/2), (1/2, 1), (0, 1) -> 1/4 + 1/2
    assert auprc(r, s) == pytest.approx(0.75)
    # raw order is the same as the first example -> 19/24
    assert auprc(r, s, only_pos=False) == pytest.approx(19 / 24)


def test_quirk_auprc_without_positive_token():
    # sklearn sets recall to 1 everywhere: precision (0, 0, 0, 0, 1) over recall (1, 1, 1, 1, 0) -> 1/2
    assert auprc([0, 0, 0, 0], [0.9, 0.8, 0.1, 0.0]) == pytest.approx(0.5)
    assert math.isnan(auprc([0, 0, 0, 0], [0.9, 0.8, 0.1, 0.0], official=False))


def test_ferret_token_f1_and_iou():
    r, s = [1, 1, 0, 0, 0, 1], [0.5, -0.2, 0.9, 0.1, 0.0, 0.3]
    # top-3 = {2, 0, 5}: tp = 2, P = R = 2/3
    assert ferret_token_f1(r, s, k=3) == pytest.approx(2 / 3)
    assert ferret_token_iou(r, s, k=3) == pytest.approx(0.5)
    # top-5 with only_pos drops the 0.0 score: {2,0,5,3}: P = 1/2, R = 2/3 -> 4/7
    assert ferret_token_f1(r, s, k=5) == pytest.approx(4 / 7)
    # without only_pos: {2,0,5,3,4}: P = 2/5, R = 2/3 -> 1/2
    assert ferret_token_f1(r, s, k=5, only_pos=False) == pytest.approx(0.5)


def test_ferret_no_hard_rationale_gives_zero():
    assert ferret_token_f1([1, 0], [-0.1, -0.2]) == 0.0
    assert ferret_token_iou([1, 0], [0.0, -0.2]) == 0.0
    assert top_k_tokens([-1.0, 0.0]) is None


def test_quirk_ferret_empty_human_rationale():
    assert math.isnan(ferret_token_f1([0, 0, 0], [0.3, 0.2, 0.1]))
    assert ferret_token_f1([0, 0, 0], [0.3, 0.2, 0.1], official=False) == 0.0
    assert ferret_token_iou([0, 0, 0], [0.3, 0.2, 0.1]) == 0.0


def test_top_k_stable_ties_pick_later_index():
    assert top_k_tokens([0.5, 0.5, 0.5], k=1).tolist() == [2]
    assert top_k_tokens([0.1, 0.9, 0.3], k=10).tolist() == [1, 2, 0]


def test_ferret_macro_and_micro():
    rationales = [[1, 0, 0], [1, 1, 0, 0]]
    scores = [[0.9, 0.1, 0.0], [0.0, 0.0, 0.5, 0.4]]
    # A: tp 1, pos 1, pred 1 -> F1 1; B: tp 0, pos 2, pred 1 -> 0. macro 1/2.
    # micro: tp 1, pos 3, pred 2 -> P 1/2, R 1/3 -> 2/5
    assert ferret_token_f1_dataset(rationales, scores, k=1) == pytest.approx(0.5)
    assert ferret_token_f1_dataset(rationales, scores, k=1, average="micro") == pytest.approx(0.4)


def test_ferret_bad_input():
    with pytest.raises(ValueError, match="rationale and scores differ in length"):
        ferret_token_f1([1, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="scores: value at position 0 is nan"):
        auprc([1, 0], [float("nan"), 0.2])
    with pytest.raises(ValueError, match="rationale: value at position 0 is 2"):
        ferret_token_iou([2, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"instance 1: rationale and scores differ"):
        ferret_token_f1_dataset([[1], [1, 0]], [[0.1], [0.2]])
    with pytest.raises(ValueError, match="rationales and scores differ in length"):
        ferret_token_f1_dataset([[1]], [[0.1], [0.2]])
    with pytest.raises(ValueError, match="average: must be"):
        ferret_token_f1_dataset([[1]], [[0.1]], average="weighted")
    with pytest.raises(ValueError, match="rationale: is empty"):
        auprc([], [])


# --- properties --------------------------------------------------------------------------------------------

_ids = st.lists(st.integers(0, 15), max_size=8)


@settings(max_examples=80, deadline=None)
@given(_ids, _ids)
def test_set_metrics_symmetric_and_bounded(a, b):
    assert token_f1(a, b) == pytest.approx(token_f1(b, a))
    assert jaccard(a, b) == jaccard(b, a)
    assert 0.0 <= token_f1(a, b) <= 1.0 and 0.0 <= jaccard(a, b) <= 1.0
    # F1 = 2J / (1 + J) for sets (when non-empty)
    if a and b:
        j = jaccard(a, b)
        assert token_f1(a, b) == pytest.approx(2 * j / (1 + j))


@settings(max_examples=60, deadline=None)
@given(_ids, st.lists(_ids, min_size=1, max_size=5))
def test_pick_max_at_least_every_single_gold(pred, golds):
    _, f1 = pick_max_golden_evid(pred, golds)
    assert 0.0 <= f1 <= 1.0
    assert f1 >= max(token_f1(pred, g) for g in golds) - 1e-12


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(-10, 10, allow_nan=False, allow_subnormal=False)), min_size=1,
                max_size=12))
def test_ferret_scale_invariance_and_ranges(pairs):
    r = [int(a) for a, _ in pairs]
    s = [b for _, b in pairs]
    s2 = [2.0 * b for b in s]
    for fn in (ferret_token_iou, average_precision):
        v = fn(r, s)
        assert 0.0 <= v <= 1.0
        assert fn(r, s2) == pytest.approx(v)
    if any(r):
        assert 0.0 <= auprc(r, s) <= 1.0
        assert auprc(r, s2) == pytest.approx(auprc(r, s))
        assert 0.0 <= ferret_token_f1(r, s) <= 1.0


def test_registered():
    for name in ("rationale_token_f1", "rationale_token_f1_multi", "baidu_macro_f1", "trustai_macro_f1",
                 "trustai_iou_f1", "jaccard", "ferret_auprc", "average_precision", "ferret_token_f1",
                 "ferret_token_iou", "ferret_token_f1_dataset"):
        assert get(name).info.family == "plausibility"


def test_ferret_defaults_by_hand():
    # seven positive scores, human rationale {0, 5}. The default k = 5 picks {0..4}: tp 1, P 1/5, R 1/2 →
    # F1 2·(1/10)/(7/10) = 2/7, IoU 1/(2 + 5 − 1) = 1/6 (k = 6 would reach index 5: F1 1/2, IoU 1/3)
    r, s = [1, 0, 0, 0, 0, 1, 0], [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    assert ferret_token_f1(r, s) == pytest.approx(2 / 7) and ferret_token_iou(r, s) == pytest.approx(1 / 6)
    # k = 1 selects one token, a hit: IoU 1 / |{0, 5}| = 1/2
    assert ferret_token_iou(r, s, k=1) == pytest.approx(0.5)
    # second instance [.5, −1, −.5], rationale {2}: only_pos (the default) keeps {0} → tp 0, F1 0 (all three
    # kept would give P 1/3, R 1 → 1/2). Macro (2/7 + 0)/2 = 1/7; micro tp 1, pos 3, pred 6 → P 1/6, R 1/3 → 2/9
    rs, ss = [r, [0, 0, 1]], [s, [0.5, -1.0, -0.5]]
    assert ferret_token_f1_dataset(rs, ss) == pytest.approx(1 / 7)
    assert ferret_token_f1_dataset(rs, ss, average="micro") == pytest.approx(2 / 9)
    # official (the default): an instance without a human positive is NaN and makes the macro NaN; the second
    # instance alone (top {0, 1} vs {0}: P 1/2, R 1 → 2/3) gives (0 + 2/3)/2 = 1/3 with official=False
    empty_first = [[0, 0], [1, 0]], [[0.5, 0.1], [0.5, 0.1]]
    assert math.isnan(ferret_token_f1_dataset(*empty_first))
    assert ferret_token_f1_dataset(*empty_first, official=False) == pytest.approx(1 / 3)
    assert math.isnan(ferret_token_f1_dataset([[0, 0]], [[0.5, 0.1]], average="micro"))
    with pytest.raises(ValueError, match="^rationales: is empty$"):
        ferret_token_f1_dataset([], [[0.1]])
    with pytest.raises(ValueError, match="^scores: is empty$"):
        ferret_token_f1_dataset([[1]], [])


def test_average_precision_clips_negative_scores_by_default():
    # r = [1, 0, 1, 0], clipped scores [.9, 0, 0, .3]: at .9 P 1, R 1/2; at .3 P 1/2, R 1/2; at 0 P 2/4, R 1
    # → AP = 1/2 · 1 + 1/2 · 1/2 = 3/4; raw order (.9, .3, −.1, −.5): AP = 1/2 · 1 + 1/2 · 2/3 = 5/6
    r, s = [1, 0, 1, 0], [0.9, -0.5, -0.1, 0.3]
    assert average_precision(r, s) == pytest.approx(0.75)
    assert average_precision(r, s, only_pos=False) == pytest.approx(5 / 6)


def test_trustai_iou_f1_over_two_sequences_and_nothing_found():
    # similarity: query pred {0, 1} = gold → IoU 1, a match; title pred {3}, gold {2} → IoU 0. 1 of 1 × 2 = 1/2
    assert iou_f1_trustai({1: [[0, 1], [3]]}, {1: [[[0, 1]], [[2]]]}) == 0.5
    # no prediction has a gold record: 0, as TrustAI
    assert iou_f1_trustai({9: [[1]]}, {1: [[[1]]]}) == 0.0
    with pytest.raises(ValueError, match="^b: expected a collection of items, got a string$"):
        jaccard(["a"], "ab")
