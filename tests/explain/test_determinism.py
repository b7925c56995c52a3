"""The stochastic methods' scores of an input do not depend on how inputs are chunked or on the process's BLAS
threads: each input's draws start from the seed, and the surrogate fit runs on one BLAS thread (docs/cluster.md).

Every comparison is between two computations of the same input here, bit for bit; no expected number is fixed.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
from threadpoolctl import threadpool_limits

from interpeval import explain
from interpeval.benchmarks.attribute import AttributeLines
from interpeval.benchmarks.base import resume
from interpeval.explain._perturb import PresenceScore
from interpeval.models import tiny
from interpeval.store import Store

SENTENCE = ("the film was long and the acting was fine but the story kept losing its way between scenes of rain "
            "and quiet talk while the music rose and fell")
WORDS = SENTENCE.split(" ")
TEXTS = [" ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(20 + 20 * (i % 3))) for i in range(4)]
METHODS = {"lime": {"n_samples": 40}, "kernel_shap": {"n_samples": 40},
           "lime_lasso": {"n_samples": 40, "regression": "lasso", "alpha": 1e-6},  # IQS's 3e-4 zeroes a tiny model
           "smoothgrad": {"n_samples": 3}, "random": {}}


@pytest.fixture(scope="module")
def model():
    return tiny("sequence-classification", max_length=512)


def _build(method: str):
    params = dict(METHODS[method])
    return explain.build(method.removesuffix("_lasso"), params, 0)


def _scores(model, method: str, texts: list[str]) -> list[np.ndarray]:
    return [a.scores for a in _build(method).explain(model, texts)]


@pytest.mark.parametrize("method", list(METHODS))
def test_an_input_scores_the_same_alone_and_among_others(model, method):
    together = _scores(model, method, TEXTS)
    for text, scores in zip(TEXTS, together, strict=True):
        assert np.array_equal(_scores(model, method, [text])[0], scores)
    assert sum(np.count_nonzero(s) for s in together) > 10  # real scores, not all zeros


#: sizes at which OpenBLAS's float32 fits differ between 1 and 2 threads (sklearn Ridge from 100 samples × 80
#: features, LinearRegression from 200 × 200): the fits of LIME-100 on a 120-word text, Kernel SHAP-200 on 200 words
@pytest.mark.parametrize(("method", "n_samples", "words"), [("lime", 100, 120), ("kernel_shap", 200, 200)])
def test_scores_do_not_depend_on_the_blas_threads_of_the_process(model, method, n_samples, words):
    text = " ".join(WORDS[k % len(WORDS)] for k in range(words))
    explainer = explain.build(method, {"n_samples": n_samples}, 0)
    with threadpool_limits(2, user_api="blas"):
        two = explainer.explain(model, [text])[0].scores
    with threadpool_limits(1, user_api="blas"):
        one = explainer.explain(model, [text])[0].scores
    assert np.array_equal(one, two) and np.count_nonzero(one) > words / 2


#: LIME-100 on the QUACKIE input whose scores differed between the 2-thread driver and a 1-thread Ray worker in
#: ``bench/scale_out.py --limit 6 --chunk 2`` (minilm-quackie-cls, 171 tokens): its perturbations are scored in
#: length batches, one of 11 rows, whose pooler product (11 × 384 by 384 × 384) MKL splits differently at 1 and 2
#: threads (without interpeval's MKL mode: 2.98e-8 apart, measured on main 3e2fa71). Run in a fresh process, as a
#: command or a Ray worker starts: MKL reads its mode at its first product.
_THREADS_SCRIPT = """
import interpeval  # every entry point imports the package before its first model pass
import numpy as np
import torch
from interpeval import explain
from interpeval.benchmarks.quackie.data import dataset_path, load_squad
from interpeval.models import Target, load

question = next(q for q in load_squad(dataset_path("SQuAD"))
                if q.question == "What century did the Normans first gain their separate identity?")
model = load("minilm-quackie-cls", device="cpu")
explainer = explain.build("lime", {"n_samples": 100, "draws": "seed"}, 0)  # the masks of the bench's run
scores = {}
for threads in (2, 1):
    torch.set_num_threads(threads)
    scores[threads] = explainer.explain(model, [question.question], Target("class_prob", 1),
                                        pairs=[question.context])[0].scores
print(np.array_equal(scores[1], scores[2]), np.count_nonzero(scores[1]), float(np.abs(scores[1] - scores[2]).max()))
"""


@pytest.mark.slow
def test_lime_on_a_real_model_scores_the_same_at_one_and_two_torch_threads():
    env = {k: v for k, v in os.environ.items() if k != "MKL_CBWR"}  # the package's own setting, not the caller's
    done = subprocess.run([sys.executable, "-c", _THREADS_SCRIPT], env=env, capture_output=True, text=True,
                          timeout=600, check=True)
    same, nonzero, difference = done.stdout.split()
    assert int(nonzero) > 100 and (same, float(difference)) == ("True", 0.0)


@pytest.mark.parametrize(("given", "expected"), [(None, "AUTO,STRICT"), ("AUTO", "AUTO"), ("", "")])
def test_importing_the_package_sets_mkls_strict_mode_unless_the_environment_sets_one(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "MKL_CBWR"}
    if given is not None:
        env["MKL_CBWR"] = given
    done = subprocess.run([sys.executable, "-c", "import interpeval, os; print(repr(os.environ['MKL_CBWR']))"],
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == repr(expected)


def _stored_lines(model, method: str, chunk: int, store: Store, executor=None) -> list[dict]:
    lines = [(str(i), text) for i, text in enumerate(TEXTS)]
    work = AttributeLines(model, _build(method), method, lines, "texts.txt", "fp", chunk=chunk)
    return [{k: v for k, v in out.items() if k != "instance_id"} for out in resume(work, store, None,
                                                                                  executor).outputs]


@pytest.mark.parametrize("method", ["lime", "kernel_shap", "smoothgrad", "random"])
def test_stored_attributions_are_equal_across_chunk_sizes(tmp_path, model, method):
    with Store(tmp_path / "s.sqlite") as store:
        one, three = (_stored_lines(model, method, c, store) for c in (1, 3))
    assert one == three and len(one) == len(TEXTS)


_SCORE = PresenceScore.__call__


def _masks(model, monkeypatch, params: dict, texts: list[str]) -> list[torch.Tensor]:
    """The presence vectors LIME scored for each text (one call per text)."""
    seen: list[torch.Tensor] = []
    monkeypatch.setattr(PresenceScore, "__call__", lambda self, presence: (seen.append(presence.clone()),
                                                                             _SCORE(self, presence))[1])
    explain.build("lime", {"n_samples": 30, **params}, 0).explain(model, texts)
    return seen


def test_inputs_with_the_same_number_of_words_draw_different_masks_from_their_tokens(model, monkeypatch):
    texts = ["the film was long and dull", "music rose and fell at night", "a story of rain and talk"]
    assert len({len(t.split()) for t in texts}) == 1
    by_tokens = _masks(model, monkeypatch, {}, texts)
    by_seed = _masks(model, monkeypatch, {"draws": "seed"}, texts)
    assert all(m.shape == (30, 6) for m in by_tokens + by_seed)
    # the rule before: every 6-word input got the same 30 masks; now each input's masks start from its own tokens
    assert all(torch.equal(by_seed[0], m) for m in by_seed[1:])
    assert not any(torch.equal(a, b) for a, b in itertools.combinations(by_tokens, 2))
    # still each input's own: the same text draws the same masks alone and after another
    assert torch.equal(_masks(model, monkeypatch, {}, texts[1:2])[0], by_tokens[1])


def test_random_permutes_inputs_of_the_same_length_independently(model):
    texts = ["the film was long and dull", "music rose and fell at night"]
    for draws, same in (("tokens", False), ("seed", True)):
        first, second = (a.scores for a in explain.build("random", {"draws": draws}, 0).explain(model, texts))
        assert sorted(first) == sorted(second) and np.array_equal(first, second) == same


@pytest.mark.parametrize("name", ["lime", "kernel_shap", "smoothgrad", "random"])
def test_the_draw_rule_is_a_stored_parameter_and_part_of_every_run_key(model, name):
    from interpeval.benchmarks.iqs.explanations import MethodExplanations
    from interpeval.benchmarks.quackie.run import Explanations, Method
    from interpeval.evaluate.engine import Evaluation
    from interpeval.evaluate.engine import Method as EvaluateMethod

    explainer = explain.build(name, {"n_samples": 8} if "n_samples" in METHODS[name] else {}, 0)
    assert explainer.get_params()["draws"] == "tokens"
    assert explainer.explain(model, [TEXTS[0]])[0].params["draws"] == "tokens"  # stored with every attribution

    def keys(params: dict) -> list:
        """Each per-input benchmark's run key for this method with ``params``."""
        built = explain.build(name, params, 0)
        return [AttributeLines(model, built, name, [("1", "x")], "f", "fp").key(),
                Explanations(model, "m", model.default_target(), [], {"seed": 0}, "fp", Method("M", name, params),
                             ["sum"], 1, {}).key(),
                Evaluation(model, [], [EvaluateMethod("M", name, params)], [], chunk=1).key(),
                MethodExplanations(model, None, [], name, params, {}, "m", "fp").key()]

    # a run stored before the rule was a parameter (its params without "draws") is not the one resumed now
    before, now, seed_rule = keys({}), keys({"draws": "tokens"}), keys({"draws": "seed"})
    assert before == now and all(a != b for a, b in zip(now, seed_rule, strict=True))
    assert all('"draws": "tokens"' in json.dumps(key.config) for key in now)


def test_methods_that_do_not_draw_keep_their_run_keys():
    assert explain.key_params("saliency", {"abs": True}) == {"abs": True}
    assert explain.key_params("integrated_gradients", {}) == {}
    assert explain.key_params("lime", {"n_samples": 10}) == {"n_samples": 10, "draws": "tokens"}


def test_an_unknown_draw_rule_is_refused(model):
    with pytest.raises(ValueError, match="draws must be one of tokens, seed"):
        explain.build("lime", {"draws": "chunk"}, 0).explain(model, [TEXTS[0]])


def test_a_plug_in_that_draws_per_input_without_a_draw_rule_keeps_the_seed_rule_and_its_key(model):
    """A third-party stochastic explainer written before ``draws`` existed: its scores must not change under its
    unchanged run key, so it keeps the earlier rule (each input's draws start from ``seed`` alone)."""
    from interpeval.explain.base import Explainer
    from interpeval.explain.registry import _REGISTRY, register

    class PluginNoise(Explainer):
        stochastic = True
        rows_per_call = 1

        def __init__(self, seed: int | None = 0) -> None:
            self.seed = seed

        def _attribute(self, model, enc, target):
            return torch.rand(enc["input_ids"].shape).numpy()

    register("test-plugin-noise")(PluginNoise)
    try:
        assert explain.key_params("test-plugin-noise", {"seed": 3}) == {"seed": 3}
        a, b = explain.build("test-plugin-noise", {}, 0).explain(model, [TEXTS[0], TEXTS[3]])
        assert len(a.scores) == len(b.scores)  # same length: under the seed rule the same draws
        assert np.array_equal(a.scores, b.scores)
    finally:
        del _REGISTRY["test-plugin-noise"]
