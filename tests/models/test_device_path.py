"""The GPU path's pieces, run on the CPU: the batch-size rule from a memory figure, bf16 autocast, length-bucketed
batches and a 512-token input through the explainers (docs/cluster.md, "GPUs").

No GPU is used here: the rule is given memory figures, autocast runs on the CPU's bf16 kernels, and the 512-token
input takes the same code path a GPU run takes.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from interpeval import explain
from interpeval.exec.placement import move_model
from interpeval.models import Target, load, tiny
from interpeval.models.memory import (
    DEFAULT_ROWS,
    MAX_ROWS,
    auto_batch_size,
    row_bytes,
    rows_for_memory,
    weight_bytes,
)

GB = 1 << 30


@pytest.fixture(scope="module")
def minilm():
    return load("minilm-quackie-cls", device="cpu")


def test_the_rule_fits_minilm_rows_of_512_tokens_into_a_16_gb_card(minilm):
    # Korthikanti et al.'s 34·H + 5·A·L bytes per token and layer at 16 bits, doubled for fp32: MiniLM (6 layers,
    # H 384, 12 heads) keeps 6 · 512 · (34·384 + 5·12·512) · 2 = 268,959,744 bytes per 512-token row
    assert row_bytes(minilm.hf.config, 512) == 6 * 512 * (34 * 384 + 5 * 12 * 512) * 2
    fit = int((16 * GB * 0.8 - weight_bytes(minilm.hf)) // 268_959_744)
    assert fit == 50 and rows_for_memory(minilm, 16 * GB, 512) == 32  # rounded down to a power of two


def test_the_rule_grows_with_memory_shrinks_with_length_and_doubles_under_bf16(minilm):
    rows = [rows_for_memory(minilm, g * GB, 512) for g in (4, 8, 16, 40)]
    assert rows == sorted(rows) and rows[0] < rows[-1]
    assert rows_for_memory(minilm, 16 * GB, 128) >= 4 * rows_for_memory(minilm, 16 * GB, 512)
    assert rows_for_memory(minilm, 1 * GB // 8, 512) == 1  # too little memory still gives one row, never zero
    assert rows_for_memory(minilm, 1000 * GB, 512) == MAX_ROWS
    minilm.autocast = torch.bfloat16
    try:
        assert rows_for_memory(minilm, 16 * GB, 512) == 2 * 32  # 101 rows fit at 2 bytes an activation
    finally:
        minilm.autocast = None


def test_the_estimate_covers_what_a_backward_pass_really_keeps(minilm):
    """The activations autograd saves for one 512-token row (measured here) are within the rule's estimate."""
    saved: dict[int, int] = {}

    def pack(tensor):
        saved[tensor.untyped_storage().data_ptr()] = tensor.untyped_storage().nbytes()
        return tensor

    enc = minilm.tokenize(["word " * 600])
    assert enc["input_ids"].shape[1] == 512
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        embeddings = minilm.hf.base_model.embeddings(enc["input_ids"]).detach().requires_grad_()
        minilm.hf(inputs_embeds=embeddings, attention_mask=enc["attention_mask"]).logits.sum().backward()
    weights = {p.untyped_storage().data_ptr() for p in minilm.hf.parameters()}
    activations = sum(n for ptr, n in saved.items() if ptr not in weights)
    estimate = row_bytes(minilm.hf.config, 512)
    assert activations <= estimate < 4 * activations


def test_auto_keeps_32_rows_on_a_cpu_and_uses_a_given_memory_figure_everywhere():
    model = load("tiny-sequence-classification", device="cpu")
    assert model.batch_size == DEFAULT_ROWS == auto_batch_size(model) and model.auto_batch
    given = load("tiny-sequence-classification", device="cpu", memory=GB // 64)
    assert given.batch_size == rows_for_memory(given, GB // 64) != DEFAULT_ROWS
    fixed = load("tiny-sequence-classification", device="cpu", batch_size=7)
    assert fixed.batch_size == 7 and not fixed.auto_batch
    given.batch_size = 3  # as a model shipped to a Ray worker: moving it chooses the rows again, for its device
    given.device = torch.device("meta")
    move_model(given, "cpu")
    assert given.batch_size == rows_for_memory(given, GB // 64)
    with pytest.raises(ValueError, match="batch_size"):
        load("tiny-sequence-classification", batch_size=0)


def test_bf16_autocast_scores_close_to_fp32_and_every_kind_runs_under_it():
    from interpeval.models.load import loading

    texts, contexts = ["who wrote it ?", "where is it"], ["the book was written by ann .", "it is in paris ."]
    for kind in ("sequence-classification", "extractive-qa"):
        fp32 = tiny(kind, evidence_head=kind == "extractive-qa")
        with loading(autocast="bf16"):
            bf16 = load(f"tiny-{kind}")
        assert bf16.autocast is torch.bfloat16 and fp32.autocast is None
        bf16.hf.load_state_dict(fp32.hf.state_dict())
        pairs = None
        if kind == "extractive-qa":
            bf16.evidence_head, pairs = fp32.evidence_head, contexts
        a, b = fp32.score_texts(texts, pairs), bf16.score_texts(texts, pairs)
        assert b.dtype == np.float32 and np.allclose(a, b, atol=2e-2) and not np.array_equal(a, b)
        if kind == "extractive-qa":
            assert bf16.predict(texts, contexts)[0]["evidence"]["text"] is not None
    with pytest.raises(ValueError, match="autocast"):
        load("tiny-regression", autocast="int8")


def test_length_bucketed_batches_return_results_in_input_order():
    model = tiny("sequence-classification", batch_size=2)
    texts = ["a b c d e f g h i j k l", "a", "a b c d e f g h i j k", "b"]
    seen: list[list[str]] = []
    tokenize = model.tokenize

    def spy(batch, pairs=None):
        seen.append(list(batch))
        return tokenize(batch, pairs)

    model.tokenize = spy
    explainer = explain.build("saliency", {}, 0)
    target = Target("class_prob", index=1)  # given: no prediction pass, only the explainer's batches are seen
    attributions = explainer.explain(model, texts, target)
    assert [sorted(b, key=len) for b in seen] == [["a", "b"], ["a b c d e f g h i j k", "a b c d e f g h i j k l"]]
    assert [a.text for a in attributions] == texts
    model.tokenize = tokenize
    for text, attribution in zip(texts, attributions, strict=True):  # each as explained alone, up to padding
        assert np.allclose(explainer.explain(model, [text], target)[0].scores, attribution.scores, atol=1e-6)


@pytest.mark.parametrize("autocast", ["fp32", "bf16"])
def test_a_512_token_qa_input_runs_through_every_kind_of_explainer(autocast):
    model = load("tiny-extractive-qa", autocast=autocast, memory=GB)
    assert model.max_length == 512 and model.batch_size == rows_for_memory(model, GB)
    context = " ".join(f"word{k % 50}" for k in range(700))
    for name, params in (("integrated_gradients", {"n_steps": 4}), ("saliency", {}), ("lime", {"n_samples": 8})):
        (attribution,) = explain.build(name, params, 0).explain(model, ["which word ?"], pairs=[context])
        assert len(attribution.tokens) == 512 and np.isfinite(attribution.scores).all()


def test_the_dtype_and_memory_options_reach_the_model_a_command_loads(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from interpeval.cli import app

    loaded = []

    def spy(*args, **kwargs):
        loaded.append(load(*args, **kwargs))
        return loaded[-1]

    monkeypatch.setattr("interpeval.models.load", spy)
    file = tmp_path / "lines.txt"
    file.write_text("a fine film\ndull and long\n")
    result = CliRunner().invoke(app, ["attribute", str(file), "--explainer", "saliency", "--device", "cpu",
                                      "--dtype", "bf16", "--memory-gb", "0.25", "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    (model,) = loaded
    assert model.autocast is torch.bfloat16 and model.batch_size == rows_for_memory(model, GB // 4)
    for bad, message in ((["--dtype", "fp8"], "--dtype"), (["--memory-gb", "0"], "--memory-gb"),
                         (["--device", "cuda:7"], "--device")):
        result = CliRunner().invoke(app, ["attribute", str(file), *bad, "--store", str(tmp_path / "s.sqlite")])
        assert result.exit_code != 0 and message in f"{result.output}{result.exception}"
