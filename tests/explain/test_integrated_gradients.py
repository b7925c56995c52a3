"""Integrated Gradients reads the embeddings block's output from the block alone instead of Captum's
``LayerIntegratedGradients`` two extra full passes per call: the scores must equal Captum's layer method's bit for
bit, in every kind, baseline, segment and internal batching, with ``n_steps`` model rows per input — for BERT and
for XLM-R and MPNet, whose position ids are counted from the input ids (padding at ``padding_idx``).

The reference is Captum's own ``LayerIntegratedGradients`` on the same score function (what the explainer called
before); no expected number is fixed.
"""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest
import torch
from captum.attr import LayerIntegratedGradients
from tokenizers import Tokenizer
from transformers import MPNetConfig, PreTrainedTokenizerFast, XLMRobertaConfig

from interpeval import explain
from interpeval.explain._captum import ScoreModule, baseline_ids, forward_args, token_scores
from interpeval.explain.base import resolve_targets
from interpeval.models import tiny
from interpeval.models.kinds import KIND_CLASSES, hf_class
from interpeval.models.tiny import TINY_CONFIG, head_overrides, tokenizer_dir

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
    _assert_bit_for_bit(model, texts, pairs, baseline, segment, internal)


def _assert_bit_for_bit(model, texts, pairs, baseline, segment, internal):
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


@cache
def roberta_layout_tokenizer() -> PreTrainedTokenizerFast:
    """The vendored MiniLM WordPiece vocabulary with XLM-R's and MPNet's special tokens and layout: ``<s>`` 0,
    ``<pad>`` 1 (the embeddings' ``padding_idx``), ``</s>`` 2, ``<unk>`` 3, ``<mask>`` last; pairs read
    ``<s> A </s></s> B </s>``; no token type ids."""
    spec = json.loads((tokenizer_dir() / "tokenizer.json").read_text(encoding="utf-8"))
    words = [w for w, _ in sorted(spec["model"]["vocab"].items(), key=lambda kv: kv[1])
             if w not in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")]
    vocab = {w: i for i, w in enumerate(["<s>", "<pad>", "</s>", "<unk>", *words, "<mask>"])}
    spec["model"].update(vocab=vocab, unk_token="<unk>")
    spec["added_tokens"] = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                             "normalized": False, "special": True} for t in ("<s>", "<pad>", "</s>", "<unk>", "<mask>")]
    spec["post_processor"] = {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                              "trim_offsets": True, "add_prefix_space": False}
    return PreTrainedTokenizerFast(tokenizer_object=Tokenizer.from_str(json.dumps(spec)), bos_token="<s>",
                                   eos_token="</s>", sep_token="</s>", cls_token="<s>", unk_token="<unk>",
                                   pad_token="<pad>", mask_token="<mask>",
                                   model_input_names=["input_ids", "attention_mask"])


def tiny_position_model(arch: str, kind: str):
    """A tiny random XLM-R or MPNet of ``kind``, built locally: their embeddings count positions from the input ids
    (``padding_idx`` + 1 on, padding at ``padding_idx``), so a [PAD] baseline's positions differ from the input's."""
    tokenizer = roberta_layout_tokenizer()
    sizes = {k: v for k, v in TINY_CONFIG.items() if k not in ("max_position_embeddings", "type_vocab_size")}
    special = {"vocab_size": len(tokenizer), "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2,
               "max_position_embeddings": 514, **sizes, **head_overrides(kind)}
    config = XLMRobertaConfig(type_vocab_size=1, **special) if arch == "xlm-roberta" else MPNetConfig(**special)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        hf = hf_class(kind).from_config(config).eval()
    return KIND_CLASSES[kind](hf, tokenizer, f"tiny-{arch}-{kind}", "cpu", 32, 128)


#: (kind, baseline, segment, internal batch): the padded three-input batches are where input, [PAD] baseline and
#: zero baseline (all ``<s>``) get different position ids
POSITION_CASES = [("sequence-classification", "zero", None, None), ("sequence-classification", "pad", None, 7),
                  ("sequence-classification", "pad", 1, None), ("masked-lm", "pad", None, 5),
                  ("extractive-qa", "zero", 1, None)]


@pytest.mark.parametrize("arch", ["xlm-roberta", "mpnet"])
@pytest.mark.parametrize(("kind", "baseline", "segment", "internal"), POSITION_CASES)
def test_bit_for_bit_with_position_ids_counted_from_input_ids(arch, kind, baseline, segment, internal):
    model = tiny_position_model(arch, kind)
    texts, pairs = INPUTS[kind]
    if segment is not None and pairs is None:  # a pair classifier: the first segment fixed
        texts, pairs = INPUTS["extractive-qa"]
    texts = [t.replace("[MASK]", model.tokenizer.mask_token) for t in texts]
    if kind != "sequence-classification":
        texts, pairs = texts[:1], None if pairs is None else pairs[:1]
    else:  # padded with <pad>, the embeddings' padding_idx
        enc = model.tokenize(texts, pairs)
        assert (enc["input_ids"][enc["attention_mask"] == 0] == 1).all() and (enc["attention_mask"] == 0).any()
        assert model.tokenizer.pad_token_id == model.embedding_layer().padding_idx == 1
    _assert_bit_for_bit(model, texts, pairs, baseline, segment, internal)
