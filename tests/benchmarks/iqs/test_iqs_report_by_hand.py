"""The files `interpeval iqs score` writes (Tables 1 and 2, agreement, cost, scores.json), against values worked out
in this test from the same hand-made study: two SST-2 samples × two methods, two human annotators.

The human word sets (Feat_H) after each answer's corrections are written out by hand below, not computed by the code
under test; the terms follow REFERENCE §6: plausibility = mean over answers of the mean over the two classes of
Jaccard(Feat_H, Feat_m) (two empty sets agree), simplicity = mean over samples of 1 / (ln(N − 9) + 1) (1 up to 10
marked words), reproducibility = mean over answers of 1 / (1 − ln p_model(answered class)), IQS = their mean.
"""

from __future__ import annotations

import json
import math
import statistics
from itertools import product

import pytest
from typer.testing import CliRunner

from interpeval.benchmarks.iqs.study import questions
from interpeval.benchmarks.iqs.tasks import TASKS
from interpeval.cli import app
from interpeval.store.studies import Studies

P_GREEN = {"s1": 0.8, "s2": 0.7}  # the model's P(positive); both samples lean positive
WORDS = {"s1": ["a", "b", "c", "d"], "s2": [f"w{i}" for i in range(12)]}
SHOWN = {  # (green, red) per item
    ("s1", "method-a"): ({0}, {1}), ("s2", "method-a"): (set(range(7)), set(range(7, 12))),
    ("s1", "method-b"): ({0, 2}, set()), ("s2", "method-b"): (set(), set()),
}
# (item, annotator) → (label, answer fields, Feat_H green, Feat_H red worked out by hand from the answer)
ANSWERS = {
    (("s1", "method-a"), "h1"): ("positive", {"remove_red": [1], "add_green": [2]}, {0, 2}, set()),
    (("s1", "method-a"), "h2"): ("negative", {}, {0}, {1}),
    (("s2", "method-a"), "h1"): ("negative", {"remove_green": [5, 6]}, {0, 1, 2, 3, 4}, set(range(7, 12))),
    (("s2", "method-a"), "h2"): ("positive", {"add_red": [0]}, set(range(7)), {0, *range(7, 12)}),
    (("s1", "method-b"), "h1"): ("positive", {"remove_green": [2]}, {0}, set()),
    (("s1", "method-b"), "h2"): ("positive", {}, {0, 2}, set()),
    (("s2", "method-b"), "h1"): ("negative", {"add_red": [3]}, set(), {3}),
    (("s2", "method-b"), "h2"): ("negative", {}, set(), set()),
}


def _jaccard(a: set[int], b: set[int]) -> float:
    return 1.0 if not a and not b else len(a & b) / len(a | b)


def _reproducibility(sample: str, label: str) -> float:
    p = P_GREEN[sample] if label == "positive" else 1 - P_GREEN[sample]
    return 1 / (1 - math.log(p))


def _ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _expected(method: str) -> dict[str, float]:
    mine = {k: v for k, v in ANSWERS.items() if k[0][1] == method}
    green = [_jaccard(h_green, SHOWN[item][0]) for (item, _), (_, _, h_green, _) in mine.items()]
    red = [_jaccard(h_red, SHOWN[item][1]) for (item, _), (_, _, _, h_red) in mine.items()]
    plausibility = [(g + r) / 2 for g, r in zip(green, red, strict=True)]
    chunks = [len(SHOWN[(s, method)][0] | SHOWN[(s, method)][1]) for s in ("s1", "s2")]
    simplicity = [1.0 if n <= 10 else 1 / (math.log(n - 9) + 1) for n in chunks]
    repro = [_reproducibility(item[0], label) for (item, _), (label, *_) in mine.items()]
    terms = (statistics.mean(plausibility), statistics.mean(simplicity), statistics.mean(repro))
    return {"plausibility": terms[0], "plausibility ci": _ci95(plausibility), "green": statistics.mean(green),
            "red": statistics.mean(red), "simplicity": terms[1], "chunks": statistics.mean(chunks),
            "reproducibility": terms[2], "reproducibility ci": _ci95(repro), "iqs": sum(terms) / 3,
            "grid": _grid(*terms)}


def _grid(*terms: float) -> tuple[float, float]:
    """IQS over every (a1, a2, a3) in tenths summing to 1: 66 triples; mean and population std."""
    values = [(i * terms[0] + j * terms[1] + k * terms[2]) / 10 for i, j, k in product(range(11), repeat=3)
              if i + j + k == 10]
    assert len(values) == 66
    return statistics.mean(values), statistics.pstdev(values)


@pytest.fixture
def study(tmp_path):
    store = tmp_path / "s.sqlite"
    items = []
    for (sample, method), (green, red) in SHOWN.items():
        y = [round(1 - P_GREEN[sample], 10), P_GREEN[sample]]
        marks = ["green" if i in green else "red" if i in red else "" for i in range(len(WORDS[sample]))]
        items.append({"key": f"{sample}|{method}", "payload": {"words": WORDS[sample], "marks": marks, "questions": questions(TASKS["sst2"]), "iqs": {
            "sample_id": sample, "method": method, "y_model": y, "green": sorted(green), "red": sorted(red),
            "scores": [0.0] * len(WORDS[sample]), "gold": "1"}}})
    config = {"iqs": {"task": "sst2", "model": "hand-made", "protocol": {"data": "hand-made"}, "target": "P(positive)",
                      "methods": {"method-a": {}, "method-b": {}}, "marking": {"rule": "by hand"},
                      "cost_s": {"method-a": 3.0, "method-b": 1.0}, "n_samples": 2}}
    with Studies(store) as studies:
        study_id = studies.create_study("hand-made IQS", "iqs", items, config=config).id
        keys = {it.id: tuple(it.key.split("|")) for it in studies.items(study_id)}
        for name in ("h1", "h2"):
            user, _ = studies.add_user(name, "annotator")
            for a in studies.assign(study_id, user.id):
                label, fields, _, _ = ANSWERS[(keys[a.item_id], name)]
                studies.save(user.id, a.id, {"answers": {"label": label, **fields}})
    return store, study_id


def test_iqs_files_against_values_worked_out_in_the_test(study, tmp_path):
    store, study_id = study
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["iqs", "score", str(study_id), "--store", str(store), "--out", str(out)])
    assert result.exit_code == 0, result.output
    expected = {m: _expected(m) for m in ("method-a", "method-b")}
    ranked = sorted(expected, key=lambda m: -expected[m]["iqs"])

    table1 = json.loads((out / "table1-sst2.json").read_text())
    rows = {r["method"]: r for r in table1["rows"]}
    assert [r["method"] for r in table1["rows"]] == [*ranked, "trivial baseline"]
    for rank, method in enumerate(ranked, start=1):
        e, row = expected[method], rows[method]
        assert [row[c] for c in ("plausibility", "plausibility ±95%", "plaus. positive", "plaus. negative",
                                 "simplicity", "mean N_chunk", "reproducibility", "reproducibility ±95%",
                                 "IQS (1/3 each)")] == pytest.approx(
            [e["plausibility"], e["plausibility ci"], e["green"], e["red"], e["simplicity"], e["chunks"],
             e["reproducibility"], e["reproducibility ci"], e["iqs"]])
        assert (row["rank"], row["samples"], row["answers"]) == (rank, 2, 4)
    # the trivial baseline marks nothing and always answers the model's most frequent class (positive on every
    # item): Jaccard(Feat_H, ∅) per class is 1 only where Feat_H is empty too
    plaus = statistics.mean([(_jaccard(g, set()) + _jaccard(r, set())) / 2 for _, _, g, r in ANSWERS.values()])
    assert plaus == 3 / 8
    repro = statistics.mean([_reproducibility("s1", "positive"), _reproducibility("s2", "positive")])
    baseline = rows["trivial baseline"]
    assert [baseline[c] for c in ("plausibility", "simplicity", "reproducibility", "IQS (1/3 each)")] == pytest.approx(
        [plaus, 1.0, repro, (plaus + 1 + repro) / 3])

    table2 = json.loads((out / "table2-sst2.json").read_text())
    grid_ranked = sorted(expected, key=lambda m: -expected[m]["grid"][0])
    assert [[r["method"], r["IQS mean"], r["IQS std"], r["rank"]] for r in table2["rows"][:-1]] == [
        [m, pytest.approx(expected[m]["grid"][0]), pytest.approx(expected[m]["grid"][1]), k]
        for k, m in enumerate(grid_ranked, start=1)]
    assert [table2["rows"][-1][c] for c in ("IQS mean", "IQS std")] == pytest.approx(list(_grid(plaus, 1.0, repro)))
    # on this symmetric grid the mean IQS is the equal-weights IQS
    assert expected["method-a"]["grid"][0] == pytest.approx(expected["method-a"]["iqs"])

    # agreement: per item, do h1 and h2 give the same class (2 of 4 pairs), and the Jaccard of their Feat_H
    pairs = [(ANSWERS[(item, "h1")], ANSWERS[(item, "h2")]) for item in SHOWN]
    words = statistics.mean([(_jaccard(a[2], b[2]) + _jaccard(a[3], b[3])) / 2 for a, b in pairs])
    (agreement,) = json.loads((out / "agreement-sst2.json").read_text())["rows"]
    assert list(agreement.values()) == ["sst2", 0.5, pytest.approx(words), 4, 4]

    cost = {r["method"]: r for r in json.loads((out / "cost-sst2.json").read_text())["rows"]}
    assert [cost["method-a"][c] for c in ("wall s", "s / sample", "mean N_chunk")] == pytest.approx([3.0, 1.5, 7.0])
    assert cost["method-b"]["s / sample"] == pytest.approx(0.5)

    scores = json.loads((out / "scores.json").read_text())[0]
    assert scores["simulated"] is False and scores["annotators"] == ["h1", "h2"]
    for method, e in expected.items():
        got = scores["methods"][method]
        assert (got["iqs"], got["plausibility"]["mean"], got["reproducibility"]["ci95"]) == pytest.approx(
            (e["iqs"], e["plausibility"], e["reproducibility ci"]))
