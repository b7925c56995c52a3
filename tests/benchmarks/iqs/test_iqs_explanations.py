"""The paper's six explainers on IQS samples: registry parameters, word alignment, target and sign convention."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from interpeval.benchmarks.iqs.explanations import (
    PAPER_METHODS,
    check_methods,
    class_index,
    explain_samples,
    model_outputs,
    task_target,
)
from interpeval.benchmarks.iqs.protocol import sample_protocol
from interpeval.benchmarks.iqs.tasks import TASKS, Sample, load_samples
from interpeval.errors import InterpevalError
from interpeval.models import load
from interpeval.models.tiny import tiny


def test_the_paper_configuration_is_accepted_by_the_registry():
    check_methods(PAPER_METHODS)  # LIME and Kernel SHAP: 3000 samples, Lasso alpha 3e-4
    assert PAPER_METHODS["lime"] == {"n_samples": 3000, "regression": "lasso", "alpha": 3e-4}
    assert PAPER_METHODS["kernel_shap"] == PAPER_METHODS["lime"]
    assert PAPER_METHODS["integrated_gradients"] == {"n_steps": 50, "baseline": "zero"}
    with pytest.raises(InterpevalError, match="explainer 'deeplift' has no parameter 'n_steps'"):
        check_methods({"deeplift": {"n_steps": 3}})
    with pytest.raises(InterpevalError, match="unknown explainer 'shapley'"):
        check_methods({"shapley": {}})


def test_six_methods_on_a_pair_task_give_one_score_per_word():
    task = TASKS["qnli"]
    samples = sample_protocol(task, load_samples(task), per_side=1, seed=0)
    model = tiny("sequence-classification", max_length=64)
    fast = {name: ({**params, "n_samples": 40} if "n_samples" in params else dict(params))
            for name, params in PAPER_METHODS.items()}
    fast["integrated_gradients"]["n_steps"] = 4
    explanations, costs = explain_samples(model, task, samples, fast)
    assert set(costs) == set(PAPER_METHODS) and all(t >= 0 for t in costs.values())
    assert len(explanations) == 6 * len(samples)
    for e in explanations:
        sample = next(s for s in samples if s.id == e.sample_id)
        assert e.words == sample.text.split() + sample.pair.split()
        assert e.segments == [0] * len(sample.text.split()) + [1] * len(sample.pair.split())
        assert len(e.scores) == len(e.words) and np.isfinite(e.scores).all()
    lime = next(e for e in explanations if e.method == "lime")
    assert lime.params["regression"] == "lasso" and lime.params["alpha"] == 3e-4


def test_target_is_the_green_class_or_the_regression_output():
    model = tiny("sequence-classification")
    # tiny heads have generic label names: SST-2's numeric label is the index; QNLI's names sort (entailment = 0)
    assert class_index(model, TASKS["sst2"], "positive") == 1
    assert class_index(model, TASKS["qnli"], "entailment") == 0
    assert task_target(model, TASKS["qnli"]).index == 0
    samples = [Sample("x:1", "a fine film .", None, "positive", "positive")]
    probs = model.predict_proba(["a fine film ."])[0]
    assert model_outputs(model, TASKS["sst2"], samples)[0] == pytest.approx([probs[0], probs[1]])
    with pytest.raises(InterpevalError, match="stsb needs a regression model; tiny-sequence-classification is a"):
        task_target(model, TASKS["stsb"])
    regression = tiny("regression")
    assert task_target(regression, TASKS["stsb"]).name == "regression"
    # the paper's setting: a regression head's output in [0, 1] is P(green class), thresholded at 0.5
    assert task_target(regression, TASKS["sst2"]).name == "regression"
    value = float(regression.predict(["a fine film ."])[0])
    p = min(max(value, 0.0), 1.0)
    assert model_outputs(regression, TASKS["sst2"], samples)[0] == pytest.approx([1 - p, p])
    with pytest.raises(InterpevalError, match="sst2 needs a regression model or a sequence-classification model"):
        task_target(tiny("masked-lm"), TASKS["sst2"])


@pytest.mark.slow
def test_green_words_support_positive_sentiment_with_the_trained_head():
    model = load("minilm-sst2", device="cpu")
    samples = [Sample("a", "a gorgeous , witty , seductive movie .", None, "positive", "positive"),
               Sample("b", "unflinchingly bleak and desperate", None, "negative", "negative")]
    explanations, _ = explain_samples(model, TASKS["sst2"], samples, {"integrated_gradients": {"n_steps": 20}})
    good, bad = explanations
    assert good.words[int(np.argmax(good.scores))] in ("gorgeous", "witty", "seductive")
    assert bad.words[int(np.argmin(bad.scores))] in ("unflinchingly", "bleak", "desperate")
    assert sum(bad.scores) < 0 < sum(good.scores)  # green (> 0) pushes towards positive


class Killed(Exception):
    """Stands for the process being killed mid-run."""


def test_an_interrupted_explanation_run_resumes_where_it_stopped(tmp_path, monkeypatch):
    from interpeval.benchmarks.iqs import explanations as module
    from interpeval.store import Store

    task = TASKS["sst2"]
    samples = sample_protocol(task, load_samples(task), per_side=2, seed=0)
    model = tiny("sequence-classification")
    methods = {"input_x_gradient": {}, "lime": {"n_samples": 30, "regression": "lasso", "alpha": 3e-4}}
    real, calls, kill = module.explain_samples, [], [True]

    def flaky(model, task, part, methods):
        calls.append((next(iter(methods)), [s.id for s in part]))
        if len(calls) == 3 and kill and kill.pop():  # killed once, while explaining the 2nd LIME sample
            raise Killed
        return real(model, task, part, methods)

    with Store(tmp_path / "uninterrupted.sqlite") as store:
        expected, _ = module.explain_resumable(store, model, task, samples, methods)
    monkeypatch.setattr(module, "explain_samples", flaky)
    with Store(tmp_path / "s.sqlite") as store:
        with pytest.raises(Killed):
            module.explain_resumable(store, model, task, samples, methods, chunk=8)
        runs = {r.config["method"]: r for r in store.runs("iqs-explanations")}
        # input×gradient in one chunk (finished), LIME one sample at a time: killed on its 2nd, marked failed
        assert [(runs[m].n_instances, runs[m].status) for m in methods] == [(4, "finished"), (1, "failed")]
        calls.clear()
        got, costs = module.explain_resumable(store, model, task, samples, methods)
        assert {r.status for r in store.runs("iqs-explanations")} == {"finished"}
    assert calls == [("lime", [s.id]) for s in samples[1:]]  # only what was missing
    assert [(e.sample_id, e.method) for e in got] == [(e.sample_id, e.method) for e in expected]
    for a, b in zip(got, expected, strict=True):
        assert a.scores == b.scores and a.words == b.words
    assert set(costs) == set(methods)


@pytest.mark.slow
def test_kernel_shap_with_the_lime_lasso_configuration():
    from interpeval.explain import registry

    model = load("minilm-sst2", device="cpu")  # a trained head: outputs that vary, so the fits are well posed
    text = ["a gorgeous , witty , seductive movie ."]
    target = task_target(model, TASKS["sst2"])
    shap = registry.get("kernel_shap")

    def scores(**params):
        return shap(n_samples=200, **params).explain(model, text, target)[0].to_words()

    linear = scores()
    # the same coalitions and Shapley weights: a vanishing L1 penalty gives the least-squares solution back ...
    with warnings.catch_warnings():  # alpha -> 0 is the hardest case for coordinate descent
        warnings.simplefilter("ignore")
        near_linear = scores(regression="lasso", alpha=1e-12)
    # coordinate descent stops a little short of the exact least-squares optimum: same ranking, within 2 % of the top
    assert np.argsort(near_linear).tolist() == np.argsort(linear).tolist()
    assert near_linear == pytest.approx(linear, abs=0.02 * np.abs(linear).max())
    # ... and a large one sets every word to 0
    assert not scores(regression="lasso", alpha=10.0).any()
    with pytest.raises(ValueError, match="regression must be one of"):
        scores(regression="ridge")
