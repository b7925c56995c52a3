"""The metric call shapes: needs declared at registration and checked against the signature, one
``evaluate(Evidence)`` call per explanation, named inputs per instance, ``over_dataset`` per dataset."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from interpeval import metrics
from interpeval.metrics import Evidence, base, register


def test_needs_are_declared():
    assert metrics.get("ferret_aopc_compr").needs == {"attribution", "model"}
    assert metrics.get("ferret_auprc").needs == {"attribution", "rationale"}
    assert metrics.get("pcc_aligned").needs == {"attribution", "partner"}
    assert metrics.get("eraser_comprehensiveness").needs == {"tokens", "rationale", "model"}
    assert metrics.get("baidu_macro_f1").info.needs == ("preds", "golds")
    assert metrics.get("baidu_macro_f1").info.level == "dataset"
    assert not metrics.get("baidu_macro_f1").per_explanation
    assert not metrics.get("rationale_map").per_explanation  # ranked rationale tokens, not an attribution
    assert not metrics.get("eraser_comprehensiveness").per_explanation  # scores a rationale, not an attribution
    per_explanation = {n for n in metrics.names() if metrics.get(n).per_explanation}
    assert {"ferret_aopc_compr", "ferret_aopc_suff", "ferret_taucorr_loo", "ferret_auprc", "ferret_token_f1",
            "ferret_token_iou"} <= per_explanation


def test_every_metric_declares_needs_and_a_level():
    for name in metrics.names():
        info = metrics.get(name).info
        assert info.needs and info.level in ("instance", "dataset"), name


def _register(needs, level="instance"):
    return register(f"test_only_{len(needs)}_{level}", "plausibility", True, (0.0, 1.0), "test",
                    needs=needs, level=level)


@pytest.mark.parametrize("needs, level, fn, message", [
    (("attribution",), "instance", lambda scores, rationale: 0.0, "parameter 'rationale' is not covered"),
    (("attribution", "model"), "instance", lambda scores: 0.0, r"needs \['model'\] but takes no parameter"),
    (("preds",), "dataset", lambda preds, golds: 0.0, "needs exactly its required parameters"),
    (("preds", "golds", "extra"), "dataset", lambda preds, golds: 0.0, "needs exactly its required parameters"),
    ((), "instance", lambda a: 0.0, "declare what it needs"),
    (("a",), "corpus", lambda a: 0.0, "level must be one of"),
])
def test_registration_checks_needs_against_the_signature(needs, level, fn, message):
    with pytest.raises(ValueError, match=message):
        _register(needs, level)(fn)
    assert not any(n.startswith("test_only_") for n in metrics.names())


def test_dataset_metrics_have_their_own_call():
    preds, golds = {"1": [[0, 1]]}, {"1": [[[0, 1]]], "2": [[[3]]]}
    macro = metrics.get("baidu_macro_f1")
    assert macro.over_dataset(preds, golds) == 0.5  # F1 1 for id 1, id 2 missing counts 0, over 2 golds
    assert macro.from_inputs({"preds": preds, "golds": golds, "other": 1}) == 0.5
    with pytest.raises(ValueError, match="scores a whole dataset: call over_dataset"):
        macro(preds, golds)
    with pytest.raises(ValueError, match="scores one instance, not a dataset"):
        metrics.get("jaccard").over_dataset([1], [1])
    with pytest.raises(ValueError, match="missing input golds"):
        macro.from_inputs({"preds": preds})
    assert metrics.get("expmrc_f1").from_inputs({"references": ["a cat"], "prediction": "the cat"}) == 1.0
    with pytest.raises(ValueError, match="scores an explanation: use interpeval evaluate --metric ferret_auprc"):
        metrics.get("ferret_auprc").from_inputs({})


def test_evaluate_fills_the_parameters_from_the_evidence():
    # hand-derived ferret AOPC comprehensiveness: p(text) = share of "good" among the 3 original tokens.
    # n = 3: thresholds 0.1–0.3 give int(p·3) = 0 (dropped); 0.4–0.6 give the top-1 positive token {0} ("bad good"
    # is left, p = 1/3, drop 1/3); 0.7–0.9 the top-2 positive {0, 2} ("bad", p = 0, drop 2/3); 1.0 selects the
    # same positive set again (dropped). p0 = 2/3, so AOPC = mean(1/3, 2/3) = 0.5.
    calls = []

    def score_fn(texts):
        calls.append(list(texts))
        return [t.split().count("good") / 3 for t in texts]

    evidence = Evidence(tokens=["good", "bad", "good"], scores=np.array([1.0, -1.0, 0.5]), score_fn=score_fn)
    metric = metrics.get("ferret_aopc_compr")
    assert metric.applies_to(evidence)
    assert metric.evaluate(evidence) == pytest.approx(0.5)
    assert calls == [["good bad good", "bad good", "bad"]]  # one call, the full text first
    assert metric.evaluate(evidence) == metric(score_fn, ["good", "bad", "good"], [1.0, -1.0, 0.5])


def test_official_switches_stay_keyword_options():
    evidence = Evidence(tokens=list("abcd"), scores=np.array([0.9, 0.1, 0.8, -0.5]), rationale=np.array([1, 0, 1, 0]))
    f1 = metrics.get("ferret_token_f1")
    assert f1.evaluate(evidence, k=2) == 1.0  # top-2 = {0, 2} = the rationale
    empty = Evidence(tokens=list("abcd"), scores=np.array([0.9, 0.1, 0.8, -0.5]), rationale=np.zeros(4, dtype=int))
    assert math.isnan(f1.evaluate(empty, k=2)) and f1.evaluate(empty, k=2, official=False) == 0.0


def test_missing_needs_and_dataset_metrics_are_clear_errors():
    evidence = Evidence(tokens=["a", "b"], scores=np.array([1.0, 0.0]))
    assert not metrics.get("ferret_auprc").applies_to(evidence)
    with pytest.raises(ValueError, match="needs rationale"):
        metrics.get("ferret_auprc").evaluate(evidence)
    with pytest.raises(ValueError, match="does not score a single explanation"):
        metrics.get("baidu_macro_f1").evaluate(evidence)


def test_partner_evidence():
    partner = Evidence(tokens=["a", "b", "c"], scores=np.array([1.0, 2.0, 3.0]))
    evidence = Evidence(tokens=["a", "b", "c"], scores=np.array([3.0, 2.0, 1.0]), partner=partner)
    assert metrics.get("pcc_aligned").evaluate(evidence) == pytest.approx(-1.0)


def _indexed(texts):
    """p = Σ i/100 over the tokens "t<i>" present; a mask token "[M]" adds 0.01."""
    return [sum(0.01 if w == "[M]" else int(w[1:]) / 100 for w in t.split()) for t in texts]


def test_evidence_has_exactly_its_needs():
    evidence = Evidence(tokens=["a"], scores=np.array([1.0]))
    assert evidence.has("attribution") is True and evidence.has("tokens") is True
    assert evidence.has("rationale") is False and evidence.has("model") is False
    assert evidence.has("something else") is False


def test_evaluate_fills_the_fields_after_an_option_and_skips_an_absent_partner():
    # ferret_aopc_compr(score_fn, tokens, scores, thresholds, only_pos, sep, full_text, mask_token): the evidence's
    # mask_token comes after `thresholds`, which the evidence does not fill. t1 t2 t3, scores (1, 0, .5): the kept
    # selections are {t1} and {t1, t3} (thresholds 0.4 … 0.9; 1.0 adds only the 0 score, a repeat).
    # p0 = 0.06; "[M] t2 t3" = 0.06, "[M] t2 [M]" = 0.04 → mean(0, 0.02) = 0.01 (deleted: mean(0.01, 0.04) = 0.025)
    evidence = Evidence(tokens=["t1", "t2", "t3"], scores=np.array([1.0, 0.0, 0.5]), score_fn=_indexed,
                        mask_token="[M]")
    assert metrics.get("ferret_aopc_compr").evaluate(evidence) == pytest.approx(0.01)
    # an optional partner field of a metric is left to its default when the evidence has no partner
    seen = {}

    def fn(scores, dis_scores=None):
        seen["dis_scores"] = dis_scores
        return float(np.sum(scores))

    metric = metrics.Metric(metrics.MetricInfo("unregistered", "consistency", True, (0.0, 1.0), "test",
                                               needs=("attribution",)), fn)
    assert metric.evaluate(Evidence(tokens=["a", "b"], scores=np.array([0.25, 0.5]))) == 0.75
    assert seen == {"dis_scores": None}


def test_dataset_and_named_calls_pass_their_options_and_name_what_is_missing():
    # ferret token-F1 over two instances with k = 1: A top {0} = rationale → 1; B top {2}, rationale {0, 1} → 0;
    # macro 1/2 (the default k = 5 would give A {0, 1}: 2/3, B 0 → 1/3)
    rationales, scores = [[1, 0, 0], [1, 1, 0, 0]], [[0.9, 0.1, 0.0], [0.0, 0.0, 0.5, 0.4]]
    f1 = metrics.get("ferret_token_f1_dataset")
    assert f1.over_dataset(rationales, scores, k=1) == pytest.approx(0.5)
    assert f1.from_inputs({"rationales": rationales, "scores": scores}, k=1) == pytest.approx(0.5)
    assert f1.from_inputs({"rationales": rationales, "scores": scores}) == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match=r"^metric 'baidu_macro_f1': missing input preds, golds \(it needs preds, "
                                         r"golds\)$"):
        metrics.get("baidu_macro_f1").from_inputs({})
    with pytest.raises(ValueError, match=r"^metric 'ferret_auprc' scores an explanation: use interpeval evaluate "
                                         r"--metric ferret_auprc \(it needs attribution, rationale\)$"):
        metrics.get("ferret_auprc").from_inputs({})
    with pytest.raises(ValueError, match=r"^metric 'baidu_macro_f1' does not score a single explanation \(needs "
                                         r"golds, preds\); call it with its own arguments$"):
        metrics.get("baidu_macro_f1").evaluate(Evidence(tokens=["a"], scores=np.array([1.0])))
    with pytest.raises(ValueError, match=r"^metric 'eraser_comprehensiveness' needs model, rationale, which the "
                                         r"evidence lacks$"):
        metrics.get("eraser_comprehensiveness").evaluate(Evidence(tokens=["a"], scores=np.array([1.0])))


@pytest.fixture
def scratch_registry(monkeypatch):
    """Registrations go into a copy of the registry, so the real one (and docs/metrics.md's table) stay as they are."""
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))


def _named(preds, golds, k=1, *args, **kwargs):
    return 0.5


def _every_need(scores, tokens, rationale, score_fn, dis_scores):
    return 0.0


def _of_model(model):
    return model


def _no_needs(a):
    return 0.0


def test_a_registered_metric_is_stored_with_all_it_declared(scratch_registry):
    # a dataset metric of named inputs with an optional, a *args and a **kwargs parameter: only preds and golds
    # are required, so needs=("preds", "golds") is accepted
    assert register("test_only_named", "quality", False, (0.0, 2.0), "a source", "a quirk", needs=("preds", "golds"),
                    level="dataset")(_named) is _named
    metric = metrics.get("test_only_named")
    assert metric.fn is _named
    assert metric.info == base.MetricInfo("test_only_named", "quality", False, (0.0, 2.0), "a source", "a quirk",
                                          ("preds", "golds"), "dataset")
    # the defaults: no quirks, one instance; needs of every kind an explanation can supply are accepted
    register("test_only_every_need", "consistency", True, (-1.0, 1.0), "s",
             needs=("attribution", "tokens", "rationale", "model", "partner"))(_every_need)
    info = metrics.get("test_only_every_need").info
    assert info.quirks == "" and info.level == "instance" and info.needs == (
        "attribution", "tokens", "rationale", "model", "partner")
    # a dataset metric may take a named input called like an evidence need ("model"): it is a named input there
    register("test_only_model", "quality", True, (0.0, 1.0), "s", needs=("model",), level="dataset")(_of_model)
    assert metrics.get("test_only_model").over_dataset(model="m") == "m"
    with pytest.raises(ValueError, match="^metric 'test_only_named' is already registered$"):
        register("test_only_named", "quality", True, (0.0, 1.0), "s", needs=("preds", "golds"),
                 level="dataset")(_named)
    with pytest.raises(ValueError, match=r"^family must be one of \('plausibility', 'faithfulness', 'consistency', "
                                         r"'localisation', 'answer', 'probing', 'quality'\), got 'style'$"):
        register("test_only_style", "style", True, (0.0, 1.0), "s", needs=("a",))
    where = f"metric 'test_only_none' ({_no_needs.__module__}.{_no_needs.__qualname__})"
    with pytest.raises(ValueError, match="^" + re.escape(f"{where}: declare what it needs (needs=...)") + "$"):
        register("test_only_none", "quality", True, (0.0, 1.0), "s", needs=())(_no_needs)


def test_unknown_metric_lists_the_known_ones():
    with pytest.raises(KeyError) as caught:
        metrics.get("no_such_metric")
    assert caught.value.args == (f"unknown metric 'no_such_metric'; known: {', '.join(metrics.names())}",)
    # an instance metric passes keyword arguments on: jaccard of two empty sets is `empty`
    assert metrics.get("jaccard")([], [], empty=1.0) == 1.0
