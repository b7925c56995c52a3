"""The stochastic methods' scores of an input do not depend on how inputs are chunked or on the process's BLAS
threads: each input's draws start from the seed, and the surrogate fit runs on one BLAS thread (docs/cluster.md).

Every comparison is between two computations of the same input here, bit for bit; no expected number is fixed.
"""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from interpeval import explain
from interpeval.benchmarks.attribute import AttributeLines
from interpeval.benchmarks.base import resume
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
