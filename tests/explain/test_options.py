"""Explainer options the benchmarks rely on: one segment attributed with the other fixed, LIME's num_features and
Lasso, QUACKIE's official set-up, and explainers found without an import list."""

from __future__ import annotations

import importlib
import pkgutil
import warnings

import numpy as np
import pytest
import torch

import interpeval.explain as explain
from interpeval.explain._captum import baseline_ids
from interpeval.explain._perturb import word_features
from interpeval.explain.lime import select_features
from interpeval.models import Target, tiny

warnings.filterwarnings("ignore", module="captum")
QUESTION, CONTEXT = "who lives here ?", "tom lives in paris . he likes the big city"
TARGET = Target("class_prob", 1)


@pytest.fixture(scope="module")
def model():
    return tiny("sequence-classification")


def test_ig_with_the_question_fixed(model):
    ig = explain.get("integrated_gradients")(n_steps=64, segment=1)
    (a,) = ig.explain(model, QUESTION, TARGET, pairs=[CONTEXT])
    segments = np.array(a.segments)
    assert np.all(a.scores[segments != 1] == 0.0)  # the question (and [CLS]/[SEP]) are in the baseline as they are
    enc = model.tokenize([QUESTION], [CONTEXT])
    base = baseline_ids(model, enc, "zero", segment=1)
    seq = enc.sequence_ids(0)
    assert [int(base[0, i]) == int(enc["input_ids"][0, i]) for i in range(len(seq))] == [s != 1 for s in seq]
    # completeness: the scores sum to f(x) - f(baseline), the baseline keeping the question
    with torch.no_grad():
        f_x = model.score(dict(enc), TARGET)[0]
        f_b = model.score({**enc, "input_ids": base}, TARGET)[0]
    assert a.scores.sum() == pytest.approx(float(f_x - f_b), abs=1e-4)


def test_perturbation_features_cover_only_the_chosen_segment(model):
    enc = model.tokenize([QUESTION], [CONTEXT])
    feature_of_token, n = word_features(model, enc, 0, "word", segment=1)
    seq = enc.sequence_ids(0)
    assert n == len(CONTEXT.split())
    assert all((f >= 0) == (s == 1) for f, s in zip(feature_of_token.tolist(), seq, strict=True))
    (a,) = explain.get("lime")(n_samples=30, segment=1).explain(model, QUESTION, TARGET, pairs=[CONTEXT])
    assert np.all(a.scores[np.array(a.segments) != 1] == 0.0)
    with pytest.raises(ValueError, match="segment must be 0"):
        explain.get("lime")(segment=1).explain(model, QUESTION, TARGET)  # segment 1 needs pairs


def test_lime_num_features_and_lasso(model):
    text = "the quick brown fox jumps over the lazy dog and runs far away today"
    full = explain.get("lime")(n_samples=60).explain(model, text, TARGET)[0].to_words()
    top3 = explain.get("lime")(n_samples=60, num_features=3).explain(model, text, TARGET)[0].to_words()
    top8 = explain.get("lime")(n_samples=60, num_features=8).explain(model, text, TARGET)[0].to_words()
    assert np.count_nonzero(full) == len(text.split())
    assert np.count_nonzero(top3) == 3 and np.count_nonzero(top8) == 8
    lasso = explain.get("lime")(n_samples=60, regression="lasso", alpha=3e-4).explain(model, text, TARGET)[0]
    assert lasso.params["regression"] == "lasso" and lasso.params["alpha"] == 3e-4
    with pytest.raises(ValueError, match="regression must be one of"):
        explain.get("lime")(n_samples=10, regression="elastic").explain(model, text, TARGET)


def test_lime_feature_selection_by_hand():
    # y = sum_j c_j x_j exactly, unit weights: the weighted ridge (alpha 0.01) keeps the order of |c_j|, so
    # highest_weights (num_features > 6) drops the smallest coefficient and forward selection (<= 6) takes the
    # largest first.
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, size=(400, 8)).astype(float)
    x[0] = 1.0
    c = np.array([0.5, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0])
    y, w = x @ c, np.ones(len(x))
    assert sorted(select_features(x, y, w, 7).tolist()) == [1, 2, 3, 4, 5, 6, 7]
    assert select_features(x, y, w, 2).tolist() == [1, 2]


def test_quackie_official_sets_the_originals_parameters():
    from interpeval.benchmarks.quackie.run import Method, make_explainer

    lime = make_explainer(Method("LIME_10", "lime", {"n_samples": 10}), seed=0, official=True)
    assert (lime.segment, lime.num_features, lime.n_samples) == (1, 10, 10)
    ig = make_explainer(Method("IG", "integrated_gradients", {"n_steps": 50}), seed=0, official=True)
    assert ig.segment == 1
    assert make_explainer(Method("IG", "integrated_gradients"), seed=0).segment is None
    saliency = make_explainer(Method("Gradient", "saliency"), seed=0, official=True)
    assert "segment" not in saliency.get_params()


def test_every_explainer_module_registers_without_an_import_list():
    modules = [m.name for m in pkgutil.iter_modules(explain.__path__)
               if not m.name.startswith("_") and m.name not in ("attribution", "base", "params", "registry", "spec")]
    registered = {explain.get(n).__module__.rsplit(".", 1)[-1] for n in explain.names()}
    assert set(modules) <= registered
    for name in modules:
        assert importlib.import_module(f"interpeval.explain.{name}")
