"""`interpeval reproduce quackie` end to end through the public CLI on the tiny profile (the shipped heads; Random and
Saliency on 2 true positives of the held-out SQuAD 2.0 articles): the estimate comes first, every published cell is written next to
ours, the findings carry verdicts, a run killed in the middle resumes, and a finished run recomputes nothing."""

from __future__ import annotations

import json

import pytest

from interpeval.cli import main
from interpeval.models.base import Model
from interpeval.paper import VERDICTS, published
from interpeval.store import Store


def _reproduce(tmp_path, capsys) -> str:
    with pytest.raises(SystemExit) as done:
        main(["reproduce", "quackie", "--profile", "tiny", "--out", str(tmp_path / "out"),
              "--store", str(tmp_path / "store.sqlite")])
    assert done.value.code == 0
    return capsys.readouterr().out


def _stored(tmp_path) -> int:
    with Store(tmp_path / "store.sqlite") as store:
        return sum(info.n_instances for info in store.runs())


@pytest.mark.slow
def test_reproduce_quackie_tiny_resumes_and_reruns_nothing(tmp_path, capsys, passes, monkeypatch):
    forward = Model.forward
    calls = {"n": 0}

    def killed_after_some_work(self, inputs, **kwargs):  # the process dies in the middle of the explanations
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return forward(self, inputs, **kwargs)

    monkeypatch.setattr(Model, "forward", killed_after_some_work)
    with pytest.raises(SystemExit) as killed_run:
        main(["reproduce", "quackie", "--profile", "tiny", "--out", str(tmp_path / "out"),
              "--store", str(tmp_path / "store.sqlite")])
    assert killed_run.value.code == 130  # the exit code of Ctrl-C
    killed = _stored(tmp_path)
    assert killed > 0 and not (tmp_path / "out" / "reproduce-quackie.json").exists()
    capsys.readouterr()
    monkeypatch.setattr(Model, "forward", forward)  # the counting one of the ``passes`` fixture

    out = _reproduce(tmp_path, capsys)
    assert out.index("cost estimate") < out.index("step 1/2")
    resumed = _stored(tmp_path)
    assert resumed > killed

    md = (tmp_path / "out" / "reproduce-quackie.md").read_text()
    sections = {part.split(":", 1)[0]: part for part in md.split("## Table ")[1:]}
    for number in ("2", "3", "4", "5", "6"):
        table = published("quackie")["tables"][number]
        for label, row in table["rows"].items():
            line = next(line for line in sections[number].splitlines() if line.startswith(f"| {label} |"))
            for value in row.values():
                assert f"{value:g} → " in line
    doc = json.loads((tmp_path / "out" / "reproduce-quackie.json").read_text())
    table4 = next(t for t in doc["tables"] if t["number"] == "4")
    saliency = next(r for r in table4["rows"] if r["label"] == "Saliency sum")["cells"]["SQuAD QA"]
    assert saliency["n"] == 2 and 0 <= saliency["ours"] <= 100 and saliency["paper"] == 91.12
    assert next(r for r in table4["rows"] if r["label"] == "Saliency sum")["cells"]["NYT QA"]["ours"] is None
    assert len(doc["findings"]) == 5 and {f["verdict"] for f in doc["findings"]} <= set(VERDICTS)
    assert "<section class='reproduce' id='reproduce-quackie'>" in (tmp_path / "out" / "reproduce-quackie.html"
                                                                     ).read_text()

    before = passes["n"]
    again = _reproduce(tmp_path, capsys)
    assert passes["n"] == before and _stored(tmp_path) == resumed  # nothing computed, nothing stored
    assert json.loads((tmp_path / "out" / "reproduce-quackie.json").read_text())["tables"] == doc["tables"]
    assert "holds" in again or "cannot be tested here" in again


def test_unknown_paper_and_profile_are_clear_errors(tmp_path, capsys):
    for argv, text in ((["reproduce", "nosuch"], "no reproduction for 'nosuch'"),
                       (["reproduce", "quackie", "--profile", "huge"], "--profile")):
        with pytest.raises(SystemExit) as done:
            main([*argv, "--out", str(tmp_path / "o"), "--store", str(tmp_path / "s.sqlite")])
        assert done.value.code == 2 and text in capsys.readouterr().err


def test_every_published_row_maps_to_a_leaderboard_method():
    from interpeval.benchmarks.quackie.reproduce import _column, _paper_method
    from interpeval.benchmarks.quackie.run import LEADERBOARD

    labels = {m.label for m in LEADERBOARD}
    for number in ("4", "5", "6"):
        table = published("quackie")["tables"][number]
        mapped = {_paper_method(label) for label in table["rows"]}
        assert len(mapped) == len(table["rows"]) == 15
        assert {method for method, _ in mapped} == labels
        assert {_column(c) for c in table["columns"]} >= {("SQuAD", "QA"), ("NEW_WIKI", "Classification"),
                                                          (None, "QA")}  # NYT: not available


def test_expected_random_iou_is_mean_share_of_answer_sentences():
    from interpeval.benchmarks.quackie.reproduce import expected_random_iou

    # 4 sentences with 1 answer sentence, 2 with 1, 5 with 2 distinct answer sentences
    assert expected_random_iou([(4, 1), (2, 1), (5, 2)]) == pytest.approx((0.25 + 0.5 + 0.4) / 3)
