import math

import numpy as np
import pytest
import torch

from interpeval.models import KINDS, Target, tiny

TEXTS = ["the film was a [MASK] surprise .", "a [MASK] , dull [MASK] ."]
TARGETS = {
    "masked-lm": [Target("masked_token_prob")],
    "sequence-classification": [Target("class_prob"), Target("class_prob", index=1)],
    "regression": [Target("regression")],
    "extractive-qa": [Target("p_answer"), Target("span_start"), Target("span_end", index=5),
                      Target("evidence_start"), Target("evidence_end")],
    "multiple-choice": [Target("choice_prob"), Target("choice_prob", index=0)],
}


def _inputs(model):
    if model.kind == "extractive-qa":
        return model.tokenize(["who won ?", "when ?"], ["the home team won the cup in 1999 .", "in 1999 ."])
    if model.kind == "multiple-choice":
        return model.tokenize(["the man fell .", "it rained ."], [["he slipped", "he flew"], ["wet", "dry"]])
    if model.kind == "masked-lm":
        return model.tokenize(["the film was a [MASK] surprise .", "a [MASK] , dull [MASK] ."])
    return model.tokenize(["a fine film", "dull"], ["good", "bad"])


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "encoder"])
def test_every_target_is_differentiable_wrt_inputs_embeds(kind):
    model = tiny(kind, evidence_head=kind == "extractive-qa")
    enc = _inputs(model)
    for target in TARGETS[kind]:
        embeds = model.hf.get_input_embeddings()(enc["input_ids"]).detach().requires_grad_(True)
        inputs = {**enc, "inputs_embeds": embeds}
        scores = model.score(inputs, target)
        assert scores.shape == (2,)
        assert torch.all(scores >= 0) or kind == "regression"
        scores.sum().backward()
        assert embeds.grad is not None and embeds.grad.abs().sum() > 0, target
        # embeddings give the same scores as ids (the ids only locate [MASK]/[SEP] then)
        assert torch.allclose(scores, model.score(enc, target), atol=1e-5)


def test_score_texts_batches_like_one_pass():
    model = tiny("sequence-classification", batch_size=1)
    texts = ["a fine film", "dull", "the plot is thin but the cast is great"]
    one = tiny("sequence-classification").score_texts(texts, target=Target("class_prob", index=1))
    assert np.allclose(model.score_texts(texts, target=Target("class_prob", index=1)), one, atol=1e-5)
    probs = model.predict_proba(texts)
    assert np.allclose(probs.sum(1), 1) and list(model.predict(texts)) == list(probs.argmax(1))


def test_unknown_target_names_supported_ones():
    with pytest.raises(ValueError, match="supported: class_prob"):
        tiny("sequence-classification").score_texts(["x"], target=Target("p_answer"))


def test_p_answer_matches_hand_computation():
    # REFERENCE §1.5 on 3 tokens with c0 = 1: softmax(s) = [1/4, 1/2, 1/4], softmax(e) = [1/5, 1/5, 3/5];
    # P = ps1 (pe1 + pe2) + ps2 pe2 = 1/2 · 4/5 + 1/4 · 3/5 = 0.55
    model = tiny("extractive-qa")
    s = torch.tensor([[0.0, math.log(2), 0.0]])
    e = torch.tensor([[0.0, 0.0, math.log(3)]])
    c0 = model.context_start({"input_ids": torch.tensor([[101, 2000, 102]]),
                              "token_type_ids": torch.tensor([[0, 1, 1]])})
    assert c0.tolist() == [1]
    assert model.p_answer(s, e, c0).item() == pytest.approx(0.55, abs=1e-6)


def test_p_answer_equals_joint_matrix_sum_on_a_real_forward():
    model = tiny("extractive-qa")
    enc = model.tokenize(["who won ?", "when ?"], ["the home team won the cup .", "in 1999 ."])
    out = model.forward(enc)
    got = model.score(enc, Target("p_answer"))
    for b in range(2):
        s, e = out.start_logits[b].double(), out.end_logits[b].double()
        joint = torch.exp(s[:, None] + e[None, :]) / torch.exp(s[:, None] + e[None, :]).sum()  # [i, j]
        c0 = enc["token_type_ids"][b].tolist().index(1)
        want = sum(joint[i, j] for i in range(c0, len(s)) for j in range(i, len(s)))
        assert got[b].item() == pytest.approx(want.item(), abs=1e-6)


def test_context_start_without_token_types_skips_separator_run():
    model = tiny("extractive-qa")
    model.tokenizer.model_input_names = ["input_ids", "attention_mask"]  # an XLM-R style tokenizer
    sep = model.tokenizer.sep_token_id
    ids = torch.tensor([[0, 7, sep, sep, 9, 9, sep], [0, 7, 8, sep, sep, 9, sep]])
    assert model.context_start({"input_ids": ids}).tolist() == [4, 5]


def test_masked_token_prob_gold_and_predicted():
    model = tiny("masked-lm")
    enc = model.tokenize(["a [MASK] dull [MASK] ."])
    probs = torch.softmax(model.forward(enc).logits[0], -1)
    where = (enc["input_ids"][0] == model.tokenizer.mask_token_id).nonzero()[:, 0]
    gold = (2204, 3185)
    want = probs[where[0], gold[0]] + probs[where[1], gold[1]]
    assert model.score(enc, Target("masked_token_prob", token_ids=gold)).item() == pytest.approx(want.item())
    best = probs[where].max(-1)
    assert model.score(enc, Target("masked_token_prob")).item() == pytest.approx(best.values.sum().item())
    assert model.predict(["a [MASK] dull [MASK] ."]) == [best.indices.tolist()]
    with pytest.raises(ValueError, match="2 \\[MASK\\]|\\[2\\]"):
        model.score(enc, Target("masked_token_prob", token_ids=(1,)))


def test_qa_predict_gives_char_spans_inside_the_context():
    model = tiny("extractive-qa", evidence_head=True)
    contexts = ["The home team won the cup in 1999. Fans cheered.", "Nothing here."]
    preds = model.predict(["who won?", "what?"], contexts)
    for pred, context in zip(preds, contexts, strict=True):
        assert context[pred["start"]:pred["end"]] == pred["text"] != ""
        assert 0 <= pred["p_answer"] <= 1
        assert context[pred["evidence"]["start"]:pred["evidence"]["end"]] == pred["evidence"]["text"]


def test_multiple_choice_needs_equal_option_counts():
    model = tiny("multiple-choice")
    assert model.predict(["it rained ."], [["wet", "dry", "hot"]]).shape == (1,)
    with pytest.raises(ValueError, match="same"):
        model.tokenize(["a", "b"], [["x", "y"], ["z"]])


def test_encoder_hidden_states_and_attentions():
    model = tiny("encoder")
    hs = model.hidden_states(["a b c", "d"], layers=[0, -1], attentions=True)
    assert sorted(hs.layers) == [0, 2] and hs.layers[2].shape == (2, 5, 32)
    assert hs.attention_mask.tolist()[1] == [1, 1, 1, 0, 0]
    assert hs.attentions[2].shape == (2, 2, 5, 5)
    assert torch.allclose(hs.attentions[2].sum(-1), torch.ones(2, 2, 5), atol=1e-5)
    assert model.hf.config._attn_implementation != "eager"  # switched back
    emb = model.predict(["a b c", "d"])
    assert emb.shape == (2, 32) and np.allclose(np.linalg.norm(emb, axis=1), 1, atol=1e-5)
    with pytest.raises(ValueError, match="no targets"):
        model.score_texts(["x"])


def test_tiny_is_deterministic_and_leaves_global_rng_alone():
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    a = tiny("regression", seed=3).score_texts(["x y"], target=Target("regression"))
    assert torch.rand(1) == before
    assert np.array_equal(a, tiny("regression", seed=3).score_texts(["x y"], target=Target("regression")))
    assert not np.array_equal(a, tiny("regression", seed=4).score_texts(["x y"], target=Target("regression")))
