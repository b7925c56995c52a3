"""Integrated Gradients reads the embeddings block's output from the block alone instead of Captum's
``LayerIntegratedGradients`` two extra full passes per call: the scores must equal Captum's layer method's bit for
bit, in every kind, baseline, segment and internal batching, with ``n_steps`` model rows per input.

The reference is Captum's own ``LayerIntegratedGradients`` on the same score function (what the explainer called
before); no expected number is fixed.
"""

from __future__ import annotations

import numpy as np
import pytest
from captum.attr import LayerIntegratedGradients

from interpeval import explain
from interpeval.explain._captum import ScoreModule, baseline_ids, forward_args, token_scores
from interpeval.explain.base import resolve_targets
from interpeval.models import tiny

SENTENCES = ["the film was long and the acting was fine", "a charming story", "dull , slow and far too loud at the end"]
INPUTS = {"sequence-classification": (SENTENCES, None),
          "masked-lm": ([s.replace("was", "[MASK]", 1) if "was" in s else s + " [MASK]" for s in SENTENCES], None),
          "extractive-qa": (["what is it about ?"] * 3, SENTENCES)}
CASES = [("sequence-classification", "zero", None, None), ("sequence-classification", "pad", None, 7),
         ("masked-lm", "zero", None, None), ("masked-lm", "pad", None, 5), ("extractive-qa", "pad", 1, None),
         ("extractive-qa", "zero", None, 6)]


@pytest.fixture(scope="module")
def models():
    return {kind: tiny(kind) for kind in INPUTS}


def _captum_layer_ig(model, texts, pairs, target, params):
    """The scores ``LayerIntegratedGradients`` gives for the same batch, target and parameters."""
    enc = model.tokenize(texts, pairs)
    ig = LayerIntegratedGradients(ScoreModule(model, target), model.embedding_layer())
    attributions = ig.attribute(enc["input_ids"], additional_forward_args=forward_args(enc),
                                baselines=baseline_ids(model, enc, params["baseline"], params["segment"]),
                                n_steps=params["n_steps"],
                                internal_batch_size=params["internal_batch_size"] or model.batch_size)
    keep = enc["attention_mask"].bool().numpy()
    return [row[k].astype(np.float64) for row, k in zip(token_scores(attributions), keep, strict=True)]


@pytest.mark.parametrize(("kind", "baseline", "segment", "internal"), CASES)
def test_scores_equal_captums_layer_integrated_gradients_bit_for_bit(models, kind, baseline, segment, internal):
    model = models[kind]
    texts, pairs = INPUTS[kind]
    if kind != "sequence-classification":  # a resolved span / mask target is one input's
        texts, pairs = texts[:1], None if pairs is None else pairs[:1]
    (target,) = set(resolve_targets(model, texts[:1], None if pairs is None else pairs[:1], model.default_target(),
                                    model.batch_size))
    params = {"n_steps": 9, "baseline": baseline, "segment": segment, "internal_batch_size": internal}
    ours = explain.build("integrated_gradients", {k: v for k, v in params.items() if v is not None}, 0)
    rows = []
    handle = model.hf.base_model.encoder.register_forward_pre_hook(
        lambda module, args, kwargs: rows.append(int((args[0] if args else kwargs["hidden_states"]).shape[0])),
        with_kwargs=True)
    try:
        got = [a.scores for a in ours.explain(model, texts, target, pairs)]
    finally:
        handle.remove()
    expected = _captum_layer_ig(model, texts, pairs, target, params)
    assert len(got) == len(expected) == len(texts)
    for mine, theirs in zip(got, expected, strict=True):
        assert np.array_equal(mine, theirs)
    assert sum(np.count_nonzero(s) for s in got) > 3
    assert sum(rows) == params["n_steps"] * len(texts)  # no pass on the inputs or the baselines alone
