"""The evaluation engine on a model small enough to work out by hand: every stored value is derived in the comments.

The model is a bag of words over the tiny BERT tokenizer's real vocabulary: logits ``[0, Σ w(token)]``, so
P(class 1) = F / (1 + F) with F = Π f(token), f = e^w: good 4, fine 2, bad 1/4, every other token 1 ([CLS], [SEP],
"film"). The explainer scores each token by its evidence for the explained class: w for class 1, −w for class 0
(``sign=-1``: the opposite). No gradient, no random draw: a
test runs in well under a second once the tokenizer is loaded, so mutation testing can afford it per mutant.
"""

from __future__ import annotations

import math
import time
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from interpeval.evaluate import Input, Method, evaluate
from interpeval.evaluate.engine import (
    HUMAN,
    PRESETS,
    Evaluation,
    Result,
    aggregate,
    parse_method,
    per_input_rows,
    resolve_metrics,
    word_rationale_to_tokens,
)
from interpeval.explain import registry
from interpeval.explain.base import Explainer
from interpeval.models.base import Target
from interpeval.models.kinds import SequenceClassificationModel
from interpeval.stats import bootstrap_ci
from interpeval.store import Store

FACTORS = {"good": 4.0, "fine": 2.0, "bad": 0.25}
GOOD, BAD = "good fine film", "bad film"


class BagOfWords(torch.nn.Module):
    """logits = [0, Σ over attended tokens of w(token)]."""

    def __init__(self, weights: torch.Tensor) -> None:
        super().__init__()
        self.register_buffer("w", weights)

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        total = (self.w[input_ids] * attention_mask).sum(-1)
        return SimpleNamespace(logits=torch.stack([torch.zeros_like(total), total], -1))


class Weights(Explainer):
    """Each token's weight toward the target class (w for class 1, −w for class 0), times ``sign``."""

    parameters = None

    def __init__(self, sign: float = 1.0) -> None:
        self.sign = sign

    def _attribute(self, model, enc, target):
        toward = 1.0 if target.index == 1 else -1.0
        return (toward * self.sign * model.hf.w[enc["input_ids"]] * enc["attention_mask"]).numpy()


@pytest.fixture(scope="module")
def model():
    from transformers import AutoTokenizer

    from interpeval.models.tiny import tokenizer_dir

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir()))
    weights = torch.zeros(len(tokenizer), dtype=torch.float64)
    for word, factor in FACTORS.items():
        weights[tokenizer.convert_tokens_to_ids(word)] = math.log(factor)
    return SequenceClassificationModel(BagOfWords(weights), tokenizer, "bag-of-words", batch_size=4)


@pytest.fixture(autouse=True)
def weights_explainer(monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, "weights", Weights)
    monkeypatch.setattr(Weights, "name", "weights", raising=False)


def _p1(*words: str) -> float:
    """P(class 1) of a text made of ``words``."""
    f = math.prod(FACTORS.get(w, 1.0) for w in words)
    return f / (1 + f)


def test_the_model_is_the_bag_of_words_worked_out(model):
    assert model.predict_proba([GOOD, BAD, "film"])[:, 1] == pytest.approx([8 / 9, 1 / 5, 1 / 2])
    assert _p1("good", "fine", "film") == pytest.approx(8 / 9) and _p1("bad") == pytest.approx(1 / 5)


def test_faithfulness_values_worked_out_by_hand(model, tmp_path):
    # GOOD: target class 1, p0 = 8/9; scores (ln 4, ln 2, 0) over good fine film. ferret's thresholds 10..100 %
    # select int(t·3) = 1, 2, 3 top tokens, positive only: {good}, {good, fine}, and 3 repeats {good, fine}.
    #   compr = mean(8/9 − p(fine film), 8/9 − p(film)) = mean(8/9 − 2/3, 8/9 − 1/2) = 11/36
    #   suff  = mean(8/9 − p(good), 8/9 − p(good fine)) = mean(8/9 − 4/5, 0) = 2/45
    #   LOO effects (2/9, 8/9 − 4/5 = 4/45, 0) rank as the scores: tau = 1
    # BAD: target class 0, p0 = 4/5; scores toward class 0 (ln 4, 0): {bad} once (int(t·2) = 1 from t = 0.5; 2
    #   repeats it): compr 4/5 − p0(film) = 4/5 − 1/2 = 3/10, suff 4/5 − p0(bad) = 0; LOO (3/10, 0): tau = 1
    # reversed: GOOD's scores (−ln 4, −ln 2, 0): nothing positive, so compr 0 and suff 1 (no bin); LOO against
    #   them: tau = −1. BAD's (−ln 4, 0): no bin (0, 1), tau = −1
    methods = [Method("w", "weights"), Method("reversed", "weights", {"sign": -1.0})]
    with Store(tmp_path / "s.sqlite") as store:
        wall, cpu = time.perf_counter(), time.process_time()
        result = evaluate(model, [Input("g", GOOD), Input("b", BAD)], methods, ["faithfulness"], store=store,
                          data="by-hand")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        (good, bad) = store.instances(result.run_id)
    # the timings are disjoint parts of the call: each at least 0, together at most the call's own time
    parts = ("evaluate", "explain/w", "explain/reversed")
    assert set(result.timings) == {*parts, *(f"cpu:{p}" for p in parts)}
    assert all(v >= 0 for v in result.timings.values())
    assert sum(result.timings[p] for p in parts) <= wall and sum(result.timings[f"cpu:{p}"] for p in parts) <= cpu
    names = ("ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo")
    expected = {("g", "w"): (11 / 36, 2 / 45, 1.0), ("b", "w"): (3 / 10, 0.0, 1.0),
                ("g", "reversed"): (0.0, 1.0, -1.0), ("b", "reversed"): (0.0, 1.0, -1.0)}
    for out in (good, bad):
        assert set(out["values"]) == {"w", "reversed"}
        for label, vals in out["values"].items():
            assert vals == pytest.approx(dict(zip(names, expected[(out["instance_id"], label)], strict=True)),
                                         abs=1e-6), (out["instance_id"], label)
    assert good["target"] == ["class_prob", 1] and bad["target"] == ["class_prob", 0]
    assert good["text"] == GOOD and good["explanations"]["w"]["tokens"] == ["[CLS]", "good", "fine", "film", "[SEP]"]
    assert good["explanations"]["reversed"]["scores"] == pytest.approx([0, -math.log(4), -math.log(2), 0, 0])
    # per-input rows: 2 inputs × 2 methods × 3 metrics, in the stored order
    assert result.per_input[:3] == [{"id": "g", "text": GOOD, "method": "w", "metric": n,
                                     "value": pytest.approx(v, abs=1e-6)} for n, v in zip(names, expected[("g", "w")],
                                                                                           strict=True)]
    assert len(result.per_input) == 12 and result.computed == 2
    # the aggregate: the mean of two values and the bootstrap interval of two (their min and max)
    rows = {(r["method"], r["metric"]): r for r in result.aggregate}
    assert [(r["method"], r["metric"]) for r in result.aggregate] == [(m, n) for m in ("w", "reversed") for n in names]
    compr = rows[("w", "ferret_aopc_compr")]
    assert compr["mean"] == pytest.approx((11 / 36 + 3 / 10) / 2) and compr["n"] == 2 and compr["nan"] == 0
    assert (compr["ci_low"], compr["ci_high"]) == pytest.approx((3 / 10, 11 / 36))
    assert rows[("reversed", "ferret_taucorr_loo")]["mean"] == pytest.approx(-1.0)
    assert result.provenance == {"model": "bag-of-words", "data": "by-hand (2 inputs)",
                                 "explainers": {"w": {"name": "weights"}, "reversed": {"name": "weights", "sign": -1.0}},
                                 "metrics": list(names), "options": {}, "run": result.run_id}
    # each distinct (target, text) scored once, the unperturbed inputs never (their p0 comes from the first pass):
    # GOOD (class 1): fine film, film, good, good fine, good film (LOO repeats three of them) = 5; BAD (class 0):
    # film, bad = 2 → 7 model rows. Texts asked for, p0 included: GOOD w compr 3 + suff 3 + LOO 4, reversed LOO 4
    # (no bin: no call) = 14; BAD w compr 2 + suff 2 + LOO 3, reversed LOO 3 = 10 → 24
    assert (result.passes, result.requests) == (7, 24)


def test_plausibility_and_the_human_rationale_row_by_hand(model, tmp_path):
    # GOOD with the rationale "good" (1 0 0): the hard top-5 positive rationale is {good, fine}: token F1 = 2·(1/2·1)/
    # (1/2 + 1) = 2/3, IoU 1/2; ranking good first puts all of the rationale above the rest: AUPRC 1.
    # The human rationale's own row: ERASER comprehensiveness 8/9 − p(fine film) = 2/9, sufficiency 8/9 − p(good)
    # = 4/45. BAD has no rationale: no plausibility value and no human row.
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, [Input("g", GOOD, (1, 0, 0)), Input("b", BAD)], ["weights"],
                          ["plausibility", "eraser_comprehensiveness", "eraser_sufficiency"], store=store)
        (good, bad) = store.instances(result.run_id)
    assert good["values"] == {"weights": pytest.approx({"ferret_auprc": 1.0, "ferret_token_f1": 2 / 3,
                                                         "ferret_token_iou": 1 / 2}),
                              HUMAN: pytest.approx({"eraser_comprehensiveness": 2 / 9, "eraser_sufficiency": 4 / 45})}
    assert bad["values"] == {"weights": {}}
    agg = [(r["method"], r["metric"], r["n"]) for r in result.aggregate]
    assert agg == [("weights", "ferret_auprc", 1), ("weights", "ferret_token_f1", 1), ("weights", "ferret_token_iou", 1),
                   (HUMAN, "eraser_comprehensiveness", 1), (HUMAN, "eraser_sufficiency", 1)]
    assert result.provenance["explainers"] == {"weights": {"name": "weights"}}


def test_provenance_names_the_draw_rule_of_a_method_that_draws(model, tmp_path):
    # Random draws per input: its runs are keyed with the default rule draws="tokens" (docs/cluster.md), and the
    # tables' provenance names it beside its seed; "weights" draws nothing and keeps its parameters as given
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, [Input("g", GOOD)], ["random:seed=3", "weights"], ["ferret_taucorr_loo"],
                          store=store)
    explainers = {"random:seed=3": {"name": "random", "seed": 3, "draws": "tokens"}, "weights": {"name": "weights"}}
    assert result.provenance["explainers"] == explainers
    assert all(table.provenance["explainers"] == explainers for table in result.tables())


def test_metric_options_and_a_given_target_reach_the_metrics(model, tmp_path):
    # thresholds (1.0,) alone: compr removes all three tokens' positive part {good, fine}: 8/9 − p(film) = 7/18.
    # Target class 0 for GOOD (explained for class 0, not the predicted 1): p0 = 1/9; "w" scores toward class 0 are
    # (−ln 4, −ln 2, 0): no bin, 0; "reversed" ones (ln 4, ln 2, 0) remove {good, fine}: 1/9 − 1/2 = −7/18
    options = {"ferret_aopc_compr": {"thresholds": (1.0,)}}
    methods = [Method("w", "weights"), Method("reversed", "weights", {"sign": -1.0})]
    with Store(tmp_path / "s.sqlite") as store:
        one = evaluate(model, [GOOD], ["weights"], ["ferret_aopc_compr"], options=options, store=store)
        zero = evaluate(model, [GOOD], methods, ["ferret_aopc_compr"], options=options, store=store,
                        target=Target("class_prob", 0))
    assert one.per_input[0]["value"] == pytest.approx(7 / 18) and one.per_input[0]["id"] == "0"
    assert [r["value"] for r in zero.per_input] == pytest.approx([0.0, -7 / 18])
    assert one.provenance["options"] == options and one.run_id != zero.run_id


def test_a_partner_is_explained_for_the_original_target(model, tmp_path):
    # BAD's partner "bad fine film" is explained for BAD's target (class 0), with scores (ln 4, −ln 2, 0); aligned
    # with BAD's (ln 4, 0) on bad and film, the Pearson correlation of the two common tokens is 1
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate(model, [Input("b", BAD, partner="bad fine film")], ["weights"], ["pcc_aligned"], store=store)
        (out,) = store.instances(result.run_id)
    from interpeval import metrics

    expected = metrics.get("pcc_aligned")(["bad", "film"], [math.log(4), 0.0], ["bad", "fine", "film"],
                                          [math.log(4), -math.log(2), 0.0])
    assert out["values"]["weights"]["pcc_aligned"] == pytest.approx(expected)
    assert set(out["explanations"]) == {"weights"} and out["target"] == ["class_prob", 0]


def test_a_rerun_resumes_and_the_chunk_does_not_change_a_value(model, tmp_path):
    inputs = [Input("g", GOOD), Input("b", BAD), Input("f", "fine film")]
    with Store(tmp_path / "s.sqlite") as store:
        first = evaluate(model, inputs, ["weights"], ["ferret_aopc_compr"], store=store, chunk=2)
        again = evaluate(model, inputs, ["weights"], ["ferret_aopc_compr"], store=store, chunk=2)
        single = evaluate(model, inputs, ["weights"], ["ferret_aopc_compr"], store=store, chunk=1)
        stored = store.metrics(first.run_id, "g")
    # "fine film": class 1 (p 2/3), scores (ln 2, 0): {fine} once: 2/3 − 1/2 = 1/6
    assert [r["value"] for r in first.per_input] == pytest.approx([11 / 36, 3 / 10, 1 / 6])
    assert (first.computed, again.computed, again.run_id) == (3, 0, first.run_id)
    assert (again.passes, again.requests) == (0, 0)  # nothing computed: no model row, no text asked for
    assert stored == [{"instance_id": "g", "group": "", "name": "weights/ferret_aopc_compr",
                       "value": pytest.approx(11 / 36)}]
    assert single.run_id != first.run_id and single.per_input == first.per_input


def test_the_run_key_names_everything_a_value_depends_on(model):
    bench = Evaluation(model, [Input("g", GOOD, (1, 0, 0), "good film")], [Method("w", "weights", {"sign": 2.0})],
                       ["ferret_aopc_compr"], Target("class_prob", 1), {"ferret_aopc_compr": {"only_pos": False}},
                       chunk=3, seed=7)
    key = bench.key()
    assert key.benchmark == "evaluate" and key.model == "bag-of-words"
    assert key.config == {"methods": [["w", "weights", {"sign": 2.0}]], "metrics": ["ferret_aopc_compr"],
                          "options": {"ferret_aopc_compr": {"only_pos": False}}, "target": ["class_prob", 1],
                          "chunk": 3, "seed": 7, "batch_size": 4}
    import hashlib
    import json

    digest = hashlib.sha256(json.dumps([["g", GOOD, [1, 0, 0], "good film"]]).encode()).hexdigest()[:16]
    assert key.data_fingerprint == digest
    plain = Evaluation(model, [Input("g", GOOD)], [Method("w", "weights")], ["ferret_aopc_compr"])
    assert plain.key().config["target"] is None and plain.key().config["chunk"] == 8 and plain.seed == 0
    assert plain.options == {} and plain.instances() == [Input("g", GOOD)] and plain.key().data_fingerprint != digest


def test_counters_add_up_and_summarize_uses_the_aggregate(model):
    bench = Evaluation(model, [Input("g", GOOD)], [Method("w", "weights")], ["ferret_aopc_compr"])
    assert bench.counters() == {"passes": 0, "requests": 0}
    bench.add_counters({"passes": 3, "requests": 5, "explain/w": 0.5})
    bench.add_counters({"passes": 1, "requests": 2, "explain/w": 0.25, "evaluate": 1.0})
    bench.add_counters({"evaluate": 0.5})  # a chunk that scored nothing: the counts stay
    assert bench.counters() == {"passes": 4, "requests": 7, "explain/w": 0.75, "evaluate": 1.5}
    assert bench.timings == {"explain/w": 0.75, "evaluate": 1.5} and bench.passes.model is model
    outputs = [{"instance_id": "g", "text": GOOD, "values": {"w": {"ferret_aopc_compr": 0.5}}},
               {"instance_id": "b", "text": BAD, "values": {"w": {"ferret_aopc_compr": float("nan")}}},
               {"instance_id": "f", "text": "film", "values": {"w": {"ferret_aopc_compr": 1.0}}}]
    # two finite values: the mean 0.75, the interval their min and max; the NaN counted apart
    assert bench.summarize(outputs) == {"w/ferret_aopc_compr": {"mean": 0.75, "ci_low": 0.5, "ci_high": 1.0, "n": 2,
                                                                "nan": 1}}


def test_aggregate_and_rows_by_hand():
    methods = [Method("a", "x"), Method("b", "y")]
    outputs = [{"instance_id": "1", "text": "t1", "values": {"a": {"m": 0.0, "k": 1.0}, HUMAN: {"h": 0.25}}},
               {"instance_id": "2", "text": "t2", "values": {"a": {"m": 1.0}, "b": {}, HUMAN: {"h": 0.75}}},
               {"instance_id": "3", "text": "t3", "values": {"a": {"m": 2.0, "k": float("nan")}}}]
    rows = aggregate(outputs, methods, ["m", "k", "h"], seed=3)
    # "a"/"m": 0, 1, 2 → mean 1; "a"/"k" asked twice, one NaN → n 1, nan 1; "b": never asked; human "h": 0.25, 0.75
    assert [(r["method"], r["metric"], r["mean"], r["n"], r["nan"]) for r in rows] == [
        ("a", "m", 1.0, 3, 0), ("a", "k", 1.0, 1, 1), (HUMAN, "h", 0.5, 2, 0)]
    assert (rows[0]["ci_low"], rows[0]["ci_high"]) == bootstrap_ci(np.array([0.0, 1.0, 2.0]), seed=3)
    assert (rows[2]["ci_low"], rows[2]["ci_high"]) == (0.25, 0.75)
    # the interval's resamples are drawn with the given seed, 0 unless told (ten spread values: seeds differ)
    spread = [{"values": {"a": {"m": float(v * v)}}} for v in range(10)]
    squares = np.array([float(v * v) for v in range(10)])
    (by_default,) = aggregate(spread, methods[:1], ["m"])
    (seeded,) = aggregate(spread, methods[:1], ["m"], seed=5)
    assert (by_default["ci_low"], by_default["ci_high"]) == bootstrap_ci(squares, seed=0)
    assert (seeded["ci_low"], seeded["ci_high"]) == bootstrap_ci(squares, seed=5) != bootstrap_ci(squares, seed=0)
    assert bootstrap_ci(squares, seed=1) != bootstrap_ci(squares, seed=0)
    only_nan = aggregate([{"values": {"a": {"m": float("nan")}}}], methods[:1], ["m"])
    assert math.isnan(only_nan[0]["mean"]) and (only_nan[0]["n"], only_nan[0]["nan"]) == (0, 1)
    assert per_input_rows(outputs[:1]) == [
        {"id": "1", "text": "t1", "method": "a", "metric": "m", "value": 0.0},
        {"id": "1", "text": "t1", "method": "a", "metric": "k", "value": 1.0},
        {"id": "1", "text": "t1", "method": HUMAN, "metric": "h", "value": 0.25}]
    result = Result(1, per_input_rows(outputs[:1]), rows, {"model": "m", "data": "d"}, 1)
    agg, per = result.tables()
    assert agg.columns == ["method", "metric", "mean", "ci_low", "ci_high", "n", "nan"]
    assert agg.rows == [[r[c] for c in agg.columns] for r in rows] and agg.digits == per.digits == 3
    assert per.columns == ["id", "method", "metric", "value"] and per.provenance == {"model": "m", "data": "d"}
    assert per.rows == [["1", "a", "m", 0.0], ["1", "a", "k", 1.0], ["1", HUMAN, "h", 0.25]]
    assert agg.title == "Explanation quality (mean over inputs, 95 % bootstrap interval)" and per.title == "Per input"


def test_methods_metrics_and_rationales_parse_by_hand():
    assert parse_method("gradient") == Method("gradient", "gradient", {})
    assert parse_method(" IG=integrated_gradients:n_steps=5") == Method("IG", "integrated_gradients", {"n_steps": 5})
    assert parse_method("lime:n_samples=10 ") == Method("lime:n_samples=10", "lime", {"n_samples": 10})
    assert resolve_metrics(["faithfulness", "ferret_aopc_compr", "plausibility"]) == [
        *PRESETS["faithfulness"], *PRESETS["plausibility"]]
    from interpeval import metrics

    assert resolve_metrics(["all"]) == [n for n in metrics.names() if metrics.get(n).per_explanation]
    with pytest.raises(ValueError, match=r"metric 'baidu_macro_f1' does not score single explanations \(needs preds, "
                                         r"golds; score it with interpeval metrics score\); per-explanation metrics: "):
        resolve_metrics(["baidu_macro_f1"])
    # "ab  c" with tokens a|b (word 0) and c (word 1), a special token (-1) and a pair token (1) left out
    text = "ab  c"
    offsets = [(0, 0), (0, 1), (1, 2), (4, 5), (0, 1)]
    assert word_rationale_to_tokens(text, offsets, [-1, 0, 0, 0, 1], [0, 1]).tolist() == [0, 0, 1]
    assert word_rationale_to_tokens(text, offsets, [-1, 0, 0, 0, 1], [1, 0]).tolist() == [1, 1, 0]
    assert word_rationale_to_tokens(text, [(2, 3)], [0], [1, 1]).tolist() == [0]  # a token in the gap: no word
    assert word_rationale_to_tokens("a", [], [], [1]).dtype.kind == "i"  # 0/1 integers, even when empty
    with pytest.raises(ValueError, match=r"rationale has 1 values but the text has 2 words: 'ab  c'$"):
        word_rationale_to_tokens(text, offsets, [-1, 0, 0, 0, 1], [1])
    long = "w " * 40  # the message quotes the text's first 60 characters only
    with pytest.raises(ValueError, match=f"rationale has 1 values but the text has 40 words: '{'w ' * 30}'$"):
        word_rationale_to_tokens(long, [], [], [1])
    with pytest.raises(ValueError, match="zip"):  # an offset without its segment is a caller's bug, not skipped
        word_rationale_to_tokens("a", [(0, 1)], [0, 0], [1])


def test_a_model_named_by_its_zoo_name_is_loaded(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        result = evaluate("tiny-sequence-classification", [GOOD], ["random"], ["ferret_aopc_compr"], store=store)
    assert result.provenance["model"] == "tiny-sequence-classification" and len(result.per_input) == 1


def test_bad_calls_are_named(model, tmp_path):
    with pytest.raises(ValueError, match="inputs is empty"):
        evaluate(model, [], ["weights"])
    with pytest.raises(ValueError, match="explainers is empty"):
        evaluate(model, [GOOD], [])
    masked = SimpleNamespace(kind="masked-lm", name="mlm")
    with pytest.raises(ValueError, match=r"evaluate explains single texts of sequence-classification or regression "
                                         r"models; mlm is a masked-lm model \(use its benchmark"):
        evaluate(masked, [GOOD], ["weights"])
