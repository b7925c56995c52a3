"""IQS (REFERENCE §6) against values derived from the paper's formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpeval.benchmarks.iqs.marking import sign_sets
from interpeval.benchmarks.iqs.score import iqs_grid, weight_grid
from interpeval.metrics import get
from interpeval.metrics.iqs import iqs, iqs_plausibility, iqs_reproducibility, iqs_simplicity


def test_plausibility_mean_of_class_jaccards():
    human = {"pos": {"great", "fun"}, "neg": {"boring"}}
    method = {"pos": {"great"}, "neg": {"boring", "long"}}
    # pos: 1/2, neg: 1/2
    assert iqs_plausibility(human, method) == pytest.approx(0.5)


def test_plausibility_both_empty_class_agrees():
    assert iqs_plausibility({"pos": {"a"}, "neg": set()}, {"pos": {"a", "b"}, "neg": set()}) == pytest.approx(0.75)


def test_regression_sign_sets():
    sets = sign_sets(["a", "b", "c", "d"], [0.5, -0.2, 0.05, 0.0], threshold=0.1)
    assert sets == {"positive": {"a"}, "negative": {"b"}}
    human = {"positive": {"a", "c"}, "negative": {"b"}}
    assert iqs_plausibility(human, sets) == pytest.approx((1 / 2 + 1) / 2)


def test_simplicity_beta_and_log_guard():
    assert iqs_simplicity(0) == 1.0
    assert iqs_simplicity(10) == 1.0  # N - beta = 1: ln 1 = 0 -> 1, the guard's edge
    assert iqs_simplicity(11) == pytest.approx(1 / (math.log(2) + 1))
    assert iqs_simplicity(29) == pytest.approx(1 / (math.log(20) + 1))
    assert iqs_simplicity(5, beta=3) == pytest.approx(1 / (math.log(2) + 1))
    assert iqs_simplicity(np.int64(11)) == pytest.approx(1 / (math.log(2) + 1))  # numpy's integers count too


def test_reproducibility_losses():
    # log: -ln p(human label): -ln 1 = 0 -> 1 ; -ln 0.5 -> 1/(ln 2 + 1)
    assert iqs_reproducibility([0, 1], [[1.0, 0.0], [0.5, 0.5]]) == pytest.approx((1 + 1 / (math.log(2) + 1)) / 2)
    # mae on STS-B scores: |3 - 4| = 1 -> 1/2 ; |2 - 2| = 0 -> 1
    assert iqs_reproducibility([3.0, 2.0], [4.0, 2.0], loss="mae") == pytest.approx(0.75)
    # 0-1: one miss of two -> (1/2 + 1)/2
    assert iqs_reproducibility([1, 0], [1, 1], loss="zero_one") == pytest.approx(0.75)


def test_reproducibility_mae_and_zero_one_apart_by_hand():
    # the pairs above give 0.75 under mae and zero_one alike (every miss is off by exactly 1, one of two items):
    # here a miss is off by 3 or by 2, and one of three items misses
    # mae: |3 − 0| = 3 -> 1/4 ; |0.5 − 0.5| = 0 -> 1 ; mean 5/8 (zero_one would give (1/2 + 1)/2 = 3/4)
    assert iqs_reproducibility([3.0, 0.5], [0.0, 0.5], loss="mae") == pytest.approx(5 / 8)
    # zero_one: hits, a miss (2 vs 0), a hit -> (1 + 1/2 + 1)/3 = 5/6 (mae: (1 + 1/3 + 1)/3 = 7/9; counting the
    # hits as the losses instead: (1/2 + 1 + 1/2)/3 = 2/3)
    assert iqs_reproducibility([0, 2, 1], [0, 0, 1], loss="zero_one") == pytest.approx(5 / 6)


def test_reproducibility_log_needs_rows_that_sum_to_one():
    # a row off by 1e-3 (a truncated third class) is named; a float32 softmax row (off by ~1e-7) is accepted
    with pytest.raises(ValueError, match=r"^y_model: row 1 sums to 0\.999, not 1 "):
        iqs_reproducibility([0, 1], [[0.5, 0.5], [0.599, 0.4]])
    with pytest.raises(ValueError, match=r"^y_model: row 0 sums to 1\.2, not 1 "):
        iqs_reproducibility([0], [[0.6, 0.6]])
    logits = np.array([0.3, -1.7, 2.9, 0.1, -0.4, 1.3, 0.7], dtype=np.float32)
    row = (np.exp(logits) / np.exp(logits).sum()).tolist()  # float32 values, read as float64
    assert 0 < abs(sum(row) - 1.0) < 1e-6
    assert iqs_reproducibility([2], [row]) == pytest.approx(1 / (1 - math.log(row[2])))


def test_reproducibility_log_clips_zero_probability():
    value = iqs_reproducibility([1], [[1.0, 0.0]])
    assert 0.0 < value < 0.03  # -ln(eps) ≈ 36.04 -> 1/37.04


def test_iqs_weighted_sum_and_validation():
    assert iqs(0.3, 0.6, 0.9) == pytest.approx(0.6)
    assert iqs(0.3, 0.6, 0.9, weights=(1.0, 0.0, 0.0)) == pytest.approx(0.3)
    assert iqs(0.3, 0.6, 0.9, weights=(0.5, 0.25, 0.25)) == pytest.approx(0.15 + 0.15 + 0.225)
    with pytest.raises(ValueError, match="weights: must sum to 1"):
        iqs(0.3, 0.6, 0.9, weights=(0.5, 0.5, 0.5))
    with pytest.raises(ValueError, match=r"weights\[0\]: must be in \[0, 1\]"):
        iqs(0.3, 0.6, 0.9, weights=(1.5, -0.5, 0.0))
    with pytest.raises(ValueError, match="weights: expected three weights"):
        iqs(0.3, 0.6, 0.9, weights=(0.5, 0.5))
    with pytest.raises(ValueError, match="plausibility: must be in"):
        iqs(1.3, 0.6, 0.9)


def test_weight_grid_has_66_triples():
    grid = weight_grid()
    assert len(grid) == 66 and len(set(grid)) == 66
    assert all(abs(sum(w) - 1) < 1e-12 and min(w) >= 0 for w in grid)


def test_grid_mean_and_std_closed_form():
    # every a_i averages 1/3 over the grid -> mean = (p + s + r)/3
    assert iqs_grid(0.2, 0.5, 0.8)["mean"] == pytest.approx(0.5)
    # p = 1, s = r = 0: IQS = a1, which takes i/10 in 11 - i triples: E[a1] = 1/3, E[a1^2] = 11/60 -> var 13/180
    out = iqs_grid(1.0, 0.0, 0.0)
    assert out["n"] == 66
    assert out["std"] == pytest.approx(math.sqrt(13 / 180))
    assert iqs_grid(0.4, 0.4, 0.4)["std"] == pytest.approx(0.0, abs=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match="method: must be a mapping with the same classes"):
        iqs_plausibility({"pos": {"a"}}, {"neg": {"a"}})
    with pytest.raises(ValueError, match="human: expected a non-empty mapping"):
        iqs_plausibility({}, {})
    with pytest.raises(ValueError, match="n_chunks: must be an integer"):
        iqs_simplicity(-1)
    with pytest.raises(ValueError, match="y_model: expected shape"):
        iqs_reproducibility([0, 1], [[0.5, 0.5]])
    with pytest.raises(ValueError, match="y_human: labels must be class indices"):
        iqs_reproducibility([2], [[0.5, 0.5]])
    with pytest.raises(ValueError, match="y_human and y_model differ in length"):
        iqs_reproducibility([1.0], [1.0, 2.0], loss="mae")
    with pytest.raises(ValueError, match="loss: must be"):
        iqs_reproducibility([1.0], [1.0], loss="mse")
    with pytest.raises(ValueError, match="y_human: is empty"):
        iqs_reproducibility([], [], loss="mae")
    with pytest.raises(ValueError, match="words and scores differ in length"):
        sign_sets(["a"], [0.1, 0.2])


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.integers(0, 200))
def test_ranges(p, s, r, n):
    assert 0.0 <= iqs(p, s, r) <= 1.0 + 1e-12
    assert 0.0 < iqs_simplicity(n) <= 1.0
    g = iqs_grid(p, s, r, steps=4)
    assert min(p, s, r) - 1e-12 <= g["mean"] <= max(p, s, r) + 1e-12


def test_simplicity_decreases_with_chunks():
    values = [iqs_simplicity(n) for n in range(0, 100)]
    assert all(a >= b for a, b in zip(values[:-1], values[1:], strict=True))


def test_registered():
    for name in ("iqs", "iqs_plausibility", "iqs_simplicity", "iqs_reproducibility"):
        assert get(name).info.family == "quality"


def test_sign_sets_by_hand():
    # threshold 0.1: 0.5 > 0.1 positive; 0.1 is not > 0.1; −0.25 < −0.1 negative; −0.1 is not < −0.1
    assert sign_sets(["good", "fine", "bad", "meh"], [0.5, 0.1, -0.25, -0.1], threshold=0.1) == {
        "positive": {"good"}, "negative": {"bad"}}
    # the default threshold 0: a zero score is in neither set
    assert sign_sets(["a", "b", "c"], [1.0, -1.0, 0.0]) == {"positive": {"a"}, "negative": {"b"}}
    assert sign_sets([], []) == {"positive": set(), "negative": set()}


@pytest.mark.parametrize(("call", "message"), [
    (lambda: sign_sets("ab", [1.0, 2.0]), r"^words: expected a list of words, got a string$"),
    (lambda: sign_sets(["a"], [1.0], threshold=-1), r"^threshold: must be >= 0, got -1$"),
    (lambda: sign_sets(["a"], [[1.0]]), r"^scores"),
    (lambda: iqs("x", 0.5, 0.5), r"^plausibility: must be a number in \[0, 1\], got 'x'$"),
    (lambda: weight_grid(0), r"^steps: must be an integer >= 1, got 0$"),
    (lambda: weight_grid(True), r"^steps: must be an integer >= 1, got True$"),
    (lambda: iqs_plausibility({}, {}), r"^human: expected a non-empty mapping class -> marked words$"),
    (lambda: iqs_simplicity(True), r"^n_chunks: must be an integer >= 0, got True$"),
    (lambda: iqs_simplicity(10.5), r"^n_chunks: must be an integer >= 0, got 10\.5$"),
    (lambda: iqs_reproducibility([0], [["a", "b"]]), r"^y_model: expected class probabilities \(samples × classes\)$"),
    # each bound on its own: above 1 only, below 0 only, not a number
    (lambda: iqs_reproducibility([0], [[1.5, 0.5]]), r"^y_model: probabilities must lie in \[0, 1\]$"),
    (lambda: iqs_reproducibility([0], [[-0.5, 0.5]]), r"^y_model: probabilities must lie in \[0, 1\]$"),
    (lambda: iqs_reproducibility([0], [[math.nan, 0.5]]), r"^y_model: probabilities must lie in \[0, 1\]$"),
    # a fractional label alone, a negative label alone; the range names the last class (two classes: 1, three: 2)
    (lambda: iqs_reproducibility([0.5], [[0.5, 0.5]]), r"^y_human: labels must be class indices in 0\.\.1$"),
    (lambda: iqs_reproducibility([-1], [[0.5, 0.5]]), r"^y_human: labels must be class indices in 0\.\.1$"),
    (lambda: iqs_reproducibility([3], [[0.2, 0.3, 0.5]]), r"^y_human: labels must be class indices in 0\.\.2$"),
    (lambda: iqs_reproducibility([1.0], [math.nan], loss="mae"),
     r"^y_model: value at position 0 is nan \(must be finite\)$"),
    (lambda: iqs(0.5, 1.5, 0.5), r"^simplicity: must be in \[0, 1\], got 1\.5$"),
    (lambda: iqs(0.5, 0.5, -0.25), r"^reproducibility: must be in \[0, 1\], got -0\.25$"),
    (lambda: iqs(0.5, 0.5, 0.5, weights=()), r"^weights: is empty$"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_coarsest_weight_grid_is_the_three_corners():
    # steps = 1: a_i in {0, 1} summing to 1, in the order i (a1) then j (a2)
    assert weight_grid(1) == [(0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0)]
