"""IQS's tables and report from results written by hand (no study, no model): which figure lands in which cell,
the row order by rank, titles, provenance, notes and the SIMULATED banner a reader must not miss.

The numbers themselves are worked out from a hand-made study in ``test_iqs_report_by_hand.py``; here every
``MethodScore`` field is a distinct hand-chosen value, so a cell taken from the wrong field or row shows.
"""

from __future__ import annotations

import json
import math

import pytest

from interpeval.benchmarks.iqs.score import Answer, Item, MethodScore
from interpeval.benchmarks.iqs.tables import (
    IQSResult,
    agreement_table,
    cost_table,
    score_study,
    table1,
    table2,
    write_outputs,
)
from interpeval.benchmarks.iqs.tasks import get_task

BANNER = "SIMULATED annotators (not a human result)"


def _v(base, k):
    return base + k / 64  # exact in binary: cells compare with ==


def _score(method, base, rank, grid_rank):
    """Fields base + 1/64 … base + 13/64, each different, so every cell says where it came from."""
    return MethodScore(method, plausibility={"mean": _v(base, 1), "ci95": _v(base, 2), "n": 8},
                       plausibility_per_class={"positive": _v(base, 3), "negative": _v(base, 4),
                                               "similar": _v(base, 5), "dissimilar": _v(base, 6)},
                       simplicity={"mean": _v(base, 7), "ci95": 0.0, "n": 3},
                       reproducibility={"mean": _v(base, 8), "ci95": _v(base, 9), "n": 8}, n_chunks=_v(base, 10),
                       iqs=_v(base, 11), grid={"mean": _v(base, 12), "std": _v(base, 13), "n": 21}, rank=rank,
                       grid_rank=grid_rank)


BASELINE = {"plausibility": 0.375, "simplicity": 1.0, "reproducibility": 0.25, "iqs": 0.5417, "grid_mean": 0.55,
            "grid_std": 0.2, "constant_answer": "positive"}
AGREEMENT = {"label_agreement": 0.5, "word_agreement": 0.625, "items": 4, "pairs": 6}


def _result(task="sst2", simulated=False, **config):
    cfg = {"task": task, "model": "hand-model", "protocol": {"data": "hand-data", "n": 3}, "target": "P(positive)",
           "methods": {"lime": {"samples": 10}, "custom": {}}, "marking": {"rule": "top 20 %"},
           "cost_s": {"lime": 6.0, "custom": 1.5, "dropped": 2.0}, "n_samples": 3, **config}
    # "custom" ranks first by IQS but second on the grid; LIME the other way round
    scores = [_score("lime", 0.25, rank=2, grid_rank=1), _score("custom", 0.5, rank=1, grid_rank=2)]
    return IQSResult(get_task(task), cfg, scores, BASELINE, AGREEMENT, ["h1", "h2"], simulated)


PROVENANCE = {"model": "hand-model", "data": "hand-data", "task": "sst2", "protocol": {"data": "hand-data", "n": 3},
              "explained": "P(positive)", "explainers": {"lime": {"samples": 10}, "custom": {}},
              "marked words": "top 20 %", "annotators": "human: h1, h2"}


def test_table1_cells_order_notes_and_provenance():
    table = table1(_result())
    assert table.title == "Table 1: IQS with a1 = a2 = a3 = 1/3 — SST-2 (sentiment)"
    assert table.columns == ["method", "plausibility", "plausibility ±95%", "plaus. positive", "plaus. negative",
                             "simplicity", "mean N_chunk", "reproducibility", "reproducibility ±95%",
                             "IQS (1/3 each)", "rank", "samples", "answers"]
    assert table.rows == [
        ["custom", *[_v(0.5, k) for k in (1, 2, 3, 4, 7, 10, 8, 9, 11)], 1, 3, 8],
        ["LIME", *[_v(0.25, k) for k in (1, 2, 3, 4, 7, 10, 8, 9, 11)], 2, 3, 8],
        ["trivial baseline", 0.375, None, None, None, 1.0, 0.0, 0.25, None, 0.5417, None, None, None]]
    assert table.digits == 3 and table.provenance == PROVENANCE
    assert table.notes == ["loss of reproducibility: log loss", "±95%: 1.96 · sd / √n over answers",
                           "trivial baseline: marks no word; constant answer 'positive' to question 1"]
    stsb = table1(_result("stsb"))  # a regression task: its classes name the columns, MAE is the loss
    assert stsb.columns[3:5] == ["plaus. similar", "plaus. dissimilar"] and stsb.rows[0][3:5] == [_v(0.5, 5),
                                                                                                   _v(0.5, 6)]
    assert stsb.notes[0] == "loss of reproducibility: mean absolute error"


def test_table2_agreement_and_cost():
    result = _result()
    t2 = table2(result)
    assert t2.title == "Table 2: IQS mean and std over the 21 weight triples — SST-2 (sentiment)"
    assert t2.columns == ["method", "IQS mean", "IQS std", "rank"] and t2.digits == 3
    assert t2.rows == [["LIME", _v(0.25, 12), _v(0.25, 13), 1], ["custom", _v(0.5, 12), _v(0.5, 13), 2],
                       ["trivial baseline", 0.55, 0.2, None]]
    assert t2.notes == ["weights a_i in {0, 0.1, ..., 1} with a1 + a2 + a3 = 1; std is the population std"]
    assert t2.provenance == PROVENANCE
    result.scores = result.scores[:1]  # a one-method study: the title counts that method's 21 triples
    assert table2(result).title.startswith("Table 2: IQS mean and std over the 21 weight triples")
    result.scores = []
    assert table2(result).title.startswith("Table 2: IQS mean and std over the 66 weight triples")

    agree = agreement_table(_result())
    assert agree.title == "Agreement between annotators — SST-2 (sentiment)"
    assert agree.columns == ["task", "question 1 (same class)", "words (mean pairwise Jaccard of Feat_H)", "items",
                             "pairs"]
    assert agree.rows == [["sst2", 0.5, 0.625, 4, 6]] and agree.digits == 3 and agree.provenance == PROVENANCE
    assert agree.notes == ["STS-B question 1 agrees when both answers lie on the same side of the threshold"]

    # 3 samples: LIME 6 s → 2 s per sample; "dropped" was timed but has no score: no simplicity
    cost = cost_table(_result())
    assert cost.title == "Explainers' cost on the protocol — SST-2 (sentiment)"
    assert cost.columns == ["method", "wall s", "s / sample", "simplicity", "mean N_chunk"] and cost.digits == 3
    assert cost.rows == [["LIME", 6.0, 2.0, _v(0.25, 7), _v(0.25, 10)], ["custom", 1.5, 0.5, _v(0.5, 7), _v(0.5, 10)],
                         ["dropped", 2.0, pytest.approx(2 / 3), None, None]]
    assert cost.notes == ["3 samples, measured once when the study was created"] and cost.provenance == PROVENANCE
    for n_samples, per in ((None, 6.0), (0, 6.0), (2, 3.0)):  # no count (or 0): per sample = the wall time
        config = {} if n_samples is None else {"n_samples": n_samples}
        result = _result(**config)
        if n_samples is None:
            del result.config["n_samples"]
        assert cost_table(result).rows[0][2] == per


def test_simulated_results_say_so_everywhere(tmp_path):
    result = _result(simulated=True)
    for table in (table1(result), table2(result), agreement_table(result), cost_table(result)):
        assert table.title.endswith(f" — SST-2 (sentiment) — {BANNER}")
        assert table.provenance["annotators"] == f"{BANNER}: h1, h2"
    written = write_outputs([result], tmp_path)
    page = (tmp_path / "report.html").read_text()
    assert f"<title>IQS results — {BANNER}</title>" in page
    assert f"<figcaption>Figure 5: the IQS terms per method — {BANNER}</figcaption>" in page
    assert f"<h2>IQS — SST-2 (sentiment) — {BANNER}</h2>" in page
    assert json.loads((tmp_path / "scores.json").read_text())[0]["simulated"] is True
    assert tmp_path / "report.html" in written


def test_write_outputs_files_report_and_scores(tmp_path):
    results = [_result(), _result("stsb")]
    out = tmp_path / "new" / "out"  # parents made as needed
    written = write_outputs(results, out)
    stems = [f"{t}-{task}" for task in ("sst2", "stsb") for t in ("table1", "table2", "agreement", "cost")]
    assert written == [out / f"{s}{ext}" for s in stems for ext in (".md", ".json")] + [
        out / "figure5.png", out / "report.html", out / "scores.json"]
    assert all(p.is_file() for p in written)
    assert json.loads((out / "cost-stsb.json").read_text())["title"] == "Explainers' cost on the protocol — STS-B (semantic similarity)"
    page = (out / "report.html").read_text()
    assert "<title>IQS results</title>" in page and "SIMULATED" not in page
    headings = ["<h2>IQS — SST-2 (sentiment)</h2>", "<h2>IQS — STS-B (semantic similarity)</h2>", "<h2>Figure 5</h2>"]
    assert [page.index(h) for h in headings] == sorted(page.index(h) for h in headings)
    assert "<figcaption>Figure 5: the IQS terms per method</figcaption>" in page
    assert page.count("<table>") == 8
    summary = json.loads((out / "scores.json").read_text())
    assert [(s["task"], s["simulated"], s["annotators"]) for s in summary] == [("sst2", False, ["h1", "h2"]),
                                                                              ("stsb", False, ["h1", "h2"])]
    assert summary[0]["baseline"] == BASELINE and summary[0]["agreement"] == AGREEMENT
    lime = summary[0]["methods"]["lime"]
    assert lime == {"plausibility": {"mean": _v(0.25, 1), "ci95": _v(0.25, 2), "n": 8},
                    "simplicity": {"mean": _v(0.25, 7), "ci95": 0.0, "n": 3},
                    "reproducibility": {"mean": _v(0.25, 8), "ci95": _v(0.25, 9), "n": 8}, "iqs": _v(0.25, 11),
                    "grid": {"mean": _v(0.25, 12), "std": _v(0.25, 13), "n": 21}, "rank": 2, "grid_rank": 1}
    assert list(summary[0]["methods"]) == ["lime", "custom"]


def test_score_study_takes_human_answers_unless_asked_for_simulated_ones():
    """One SST-2 item (P(positive) = 0.8, word 0 marked green) answered "positive" unchanged by two humans and
    "negative" by a simulated annotator. Humans: Feat_H = the shown marks → plausibility 1; reproducibility
    1 / (1 − ln 0.8). Simulated: 1 / (1 − ln 0.2)."""
    item = Item("i", "s1", "lime", ("a", "b", "c"), frozenset({0}), frozenset(), (0.2, 0.8))
    answers = [Answer("i", "h1", "positive"), Answer("i", "h2", "positive"),
               Answer("i", "sim", "negative", simulated=True)]
    config = {"task": "sst2"}
    human = score_study(config, [item], answers)
    assert human.config == {"task": "sst2"}  # kept for the tables' provenance
    assert (human.simulated, human.annotators, human.task.name) == (False, ["h1", "h2"], "sst2")
    (score,) = human.scores
    assert score.plausibility["mean"] == 1.0 and score.simplicity["mean"] == 1.0
    assert score.reproducibility["mean"] == pytest.approx(1 / (1 - math.log(0.8)))
    assert human.agreement["label_agreement"] == 1.0 and human.agreement["pairs"] == 1
    simulated = score_study({"task": "sst2"}, [item], answers, simulated=True)
    assert (simulated.simulated, simulated.annotators) == (True, ["sim"])
    assert simulated.scores[0].reproducibility["mean"] == pytest.approx(1 / (1 - math.log(0.2)))
    # the trivial baseline answers the model's class (0.8 → "positive") whoever the annotators are: 1 / (1 − ln 0.8)
    for result in (human, simulated):
        assert result.baseline["constant_answer"] == "positive" and result.baseline["simplicity"] == 1.0
        assert result.baseline["reproducibility"] == pytest.approx(1 / (1 - math.log(0.8)))


def test_one_simulated_task_marks_the_whole_report_and_a_missing_target_is_blank(tmp_path):
    """A human SST-2 result next to a simulated STS-B one: the report's title and Figure 5's caption carry the
    banner (one simulated result is enough), only the simulated task's section does."""
    human = _result()
    del human.config["target"]  # a study without a named output: "explained" is left blank, not invented
    assert table1(human).provenance == {**PROVENANCE, "explained": ""}
    write_outputs([human, _result("stsb", simulated=True)], tmp_path)
    page = (tmp_path / "report.html").read_text()
    assert f"<title>IQS results — {BANNER}</title>" in page
    assert f"<figcaption>Figure 5: the IQS terms per method — {BANNER}</figcaption>" in page
    assert "<h2>IQS — SST-2 (sentiment)</h2>" in page
    assert f"<h2>IQS — STS-B (semantic similarity) — {BANNER}</h2>" in page
