"""Every explainer on real sentences and tiny models; exactness checks derived from each method's definition."""

from __future__ import annotations

import csv
import warnings
from importlib import resources

import numpy as np
import pytest
import torch

import interpeval.explain as explain
from interpeval.explain._captum import baseline_ids
from interpeval.models import Target, tiny
from interpeval.text.align import whitespace_spans

warnings.filterwarnings("ignore", module="captum")


def _sentences() -> list[str]:
    path = resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv"
    with path.open(encoding="utf-8") as f:
        return [row["sentence"] for row in csv.DictReader(f, delimiter="\t")]


SENTENCES = _sentences()
FAST = {"lime": {"n_samples": 30}, "kernel_shap": {"n_samples": 30}, "integrated_gradients": {"n_steps": 8}}


@pytest.fixture(scope="module")
def models():
    return {kind: tiny(kind) for kind in ("sequence-classification", "regression", "masked-lm", "extractive-qa")}


def _inputs(kind: str):
    texts = SENTENCES[:3]
    if kind == "masked-lm":  # mask the third word of each sentence
        return [" ".join(w if i != 2 else "[MASK]" for i, w in enumerate(t.split())) for t in texts], None
    if kind == "extractive-qa":
        return ["what is it about ?"] * 3, texts
    return texts, None


def test_vendored_sentences_are_real():
    assert len(SENTENCES) == 20
    assert SENTENCES[0] == "it 's a charming and often affecting journey . "


@pytest.mark.parametrize("name", sorted(explain.names()))
def test_every_explainer_runs_on_every_declared_kind(models, name):
    cls = explain.get(name)
    ran = 0
    for kind, model in models.items():
        if kind not in cls.kinds:
            continue
        texts, pairs = _inputs(kind)
        params = dict(FAST.get(name, {}))
        if name == "attention" and kind == "masked-lm":
            params["query"] = "mask"
        out = cls(**params).explain(model, texts, pairs=pairs)
        assert len(out) == len(texts)
        for i, a in enumerate(out):
            enc = model.tokenize([texts[i]], None if pairs is None else [pairs[i]])
            assert a.tokens == enc.tokens(0)
            assert a.text == texts[i] and a.method == name and a.model == model.name
            assert np.isfinite(a.scores).all()
            if not cls.signed:
                assert (a.scores >= 0).all()
            words = a.to_words(segment=1 if pairs else 0)
            assert len(words) == len(a.segment_text(1 if pairs else 0).split())
        ran += 1
    assert ran == len(cls.kinds)


def _completeness(model, text, baseline, n_steps):
    ig = explain.get("integrated_gradients")(n_steps=n_steps, baseline=baseline)
    (a,) = ig.explain(model, text)
    target = Target(a.target["name"], a.target["index"])
    enc = model.tokenize([text])
    with torch.no_grad():
        fx = model.score(enc, target).item()
        ref = dict(enc)
        ref["input_ids"] = baseline_ids(model, enc, baseline)
        fb = model.score(ref, target).item()
    return a.scores.sum(), fx - fb


@pytest.mark.parametrize("baseline", ["zero", "pad"])
@pytest.mark.parametrize("kind", ["sequence-classification", "regression"])
def test_ig_completeness_tiny(models, kind, baseline):
    total, delta = _completeness(models[kind], SENTENCES[2], baseline, 50)
    assert abs(delta) > 1e-6
    assert total == pytest.approx(delta, rel=0.01)


@pytest.mark.slow
def test_ig_completeness_minilm():
    from interpeval.models import load

    model = load("minilm", kind="sequence-classification", device="cpu")
    total, delta = _completeness(model, SENTENCES[0], "zero", 50)
    assert abs(delta) > 1e-5
    assert total == pytest.approx(delta, rel=0.02)


def test_ig_pad_baseline_keeps_specials(models):
    model = models["sequence-classification"]
    enc = model.tokenize(["a fine film"])
    ids = baseline_ids(model, enc, "pad")[0].tolist()
    tok = model.tokenizer
    assert ids == [tok.cls_token_id, tok.pad_token_id, tok.pad_token_id, tok.pad_token_id, tok.sep_token_id]
    assert baseline_ids(model, enc, "zero")[0].tolist() == [0] * 5


def test_occlusion_is_leave_one_word_out(models):
    """Occlusion's word scores equal f(x) − f(x with the word's tokens left out of attention), by direct scoring."""
    model = models["sequence-classification"]
    text = "unflinchingly bleak and desperate "
    (a,) = explain.get("occlusion")().explain(model, text, Target("class_prob", 1))
    enc = model.tokenize([text])
    target = Target("class_prob", 1)
    with torch.no_grad():
        full = model.score(enc, target).item()
        expected = []
        for start, end in whitespace_spans(text):
            cut = dict(enc)
            inside = torch.tensor([[s < end and start < e and e > s for s, e in enc["offset_mapping"][0]]])
            cut["attention_mask"] = enc["attention_mask"] * ~inside
            expected.append(full - model.score(cut, target).item())
    np.testing.assert_allclose(a.to_words(), expected, rtol=1e-5, atol=1e-7)
    # subwords of one word share its score equally: "unflinchingly" is several WordPieces
    pieces = [i for i, (s, e) in enumerate(a.offsets) if e <= 13 and e > s]
    assert len(pieces) > 1 and np.allclose(a.scores[pieces], expected[0] / len(pieces))


@pytest.mark.parametrize("name", ["lime", "kernel_shap", "smoothgrad", "random"])
def test_seeded_determinism(models, name):
    model = models["sequence-classification"]
    params = FAST.get(name, {})
    cls = explain.get(name)
    state = torch.random.get_rng_state()
    a = cls(seed=3, **params).explain(model, SENTENCES[3:5])
    b = cls(seed=3, **params).explain(model, SENTENCES[3:5])
    c = cls(seed=4, **params).explain(model, SENTENCES[3:5])
    assert torch.equal(state, torch.random.get_rng_state())  # the caller's RNG is untouched
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x.scores, y.scores)
    assert any(not np.array_equal(x.scores, z.scores) for x, z in zip(a, c, strict=True))


def test_predicted_target_is_fixed_per_input(models):
    model = models["sequence-classification"]
    predicted = model.predict(SENTENCES[:4])
    out = explain.get("gradient")().explain(model, SENTENCES[:4])
    assert [a.target["index"] for a in out] == predicted.tolist()
    # explaining inputs together (grouped by target, padded) equals explaining them one by one
    for text, a in zip(SENTENCES[:4], out, strict=True):
        (single,) = explain.get("gradient")().explain(model, text)
        np.testing.assert_allclose(a.scores, single.scores, rtol=1e-4, atol=1e-7)


def test_attention_matches_model_attentions(models):
    model = models["sequence-classification"]
    texts = SENTENCES[:2]
    states = model.hidden_states(texts, attentions=True)
    last = max(states.attentions)
    weights = states.attentions[last].mean(1)  # [B, query, key], mean over heads
    cls_rows = explain.get("attention")(query="cls").explain(model, texts)
    mean_rows = explain.get("attention")(query="mean").explain(model, texts)
    for b in range(2):
        n = len(cls_rows[b].tokens)
        np.testing.assert_allclose(cls_rows[b].scores, weights[b, 0, :n].numpy(), rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(mean_rows[b].scores, weights[b, :n, :n].mean(0).numpy(), rtol=1e-4, atol=1e-6)


def test_attention_mask_query_official_is_presoftmax_head_sum(models):
    model = models["masked-lm"]
    text = "a [MASK] film and a [MASK] plot"
    soft = explain.get("attention")(query="mask").explain(model, text)[0]
    raw = explain.get("attention")(query="mask", official=True).explain(model, text)[0]
    assert soft.scores.sum() == pytest.approx(1.0)  # mean of probability rows
    assert not np.allclose(raw.scores, soft.scores)
    with pytest.raises(ValueError, match="at least one \\[MASK\\]"):
        explain.get("attention")(query="mask").explain(models["sequence-classification"], "no mask here")


def test_guided_backprop_differs_from_gradient(models):
    model = models["regression"]
    g = explain.get("gradient")().explain(model, SENTENCES[5])[0]
    gb = explain.get("guided_backprop")().explain(model, SENTENCES[5])[0]
    assert not np.allclose(g.scores, gb.scores)


def test_masked_lm_perturbation_never_removes_the_mask(models):
    model = models["masked-lm"]
    (a,) = explain.get("occlusion")().explain(model, "a [MASK] film")
    assert a.scores[a.tokens.index("[MASK]")] == 0.0
    assert len(a.to_words()) == 3 and a.to_words()[1] == 0.0


def test_bad_inputs(models):
    model = models["sequence-classification"]
    with pytest.raises(ValueError, match="does not support encoder"):
        explain.get("lime")().explain(tiny("encoder"), "x")
    with pytest.raises(ValueError, match="pairs has 1 items but texts has 2"):
        explain.get("random")().explain(model, ["a", "b"], pairs=["c"])
    with pytest.raises(ValueError, match="baseline must be one of"):
        explain.get("integrated_gradients")(baseline="mean").explain(model, "a film")
    with pytest.raises(ValueError, match="removal must be one of"):
        explain.get("occlusion")(removal="drop").explain(model, "a film")
