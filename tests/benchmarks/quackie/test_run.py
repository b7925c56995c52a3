"""The QUACKIE pipeline end to end on a tiny model with a plug-in explainer whose sentence scores are known by hand.

The plug-in (registered like any user explainer, no source edits) gives score ``value`` to every context token whose
start offset lies in ``[lo, hi)`` and 0 elsewhere. On the context "Paris is big. It has a river. The river is the
Seine." (punkt spans [0,13) [14,29) [30,53)) the band [0, 29) makes sentences 0 and 1 tie under ``max``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from interpeval.benchmarks.quackie.run import (
    LEADERBOARD,
    RANDOM,
    Classifier,
    Method,
    parse_method,
    run_quackie,
)
from interpeval.benchmarks.quackie.score import score_run
from interpeval.benchmarks.quackie.tables import write_outputs
from interpeval.explain.base import Explainer
from interpeval.explain.registry import register
from interpeval.models.base import Target
from interpeval.store import Store

CONTEXT = "Paris is big. It has a river. The river is the Seine."
TINY = Classifier("Tiny", "tiny-sequence-classification", Target("class_prob"))  # predicted class: P >= 0.5


@register("quackie_test_band")
class Band(Explainer):
    """Test plug-in: a constant score on the context tokens starting in [lo, hi)."""

    calls = 0

    def __init__(self, lo: int = 0, hi: int = 10**9, value: float = 1.0, batch_size: int | None = None) -> None:
        self.lo, self.hi, self.value, self.batch_size = lo, hi, value, batch_size

    def _attribute(self, model, enc, target):
        type(self).calls += 1
        out = np.zeros(tuple(enc["input_ids"].shape))
        for row in range(out.shape[0]):
            seq = enc.sequence_ids(row)
            for i, (start, _) in enumerate(enc["offset_mapping"][row]):
                if seq[i] == 1 and self.lo <= start < self.hi:
                    out[row, i] = self.value
        return out


def _qa(qid, question, answers):
    return {"id": qid, "question": question, "answers": [{"text": t, "answer_start": s} for t, s in answers]}


@pytest.fixture
def squad_file(tmp_path):
    paragraphs = [
        {"context": CONTEXT, "qas": [
            _qa("q0", "Which city?", [("Paris", 0)]),                 # GT sentence 0
            _qa("q1", "What does it have?", [("a river", 21)]),       # GT sentence 1
            _qa("q2", "Which river?", [("Seine", 47)]),               # GT sentence 2
            _qa("q3", "Name one?", [("Seine", 47), ("Paris", 0)]),    # two annotators: GTs 2 and 0
            {"id": "q5", "question": "Who?", "answers": [], "is_impossible": True},
        ]},
        {"context": "Paris is big", "qas": [_qa("q4", "How big?", [("big", 9)])]},  # one sentence
    ]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Hand", "paragraphs": paragraphs}]}))
    return path


def _rows(result):
    return {r["method"]: r for r in result.rows}


def test_hand_worked_iou_hpd_snr_through_the_pipeline(squad_file, tmp_path):
    band = parse_method("quackie_test_band:lo=0,hi=29")
    result = run_quackie([str(squad_file)], [TINY], [band], store=Store(tmp_path / "s.sqlite"), log=lambda _: None)
    rows = _rows(result)
    # max: sentences 0 and 1 tie at 1, sentence 2 scores 0 → both selected (ties all selected).
    #   q0, q1 (GT selected, m = 1/2 of the 2 others): IoU 1/2, HPD 1/2, SNR (1-m)/m = 1
    #   q2 (GT 2 missed, 2 others selected): IoU 0, HPD 1/3; noise [1, 1] has std 0 → SNR NaN
    #   q3 (GTs 2 and 0): IoU 0 vs 1/2 → GT 0 is used → 1/2, 1/2, 1
    #   q4 (one sentence, len ≤ k → selected): IoU 1, HPD 1, SNR NaN (no noise sentence)
    mx = rows["quackie_test_band_0_29_max"]
    assert mx["n"] == 5 and mx["fails"] == 0 and mx["no_snr"] == 2
    assert mx["IoU"] == pytest.approx(100 * (0.5 + 0.5 + 0 + 0.5 + 1) / 5)              # 50.0
    assert mx["HPD"] == pytest.approx(100 * (0.5 + 0.5 + 1 / 3 + 0.5 + 1) / 5)          # 56.67
    assert mx["SNR"] == pytest.approx(100.0)                                             # nanmean(1, 1, 1)
    # sum: sentence 0 has 4 tokens (paris is big .), sentence 1 has 5 (it has a river .) → only sentence 1.
    #   q0: IoU 0, HPD 1/3, SNR: s = 0 - 1/2, n = 1/2 → 1;  q1: 1, 1, NaN;  q2: 0, 1/3, 1
    #   q3: both GTs have IoU 0 → the first (sentence 2): 0, 1/3, 1;  q4: 1, 1, NaN
    sm = rows["quackie_test_band_0_29_sum"]
    assert sm["IoU"] == pytest.approx(100 * 2 / 5)
    assert sm["HPD"] == pytest.approx(100 * (1 / 3 + 1 + 1 / 3 + 1 / 3 + 1) / 5)        # 60.0
    assert sm["SNR"] == pytest.approx(100.0) and sm["no_snr"] == 2
    selection = result.selection[0]
    assert selection["unanswerable"] == 1 and selection["kept"] == 5 and selection["questions"] == 6


def test_gt_selected_alone_and_several_annotators(squad_file, tmp_path):
    # band [30, 53) = sentence 2 only: q2 and q3 hit (IoU 1, HPD 1, SNR NaN: the others score 0 with std 0),
    # q0, q1 miss (IoU 0, HPD 1/3, SNR 1/(N-2) = 1); q4 has no token in the band: [0] alone → selected → 1, 1, NaN.
    result = run_quackie([str(squad_file)], [TINY], [parse_method("Band=quackie_test_band:lo=30,hi=53")],
                         aggs=("max",), store=Store(tmp_path / "s.sqlite"), log=lambda _: None)
    row = _rows(result)["Band_max"]
    assert row["IoU"] == pytest.approx(100 * 3 / 5)
    assert row["HPD"] == pytest.approx(100 * (1 / 3 + 1 / 3 + 1 + 1 + 1) / 5)
    assert row["SNR"] == pytest.approx(100.0) and row["no_snr"] == 3


def test_too_long_inputs_are_skipped_and_counted(squad_file, tmp_path):
    # "[CLS] how big ? [SEP] paris is big [SEP]" has 8 tokens; every question on the 3-sentence context has > 16.
    result = run_quackie([str(squad_file)], [TINY], [RANDOM], max_length=16, store=Store(tmp_path / "s.sqlite"),
                         check=False, log=lambda _: None)
    assert result.selection[0]["too_long"] == 4 and result.selection[0]["kept"] == 1
    assert _rows(result)["Random"]["n"] == 1


def test_questions_on_a_paragraph_the_model_trained_on_are_never_explained(squad_file, tmp_path, monkeypatch):
    from interpeval.models import lineage

    seen = lineage.Lineage(TINY.model, frozenset({lineage.content_hash(CONTEXT)}), "paragraphs")
    monkeypatch.setattr(lineage, "read", lambda name: seen)  # as if the model's lineage.json listed CONTEXT
    result = run_quackie([str(squad_file)], [TINY], [RANDOM], store=Store(tmp_path / "s.sqlite"), check=False,
                         log=lambda _: None)
    assert result.selection[0]["trained_on"] == 5 and result.selection[0]["kept"] == 1  # only q4 ("Paris is big")
    assert _rows(result)["Random"]["n"] == 1


def test_a_rerun_resumes_from_the_store(squad_file, tmp_path):
    store = Store(tmp_path / "s.sqlite")
    band = parse_method("quackie_test_band:lo=0,hi=29")
    first = run_quackie([str(squad_file)], [TINY], [band], store=store, check=False, log=lambda _: None)
    calls = Band.calls
    second = run_quackie([str(squad_file)], [TINY], [band], store=store, check=False, log=lambda _: None)
    assert Band.calls == calls  # nothing explained again
    assert first.rows == second.rows
    assert [r.status for r in store.runs("quackie")] == ["finished"]


def test_random_baseline_matches_its_expectation_on_real_data(tmp_path):
    # Random picks one sentence uniformly: E[IoU] = (#distinct GT sentences) / N per sample. Over the first 100
    # vendored Reddit questions the seeded mean must sit within 4 standard errors of that expectation.
    result = run_quackie(["Reddit"], [TINY], [RANDOM], limit=100, store=Store(tmp_path / "s.sqlite"), check=False,
                         log=lambda _: None)
    from interpeval.benchmarks.quackie.build import build_instances
    from interpeval.benchmarks.quackie.data import dataset_path, load_squad

    instances = build_instances(load_squad(dataset_path("Reddit")))[0][:100]
    p = np.array([len(set(i.gt)) / len(i.sentences) for i in instances])
    row = _rows(result)["Random"]
    assert row["n"] == 100
    assert abs(row["IoU"] / 100 - p.mean()) < 4 * math.sqrt((p * (1 - p)).sum()) / len(p)


def test_leaderboard_set_and_method_parsing():
    assert [m.label for m in LEADERBOARD] == ["Random", "Gradient", "IntegratedGradients_50", "SmoothGrad_5",
                                            "LIME_10", "LIME_100", "SHAP_10", "SHAP_100"]
    assert parse_method("Random") == RANDOM
    assert parse_method("X=quackie_test_band:lo=3,value=0.5") == Method("X", "quackie_test_band",
                                                                       {"lo": 3, "value": 0.5})
    with pytest.raises(KeyError, match="unknown explainer 'nope'"):
        parse_method("nope")
    with pytest.raises(ValueError, match="not key=value"):
        parse_method("quackie_test_band:lo")


def test_wrong_length_scores_count_as_fails():
    # An interpreter that returns 2 scores for 3 sentences: all three metrics NaN, counted in 'fails'.
    (scored,) = score_run([{"n_sentences": 3, "gt": [1], "scores": {"sum": [0.2, 0.9]}}], "X")
    assert scored.method == "X_sum" and all(math.isnan(v) for v in scored.samples[0].values())
    assert scored.summary["fails"] == 1 and scored.summary["n"] == 1


def test_outputs_results_json_and_report(squad_file, tmp_path):
    result = run_quackie([str(squad_file)], [TINY], [RANDOM, parse_method("quackie_test_band:lo=0,hi=29")],
                         store=Store(tmp_path / "s.sqlite"), log=lambda _: None)
    paths = write_outputs(result, tmp_path / "out")
    rows = {row["method"]: row for row in json.loads(paths["results"].read_text())}
    # the file carries the hand-worked figures of test_hand_worked_iou_hpd_snr_through_the_pipeline (×100, k = 1)
    assert [rows["quackie_test_band_0_29_max"][k] for k in ("IoU", "HPD", "SNR")] == pytest.approx(
        [100 * 2.5 / 5, 100 * (2.5 + 1 / 3) / 5, 100.0])
    assert [rows["quackie_test_band_0_29_sum"][k] for k in ("IoU", "HPD", "SNR")] == pytest.approx(
        [100 * 2 / 5, 100 * 3 / 5, 100.0])
    assert all("n=5, fails=0" in row["info"] for row in rows.values())
    assert rows["Random"]["dataset"] == str(squad_file) and rows["Random"]["classifier"] == "Tiny"
    rows = list(rows.values())
    assert set(rows[0]) == {"dataset", "classifier", "method", "IoU", "HPD", "SNR", "info"}
    assert {r["method"] for r in rows} == {"Random", "quackie_test_band_0_29_sum", "quackie_test_band_0_29_max"}
    html = paths["report"].read_text()
    assert "QUACKIE leaderboard" in html and "data:image/png;base64" in html and "Ground-truth verification" in html


def test_run_rows_stored_metrics_and_report_are_one_scoring(squad_file, tmp_path):
    # score_run is the one scorer: the run's rows, the run metrics it stored and the report's leaderboard agree
    from interpeval.benchmarks.quackie import views

    store = Store(tmp_path / "s.sqlite")
    result = run_quackie([str(squad_file)], [TINY], [RANDOM, parse_method("quackie_test_band:lo=0,hi=29")],
                         store=store, check=False, log=lambda _: None)
    rows = _rows(result)
    board = {r["method"]: r for r in views.quackie_leaderboard(store)["rows"]}
    assert set(board) == set(rows)
    for name, row in rows.items():
        assert [board[name][k]["value"] for k in ("IoU", "HPD", "SNR")] == pytest.approx(
            [row[k] for k in ("IoU", "HPD", "SNR")])
    (info,) = [i for i in store.runs("quackie") if i.config["method"]["label"] != "Random"]
    stored = {(m["group"], m["name"]): m["value"] for m in store.metrics(info.id) if m["instance_id"] == ""}
    for agg in ("sum", "max"):
        assert 100 * stored[(agg, "mean_iou")] == pytest.approx(rows[f"quackie_test_band_0_29_{agg}"]["IoU"])


def test_cli_run_writes_the_outputs(squad_file, tmp_path):
    from typer.testing import CliRunner

    from interpeval.benchmarks.quackie.cli import app

    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["run", "--dataset", str(squad_file), "--classifier", "Classification",
                                   "--cls-model", "tiny-sequence-classification", "--method", "Random",
                                   "--method", "quackie_test_band:lo=0,hi=29", "--limit", "2", "--no-check",
                                   "--out", str(out), "--store", str(tmp_path / "s.sqlite")])
    assert res.exit_code == 0, res.output
    rows = json.loads((out / "results.json").read_text())
    assert {r["method"] for r in rows} == {"Random", "quackie_test_band_0_29_sum", "quackie_test_band_0_29_max"}
    assert (out / "report.html").is_file() and (out / "leaderboard.md").is_file()
