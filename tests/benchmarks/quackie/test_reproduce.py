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
    # every number names the heads a fresh install runs (mpnet-squad's base is an optional extra)
    assert "QA: minilm-squad" in table4["ours_model"] and "mpnet" not in json.dumps(doc)
    assert len(doc["findings"]) == 5 and {f["verdict"] for f in doc["findings"]} <= set(VERDICTS)
    assert all(row["differs"] for table in doc["tables"] for row in table["rows"])  # every row says why it differs
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


def _measured(cells: dict[tuple[str, str, str], list[float]], sentences=None):
    """A Measured with per-input IoUs (the same value for sum and max) under ids q0, q1, … per method."""
    from interpeval.benchmarks.quackie.reproduce import Measured

    measured = Measured({}, {}, {}, {}, {}, sentences or {})
    for (ds, clf, method), ious in cells.items():
        for agg in (("random",) if method == "Random" else ("sum", "max")):
            measured.scores[(ds, clf, method, agg)] = [{"iou": v, "hpd": 0.0, "snr": 0.0} for v in ious]
        measured.ids[(ds, clf, method)] = [f"q{i}" for i in range(len(ious))]
    return measured


def test_a_cell_of_ties_does_not_overturn_a_pooled_gain_but_a_cell_of_losses_does():
    """QA: 10 tied pairs (both sample sizes right on every input, the ceiling); Classification: 10 pairs where 100
    samples are right and 10 wrong. Pooled: 20 differences, half +1, half 0, mean +0.5, interval above 0 -> claimed;
    the tied cell (mean 0) is no loss, so the finding holds. With QA's 100-sample runs wrong on every input instead
    (a cell of 10 losses, mean -1), the pooled mean is 0 and that cell goes against: does not hold."""
    from interpeval.benchmarks.quackie.reproduce import finding_samples

    def cells(qa_ten, qa_hundred):
        return {("SQuAD", clf, f"{name}_{samples}"): values
                for name in ("LIME", "SHAP")
                for clf, ten, hundred in (("QA", qa_ten, qa_hundred), ("Classification", [0.0] * 10, [1.0] * 10))
                for samples, values in ((10, ten), (100, hundred))}

    assert finding_samples(_measured(cells([1.0] * 10, [1.0] * 10))).verdict == "holds"
    assert finding_samples(_measured(cells([1.0] * 10, [0.0] * 10))).verdict == "does not hold"


def test_white_box_finding_is_decided_on_paired_inputs_pooled_over_cells():
    """Saliency right on 20 inputs per cell, LIME/SHAP-100 on the first 4 only: the 8 pairs of two cells and the 4 of
    one cell are below the deciding n alone, 12 pooled decide; a reversal decides against; 4 pairs decide nothing."""
    from interpeval.benchmarks.quackie.reproduce import finding_white_box, paired_iou

    wins = {**{(ds, clf, "Gradient"): [1.0] * 20 for ds, clf in (("SQuAD", "QA"), ("SQuAD", "Classification"),
                                                                     ("Reddit", "QA"))},
            **{(ds, clf, m): [0.0, 1.0, 0.0, 0.0] for ds, clf in (("SQuAD", "QA"), ("SQuAD", "Classification"),
                                                                  ("Reddit", "QA")) for m in ("LIME_100", "SHAP_100")}}
    measured = _measured(wins)
    assert list(paired_iou(measured, "SQuAD", "QA", "Gradient", "LIME_100")) == [100.0, 0.0, 100.0, 100.0]
    found = finding_white_box(measured)
    assert found.verdict == "holds" and "n=12 pooled over 3 cells" in found.evidence, found.evidence
    losses = {key: ([0.0] * 20 if key[2] == "Gradient" else [1.0] * 4) for key in wins}
    assert finding_white_box(_measured(losses)).verdict == "does not hold"
    one_cell = {key: value for key, value in wins.items() if key[:2] == ("SQuAD", "QA")}
    assert finding_white_box(_measured(one_cell)).verdict == "cannot be tested here"
    assert finding_white_box(_measured({("SQuAD", "QA", "Gradient"): [1.0] * 20})).verdict == "cannot be tested here"


def test_random_finding_pools_small_cells_by_each_inputs_expectation():
    """Cells under 30 inputs are judged together: each input's Random IoU minus its distinct answer sentences /
    sentences. A fair random pick (hit rate 1/4 with 4 sentences, one of them the answer) fits; always hitting does
    not."""
    from interpeval.benchmarks.quackie.reproduce import finding_random

    table = published("quackie")["tables"]["4"]
    cells = [("SQuAD", "QA"), ("Reddit", "QA")]
    fair = [1.0 if i % 4 == 0 else 0.0 for i in range(20)]
    sentences = {cell: [(4, 1)] * 20 for cell in cells}
    found = finding_random(_measured({(*cell, "Random"): fair for cell in cells}, sentences), table, {})
    assert found.verdict == "holds" and "2 smaller cells together" in found.evidence, found.evidence
    always = _measured({(*cell, "Random"): [1.0] * 20 for cell in cells}, sentences)
    assert finding_random(always, table, {}).verdict == "does not hold"
    few = _measured({("SQuAD", "QA", "Random"): fair[:8]}, {("SQuAD", "QA"): [(4, 1)] * 8})
    assert finding_random(few, table, {}).verdict == "cannot be tested here"


def test_quick_profile_pairs_lime_and_shap_on_enough_inputs_to_decide():
    """The main job's profile: LIME / SHAP at 10 and 100 samples (no IG) on the first 8 true positives of SQuAD per
    classifier, the first of the headline rows' inputs, so 16 Saliency / X-10 pairs pool past the deciding n (4 per
    classifier, 8 pairs, decided neither LIME/SHAP finding); SmoothGrad on the first 10 of the same inputs (one
    cell's deciding n) in two of the four sets, to stay inside the main job's 15 minutes."""
    from interpeval.benchmarks.quackie.reproduce import (
        CLASSIFIERS,
        COSTLY,
        HEADLINE,
        MIN_DECIDING_N,
        PROFILES,
    )

    quick = PROFILES["quick"]
    (headline, everywhere, cheap_n), (rest, rest_sets, rest_n), (costly, where, costly_n) = quick.phases()
    assert headline == HEADLINE and everywhere == ("SQuAD", "NEW_WIKI", "Reddit", "Amazon") and cheap_n == 20
    assert rest == ("SmoothGrad_5",) and rest_sets == ("SQuAD", "Amazon") and rest_n == MIN_DECIDING_N
    assert costly == COSTLY[1:] == ("LIME_10", "LIME_100", "SHAP_10", "SHAP_100") and where == ("SQuAD",)
    assert costly_n == 8 and costly_n * len(CLASSIFIERS) >= MIN_DECIDING_N and costly_n <= cheap_n


def test_no_gain_on_enough_pairs_is_against_an_improvement():
    """A claimed gain that the paired interval rules out — every difference 0, or losses with the upper end at 0 —
    does not hold once there are enough pairs; the same at 8 pairs decides nothing."""
    from interpeval.benchmarks.quackie.reproduce import finding_samples

    def cells(ten, hundred, n):
        return {("SQuAD", clf, f"{name}_{samples}"): (ten if samples == 10 else hundred)[:n]
                for clf in ("QA", "Classification") for name in ("LIME", "SHAP") for samples in (10, 100)}

    ties = cells([1.0] * 8, [1.0] * 8, 8)
    found = finding_samples(_measured(ties))
    assert found.verdict == "does not hold" and "+0.0 [+0.0, +0.0] n=16" in found.evidence, found.evidence
    assert finding_samples(_measured(cells([1.0] * 4, [1.0] * 4, 4))).verdict == "cannot be tested here"
    gains = cells([0.0, 1.0] * 4, [1.0] * 8, 8)
    assert finding_samples(_measured(gains)).verdict == "holds"
