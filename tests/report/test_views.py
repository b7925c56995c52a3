"""Pure pieces of the shared views: colours, highlights, CSV and findings from hand-made tables."""

import csv
import io
import math

import pytest

from interpeval.report import views
from interpeval.report.static import headline_findings


def test_heat_tokens_are_signed_and_scaled_to_the_largest_magnitude():
    tokens = views.heat_tokens(["[CLS]", "good", "##ish", "bad", "[SEP]"], [9.0, 0.5, 0.25, -1.0, 9.0], [-1, 0, 0, 0, -1])
    assert [t["text"] for t in tokens] == ["good", "ish", "bad"]  # special tokens hidden, "##" joined
    assert [t["joined"] for t in tokens] == [False, True, False]
    assert tokens[0]["style"] == "background-color: rgba(0,150,60,0.500)"
    assert tokens[1]["style"] == "background-color: rgba(0,150,60,0.250)"
    assert tokens[2]["style"] == "background-color: rgba(210,30,30,1.000)"
    assert views.heat_tokens(["a"], [float("nan")])[0]["style"].endswith("0.000)")


def test_highlight_splits_text_by_overlapping_spans():
    pieces = views.highlight("abcdefgh", [(1, 5, "gold"), (3, 7, "pred"), (6, 99, "bad")])
    assert pieces == [{"text": "a", "cls": ""}, {"text": "bc", "cls": "gold"}, {"text": "de", "cls": "gold pred"},
                      {"text": "fg", "cls": "pred"}, {"text": "h", "cls": ""}]


def test_mean_ci_skips_missing_values():
    stats = views.mean_ci([1.0, None, float("nan"), 3.0])
    assert stats["value"] == 2.0 and stats["n"] == 2 and stats["low"] <= 2.0 <= stats["high"]
    assert views.mean_ci([])["n"] == 0 and math.isnan(views.mean_ci([])["value"])


def _cell(value, low=math.nan, high=math.nan, n=None):
    return {"value": value, "low": low, "high": high, "n": n}


QUACKIE = {"benchmark": "quackie", "title": "QUACKIE", "key_columns": ["dataset", "classifier", "method"],
           "stats": ["IoU", "HPD", "SNR"], "rows": [
               {"dataset": "SQuAD", "classifier": "QA", "method": "Random", "IoU": _cell(20.0, 10.0, 30.0, 40),
                "HPD": _cell(50.0, n=40), "SNR": _cell(10.0, n=40)},
               {"dataset": "SQuAD", "classifier": "QA", "method": "Gradient_sum", "IoU": _cell(45.0, 30.0, 60.0, 40),
                "HPD": _cell(70.0, n=40), "SNR": _cell(30.0, n=40)}]}


def test_leaderboard_csv_has_value_interval_and_n_per_statistic():
    rows = list(csv.DictReader(io.StringIO(views.leaderboard_csv(QUACKIE))))
    assert rows[1]["method"] == "Gradient_sum" and rows[1]["IoU"] == "45" and rows[1]["IoU_low"] == "30"
    assert rows[1]["IoU_n"] == "40" and rows[0]["HPD_low"] == ""


def test_headline_names_the_best_method_against_random():
    (lines,) = headline_findings([QUACKIE]).values()
    assert lines == ["SQuAD / QA: best IoU 45.0 [30.0, 60.0] by Gradient_sum vs random 20.0 [10.0, 30.0] (n=40)."]


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_jsonable_replaces_non_finite_numbers(value):
    assert views.jsonable({"a": [1.0, value], "b": (value,)}) == {"a": [1.0, None], "b": [None]}


def _quackie_row(method, iou, n):
    return {"dataset": "SQuAD", "classifier": "QA", "method": method, "IoU": _cell(iou, iou - 5, iou + 5, n),
            "HPD": _cell(50.0, n=n), "SNR": _cell(10.0, n=n)}


def test_headline_ranks_only_rows_measured_on_the_same_n():
    """LIME on 3 questions scores highest, but it is not "best" next to methods measured on 20."""
    table = {**QUACKIE, "rows": [_quackie_row("Random", 20.0, 20), _quackie_row("Gradient_sum", 45.0, 20),
                                 _quackie_row("SmoothGrad_sum", 40.0, 20), _quackie_row("LIME_100_sum", 90.0, 3),
                                 _quackie_row("SHAP_100_sum", 60.0, 3)]}
    (lines,) = headline_findings([table]).values()
    assert lines == [
        "SQuAD / QA: best IoU 45.0 [40.0, 50.0] by Gradient_sum vs random 20.0 [15.0, 25.0] among 2 methods (n=20).",
        "SQuAD / QA: best IoU 90.0 [85.0, 95.0] by LIME_100_sum among 2 methods (n=3)."]


def test_headline_never_calls_an_upper_bound_or_human_the_best_system():
    def row(system, model, value, n=100):
        return {"subset": "squad", "system": system, "model": model, "ANS": _cell(value, n=n),
                "EVI": _cell(value, n=n), "ALL": _cell(value, value - 1, value + 1, n)}

    table = {"benchmark": "expmrc", "title": "ExpMRC", "key_columns": ["subset", "system", "model"],
             "stats": ["ANS", "EVI", "ALL"],
             "rows": [row("MSS", "minilm-squad", 40.0), row("MSS w/ Ques.", "minilm-squad", 45.0),
                      row("GE Sent. (gold answer; upper bound)", "gold", 80.0),
                      row("Human (cross-validation over references)", "gold", 90.0, n=50)]}
    (lines,) = headline_findings([table]).values()
    assert lines[0].startswith("squad: best overall F1 45.0 [44.0, 46.0] by MSS w/ Ques.")
    assert lines[1].startswith("squad references (not systems): GE Sent.") and "Human" in lines[1]
    assert len(lines) == 2
