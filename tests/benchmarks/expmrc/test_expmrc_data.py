import json

import pytest

from interpeval.benchmarks.expmrc.data import (
    SUBSETS,
    Prediction,
    dev_path,
    load_dataset,
    load_predictions,
    sample_submission_path,
    write_predictions,
)
from interpeval.errors import DataError


@pytest.mark.parametrize(("subset", "n", "kind", "language"), [
    ("squad", 501, "span", "en"), ("cmrc2018", 515, "span", "zh"), ("race", 561, "choice", "en"),
    ("c3", 505, "choice", "zh")])
def test_vendored_dev_sets(subset, n, kind, language):
    ds = load_dataset(dev_path(subset))
    assert (len(ds), ds.kind, ds.language, ds.subset) == (n, kind, language, subset)
    assert set(load_predictions(sample_submission_path(subset))) == {q.qid for q in ds.questions}


def test_choice_keys_follow_file_order():
    ds = load_dataset(dev_path("race"))
    first = ds.questions[:3]
    assert [q.qid for q in first] == ["00052cc8-0", "00052cc8-1", "00052cc8-2"]
    assert first[0].answers == ("C",) and first[0].gold_option == "schools used to have no lessons on sleep"


def test_span_record(span_file):
    q = load_dataset(span_file).questions[0]
    assert q.answers == ("Paris", "Paris", "in Paris") and q.answer_starts == (13, 13, 10)
    assert q.evidences[1] == "Tom lives in Paris. He likes the city."


def _broken(tmp_path, mutate, source):
    raw = json.loads(source.read_text())
    mutate(raw)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw))
    return path


def test_missing_evidences_names_file_and_question(tmp_path, span_file):
    path = _broken(tmp_path, lambda r: r["data"][0]["paragraphs"][0]["qas"][1].pop("evidences"), span_file)
    with pytest.raises(DataError, match=r"broken\.json:question q2: missing 'evidences'"):
        load_dataset(path)


def test_bad_choice_label_names_question(tmp_path, choice_file):
    path = _broken(tmp_path, lambda r: r["data"][0]["answers"].__setitem__(0, "E"), choice_file)
    with pytest.raises(DataError, match=r"question art1-0: answer 'E' is not one of A, B"):
        load_dataset(path)


def test_unsupported_version(tmp_path, span_file):
    path = _broken(tmp_path, lambda r: r.__setitem__("version", "1.0"), span_file)
    with pytest.raises(DataError, match="Unsupported version: 1.0"):
        load_dataset(path)


def test_invalid_json_names_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"version": "expmrc-squad-dev",\n "data": [,]}')
    with pytest.raises(DataError, match=r"bad\.json:line 2: not valid JSON"):
        load_dataset(path)


def test_prediction_without_evidence(tmp_path):
    path = tmp_path / "pred.json"
    path.write_text(json.dumps({"q1": {"answer": "Paris"}}))
    with pytest.raises(DataError, match=r"question q1: missing 'evidence'"):
        load_predictions(path)


def test_write_predictions_round_trip(tmp_path):
    preds = {"q1": Prediction("北京", "他住在北京。")}
    path = write_predictions(tmp_path / "p.json", preds)
    assert load_predictions(path) == preds
    assert "北京" in path.read_text(encoding="utf-8")


def test_unknown_subset():
    with pytest.raises(ValueError, match="unknown ExpMRC subset 'nq'"):
        dev_path("nq")
    assert len(SUBSETS) == 4
