"""Masked-segment prediction, ATT directions, metrics on hand-made pairs, and a resumable run on built records."""

import itertools
import json
import math
import subprocess
import sys

import numpy as np
import pytest
import torch

from interpeval.benchmarks.plm.build import build
from interpeval.benchmarks.plm.inputs import model_input
from interpeval.benchmarks.plm.records import GoldenRecord, read_golden
from interpeval.benchmarks.plm.run import evaluate, limit_records, nearest_rationale, rationale_ratios
from interpeval.benchmarks.plm.tables import consistency, figure, interpretability_table, load_result
from interpeval.explain import get
from interpeval.models import Target
from interpeval.store import Store


def test_fill_mask_returns_the_exact_k_best_joint_fillings(tiny_mlm):
    text = "the capital is " + tiny_mlm.tokenizer.mask_token * 2 + " ."
    (best,) = tiny_mlm.fill_mask(text, k=3)
    enc = tiny_mlm.tokenize(text)
    with torch.no_grad():
        logp = torch.log_softmax(tiny_mlm.forward(enc).logits[0].float(), -1)
    positions = (enc["input_ids"][0] == tiny_mlm.tokenizer.mask_token_id).nonzero()[:, 0].tolist()
    # brute force over the 5 best ids per position: the 3 best sums of log-probabilities
    tops = [logp[p].topk(5).indices.tolist() for p in positions]
    combos = sorted(((a, b) for a, b in itertools.product(*tops)),
                    key=lambda c: -(logp[positions[0], c[0]] + logp[positions[1], c[1]]).item())[:3]
    assert [ids for ids, _ in best] == combos
    assert best[0][1] == pytest.approx((logp[positions[0], combos[0][0]] + logp[positions[1], combos[0][1]]).item(),
                                       abs=1e-5)


def test_the_head_runs_at_the_masks_only_with_the_same_values(tiny_mlm):
    """score / score_texts / predict / fill_mask equal their values from the head over every token, on a padded
    batch whose rows have different numbers of masks."""
    texts = ["the film was a [MASK] [MASK] surprise .", "a [MASK] , dull [MASK] .", "so [MASK] ."]
    enc = tiny_mlm.tokenize(texts)
    with torch.no_grad():
        probs = torch.softmax(tiny_mlm.forward(enc).logits.float(), -1)  # the head over every token
    masks = enc["input_ids"] == tiny_mlm.tokenizer.mask_token_id
    per_row = [probs[row][masks[row]] for row in range(len(texts))]  # [n_masks_of_row, V]
    gold = (2000, 3000)
    target = Target("masked_token_prob", token_ids=gold)
    want = [float(p[0, gold[0]] + p[1, gold[1]]) for p in per_row[:2]]
    with torch.no_grad():
        np.testing.assert_allclose(tiny_mlm.score(tiny_mlm.tokenize(texts[:2]), target).numpy(), want, rtol=1e-5)
    np.testing.assert_allclose(tiny_mlm.score_texts(texts[:2], target=target), want, rtol=1e-5)
    best = [p.max(-1) for p in per_row]
    np.testing.assert_allclose(tiny_mlm.score_texts(texts), [b.values.sum().item() for b in best], rtol=1e-5)
    assert tiny_mlm.predict(texts) == [b.indices.tolist() for b in best]
    for row, filled in enumerate(tiny_mlm.fill_mask(texts, k=1)):
        assert filled[0][0] == tuple(best[row].indices.tolist())
        assert filled[0][1] == pytest.approx(best[row].values.log().sum().item(), abs=1e-4)
    with torch.no_grad():  # the layers ATT and probing read come from the encoder alone, unchanged
        full = tiny_mlm.forward(enc, output_hidden_states=True).hidden_states
    states = tiny_mlm.hidden_states(texts)
    for k, layer in states.layers.items():
        torch.testing.assert_close(layer, full[k].float())


def test_model_input_puts_one_mask_per_answer_token(tiny_mlm):
    gold = tiny_mlm.answer_ids("kuechly")  # a word the uncased vocabulary splits into several pieces
    assert len(gold) > 1
    text, spans, ids = model_input(["leader", "was", "[MASK]", "."], "en", "kuechly", tiny_mlm)
    assert ids == gold and text == "leader was " + "[MASK]" * len(gold) + " ."
    assert [text[a:b] for a, b in spans] == ["leader", "was", "[MASK]" * len(gold), "."]


def test_attention_directions_read_rows_or_columns_of_the_mask(tiny_mlm):
    text = "the film was a [MASK] surprise ."
    states = tiny_mlm.hidden_states(text, attentions=True)
    att = states.attentions[max(states.attentions)][0].mean(0)  # last layer, mean over heads: [query, key]
    mask = (states.encoding["input_ids"][0] == tiny_mlm.tokenizer.mask_token_id).nonzero()[0, 0].item()
    (as_query,) = get("attention")(query="mask").explain(tiny_mlm, text)
    (as_key,) = get("attention")(query="mask_key").explain(tiny_mlm, text)
    np.testing.assert_allclose(as_query.scores, att[mask].numpy(), atol=1e-5)  # what [MASK] attends to
    np.testing.assert_allclose(as_key.scores, att[:, mask].numpy(), atol=1e-5)  # what attends to [MASK]


def _golden(sid, tokens, rationale, kind=None, rel=(), ori=None, dim="grammar"):
    meta = {"lang": "en", "dimension": dim, "perturbation": kind, "label": "silver", "ori_id": ori}
    return GoldenRecord(sid, " ".join(tokens), tokens, "x", [rationale], "ori" if kind is None else "disturb",
                        list(rel), meta)


def test_map_over_pairs_leaves_transformations_out():
    ori = _golden(0, ["a", "b", "[MASK]", "c", "d"], [0, 1], rel=(1, 2))
    rep = _golden(1, ["a", "e", "[MASK]", "c", "d"], [0, 1], "replace", ori=0)
    trans = _golden(2, ["c", "d", "[MASK]", "a", "b"], [3, 4], "transform", ori=0)
    golden = [ori, rep, trans]
    outputs = {0: {"rationale": [3, 0, 1], "word_scores": [3, 2, 0, 4, 1]},
               1: {"rationale": [3, 1, 0], "word_scores": [3, 1, 0, 4, 2]},
               2: {"rationale": [0, 3], "word_scores": [4, 0, 0, 3, 1]}}
    # ori ranks c, a, b; rep ranks c, e, a: MAP = 1/3 (1/1·1 + 1/2·1 + 1/3·2) = 13/18
    result = consistency(golden, outputs, "grammar", ["ins_del", "replace"], {"grammar": 0.5})
    assert result["map"] == pytest.approx(13 / 18) and result["pair_maps"] == [pytest.approx(13 / 18)]
    assert math.isnan(consistency(golden, outputs, "grammar", [], {"grammar": 0.5})["map"])
    # RRL: 2/4 non-mask tokens in every record; the nearest-K baseline takes the 2 tokens beside [MASK]
    assert rationale_ratios(golden) == {"grammar": 0.5}
    assert nearest_rationale(ori, 0.5) == [1, 3]


def test_limits_keep_pairs_whole():
    a = _golden(0, ["a", "[MASK]"], [0], rel=(1,))
    a_rep = _golden(1, ["b", "[MASK]"], [0], "replace", ori=0)
    b = _golden(2, ["c", "[MASK]"], [0], rel=(3,))
    b_ins = _golden(3, ["x", "c", "[MASK]"], [1], "ins_del", ori=2)
    a.meta["unique"] = {"unique": True}
    b.meta["unique"] = {"unique": False}
    golden = [a, a_rep, b, b_ins]
    assert [r.sent_id for r in limit_records(golden, 1)] == [0, 1]
    assert [r.sent_id for r in limit_records(golden, None, unique_only=True)] == [0, 1]
    assert [r.sent_id for r in limit_records(golden, None)] == [0, 1, 2, 3]


def test_run_is_stored_resumable_and_tabulated(data_dir, tmp_path, tiny_mlm):
    summary = build(data_dir, tmp_path / "data", ("zh",), per_dimension=2, dimensions=("grammar", "reasoning"))
    golden = summary.files["zh"]
    ig = get("integrated_gradients")(n_steps=4, baseline="pad")
    with Store(tmp_path / "store.sqlite") as store:
        run_id = evaluate(golden, tiny_mlm, ig, "IG", store, per_dimension=1)
        first = store.instances(run_id)
        assert evaluate(golden, tiny_mlm, ig, "IG", store, per_dimension=1) == run_id  # nothing left to do
        assert store.instances(run_id) == first
        records = {r.sent_id: r for r in read_golden(golden)}
        for row in first:
            record = records[int(row["instance_id"])]
            assert len(row["word_scores"]) == len(record.sent_token) and len(row["top_k"]) == 3
            assert record.mask_index not in row["rationale"]
            assert row["hit3"] >= row["hit1"]
        result = load_result(store, run_id, "zh")
    evaluated = [r for r in records.values() if r.sent_id in result.outputs]
    table = interpretability_table("zh", [result], golden, evaluated)
    assert table.title.startswith("Table 5") and "silver" in " ".join(table.notes)  # Chinese: the paper's 4-7
    assert table.provenance["model"] == tiny_mlm.name and "n_steps" in table.provenance["explainer"]
    assert figure(tmp_path / "fig.png", "zh", [result], evaluated).stat().st_size > 0


def test_a_killed_run_resumes_to_the_uninterrupted_result(data_dir, tmp_path, tiny_mlm):
    summary = build(data_dir, tmp_path / "data", ("en",), per_dimension=1, dimensions=("semantics", "computation"))
    golden = summary.files["en"]
    att = get("attention")(query="mask", official=True)

    def kill(done, total):
        raise KeyboardInterrupt

    with Store(tmp_path / "killed.sqlite") as store:
        with pytest.raises(KeyboardInterrupt):
            evaluate(golden, tiny_mlm, att, "ATT", store, chunk=2, progress=kill)
        (info,) = store.runs()
        assert info.n_instances == 2  # the first chunk was stored before the kill
        run_id = evaluate(golden, tiny_mlm, att, "ATT", store, chunk=2)
        resumed = store.instances(run_id)
    with Store(tmp_path / "whole.sqlite") as store:
        whole = store.instances(evaluate(golden, tiny_mlm, att, "ATT", store, chunk=2))
    assert resumed == whole and len(whole) == len(read_golden(golden))


def test_cli_reports_a_bad_golden_file_with_its_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"sent_id": 1}\n', "utf-8")
    done = subprocess.run([sys.executable, "-c", "from interpeval.cli import main; main()", "plm", "run", str(bad),
                           "--model", "tiny-masked-lm", "--store", str(tmp_path / "s.sqlite")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert f"{bad}:line 1: missing field(s)" in done.stderr and "Traceback" not in done.stderr


def test_cli_builds_runs_and_writes_the_tables(data_dir, tmp_path):
    from typer.testing import CliRunner

    from interpeval.benchmarks.plm.records import read_predictions
    from interpeval.cli import app

    runner = CliRunner()
    built = runner.invoke(app, ["plm", "build", "--data-dir", str(data_dir), "--out", str(tmp_path / "data"),
                                "--langs", "en", "--per-dimension", "1"])
    assert built.exit_code == 0, built.output
    assert "zh/semantics" not in built.output and "en computation: originals 1, ins_del 1" in built.output
    assert "en reasoning: originals 1" in built.output and "RRL" in built.output  # English COPA
    golden = tmp_path / "data" / "plm-en.golden.jsonl"
    # the zoo's English masked LM checks every original by default (a model signal for review, counted)
    assert "en uniqueness check: minilm-mlm" in built.output and "ambiguous_flag" in built.output
    assert all("ambiguous_flag" in r.meta for r in read_golden(golden) if r.sample_type == "ori")
    ran = runner.invoke(app, ["plm", "run", str(golden), "--model", "tiny-masked-lm", "--explainers", "ATT",
                              "--method", "random", "--param", "seed=3", "--out", str(tmp_path / "out"),
                              "--store", str(tmp_path / "s.sqlite")])
    assert ran.exit_code == 0, ran.output
    out = tmp_path / "out"
    # English is the paper's Tables 8-11 (and Table 3, the statistics)
    assert {p.name for p in out.glob("table*.md")} == {"table3-en.md", "table8-en.md", "table9-en.md", "table10-en.md",
                                                       "table11-en.md"}
    assert "| tiny-masked-lm | random | all |" in (out / "table9-en.md").read_text()
    assert "F1^Δ" in (out / "table10-en.md").read_text()
    preds = read_predictions(out / "plm-en-tiny-masked-lm-random.predict.jsonl", read_golden(golden))
    assert len(preds) == len(read_golden(golden)) and (out / "report.html").stat().st_size > 0


def test_cli_bench_evaluates_every_model_of_a_language(data_dir, tmp_path):
    """`plm bench` in one command: both languages built, every --model-en evaluated (the first builds), one report."""
    from typer.testing import CliRunner

    from interpeval.cli import app

    out = tmp_path / "bench"
    done = CliRunner().invoke(app, ["plm", "bench", "--data-dir", str(data_dir), "--out", str(out),
                                    "--model-en", "tiny-masked-lm", "--model-en", "tiny-encoder",
                                    "--model-zh", "tiny-masked-lm", "--per-dimension", "1", "--explainers", "ATT",
                                    "--store", str(tmp_path / "s.sqlite")])
    assert done.exit_code == 0, done.output
    summary = json.loads((out / "data" / "build-summary.jsonl").read_text().splitlines()[-1])
    assert summary["models"] == {"en": "tiny-masked-lm", "zh": "tiny-masked-lm"}
    table8 = (out / "en" / "table8-en.md").read_text()
    assert "| tiny-masked-lm | all |" in table8 and "| tiny-encoder | all |" in table8
    assert "| tiny-encoder |" not in (out / "zh" / "table4-zh.md").read_text()
    assert (out / "report.html").stat().st_size > 0 and (out / "zh" / "figure1-zh.png").is_file()


def test_majority_baseline_leaves_each_original_and_its_partners_out():
    from interpeval.benchmarks.plm.tables import _majority

    def rec(sid, answer, kind=None, rel=()):
        record = _golden(sid, ["a", "[MASK]"], [0], kind, rel)
        record.answers = answer
        return record

    # x: one original + its partner; y: four originals; z: one original
    golden = [rec(0, "x", rel=(1,)), rec(1, "x", "ins_del"), *(rec(i, "y") for i in (2, 3, 4, 5)), rec(6, "z")]
    # top-1 of the others is y for every group but the y ones, where it is y as well (3 left vs x's 2): 4 / 7
    assert _majority(golden, 1) == pytest.approx(4 / 7)
    # top-3: the x pair sees only {y, z} and z sees only {x, y}; an in-sample count would give 7 / 7
    assert _majority(golden, 3) == pytest.approx(4 / 7)


def test_cli_build_skips_the_uniqueness_check_when_asked(data_dir, tmp_path):
    from typer.testing import CliRunner

    from interpeval.cli import app

    built = CliRunner().invoke(app, ["plm", "build", "--data-dir", str(data_dir), "--out", str(tmp_path / "data"),
                                     "--langs", "en", "--per-dimension", "1", "--no-check-uniqueness"])
    assert built.exit_code == 0, built.output
    assert "en uniqueness check: not run" in built.output and "ambiguous_flag" not in built.output
    assert not any("unique" in r.meta for r in read_golden(tmp_path / "data" / "plm-en.golden.jsonl"))
