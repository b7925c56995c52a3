"""QUACKIE localisation metrics against hand-derived values and the closed forms of REFERENCE §1.4."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpeval.benchmarks.quackie.score import aggregate_quackie, binarize_top_k, quackie_scores
from interpeval.metrics import get
from interpeval.metrics.localisation import hpd, hpd_continuous, iou, snr, snr_continuous

# --- binarisation ---------------------------------------------------------------------------------------


def test_top1_selects_the_maximum():
    assert binarize_top_k([0.1, 0.7, 0.3]).tolist() == [False, True, False]


def test_quirk_ties_with_the_kth_are_all_selected():
    # k=1 but two sentences share the top score: both are selected
    assert binarize_top_k([0.5, 0.2, 0.5, 0.1]).tolist() == [True, False, True, False]
    # k=2: the 2nd largest is 0.3, shared by two sentences -> three selected
    assert binarize_top_k([0.9, 0.3, 0.3, 0.1], k=2).tolist() == [True, True, True, False]


def test_len_le_k_selects_all():
    assert binarize_top_k([0.1, 0.2], k=2).tolist() == [True, True]
    assert binarize_top_k([-3.0], k=1).tolist() == [True]


@pytest.mark.parametrize("bad, match", [([], "scores: is empty"), ([0.1, float("nan")], "scores: value at position 1"),
                                         ([[0.1, 0.2]], "scores: expected a 1-D")])
def test_binarize_rejects_bad_scores(bad, match):
    with pytest.raises(ValueError, match=match):
        binarize_top_k(bad)


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_binarize_rejects_bad_k(k):
    with pytest.raises(ValueError, match="k: must be an integer"):
        binarize_top_k([0.1, 0.2, 0.3], k=k)


# --- closed forms (binary, one GT, k=1) -------------------------------------------------------------------


def test_closed_form_gt_selected_alone():
    gt, pred = [0, 1, 0, 0], [0, 1, 0, 0]
    assert iou(gt, pred) == 1.0
    assert hpd(gt, pred) == 1.0
    assert math.isnan(snr(gt, pred))  # no noise: std of the others is 0


@pytest.mark.parametrize("n, q", [(5, 1), (5, 2), (7, 3), (4, 2)])
def test_closed_form_gt_selected_with_ties(n, q):
    # GT plus q of the other N-1 sentences selected: m = q/(N-1)
    gt = [1] + [0] * (n - 1)
    pred = [1] + [1] * q + [0] * (n - 1 - q)
    m = q / (n - 1)
    assert iou(gt, pred) == pytest.approx(1 / (1 + m * (n - 1)))
    assert hpd(gt, pred) == pytest.approx(1 / (1 + m * (n - 1)))
    assert snr(gt, pred) == pytest.approx((1 - m) / m)


@pytest.mark.parametrize("n, q", [(5, 1), (6, 2), (3, 1), (10, 4)])
def test_closed_form_gt_missed(n, q):
    gt = [1] + [0] * (n - 1)
    pred = [0] + [1] * q + [0] * (n - 1 - q)
    m = q / (n - 1)
    assert iou(gt, pred) == 0.0
    assert hpd(gt, pred) == pytest.approx(1 / n)
    assert snr(gt, pred) == pytest.approx(m / (1 - m))


def test_closed_form_miss_with_q1_is_one_over_n_minus_2():
    for n in (3, 4, 8):
        gt, pred = [1] + [0] * (n - 1), [0, 1] + [0] * (n - 2)
        assert snr(gt, pred) == pytest.approx(1 / (n - 2))


def test_miss_with_two_sentences_has_nan_snr():
    assert math.isnan(snr([1, 0], [0, 1]))


def test_single_sentence_context():
    # one sentence: top-1 selects it, IoU = HPD = 1, SNR NaN (no non-GT sentence)
    res = quackie_scores([0.3], [[1]])
    assert res["iou"] == 1.0 and res["hpd"] == 1.0 and math.isnan(res["snr"])


def test_quirk_snr_is_squared_ratio_with_population_std():
    # continuous: GT score 4, others 0, 2 -> s = 4 - 1 = 3, population std of [0, 2] = 1 -> 9 (not 3, not dB,
    # not 4.5 which the sample std would give)
    assert snr_continuous([1, 0, 0], [4.0, 0.0, 2.0]) == pytest.approx(9.0)
    # a GT below the others: s = -3 gives the same value (sign lost)
    assert snr_continuous([1, 0, 0], [-2.0, 0.0, 2.0]) == pytest.approx(9.0)


def test_quirk_metrics_on_binarised_not_raw_scores():
    scores, gt = [0.9, 0.8, 0.1, 0.0], [0, 1, 0, 0]
    # binarised top-1 selects sentence 0 only: HPD thresholds at 0 -> everything detected -> 1/4
    assert quackie_scores(scores, [gt])["hpd"] == pytest.approx(0.25)
    # raw scores: threshold 0.8 detects sentences 0 and 1 -> 1/2
    assert quackie_scores(scores, [gt], continuous=True)["hpd"] == pytest.approx(0.5)
    assert hpd_continuous(gt, scores) == pytest.approx(0.5)
    # SNR binarised: a miss with m = 1/3 -> m/(1-m) = 0.5 ; raw: s = 0.8 - 1/3, noise std of [0.9, 0.1, 0]
    assert quackie_scores(scores, [gt])["snr"] == pytest.approx(0.5)
    noise = np.array([0.9, 0.1, 0.0])
    assert quackie_scores(scores, [gt], continuous=True)["snr"] == pytest.approx((0.8 - noise.mean()) ** 2 / noise.var())


def test_hpd_continuous_counts_ties_with_the_gt_score():
    assert hpd_continuous([0, 1, 0], [0.5, 0.5, 0.1]) == pytest.approx(0.5)


def test_zero_noise_std_gives_nan_continuous():
    assert math.isnan(snr_continuous([1, 0, 0], [3.0, 1.0, 1.0]))


# --- several GTs, fails ------------------------------------------------------------------------------------


def test_best_iou_gt_is_used():
    # GT A = sentence 0, GT B = sentence 2; top-1 picks sentence 2 -> B is used: IoU 1
    res = quackie_scores([0.1, 0.2, 0.9], [[1, 0, 0], [0, 0, 1]])
    assert res["iou"] == 1.0 and res["hpd"] == 1.0


def test_first_gt_wins_on_ties():
    # both GTs miss the selection (IoU 0 each): the first one (sentence 0) is used.
    # pred selects sentence 3 of 4. With GT sentence 0, HPD = 1/4; duplicate GTs behave the same.
    res = quackie_scores([0.0, 0.1, 0.2, 0.9], [[1, 0, 0, 0], [0, 1, 0, 0]])
    assert res["iou"] == 0.0 and res["hpd"] == pytest.approx(0.25)
    # with a two-sentence GT listed first the first-wins rule is visible in HPD:
    # GT0 = {0, 1} -> IoU 0, HPD thresholds at 0 -> |{0,1}|/4 = 0.5; GT1 = {1} -> IoU 0, HPD 0.25
    res = quackie_scores([0.0, 0.1, 0.2, 0.9], [[1, 1, 0, 0], [0, 1, 0, 0]])
    assert res["hpd"] == pytest.approx(0.5)


def test_single_gt_vector_is_accepted():
    assert quackie_scores([0.1, 0.9], [0, 1])["iou"] == 1.0


def test_length_mismatch_is_a_fail_not_an_error():
    res = quackie_scores([0.1, 0.2], [[1, 0, 0]])
    assert all(math.isnan(v) for v in res.values())
    res = quackie_scores([], [[1, 0, 0]])
    assert all(math.isnan(v) for v in res.values())


def test_quackie_scores_bad_input():
    with pytest.raises(ValueError, match="gts: is empty"):
        quackie_scores([0.1], [])
    with pytest.raises(ValueError, match=r"gts\[1\]: value at position 0 is 2"):
        quackie_scores([0.1, 0.2], [[1, 0], [2, 0]])
    with pytest.raises(ValueError, match=r"gts\[0\]: marks no sentence"):
        quackie_scores([0.1, 0.2], [[0, 0]])
    with pytest.raises(ValueError, match="gts: the GT vectors differ in length"):
        quackie_scores([0.1, 0.2], [[1, 0], [1, 0, 0]])
    with pytest.raises(ValueError, match="scores: value at position 0 is nan"):
        quackie_scores([float("nan"), 0.2], [[1, 0]])


@pytest.mark.parametrize("fn", [iou, hpd, snr])
def test_per_metric_bad_input(fn):
    with pytest.raises(ValueError, match="gt and pred_binary differ in length"):
        fn([1, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="pred_binary: value at position 1 is 0.5"):
        fn([1, 0], [1, 0.5])
    with pytest.raises(ValueError, match="gt: marks no sentence"):
        fn([0, 0], [1, 0])
    with pytest.raises(ValueError, match="gt: is empty"):
        fn([], [])


# --- aggregation -------------------------------------------------------------------------------------------


def test_aggregate_nanmean_nanstd_and_counts():
    nan = float("nan")
    rows = [{"iou": 1.0, "hpd": 1.0, "snr": nan}, {"iou": 0.0, "hpd": 0.25, "snr": 0.5},
            {"iou": nan, "hpd": nan, "snr": nan}]
    out = aggregate_quackie(rows)
    assert out["mean_iou"] == pytest.approx(0.5) and out["std_iou"] == pytest.approx(0.5)
    assert out["mean_hpd"] == pytest.approx(0.625) and out["std_hpd"] == pytest.approx(0.375)
    assert out["mean_snr"] == pytest.approx(0.5) and out["std_snr"] == 0.0
    assert out["fails"] == 1 and out["no_snr"] == 2 and out["n"] == 3


def test_aggregate_all_nan_column_is_nan():
    out = aggregate_quackie([{"iou": 1.0, "hpd": 1.0, "snr": float("nan")}])
    assert math.isnan(out["mean_snr"]) and out["no_snr"] == 1


def test_aggregate_bad_input():
    with pytest.raises(ValueError, match="per_sample: is empty"):
        aggregate_quackie([])
    with pytest.raises(ValueError, match=r"per_sample\[0\]: missing key 'snr'"):
        aggregate_quackie([{"iou": 1.0, "hpd": 1.0}])
    with pytest.raises(ValueError, match=r"per_sample\[0\]\['iou'\]: 'x' is not a number"):
        aggregate_quackie([{"iou": "x", "hpd": 1.0, "snr": 1.0}])


def test_random_baseline_expectation():
    # the leaderboard's Random baseline: a random permutation ranks the GT first with probability 1/N.
    # Averaged over all N rotations of one permutation the mean IoU is exactly 1/N.
    n = 5
    rows = [quackie_scores(np.roll(np.arange(n, dtype=float), r), [[1] + [0] * (n - 1)]) for r in range(n)]
    assert aggregate_quackie(rows)["mean_iou"] == pytest.approx(1 / n)
    # mean HPD = 1/N * 1 + (1 - 1/N) * 1/N
    assert aggregate_quackie(rows)["mean_hpd"] == pytest.approx(1 / n + (1 - 1 / n) / n)
    # mean SNR over misses = 1/(N-2)
    assert aggregate_quackie(rows)["mean_snr"] == pytest.approx(1 / (n - 2))


# --- properties -------------------------------------------------------------------------------------------

_scores = st.lists(st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False), min_size=2, max_size=12)


@settings(max_examples=60, deadline=None)
@given(_scores, st.data())
def test_properties_ranges_and_scale_invariance(scores, data):
    n = len(scores)
    gt_pos = data.draw(st.integers(0, n - 1))
    gt = [int(i == gt_pos) for i in range(n)]
    k = data.draw(st.integers(1, n))
    res = quackie_scores(scores, [gt], k=k)
    assert 0.0 <= res["iou"] <= 1.0 and 0.0 < res["hpd"] <= 1.0
    assert math.isnan(res["snr"]) or res["snr"] >= 0.0
    scaled = quackie_scores([2.0 * s for s in scores], [gt], k=k)
    assert scaled["iou"] == res["iou"] and scaled["hpd"] == res["hpd"]
    c = snr_continuous(gt, scores)
    c2 = snr_continuous(gt, [2.0 * s for s in scores])
    assert (math.isnan(c) and math.isnan(c2)) or c2 == pytest.approx(c, rel=1e-9, abs=1e-12)
    assert hpd_continuous(gt, scores) == hpd_continuous(gt, [2.0 * s for s in scores])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=10), st.data())
def test_iou_is_symmetric(a, data):
    b = data.draw(st.lists(st.booleans(), min_size=len(a), max_size=len(a)))
    if any(a) and any(b):
        assert iou(a, b) == iou(b, a)


def test_registered():
    for name in ("quackie_iou", "quackie_hpd", "quackie_snr", "quackie_hpd_continuous", "quackie_snr_continuous"):
        assert get(name).info.family == "localisation"
    assert get("quackie_snr").info.value_range == (0.0, float("inf"))


def test_quackie_scores_with_k_2_by_hand():
    # scores [.9, .1, .8], gold sentence 3: the top 2 are sentences 1 and 3 → pred [1, 0, 1]
    # IoU = |{3}| / |{1, 3}| = 1/2; HPD on pred: detected = pred ≥ pred[gold] = 1 → {1, 3}, 1 gold of 2 = 1/2;
    # SNR on pred: noise = [1, 0] (sentences 1, 2): std 0.5, signal 1 − 0.5 = 0.5 → 0.25 / 0.25 = 1
    # (with k = 1 only sentence 1 is picked: IoU 0)
    assert quackie_scores([0.9, 0.1, 0.8], [0, 0, 1], k=2) == {"iou": 0.5, "hpd": 0.5, "snr": 1.0}


def test_a_wrong_length_is_three_nans_under_their_names():
    out = quackie_scores([0.5, 0.5], [[1, 0, 0]])
    assert set(out) == {"iou", "hpd", "snr"} and all(math.isnan(v) for v in out.values())


def test_aggregate_names_a_row_that_is_not_a_dict():
    with pytest.raises(ValueError, match=r"^per_sample\[1\]: expected a dict with iou, hpd, snr, got list$"):
        aggregate_quackie([{"iou": 1.0, "hpd": 1.0, "snr": 1.0}, [1.0, 1.0, 1.0]])


@pytest.mark.parametrize("fn", [hpd_continuous, snr_continuous])
def test_continuous_metrics_name_their_arguments(fn):
    with pytest.raises(ValueError, match=r"^gt: marks no sentence \(a ground truth needs at least one 1\)$"):
        fn([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"^scores: value at position 1 is nan \(must be finite\)$"):
        fn([1, 0], [0.1, float("nan")])
    with pytest.raises(ValueError, match=r"^gt and scores differ in length \(2 != 3\)$"):
        fn([1, 0], [0.1, 0.2, 0.3])


def test_snr_without_noise_is_nan_without_a_numpy_warning():
    # every sentence is GT: no noise sentence, so SNR is undefined (NaN) — decided before any mean of an empty
    # slice is taken; one noise sentence has std 0: NaN too
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(snr([1, 1], [1, 0])) and math.isnan(snr_continuous([1, 1], [0.3, 0.1]))
        assert math.isnan(snr_continuous([1, 0], [0.3, 0.1]))
