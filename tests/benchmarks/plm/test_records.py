"""TrustAI golden / predict records: the real notebook records read as they are; bad files fail with file:line."""

import ast
import json
from importlib import resources

import pytest

from interpeval.benchmarks.plm.records import (
    Item,
    Prediction,
    read_golden,
    read_predictions,
    to_record,
    write_golden,
    write_predictions,
)
from interpeval.errors import DataError


def _trustai_goldens() -> list[dict]:
    """The two golden records printed in TrustAI's zh-pretrain notebook (vendored printout)."""
    text = resources.files("interpeval").joinpath("data/metrics/trustai_notebook_samples.txt").read_text("utf-8")
    block = text.split("zh-pretrain")[1].split("goldens:")[1].strip().split("\n")[0]
    return ast.literal_eval(block)


def test_reads_the_real_trustai_pretrain_golden_records(tmp_path):
    path = tmp_path / "pretrain_golden"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _trustai_goldens()), "utf-8")
    ori, dis = read_golden(path)
    assert (ori.sent_id, ori.sample_type, ori.rel_ids) == (0, "ori", [100])
    assert (dis.sent_id, dis.sample_type) == (100, "disturb")
    assert ori.mask_index == 7 and ori.answers == "新"
    assert ori.rationale == [0, 1, 8, 9] and [ori.sent_token[i] for i in ori.rationale] == ["迈", "向", "世", "纪"]
    # TrustAI's own records carry no interpeval block: they count as gold, Chinese by their script
    assert ori.label == "gold" and ori.lang == "zh" and ori.dimension == "unknown"
    assert (ori.perturbation, dis.perturbation) == (None, "unknown")  # untyped pairs still count for MAP
    again = tmp_path / "again"
    write_golden(again, [ori, dis])
    assert [(r.sent_id, r.rationale_ids, r.rel_ids) for r in read_golden(again)] == [(0, [[0, 1, 8, 9]], [100]),
                                                                                     (100, [[0, 1, 8, 9]], [])]


def _record(**change) -> dict:
    base = {"sent_id": 1, "sent_text": "the [MASK] sat", "sent_token": ["the", "[MASK]", "sat"], "answers": "cat",
            "rationale_ids": [[[2]]], "sample_type": "ori", "rel_ids": []}
    return {**base, **change}


@pytest.mark.parametrize("bad, where, problem", [
    ("{not json", "line 2", "is not valid JSON"),
    (json.dumps(_record(sent_id=2, sent_token=["[MASK]", "[MASK]"])), "line 2", "exactly one [MASK]"),
    (json.dumps(_record(sent_id=2, rationale_ids=[[[1]]])), "line 2", "point at [MASK]"),
    (json.dumps(_record(sent_id=1)), "line 2", "sent_id 1 already used on line 1"),
    (json.dumps(_record(sent_id=2, rel_ids=[9])), "line 2", "rel_ids names 9"),
    (json.dumps(_record(sent_id=2, sample_type="perturbed")), "line 2", "sample_type must be"),
])
def test_bad_golden_lines_name_file_and_line(tmp_path, bad, where, problem):
    path = tmp_path / "golden.jsonl"
    path.write_text(json.dumps(_record()) + "\n" + bad + "\n", "utf-8")
    with pytest.raises(DataError) as err:
        read_golden(path)
    assert f"{path}:{where}" in str(err.value) and problem in str(err.value)


def test_chinese_words_become_characters_and_rationale_follows():
    item = Item("zh", "grammar", ["華爾", "街", "的", "公司"], 2, [1, 3], "de_particle", {"source": "x"})
    rec = to_record(item, 5, {"lang": "zh"})
    # 華 爾 街 [MASK] 公 司: the rationale words 街 and 公司 are characters 2, 4, 5
    assert rec.sent_token == ["華", "爾", "街", "[MASK]", "公", "司"]
    assert rec.rationale_ids == [[2, 4, 5]] and rec.sent_text == "華爾街[MASK]公司"
    assert rec.to_json()["rationale"] == "街公司"


def test_predictions_round_trip_and_are_checked_against_the_golden_file(tmp_path):
    golden_path = tmp_path / "g.jsonl"
    golden_path.write_text(json.dumps(_record()) + "\n", "utf-8")
    golden = read_golden(golden_path)
    path = write_predictions(tmp_path / "p.jsonl", [Prediction(1, "cat", ["cat", "dog"], [2], [0.1, 0.0, 0.9])],
                             golden)
    (pred,) = read_predictions(path, golden)
    row = json.loads(path.read_text("utf-8"))
    assert row["non_rationale"] == [[0]] and row["rationale_tokens"] == [["sat"]]  # [MASK] is in neither
    assert (pred.id, pred.rationale, pred.top_k) == (1, [2], ["cat", "dog"])
    path.write_text(json.dumps({"id": 7, "pred_label": "x", "rationale": [[0]]}) + "\n", "utf-8")
    with pytest.raises(DataError, match=r"p\.jsonl:line 1: id 7 is not in the golden file"):
        read_predictions(path, golden)
