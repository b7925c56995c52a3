"""Probing metrics (REFERENCE §3.2), selectivity and masked-word top-k accuracy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpeval.metrics import get
from interpeval.metrics.prediction import normalise_word, topk_accuracy
from interpeval.metrics.probing import accuracy, selectivity, weighted_f1


def test_accuracy():
    assert accuracy(["a", "b", "a", "c"], ["a", "a", "a", "c"]) == pytest.approx(0.75)


def test_weighted_f1_hand_value():
    # classes: a (true 3), b (true 1). pred: a, a, b, a
    # a: tp 2, fp 1 (the true b predicted a), fn 1 -> P 2/3, R 2/3, F1 2/3
    # b: tp 0, fp 1, fn 1 -> 0 ; weighted: (3 * 2/3 + 1 * 0) / 4 = 1/2
    assert weighted_f1(["a", "a", "a", "b"], ["a", "a", "b", "a"]) == pytest.approx(0.5)


def test_quirk_weighted_f1_zero_division_is_zero():
    # class b is never predicted: its precision is 0/0 -> 0 (no warning, no NaN); a: P 2/3, R 1 -> 4/5
    assert weighted_f1(["a", "a", "b"], ["a", "a", "a"]) == pytest.approx(2 / 3 * 4 / 5)


def test_selectivity():
    assert selectivity(0.9, 0.6) == pytest.approx(0.3)
    assert selectivity(0.5, 0.7) == pytest.approx(-0.2)
    with pytest.raises(ValueError, match="control_score: must be a finite number"):
        selectivity(0.5, float("nan"))


def test_probing_bad_input():
    with pytest.raises(ValueError, match="y_true and y_pred differ in length"):
        accuracy([1, 2], [1])
    with pytest.raises(ValueError, match="y_true: is empty"):
        weighted_f1([], [])
    with pytest.raises(ValueError, match="y_pred: expected a sequence of labels, got a string"):
        accuracy(["a"], "a")
    with pytest.raises(ValueError, match=r"^y_true: expected a sequence of labels, got int 5$"):
        accuracy(5, [1])


def test_topk_accuracy_with_normalisation():
    preds = [["Paris", " london"], ["new", "old"], ["大", "小"]]
    golds = ["paris ", "Old", "小"]
    assert topk_accuracy(preds, golds, k=1) == pytest.approx(1 / 3)
    assert topk_accuracy(preds, golds, k=2) == pytest.approx(1.0)
    assert topk_accuracy(preds, golds) == pytest.approx(1.0)
    assert topk_accuracy([["Paris"]], ["paris"], lowercase=False) == 0.0
    assert normalise_word("  Word\n") == "word"


def test_topk_bad_input():
    with pytest.raises(ValueError, match="predictions and targets differ in length"):
        topk_accuracy([["a"]], ["a", "b"])
    with pytest.raises(ValueError, match="k: must be an integer >= 1"):
        topk_accuracy([["a"]], ["a"], k=0)
    with pytest.raises(ValueError, match=r"targets\[0\]: expected a word"):
        topk_accuracy([["a"]], [1])
    with pytest.raises(ValueError, match=r"predictions\[0\]: expected a ranked list of words"):
        topk_accuracy(["ab"], ["a"])
    with pytest.raises(ValueError, match="predictions: is empty"):
        topk_accuracy([], [])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("abc"), min_size=1, max_size=12), st.data())
def test_metric_properties(y_true, data):
    y_pred = data.draw(st.lists(st.sampled_from("abc"), min_size=len(y_true), max_size=len(y_true)))
    assert 0.0 <= weighted_f1(y_true, y_pred) <= 1.0
    assert accuracy(y_true, y_pred) == accuracy(y_pred, y_true)
    assert weighted_f1(y_true, y_true) == 1.0
    ranked = [[p, t] for p, t in zip(y_pred, y_true, strict=True)]
    assert topk_accuracy(ranked, y_true, k=1) == pytest.approx(accuracy(y_true, y_pred))
    assert topk_accuracy(ranked, y_true, k=2) == 1.0


def test_registered():
    assert get("probing_weighted_f1").info.family == "probing"
    assert get("selectivity").info.family == "probing"
    assert get("topk_accuracy").info.family == "answer"


def test_probing_metrics_take_any_iterable_of_labels_and_name_a_2d_one():
    # a generator is read as its labels (3 of 4 equal), not as one object
    assert accuracy((c for c in "abab"), iter("abbb")) == pytest.approx(0.75)
    assert weighted_f1(iter(["a", "a"]), (c for c in "aa")) == 1.0
    with pytest.raises(ValueError, match=r"y_pred: expected a 1-D sequence of labels, got shape \(2, 1\)"):
        accuracy(["a", "b"], [["a"], ["b"]])


def test_topk_accuracy_case_and_messages_by_hand():
    # lowercase=False leaves both sides as written: gold "Paris" is not the prediction "paris" (0 hits of 1)
    assert topk_accuracy([["paris"]], ["Paris"], lowercase=False) == 0.0
    assert topk_accuracy([["paris"]], ["Paris"]) == 1.0
    with pytest.raises(ValueError, match=r"^targets: is empty"):
        topk_accuracy([["a"]], [])
    with pytest.raises(ValueError, match=r"^targets\[0\]: expected a word, got int$"):
        topk_accuracy([["a"]], [1])


def test_probing_edges_by_hand():
    # a 0-d array is one label, not a sequence: named, never numpy's "iteration over a 0-d array"
    with pytest.raises(ValueError, match=r"^y_true: expected a 1-D sequence of labels, got shape \(\)$"):
        accuracy(np.array("a"), ["a"])
    # selectivity names whichever score is bad, and a bool or a string is not a score
    # (True - 0.5 would otherwise give 0.5; "x" would reach np.isfinite and raise a TypeError)
    with pytest.raises(ValueError, match=r"^task_score: must be a finite number, got inf$"):
        selectivity(float("inf"), 0.5)
    with pytest.raises(ValueError, match=r"^task_score: must be a finite number, got True$"):
        selectivity(True, 0.5)
    with pytest.raises(ValueError, match=r"^control_score: must be a finite number, got 'x'$"):
        selectivity(0.5, "x")
    # numpy numbers are scores: 0.75 − 0 = 0.75, 1 − 0.5 = 0.5
    assert selectivity(np.float32(0.75), np.int64(0)) == 0.75 and selectivity(1, np.float64(0.5)) == 0.5
