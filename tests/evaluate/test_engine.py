"""The evaluation engine on a tiny model: values equal direct metric calls, passes are shared, rerun resumes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from interpeval import metrics
from interpeval.errors import DataError
from interpeval.evaluate import Input, evaluate
from interpeval.evaluate.engine import HUMAN, word_rationale_to_tokens
from interpeval.evaluate.inputs import read_inputs
from interpeval.models import Target, tiny
from interpeval.stats import bootstrap_ci
from interpeval.store import Store

TEXTS = ["it 's a charming and often affecting journey .", "unflinchingly bleak and desperate"]


@pytest.fixture(scope="module")
def model():
    return tiny("sequence-classification")


def _direct(model, text, target, tokens, scores, name):
    """The metric called directly, each perturbed text decoded and scored on its own (no sharing, no batching)."""

    def score_fn(texts):
        out = []
        for t in texts:
            decoded = t if t == text else model.tokenizer.decode([int(i) for i in t.split()]) if t else ""
            out.append(float(model.score_texts([decoded], target=target)[0]))
        return out

    ids = [str(i) for i in model.tokenizer.convert_tokens_to_ids(tokens)]
    return metrics.get(name)(score_fn, ids, scores, full_text=text)


def test_values_equal_direct_metric_calls_and_passes_are_shared(model, tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, TEXTS, ["gradient", "random"], ["faithfulness"], store=store)
        outputs = store.instances(result.run_id)
    assert len(result.per_input) == 2 * 2 * 3 and result.computed == 2
    for out in outputs:
        target = Target(*out["target"])
        for label, explanation in out["explanations"].items():
            tokens = explanation["tokens"][1:-1]  # [CLS] ... [SEP]
            scores = np.array(explanation["scores"][1:-1])
            for name in ("ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo"):
                direct = _direct(model, out["text"], target, tokens, scores, name)
                assert out["values"][label][name] == pytest.approx(direct, abs=1e-5), (label, name)
    # the leave-one-out set, the unperturbed input and repeated erasures are scored once per input
    assert 0 < result.passes < result.requests
    n_tokens = [len(model.tokenizer(t)["input_ids"]) - 2 for t in TEXTS]
    assert result.passes <= result.requests - sum(n_tokens) - 2 * 2 * 3  # LOO once, p0 never re-scored


def test_aggregate_has_n_and_a_bootstrap_interval(model, tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, TEXTS, ["gradient"], ["ferret_aopc_compr"], store=store)
    (row,) = result.aggregate
    values = [r["value"] for r in result.per_input]
    assert row["n"] == 2 and row["mean"] == pytest.approx(np.mean(values))
    # two values: resample means are v1, their mean, v2 with mass ¼, ½, ¼, so the 95 % percentile interval is
    # exactly (min, max)
    assert values[0] != values[1] and (row["ci_low"], row["ci_high"]) == (min(values), max(values))
    assert "model" in result.tables()[0].provenance


def test_bootstrap_ci_by_hand():
    # resample means of [0, 0, 1] are k/3, k ~ Binomial(3, 1/3): P(k=3) = 1/27 = 3.7 % > 2.5 % and P(k=0) = 8/27, so
    # the 95 % interval is (0, 1); at 80 % the upper end is 2/3 (P(k=3) < 10 % ≤ P(k≥2) = 7/27)
    assert bootstrap_ci(np.array([0.0, 0.0, 1.0])) == (0.0, 1.0)
    assert bootstrap_ci(np.array([0.0, 0.0, 1.0]), level=0.8) == (0.0, pytest.approx(2 / 3))
    assert bootstrap_ci(np.array([0.0, 1.0]), level=0.4) == (0.5, 0.5)  # the central mass ½ alone
    low, high = bootstrap_ci(np.array([0.0, 1.0]), resamples=4000)
    assert low == 0.0 and high == 1.0  # resample means are 0, 0.5 or 1; 0 and 1 each have probability 1/4
    assert all(np.isnan(bootstrap_ci(np.array([1.0]))))


def test_rationales_are_mapped_from_words_to_tokens(model, tmp_path):
    text = "unflinchingly bleak and desperate"
    enc = model.tokenize([text])
    seq, offsets = enc.sequence_ids(0), enc["offset_mapping"][0]
    segments = [-1 if s is None else s for s in seq]
    tokens = word_rationale_to_tokens(text, offsets, segments, [1, 0, 0, 1])
    words = [next(w for w, (s, e) in enumerate([(0, 13), (14, 19), (20, 23), (24, 34)]) if s <= o[0] < e)
             for o, s in zip(offsets, seq, strict=True) if s is not None]
    assert tokens.tolist() == [int(w in (0, 3)) for w in words]
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, [Input("a", text, (1, 0, 0, 1))], ["gradient"], ["ferret"], store=store)
    assert {r["metric"] for r in result.aggregate} == set(metrics.names()) & {
        "ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo", "ferret_auprc", "ferret_token_f1",
        "ferret_token_iou"}


def test_eraser_metrics_score_the_human_rationale_once_per_input(model, tmp_path):
    # eraser_comprehensiveness needs tokens, a rationale and the model but no attribution: the engine scores each
    # input's human rationale in its own row, equal to the metric called directly on the rationale's tokens
    text = "unflinchingly bleak and desperate"
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, [Input("a", text, (1, 0, 0, 1)), Input("b", TEXTS[0])], ["gradient"],
                          ["eraser_comprehensiveness", "eraser_sufficiency", "ferret_aopc_compr"], store=store)
        (out, plain) = store.instances(result.run_id)
    assert set(out["values"]) == {"gradient", HUMAN} and set(plain["values"]) == {"gradient"}
    assert set(out["values"][HUMAN]) == {"eraser_comprehensiveness", "eraser_sufficiency"}
    assert "eraser_comprehensiveness" not in out["values"]["gradient"]
    tokens = out["explanations"]["gradient"]["tokens"][1:-1]
    enc = model.tokenize([text])
    segments = [-1 if s is None else s for s in enc.sequence_ids(0)]
    rationale = word_rationale_to_tokens(text, enc["offset_mapping"][0], segments, [1, 0, 0, 1])
    target = Target(*out["target"])

    def score_fn(texts):
        return [float(model.score_texts([t if t == text else model.tokenizer.decode([int(i) for i in t.split()])
                                         if t else ""], target=target)[0]) for t in texts]

    ids = [str(i) for i in model.tokenizer.convert_tokens_to_ids(tokens)]
    for name in ("eraser_comprehensiveness", "eraser_sufficiency"):
        direct = metrics.get(name)(score_fn, ids, rationale, full_text=text)
        assert out["values"][HUMAN][name] == pytest.approx(direct, abs=1e-5)
    assert {(r["method"], r["n"]) for r in result.aggregate if r["metric"] == "eraser_sufficiency"} == {(HUMAN, 1)}
    with pytest.raises(ValueError, match="score it with interpeval metrics score"):
        evaluate(model, [text], ["gradient"], ["baidu_macro_f1"], store=store)


def test_input_files_are_checked(tmp_path):
    good = tmp_path / "in.jsonl"
    good.write_text(json.dumps({"id": "x", "text": "a b c", "rationale": [1, 0, 1]}) + "\n")
    assert read_inputs(good) == [Input("x", "a b c", (1, 0, 1))]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"text": "a b c"}) + "\n" + json.dumps({"text": "a b", "rationale": [1]}) + "\n")
    with pytest.raises(DataError, match=r"bad.jsonl:line 2: rationale has 1 values but the text has 2 words"):
        read_inputs(bad)
    tsv = tmp_path / "in.tsv"
    tsv.write_text("label\tother\n1\tx\n")
    with pytest.raises(DataError, match="line 1: needs a header with a text or sentence column"):
        read_inputs(tsv)


def test_cli_prints_the_table_and_resumes(tmp_path):
    from interpeval.cli import app

    args = ["evaluate", *TEXTS, "--model", "tiny-sequence-classification", "--explainer", "gradient",
            "--metric", "faithfulness", "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "out")]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "| gradient | ferret_aopc_compr |" in first.output and "| random |" in first.output
    assert "2 evaluated now" in first.output
    assert json.loads((tmp_path / "out" / "aggregate.json").read_text())["provenance"]["model"]
    again = CliRunner().invoke(app, args)
    assert "0 evaluated now" in again.output


def test_partner_inputs_feed_the_consistency_metrics(model, tmp_path):
    from interpeval import explain

    text, partner = TEXTS[1], "bleak and desperate"
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, [Input("a", text, partner=partner)], ["gradient"], ["pcc_aligned"], store=store)
        (out,) = store.instances(result.run_id)
    target = Target(*out["target"])
    ori, dis = explain.get("gradient")().explain(model, [text, partner], target)
    ids = [model.tokenizer.convert_tokens_to_ids(a.tokens[1:-1]) for a in (ori, dis)]
    expected = metrics.get("pcc_aligned")([str(i) for i in ids[0]], ori.scores[1:-1],
                                          [str(i) for i in ids[1]], dis.scores[1:-1])
    assert result.per_input[0]["value"] == pytest.approx(expected, abs=1e-9)
