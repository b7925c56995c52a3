"""The Baidu/TrustAI metrics on the real golden records printed in TrustAI's notebooks (vendored, see SOURCES.md)."""

from __future__ import annotations

import ast
from importlib import resources

import pytest

from interpeval.metrics.consistency import map_dataset
from interpeval.metrics.plausibility import iou_f1_trustai, macro_f1_trustai, pick_max_golden_evid
from interpeval.metrics.rationale import select_rationale


def _sections() -> dict[str, dict[str, list[dict]]]:
    """{notebook: {"data": [...], "goldens": [...]}} parsed from the printed reprs."""
    text = resources.files("interpeval").joinpath("data/metrics/trustai_notebook_samples.txt").read_text("utf-8")
    out: dict[str, dict[str, list[dict]]] = {}
    current, key = "", ""
    for line in text.splitlines():
        if line.startswith("### from "):
            current = line.split("/")[-1].split(" ")[0]
            out[current] = {}
        elif line.rstrip(":") in ("data", "goldens"):
            key = line.rstrip(":")
        elif line.startswith(" ["):
            out[current][key] = ast.literal_eval(line.strip())
    return out


@pytest.fixture(scope="module")
def records():
    return _sections()


def test_parsed_both_notebooks(records):
    assert set(records) == {"zh-pretrain-ernie-1.0-evaluation.ipynb", "zh-sentiment-analysis-evaluation.ipynb"}
    assert all(len(v["goldens"]) == 2 for v in records.values())


def test_map_on_the_ori_disturb_pair(records):
    goldens = {g["sent_id"]: g for g in records["zh-pretrain-ernie-1.0-evaluation.ipynb"]["goldens"]}
    assert goldens[0]["rel_ids"] == [100] and goldens[100]["sample_type"] == "disturb"
    # the gold rationale tokens as predictions: 迈向世纪 vs 走进世纪 ->
    # i=1: 0, i=2: 0, i=3: 世 ∈ [迈,向,世] -> 1/3, i=4: 世,纪 -> 2/4 ; MAP = (1/3 + 1/2)/4 over 1 disturbed record
    preds = {k: [g["rationale_tokens"][0][0]] for k, g in goldens.items()}
    assert map_dataset(preds, goldens) == pytest.approx((1 / 3 + 1 / 2) / 4)


def test_map_of_a_model_ranking_over_sent_token(records):
    # a rationale ranked by position (TrustAI's order) from scores that favour the gold positions 0, 1, 8, 9
    goldens = {g["sent_id"]: g for g in records["zh-pretrain-ernie-1.0-evaluation.ipynb"]["goldens"]}
    preds = {}
    for k, g in goldens.items():
        scores = [1.0 if i in (0, 1, 8, 9) else 0.1 * (i % 3) for i in range(len(g["sent_token"]))]
        preds[k] = [[g["sent_token"][i] for i in select_rationale(scores, k=5, order="position")]]
    # top 5: 0, 1, 8, 9 (score 1) then the first 0.2 at position 2 -> 迈 向 充 世 纪 vs 走 进 充 世 纪
    assert preds[0] == [["迈", "向", "充", "世", "纪"]] and preds[100] == [["走", "进", "充", "世", "纪"]]
    # i=1: 0 ; i=2: 0 ; i=3: 充 -> 1/3 ; i=4: 充, 世 -> 2/4 ; i=5: 充, 世, 纪 -> 3/5
    assert map_dataset(preds, goldens) == pytest.approx((1 / 3 + 1 / 2 + 3 / 5) / 5)


def test_plausibility_with_two_alternative_golds(records):
    goldens = {g["sent_id"]: g for g in records["zh-sentiment-analysis-evaluation.ipynb"]["goldens"]}
    golds = {k: [[[int(x) for x in alt] for alt in g["rationale_ids"][0]]] for k, g in goldens.items()}
    assert golds[1] == [[[2, 3, 7], [11, 12, 13]]]
    # 垃圾 + 差 predicted: {2, 3, 13}. Singles: {2,3,7} -> 2/3, {11,12,13} -> 1/3; the union {2,3,7,11,12,13}
    # gives P = 1, R = 1/2 -> 2/3, not strictly greater -> gold {2,3,7}
    assert pick_max_golden_evid([2, 3, 13], golds[1][0]) == ([2, 3, 7], pytest.approx(2 / 3))
    # record 4 predicted with its second gold exactly -> F1 1 ; TrustAI macro over the 2 found records
    preds = {1: [[2, 3, 13]], 4: [golds[4][0][1]]}
    assert macro_f1_trustai(preds, golds) == pytest.approx((2 / 3 + 1) / 2)
    # IoU: record 1: |{2,3}| / |{2,3,7,13}| = 1/2 -> match ; record 4: 1 -> match
    assert iou_f1_trustai(preds, golds) == 1.0
