"""Consistency metrics (REFERENCE §4.3 MAP, §4.6 PCC) and the rationale selection (§4.1), by hand."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpeval.metrics import get
from interpeval.metrics.consistency import (
    align_tokens,
    aligned_scores,
    clamp_small,
    map_dataset,
    map_pair,
    pcc_aligned,
    pcc_ding_koehn,
    pcc_ding_koehn_mean,
    pcc_groups,
    pcc_plm,
)
from interpeval.metrics.rationale import rationale_size, rationale_texts, select_rationale

# --- rationale selection -----------------------------------------------------------------------------------


def test_quirk_rationale_size_float_ceil():
    # 100 * 0.07 = 7.000000000000001 in floating point -> ceil gives 8 in the original
    assert rationale_size(100, 0.07) == 8
    assert rationale_size(100, 0.07, official=False) == 7
    assert rationale_size(10, 0.3) == 3
    assert rationale_size(28, 0.311) == 9  # 8.708 -> 9
    assert rationale_size(0, 0.5) == 0


def test_rationale_size_bad_input():
    with pytest.raises(ValueError, match="ratio: must be a number in"):
        rationale_size(3, 1.5)
    with pytest.raises(ValueError, match="n: must be an integer"):
        rationale_size(-1, 0.5)


def test_select_rationale_importance_order_stable():
    assert select_rationale([0.2, 0.9, 0.2, 0.5], ratio=0.5).tolist() == [1, 3]
    # ties keep ascending position (Python's stable sort in the original)
    assert select_rationale([0.5, 0.5, 0.1], k=1).tolist() == [0]
    assert select_rationale([0.1, 0.5, 0.5, 0.9], k=3).tolist() == [3, 1, 2]


def test_select_rationale_trustai_top5_position_order():
    scores = [0.1, 0.6, 0.3, 0.9, 0.2, 0.8, 0.0]
    assert select_rationale(scores, k=5).tolist() == [3, 5, 1, 2, 4]
    assert select_rationale(scores, k=5, order="position").tolist() == [1, 2, 3, 4, 5]
    assert select_rationale([0.3, 0.1], k=5).tolist() == [0, 1]


def test_select_rationale_bad_input():
    with pytest.raises(ValueError, match="ratio, k: give exactly one"):
        select_rationale([0.1], ratio=0.5, k=1)
    with pytest.raises(ValueError, match="order: must be"):
        select_rationale([0.1], k=1, order="random")
    with pytest.raises(ValueError, match="scores: value at position 0 is nan"):
        select_rationale([float("nan")], k=1)


def test_rationale_texts():
    assert rationale_texts(["I", " love ", "it"], [1]) == ("love", "I it")
    assert rationale_texts(["特", "别", "差"], [2, 0], sep="") == ("特差", "别")
    assert rationale_texts(["a", "b"], [0, 1]) == ("a b", "['UNK']")
    with pytest.raises(ValueError, match="rationale: element 0 is 5"):
        rationale_texts(["a"], [5])


def test_rationale_selection_edges_by_hand():
    # ratio 0 and 1 are allowed; a bool or a fractional n is not
    assert rationale_size(5, 0.0) == 0 and rationale_size(5, 1.0) == 5
    for bad in (True, 2.5):
        with pytest.raises(ValueError, match=r"^n: must be an integer >= 0"):
            rationale_size(bad, 0.5)
    # official=False rounds to 9 decimals, then takes the ceiling: 10 × 0.25 = 2.5 → 3 (not Python's round(2.5) = 2),
    # 10 × 0.70000000001 = 7.0000000001 → 7 (10 decimals would keep the excess: 8)
    assert rationale_size(10, 0.25, official=False) == 3
    assert rationale_size(10, 0.70000000001, official=False) == 7
    # the PaddleNLP quirk reaches select_rationale by default: 100 × 0.07 → 8 words (7 with official=False)
    assert len(select_rationale(np.arange(100.0), ratio=0.07)) == 8
    assert len(select_rationale(np.arange(100.0), ratio=0.07, official=False)) == 7
    assert select_rationale([], k=3).tolist() == []  # an empty text has an empty rationale
    # 200 scores in {0, 1, 2}: the top 50 are the first 50 positions holding a 2 (stable), in position order
    scores = np.random.default_rng(0).integers(0, 3, 200).astype(float)
    assert select_rationale(scores, k=50).tolist() == [i for i in range(200) if scores[i] == 2][:50]
    with pytest.raises(ValueError, match=r"^ratio, k: give exactly one of them$"):
        select_rationale([0.1])
    with pytest.raises(ValueError, match=r"^k: must be an integer >= 1"):
        select_rationale([0.1], k=0)
    # indices read as floats (e.g. from JSON) are positions; one past the end is named with the valid range
    assert rationale_texts(["a", "b"], np.array([1.0])) == ("b", "a")
    with pytest.raises(ValueError, match=r"^rationale: element 0 is 1, outside 0\.\.0$"):
        rationale_texts(["a"], [1])


# --- MAP ---------------------------------------------------------------------------------------------------


def test_map_hand_value():
    # i=1: [b] vs [a] -> 0 ; i=2: [b,a] vs [a,b] -> 1 ; i=3: [b,a,d] vs [a,b,c] -> 2/3 ; MAP = (5/3)/3
    assert map_pair(["a", "b", "c"], ["b", "a", "d"]) == pytest.approx(5 / 9)


def test_map_repeated_tokens_count_each_time():
    assert map_pair(["x", "y"], ["x", "x"]) == 1.0


def test_map_empty_disturbed_is_zero():
    assert map_pair(["a"], []) == 0.0
    assert map_pair([], ["a"]) == 0.0


def test_quirk_map_importance_vs_position_order():
    ori_toks, ori_s = ["the", "movie", "great"], [0.1, 0.5, 0.9]
    dis_toks, dis_s = ["the", "film", "great"], [0.1, 0.9, 0.5]

    def ranked(toks, s, order):
        return [toks[i] for i in select_rationale(s, k=3, order=order)]

    # PaddleNLP (importance): [great, movie, the] vs [film, great, the] -> (0 + 1/2 + 2/3)/3 = 7/18
    assert map_pair(ranked(ori_toks, ori_s, "importance"), ranked(dis_toks, dis_s, "importance")) == pytest.approx(7 / 18)
    # TrustAI (position): [the, movie, great] vs [the, film, great] -> (1 + 1/2 + 2/3)/3 = 13/18
    assert map_pair(ranked(ori_toks, ori_s, "position"), ranked(dis_toks, dis_s, "position")) == pytest.approx(13 / 18)


def _golds():
    return {1: {"sample_type": "ori", "rel_ids": [101, 102]}, 101: {"sample_type": "disturb"},
            102: {"sample_type": "disturb"}, 2: {"sample_type": "ori", "rel_ids": [201]},
            201: {"sample_type": "disturb"}}


def test_quirk_map_dataset_divides_by_disturbed_gold_records():
    preds = {1: [["a", "b"]], 101: [["a", "b"]], 2: [["x"]], 201: [["y"]]}  # 102 not predicted
    # pairs: (1,101) -> 1 ; (2,201) -> 0 ; 3 disturbed golds
    assert map_dataset(preds, _golds()) == pytest.approx(1 / 3)


def test_map_dataset_averages_sequences():
    preds = {1: [["a"], ["b"]], 101: [["a"], ["c"]]}
    golds = {1: {"sample_type": "ori", "rel_ids": [101]}, 101: {"sample_type": "disturb"}}
    assert map_dataset(preds, golds) == pytest.approx(0.5)


def test_map_dataset_no_disturbed_gives_zero():
    assert map_dataset({1: [["a"]]}, {1: {"sample_type": "ori", "rel_ids": []}}) == 0.0


def test_map_dataset_on_trustai_sample_records():
    # the two records printed in TrustAI's zh-pretrain notebook (shared/data/plm_rationale/trustai_samples):
    # ori 0 "迈向…" has rel_ids [100]; the disturbed 100 "走进…". Gold rationale tokens used as the predictions:
    preds = {0: [["迈", "向", "世", "纪"]], 100: [["走", "进", "世", "纪"]]}
    golds = {0: {"sample_type": "ori", "rel_ids": [100]}, 100: {"sample_type": "disturb"}}
    # i=1: 0 ; i=2: 0 ; i=3: 世 in [迈,向,世] -> 1/3 ; i=4: 世,纪 -> 2/4 ; MAP = (1/3 + 1/2)/4
    assert map_dataset(preds, golds) == pytest.approx((1 / 3 + 1 / 2) / 4)


def test_map_bad_input():
    with pytest.raises(ValueError, match="ori_tokens: expected a list of tokens, got a string"):
        map_pair("abc", ["a"])
    with pytest.raises(ValueError, match=r"golds\[1\]: needs sample_type"):
        map_dataset({1: [["a"]]}, {1: {"sample_type": "x"}})
    with pytest.raises(ValueError, match=r"preds\[3\]: id not found in golds"):
        map_dataset({3: [["a"]]}, _golds())
    with pytest.raises(ValueError, match="preds: instances have different numbers of sequences"):
        map_dataset({1: [["a"]], 101: [["a"], ["b"]]}, _golds())


# --- Ding & Koehn PCC -----------------------------------------------------------------------------------------


def test_clamp_below_one_percent_of_max_abs():
    assert clamp_small([100.0, 0.5, -50.0, -0.99, 1.0]).tolist() == [100.0, 0.0, -50.0, 0.0, 1.0]


def test_pcc_hand_values():
    assert pcc_ding_koehn([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    # centred a = (.5,-.5,-.5,.5), b = (.5,-.5,.5,-.5): covariance 0
    assert pcc_ding_koehn([1, 0, 0, 1], [1, 0, 1, 0]) == pytest.approx(0.0, abs=1e-12)


def test_quirk_pcc_clamps_before_correlating():
    # 0.5 and 0.9 are both under 1% of 100 -> both zeroed -> identical vectors -> r = 1
    assert pcc_ding_koehn([100, 0.5, 50, 20], [100, 0.9, 50, 20]) == pytest.approx(1.0)


def test_quirk_pcc_skips_unequal_lengths_and_nan_propagates():
    out = pcc_ding_koehn_mean([([1, 2, 3], [1, 2, 3]), ([1, 2], [1, 2, 3])])
    assert out == {"pcc": pytest.approx(1.0), "pairs": 1, "skipped": 1}
    out = pcc_ding_koehn_mean([([1, 2, 3], [1, 2, 3]), ([1, 1, 1], [1, 2, 3])])
    assert math.isnan(out["pcc"]) and out["pairs"] == 2
    assert math.isnan(pcc_ding_koehn_mean([([1, 2], [1, 2, 3])])["pcc"])


def test_pcc_groups_reference_is_first():
    out = pcc_groups([[[1, 2, 3], [3, 2, 1], [1, 2, 3]], [[1, 2], [1, 2, 3]]])
    # group 0: r(ref, 2nd) = -1, r(ref, 3rd) = 1; group 1: one skipped pair
    assert out == {"pcc": pytest.approx(0.0), "pairs": 2, "skipped": 1}
    with pytest.raises(ValueError, match="groups: no group has more than one member"):
        pcc_groups([[[1, 2]]])


def test_pcc_bad_input():
    with pytest.raises(ValueError, match="a and b differ in length"):
        pcc_ding_koehn([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match=r"pairs\[0\]\[1\]: value at position 0 is nan"):
        pcc_ding_koehn_mean([([1.0], [float("nan")])])
    with pytest.raises(ValueError, match=r"pairs\[0\]: expected a pair"):
        pcc_ding_koehn_mean([[1, 2, 3]])
    with pytest.raises(ValueError, match="pairs: is empty"):
        pcc_ding_koehn_mean([])


# --- aligned PCC -----------------------------------------------------------------------------------------------


def test_align_tokens_delete_insert_replace():
    assert align_tokens(["a", "b", "c"], ["a", "c"]) == [(0, 0), (1, None), (2, 1)]
    assert align_tokens(["a", "c"], ["a", "b", "c"]) == [(0, 0), (None, 1), (1, 2)]
    assert align_tokens(["a", "b", "c"], ["a", "x", "c"]) == [(0, 0), (1, 1), (2, 2)]
    assert align_tokens(["a", "b", "c"], ["a", "x", "y", "c"]) == [(0, 0), (1, 1), (None, 2), (2, 3)]


def test_pcc_of_two_and_of_one_token():
    # two points always lie on a line: r = 1 (rising together) or -1; one point has no correlation: NaN
    assert pcc_ding_koehn([1.0, 2.0], [1.0, 3.0]) == pytest.approx(1.0)
    assert pcc_ding_koehn([1.0, 2.0], [3.0, 1.0]) == pytest.approx(-1.0)
    assert math.isnan(pcc_ding_koehn([1.0], [2.0]))
    assert math.isnan(pcc_aligned(["a"], [1.0], ["a"], [2.0]))


def test_a_long_text_with_a_frequent_token_still_aligns_its_run():
    # 250 × "a" then "b", against "b" then 250 × "a": the run of a's is the longest common block, so the b's are a
    # deletion and an insertion. (difflib's "autojunk" heuristic would call a token that makes > 1 % of a text of
    # >= 200 tokens junk and pair the two b's instead, leaving every "a" unpaired.)
    ori, dis = ["a"] * 250 + ["b"], ["b"] + ["a"] * 250
    assert align_tokens(ori, dis) == [(None, 0), *((i, i + 1) for i in range(250)), (250, None)]


def test_aligned_scores_give_an_inserted_token_a_zero_partner():
    # ori a c, dis a b c: b is inserted, so the original's vector gets a virtual 0 at b's place
    x, y = aligned_scores(["a", "c"], [0.5, 0.25], ["a", "b", "c"], [0.1, 0.2, 0.3])
    assert x.tolist() == [0.5, 0.0, 0.25] and y.tolist() == [0.1, 0.2, 0.3]


def test_consistency_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="^ori_tokens: expected a list of tokens, got int$"):
        align_tokens(5, ["a"])
    with pytest.raises(ValueError, match="^dis_tokens: expected a list of tokens, got int$"):
        align_tokens(["a"], 5)
    with pytest.raises(ValueError, match="^ori_tokens: expected a list of tokens, got a string$"):
        align_tokens("ab", ["a"])
    with pytest.raises(ValueError, match=r"^ori_scores: expected a 1-D sequence of numbers, got shape \(1, 1\)$"):
        aligned_scores(["a"], [[1.0]], ["a"], [1.0])
    with pytest.raises(ValueError, match=r"^dis_scores: expected a 1-D sequence of numbers, got shape \(1, 1\)$"):
        aligned_scores(["a"], [1.0], ["a"], [[1.0]])
    with pytest.raises(ValueError, match=r"^ori_tokens and ori_scores differ in length \(2 != 1\)$"):
        aligned_scores(["a", "b"], [1.0], ["a"], [1.0])
    with pytest.raises(ValueError, match=r"^dis_tokens and dis_scores differ in length \(2 != 1\)$"):
        aligned_scores(["a"], [1.0], ["a", "b"], [1.0])
    with pytest.raises(ValueError, match="^scores: is empty$"):
        clamp_small([])
    with pytest.raises(ValueError, match="^groups: is empty$"):
        pcc_groups([])
    with pytest.raises(ValueError, match=r"^groups\[0\]: is empty$"):
        pcc_groups([[]])
    with pytest.raises(ValueError, match="^groups: no group has more than one member, so there is nothing to "
                                         "correlate$"):
        pcc_groups([[[1.0, 2.0]]])


def test_pcc_aligned_deleted_token_meets_zero():
    # x = (1, 2, 3), y = (1, 0, 3): r = 2 / sqrt(2 * 14/3) = sqrt(3/7)
    assert pcc_aligned(["a", "b", "c"], [1, 2, 3], ["a", "c"], [1, 3]) == pytest.approx(math.sqrt(3 / 7))


def test_quirk_pcc_plm_counts_only_significant_pairs_and_map_on_same_pairs():
    toks = [f"t{i}" for i in range(10)]
    significant = {"ori_tokens": toks, "ori_scores": np.arange(10.0), "dis_tokens": toks,
                   "dis_scores": 2 * np.arange(10.0)}
    # 3 tokens, r = sqrt(3/7), p ≈ 0.55: not significant; its MAP would be below 1
    weak = {"ori_tokens": ["a", "b", "c"], "ori_scores": [1, 2, 3], "dis_tokens": ["a", "c"], "dis_scores": [1, 3]}
    out = pcc_plm([significant, weak])
    assert out["significant"] == 1 and out["pairs"] == 2
    assert out["pcc"] == pytest.approx(1.0) and out["map"] == pytest.approx(1.0)
    out = pcc_plm([weak])
    assert out["significant"] == 0 and math.isnan(out["pcc"]) and math.isnan(out["map"])
    # with alpha = 1 the weak pair counts too: MAP of [c, b, a] vs [c, a]: i=1: 1, i=2: c in [c, b] -> 1/2
    out = pcc_plm([weak], alpha=1.0)
    assert out["pcc"] == pytest.approx(math.sqrt(3 / 7)) and out["map"] == pytest.approx(0.75)


def test_pcc_plm_bad_input():
    with pytest.raises(ValueError, match=r"pairs\[0\]: missing dis_scores"):
        pcc_plm([{"ori_tokens": ["a"], "ori_scores": [1], "dis_tokens": ["a"]}])
    with pytest.raises(ValueError, match=r"pairs\[0\]: ori_tokens and ori_scores differ in length"):
        pcc_plm([{"ori_tokens": ["a", "b"], "ori_scores": [1], "dis_tokens": ["a"], "dis_scores": [1]}])


# --- properties --------------------------------------------------------------------------------------------------

_toks = st.lists(st.sampled_from(list("abcdef")), max_size=7)


@settings(max_examples=80, deadline=None)
@given(_toks, _toks)
def test_map_range_and_identity(a, b):
    assert 0.0 <= map_pair(a, b) <= 1.0
    if b:
        assert map_pair(b, b) == 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-10, 10, allow_subnormal=False), st.floats(-10, 10, allow_subnormal=False)),
                min_size=3, max_size=10))
def test_pcc_symmetric_and_scale_invariant(pairs):
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    r = pcc_ding_koehn(a, b)
    if math.isnan(r):
        return
    assert -1.0 - 1e-9 <= r <= 1.0 + 1e-9
    assert pcc_ding_koehn(b, a) == pytest.approx(r, abs=1e-9)
    assert pcc_ding_koehn([4.0 * x for x in a], b) == pytest.approx(r, abs=1e-9)


def test_registered():
    for name in ("rationale_map", "rationale_map_dataset", "pcc_ding_koehn", "pcc_aligned"):
        assert get(name).info.family == "consistency"


def test_map_dataset_edges_by_hand():
    golds = {1: {"sample_type": "ori", "rel_ids": [101]}, 101: {"sample_type": "disturb"},
             2: {"sample_type": "ori"}, 102: {"sample_type": "disturb"}}
    # the disturbed 101 comes first in preds and must not end the loop; ori 2 has no rel_ids (no pair).
    # pair (1, 101): [a, b] vs [b, a] → i=1: 0, i=2: 1 → 1/2; two disturbed golds → (1/2) / 2 = 1/4
    preds = {101: [["b", "a"]], 1: [["a", "b"]], 2: [["a"]]}
    assert map_dataset(preds, golds) == pytest.approx(0.25)
    # nothing predicted: 0 of 2 disturbed golds, not an error
    assert map_dataset({}, golds) == 0.0
    with pytest.raises(ValueError, match=r"^preds, golds: expected mappings id -> record$"):
        map_dataset([["a"]], golds)
    with pytest.raises(ValueError, match=r"^golds\[1\]: rel_ids must be a list of ids$"):
        map_dataset({}, {1: {"sample_type": "ori", "rel_ids": 101}, 101: {"sample_type": "disturb"}})
    with pytest.raises(ValueError, match=r"^preds\[1\]: is empty$"):
        map_dataset({1: []}, golds)
    with pytest.raises(ValueError, match=r"^preds\[1\]\[0\]: expected a list of tokens, got a string$"):
        map_dataset({1: ["ab"]}, golds)
    with pytest.raises(ValueError, match=r"^dis_tokens: expected a list of tokens, got a string$"):
        map_pair(["a"], "ab")


def test_ding_koehn_names_and_counts_by_hand():
    with pytest.raises(ValueError, match=r"^a: value at position 0 is nan \(must be finite\)$"):
        pcc_ding_koehn([float("nan"), 1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"^b: value at position 1 is nan \(must be finite\)$"):
        pcc_ding_koehn([1.0, 2.0], [1.0, float("nan")])
    with pytest.raises(ValueError, match=r"^pairs\[0\]\[0\]: value at position 0 is nan \(must be finite\)$"):
        pcc_ding_koehn_mean([([float("nan")], [1.0])])
    # two skipped pairs first, then (1, 2, 3) against (3, 2, 1): r = −1, one pair used
    out = pcc_ding_koehn_mean([([1, 2], [1]), ([1], [1, 2]), ([1, 2, 3], [3, 2, 1])])
    assert out == {"pcc": pytest.approx(-1.0), "pairs": 1, "skipped": 2}
    # no usable pair: NaN, and no numpy "mean of empty slice" warning on the way
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(pcc_ding_koehn_mean([([1, 2], [1])])["pcc"])


def test_aligned_scores_read_any_token_object():
    # a token is read through str(), so a list token (a ragged token list for numpy) is one token, not an error
    x, y = aligned_scores(["a", ["b", "c"]], [1.0, 2.0], ["a", ["b", "c"]], [3.0, 4.0])
    assert x.tolist() == [1.0, 2.0] and y.tolist() == [3.0, 4.0]


def test_token_iterators_are_read_once_like_lists():
    # ori a c, dis a b c (b inserted) as a generator and an iterator: the same vectors as from lists
    x, y = aligned_scores((t for t in ["a", "c"]), [0.5, 0.25], iter(["a", "b", "c"]), [0.1, 0.2, 0.3])
    assert x.tolist() == [0.5, 0.0, 0.25] and y.tolist() == [0.1, 0.2, 0.3]
    # x = (1, 2, 3), y = (1, 0, 3): r = sqrt(3/7) (as test_pcc_aligned_deleted_token_meets_zero)
    assert pcc_aligned(iter(["a", "b", "c"]), [1, 2, 3], iter(["a", "c"]), [1, 3]) == pytest.approx(math.sqrt(3 / 7))
    # pcc_plm reads the tokens for the alignment and for MAP*: MAP of [c, b, a] vs [c, a] = 0.75 (as the quirk test)
    weak = {"ori_tokens": iter(["a", "b", "c"]), "ori_scores": [1, 2, 3], "dis_tokens": (t for t in "ac"),
            "dis_scores": [1, 3]}
    out = pcc_plm([weak], alpha=1.0)
    assert out["pcc"] == pytest.approx(math.sqrt(3 / 7)) and out["map"] == pytest.approx(0.75)
    with pytest.raises(ValueError, match="^dis_tokens: expected a list of tokens, got int$"):
        aligned_scores(["a"], [1.0], 5, [1.0])
    with pytest.raises(ValueError, match=r"^ori_scores: expected a 1-D sequence of numbers"):
        aligned_scores(["a"], (v for v in [1.0]), ["a"], [1.0])


def _swapped_pair():
    # t0..t9: ori scores 0..9; dis scores 2·i with t7 and t9 swapped (18 at t7, 14 at t9).
    # r: y = 2x + d, d = +4 at 7, −4 at 9: Sxy = 2·82.5 + (2.5·4 − 4.5·4) = 157, Syy = 330 + 4·(−8) + 32 = 330,
    # r = 157 / sqrt(82.5 · 330) = 157 / 165 (p far below 0.05)
    toks = [f"t{i}" for i in range(10)]
    return {"ori_tokens": toks, "ori_scores": np.arange(10.0), "dis_tokens": toks,
            "dis_scores": [0, 2, 4, 6, 8, 10, 12, 18, 16, 14]}


def test_pcc_plm_map_star_with_k_ratio_and_all_tokens_by_hand():
    pair = _swapped_pair()
    # k = 2: ori [t9, t8], dis [t7, t8] → i=1: 0, i=2: t8 → 1/2 → MAP (0 + 1/2) / 2 = 1/4
    assert pcc_plm([pair], k=2) == {"pcc": pytest.approx(157 / 165), "map": pytest.approx(0.25),
                                    "significant": 1, "pairs": 1}
    # ratio 0.3 → K = 3: ori [t9, t8, t7], dis [t7, t8, t9] → (0 + 1/2 + 1) / 3 = 1/2
    assert pcc_plm([pair], ratio=0.3)["map"] == pytest.approx(0.5)
    # neither: all ten tokens, dis [t7, t8, t9, t6, …, t0] → (0 + 1/2 + 8 × 1) / 10 = 0.85
    assert pcc_plm([pair])["map"] == pytest.approx(0.85)


def test_pcc_plm_edges_by_hand():
    pair = _swapped_pair()
    # (1, 2, 3) against (1, 3, 1): centred (−1, 0, 1)·(−2/3, 4/3, −2/3) = 0, so r = 0 and p = 1: not below
    # alpha = 1, so no pair is significant (p < alpha, not <=)
    flat = {"ori_tokens": ["a", "b", "c"], "ori_scores": [1, 2, 3], "dis_tokens": ["a", "b", "c"],
            "dis_scores": [1, 3, 1]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "mean of empty slice" when nothing is significant
        out = pcc_plm([flat], alpha=1.0)
    assert out["significant"] == 0 and math.isnan(out["pcc"]) and math.isnan(out["map"])
    # a pair that is not significant, listed first, does not end the loop
    assert pcc_plm([flat, pair])["significant"] == 1
    for alpha in (0.0, 1.5):
        with pytest.raises(ValueError, match=rf"^alpha: must be in \(0, 1\], got {alpha}$"):
            pcc_plm([pair], alpha=alpha)
    with pytest.raises(ValueError, match="^pairs: is empty$"):
        pcc_plm([])
    with pytest.raises(ValueError, match=r"^pairs\[1\]: expected a mapping with ori_tokens, ori_scores, dis_tokens, "
                                         r"dis_scores$"):
        pcc_plm([pair, ["a"]])
    with pytest.raises(ValueError, match=r"^pairs\[0\]: missing dis_tokens, dis_scores$"):
        pcc_plm([{"ori_tokens": ["a"], "ori_scores": [1]}])
