"""Erasure faithfulness (ERASER, ferret §5.3, TrustAI / PaddleNLP §4.4) with a linear scorer whose outputs are
derivable by hand: p(text) = 0.3 + Σ weight(word)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpeval.metrics import get
from interpeval.metrics.faithfulness import (
    aopc_comprehensiveness,
    aopc_sufficiency,
    comprehensiveness,
    ferret_aopc_compr,
    ferret_aopc_suff,
    newp,
    sufficiency,
    taucorr_loo,
    trustai_comprehensiveness,
    trustai_sufficiency,
)

WEIGHTS = {"the": 0.0, "movie": 0.1, "was": 0.0, "great": 0.4}
TOKENS = ["the", "movie", "was", "great"]  # p0 = 0.8
SCORES = [0.0, 0.2, 0.1, 0.9]


class LinearScorer:
    """Counts calls and texts so the tests can check the single batched call."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([0.3 + sum(WEIGHTS.get(w, 0.0) for w in t.split()) for t in texts])


def test_eraser_comprehensiveness_and_sufficiency():
    f = LinearScorer()
    # removing "great": 0.8 - 0.4 ; keeping only "great": 0.8 - 0.7
    assert comprehensiveness(f, TOKENS, [0, 0, 0, 1]) == pytest.approx(0.4)
    assert sufficiency(f, TOKENS, [0, 0, 0, 1]) == pytest.approx(0.1)
    assert f.calls[0] == ["the movie was great", "the movie was"]
    assert f.calls[1] == ["the movie was great", "great"]


def test_full_text_and_mask_token():
    f = LinearScorer()
    comprehensiveness(f, TOKENS, [0, 0, 0, 1], full_text="The movie was great!", mask_token="[MASK]")
    assert f.calls[0] == ["The movie was great!", "the movie was [MASK]"]
    f = LinearScorer()
    sufficiency(f, ["特", "别", "差"], [0, 0, 1], sep="")
    assert f.calls[0] == ["特别差", "差"]


def test_quirk_deyoung_aopc_includes_zero_bin():
    f = LinearScorer()
    # n = 4: bins 0, 1, 5, 10, 20 % select int(b*4) = 0 tokens, 50 % selects the top 2 (great, movie)
    # compr terms: 0 (x5), 0.8 - 0.3 ; mean = 0.5 / 6
    assert aopc_comprehensiveness(f, TOKENS, SCORES) == pytest.approx(0.5 / 6)
    assert len(f.calls) == 1 and len(f.calls[0]) == 7
    # suff: keeping no token gives p("") = 0.3 -> 0.5 (x5); keeping "movie great" gives 0.8 -> 0
    assert aopc_sufficiency(LinearScorer(), TOKENS, SCORES) == pytest.approx(2.5 / 6)


def test_quirk_ferret_aopc_deduplicates_bins_and_has_no_zero_bin():
    f = LinearScorer()
    # int(t*4) over t = .1..1.0: 0,0,1,1,2,2,2,3,3,4 -> k = 1, 2, 3, 4; only_pos drops the 0.0 score so k = 4
    # repeats k = 3's set. Removing {great}: 0.4, {great, movie}: 0.5, {great, movie, was}: 0.5
    assert ferret_aopc_compr(f, TOKENS, SCORES) == pytest.approx(1.4 / 3)
    assert len(f.calls) == 1 and len(f.calls[0]) == 4
    # keeping {great}: 0.1 ; {movie, great}: 0 ; {movie, was, great}: 0
    assert ferret_aopc_suff(LinearScorer(), TOKENS, SCORES) == pytest.approx(0.1 / 3)


def test_ferret_aopc_without_only_pos_keeps_the_full_bin():
    assert ferret_aopc_compr(LinearScorer(), TOKENS, SCORES, only_pos=False) == pytest.approx(1.9 / 4)
    assert ferret_aopc_suff(LinearScorer(), TOKENS, SCORES, only_pos=False) == pytest.approx(0.1 / 4)


def test_quirk_ferret_aopc_no_bins():
    f = LinearScorer()
    assert ferret_aopc_compr(f, TOKENS, [-1.0, 0.0, -0.5, -0.2]) == 0.0
    assert ferret_aopc_suff(f, TOKENS, [-1.0, 0.0, -0.5, -0.2]) == 1.0
    assert f.calls == []  # nothing to score
    # one token and 10 % thresholds: int(0.1 * 1) = 0 ... only t = 1.0 gives k = 1
    assert ferret_aopc_compr(LinearScorer(), ["great"], [1.0]) == pytest.approx(0.4)


def test_taucorr_loo_hand_value():
    f = LinearScorer()
    # loo = (0, .1, 0, .4) vs scores (0, .2, .1, .9): 5 concordant pairs, 1 tie in loo -> 5 / sqrt(5 * 6)
    assert taucorr_loo(f, TOKENS, SCORES) == pytest.approx(5 / math.sqrt(30))
    assert f.calls[0][1:] == ["movie was great", "the was great", "the movie great", "the movie was"]


def test_quirk_taucorr_constant_is_nan():
    assert math.isnan(taucorr_loo(LinearScorer(), TOKENS, [0.5, 0.5, 0.5, 0.5]))
    assert math.isnan(taucorr_loo(LinearScorer(), ["great"], [1.0]))


def test_trustai_suff_comp():
    full = [[0.9, 0.1], [0.2, 0.8]]
    rat = [[0.7, 0.3], [0.4, 0.6]]
    non = [[0.5, 0.5], [0.9, 0.1]]
    # label 0 then 1: (0.9 - 0.7 + 0.8 - 0.6)/2 ; (0.9 - 0.5 + 0.8 - 0.1)/2
    assert trustai_sufficiency(full, rat, [0, 1]) == pytest.approx(0.2)
    assert trustai_comprehensiveness(full, non, ["0", 1.0]) == pytest.approx(0.55)


def test_quirk_newp_divides_by_gold_count():
    assert newp([1, 0, 1], [1, 0, 0], [0, 0, 0]) == pytest.approx(1 / 3)
    assert newp([1, 0, 1], [1, 0, 0], [0, 0, 0], n_golden=4) == pytest.approx(1 / 4)


def test_bad_input():
    f = LinearScorer()
    with pytest.raises(ValueError, match="tokens and scores differ in length"):
        aopc_comprehensiveness(f, TOKENS, [0.1])
    with pytest.raises(ValueError, match="scores: value at position 1 is nan"):
        ferret_aopc_compr(f, TOKENS, [0.1, float("nan"), 0.1, 0.1])
    with pytest.raises(ValueError, match="tokens: is empty"):
        taucorr_loo(f, [], [])
    with pytest.raises(ValueError, match="tokens: expected a list of tokens"):
        comprehensiveness(f, "the movie", [1, 0])
    with pytest.raises(ValueError, match="rationale: value at position 0 is 0.5"):
        sufficiency(f, TOKENS, [0.5, 0, 0, 1])
    with pytest.raises(ValueError, match="score_fn: returned 1 values for 2 texts"):
        comprehensiveness(lambda texts: [0.5], TOKENS, [0, 0, 0, 1])
    with pytest.raises(ValueError, match="score_fn: returned a non-finite value"):
        comprehensiveness(lambda texts: [0.5, float("nan")], TOKENS, [0, 0, 0, 1])
    with pytest.raises(ValueError, match="bins: every bin must be a fraction"):
        aopc_sufficiency(f, TOKENS, SCORES, bins=[0.5, 2.0])
    with pytest.raises(ValueError, match="pred_proba and rationale_pred_proba differ in shape"):
        trustai_sufficiency([[0.5, 0.5]], [[0.5, 0.5], [0.1, 0.9]], [0])
    with pytest.raises(ValueError, match="pred_label: every label must be an integer class index in 0..1"):
        trustai_comprehensiveness([[0.5, 0.5]], [[0.5, 0.5]], [2])
    with pytest.raises(ValueError, match="pred_proba: expected a non-empty 2-D array"):
        trustai_sufficiency([], [], [])
    with pytest.raises(ValueError, match="pred_label and rationale_pred differ in length"):
        newp([1, 0], [1], [0, 0])
    with pytest.raises(ValueError, match="n_golden: must be an integer >= the number of predictions"):
        newp([1, 0], [1, 0], [0, 0], n_golden=1)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False, allow_subnormal=False), min_size=4, max_size=4),
       st.sampled_from([0.5, 2.0, 8.0]))
def test_aopc_invariant_to_positive_scaling(scores, c):
    scaled = [c * s for s in scores]
    for fn in (ferret_aopc_compr, ferret_aopc_suff, aopc_comprehensiveness, aopc_sufficiency):
        assert fn(LinearScorer(), TOKENS, scaled) == pytest.approx(fn(LinearScorer(), TOKENS, scores))
    for fn in (ferret_aopc_compr, ferret_aopc_suff):
        assert -1.0 <= fn(LinearScorer(), TOKENS, scores) <= 1.0


def test_registered():
    for name in ("eraser_comprehensiveness", "eraser_sufficiency", "eraser_aopc_comprehensiveness",
                 "eraser_aopc_sufficiency", "ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo",
                 "trustai_sufficiency", "trustai_comprehensiveness", "paddlenlp_newp"):
        assert get(name).info.family == "faithfulness"
    assert get("ferret_aopc_suff").info.higher_is_better is False


def _indexed(texts: list[str]) -> np.ndarray:
    """p = Σ over the tokens "t<i>" present of i / 100; a mask token "[M]" adds 0.01."""
    return np.array([sum(0.01 if w == "[M]" else int(w[1:]) / 100 for w in t.split()) for t in texts])


def test_deyoung_aopc_removes_tied_tokens_in_position_order_and_takes_the_100_percent_bin():
    # t0..t9 with scores 0, 1, 0, 1, …: five tokens tie at 1. p0 = 45/100. Bin 0.3 removes int(3.0) = 3 tokens:
    # the first three of the tie, t1, t3, t5 → 0.36; bin 1.0 removes all ten → 0. AOPC = (0.09 + 0.45) / 2.
    tokens, scores = [f"t{i}" for i in range(10)], [i % 2 for i in range(10)]
    assert aopc_comprehensiveness(_indexed, tokens, scores, bins=(0.3, 1.0)) == pytest.approx(0.27)
    # the full text given apart ("t9 t9" = 0.18) is the reference: 0.18 − 0.36
    assert aopc_comprehensiveness(_indexed, tokens, scores, bins=(0.3,), full_text="t9 t9") == pytest.approx(-0.18)
    # masked instead of deleted: three "[M]" add 0.03 → 0.45 − 0.39
    assert aopc_comprehensiveness(_indexed, tokens, scores, bins=(0.3,), mask_token="[M]") == pytest.approx(0.06)


def test_ferret_aopc_by_hand_with_full_text_and_mask_token():
    # t0..t9, scores 0, 1, 0, 1, …; thresholds 10 … 100 %: top-v positive tokens, later index first among ties:
    # {t9}, {t9, t7}, …, the five odd tokens (v = 5); from v = 6 on only zeros join, so the selection repeats and
    # is dropped. Removing them: p = 0.36, 0.29, 0.24, 0.21, 0.20 from 0.45 → mean of 0.09 … 0.25 = 0.19.
    tokens, scores = [f"t{i}" for i in range(10)], [i % 2 for i in range(10)]
    assert ferret_aopc_compr(_indexed, tokens, scores) == pytest.approx(0.19)
    assert ferret_aopc_compr(_indexed, tokens, scores, thresholds=(0.1,), full_text="t9 t9") == pytest.approx(-0.18)
    assert ferret_aopc_compr(_indexed, tokens, scores, thresholds=(0.1,), mask_token="[M]") == pytest.approx(0.08)


def test_a_score_fn_may_answer_with_a_column():
    column = LinearScorer()
    assert comprehensiveness(lambda texts: column(texts)[:, None], TOKENS, [0, 0, 0, 1]) == pytest.approx(0.4)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="^thresholds: is empty$"):
        ferret_aopc_suff(LinearScorer(), TOKENS, SCORES, thresholds=[])
    with pytest.raises(ValueError, match="^score_fn: returned a non-finite value$"):
        comprehensiveness(lambda texts: [0.5, float("nan")], TOKENS, [0, 0, 0, 1])
    with pytest.raises(ValueError, match="^tokens: expected a list of tokens, got a string$"):
        comprehensiveness(LinearScorer(), "the movie", [1, 0])
    f = LinearScorer()
    with pytest.raises(ValueError, match=r"^tokens and rationale differ in length \(4 != 1\)$"):
        comprehensiveness(f, TOKENS, [1])
    with pytest.raises(ValueError, match="^bins: is empty$"):
        aopc_comprehensiveness(f, TOKENS, SCORES, bins=[])
    with pytest.raises(ValueError, match=r"^pred_proba: expected a 2-D array of class probabilities$"):
        trustai_sufficiency([[0.5, "x"]], [[0.5, 0.5]], [0])
    with pytest.raises(ValueError, match=r"^pred_proba: expected a non-empty 2-D array \(instances × classes\), "
                                         r"got shape \(2,\)$"):
        trustai_sufficiency([0.5, 0.5], [0.5, 0.5], [0])
    with pytest.raises(ValueError, match=r"^pred_proba: expected a non-empty 2-D array \(instances × classes\), "
                                         r"got shape \(0, 2\)$"):
        trustai_sufficiency(np.zeros((0, 2)), np.zeros((0, 2)), [])
    with pytest.raises(ValueError, match="^rationale_pred_proba: contains a non-finite value$"):
        trustai_sufficiency([[0.5, 0.5]], [[0.5, float("inf")]], [0])
    with pytest.raises(ValueError, match=r"^pred_label: expected a 1-D sequence of numbers, got shape \(1, 1\)$"):
        trustai_sufficiency([[0.5, 0.5]], [[0.5, 0.5]], [[0]])
    with pytest.raises(ValueError, match=r"^pred_proba and pred_label differ in length \(1 != 2\)$"):
        trustai_sufficiency([[0.5, 0.5]], [[0.5, 0.5]], [0, 1])
    for label in (0.5, -1):  # neither a whole number nor a class index
        with pytest.raises(ValueError, match=r"^pred_label: every label must be an integer class index in 0\.\.1$"):
            trustai_comprehensiveness([[0.5, 0.5]], [[0.5, 0.5]], [label])


def test_sufficiency_and_loo_take_full_text_and_mask_token_by_hand():
    # full text "The movie was great!": the linear scorer knows only "movie" there → 0.4; keeping "great" → 0.7:
    # sufficiency 0.4 − 0.7 = −0.3 (the joined tokens would give 0.8 − 0.7 = 0.1)
    assert sufficiency(LinearScorer(), TOKENS, [0, 0, 0, 1], full_text="The movie was great!") == pytest.approx(-0.3)
    # masked, t1 t2 t3 keeping t3: "[M] [M] t3" = 0.01 + 0.01 + 0.03 against 0.06 → 0.01 (deleted: 0.06 − 0.03)
    calls = []

    def indexed(texts):
        calls.append(list(texts))
        return _indexed(texts)

    assert sufficiency(indexed, ["t1", "t2", "t3"], [0, 0, 1], mask_token="[M]") == pytest.approx(0.01)
    assert calls[-1] == ["t1 t2 t3", "[M] [M] t3"]
    # leave-one-out: loo = (0.01, 0.02, 0.03) against scores (0.1, 0.3, 0.2): pairs (1,2) C, (1,3) C, (2,3) D →
    # tau (2 − 1) / 3 = 1/3, with each token masked in place and the full text given apart scored first
    assert taucorr_loo(indexed, ["t1", "t2", "t3"], [0.1, 0.3, 0.2], full_text="t1  t2 t3",
                       mask_token="[M]") == pytest.approx(1 / 3)
    assert calls[-1] == ["t1  t2 t3", "[M] t2 t3", "t1 [M] t3", "t1 t2 [M]"]


def test_taucorr_of_two_tokens_by_hand():
    # "movie great": p0 = 0.8, without movie 0.7, without great 0.4 → loo (0.1, 0.4) against scores (0.2, 0.9):
    # one concordant pair → tau 1; scores reversed → −1
    assert taucorr_loo(LinearScorer(), ["movie", "great"], [0.2, 0.9]) == pytest.approx(1.0)
    assert taucorr_loo(LinearScorer(), ["movie", "great"], [0.9, 0.2]) == pytest.approx(-1.0)


def test_newp_counts_only_kept_by_the_rationale_and_changed_without_it():
    # label 1 everywhere; one instance keeps it with the rationale and loses it without (counted), two lose it
    # both ways, three keep it both ways: New-P = 1/6 (2/6 or 3/6 if either condition were flipped)
    assert newp([1] * 6, [1, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1]) == pytest.approx(1 / 6)
    for n_golden in (True, 2.5):
        with pytest.raises(ValueError, match=rf"^n_golden: must be an integer >= the number of predictions \(1\), "
                                             rf"got {n_golden}$"):
            newp([1], [1], [0], n_golden=n_golden)
    with pytest.raises(ValueError, match=r"^pred_label: value at position 0 is nan \(must be finite\)$"):
        newp([float("nan")], [1], [0])
    with pytest.raises(ValueError, match=r"^rationale_pred: value at position 0 is nan \(must be finite\)$"):
        newp([1], [float("nan")], [0])
    with pytest.raises(ValueError, match=r"^no_rationale_pred: value at position 0 is nan \(must be finite\)$"):
        newp([1], [1], [float("nan")])
    with pytest.raises(ValueError, match=r"^pred_label and no_rationale_pred differ in length \(1 != 2\)$"):
        newp([1], [1], [0, 0])
    with pytest.raises(ValueError, match=r"^pred_proba and non_rationale_pred_proba differ in shape "
                                         r"\(\(1, 2\) != \(1, 3\)\)$"):
        trustai_comprehensiveness([[0.5, 0.5]], [[0.2, 0.3, 0.5]], [0])


def test_sufficiency_aopcs_take_full_text_and_mask_token_by_hand():
    # t0..t9, scores 0, 1, 0, 1, …, p0 = 0.45. DeYoung bin 0.3 keeps the first three tied tokens t1, t3, t5 (0.09);
    # ferret's 10 % keeps the top-1 positive token, the later of the tie: t9 (0.09)
    tokens, scores = [f"t{i}" for i in range(10)], [i % 2 for i in range(10)]
    for fn, kw in ((aopc_sufficiency, {"bins": (0.3,)}), (ferret_aopc_suff, {"thresholds": (0.1,)})):
        assert fn(_indexed, tokens, scores, **kw) == pytest.approx(0.36)  # 0.45 − 0.09
        assert fn(_indexed, tokens, scores, full_text="t9 t9", **kw) == pytest.approx(0.09)  # 0.18 − 0.09
    # masked: seven "[M]" add 0.07 → 0.45 − 0.16; nine add 0.09 → 0.45 − 0.18
    assert aopc_sufficiency(_indexed, tokens, scores, bins=(0.3,), mask_token="[M]") == pytest.approx(0.29)
    assert ferret_aopc_suff(_indexed, tokens, scores, thresholds=(0.1,), mask_token="[M]") == pytest.approx(0.27)


def test_a_score_fn_may_answer_with_booleans():
    # "does the model still give the label?" as True/False: read as 1/0, so removing the rationale that flips it
    # scores 1 − 0 = 1 (numpy cannot subtract two booleans: they must become numbers first)
    assert comprehensiveness(lambda texts: [True, False], TOKENS, [0, 0, 0, 1]) == 1.0
