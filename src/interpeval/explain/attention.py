"""Attention weights as attributions (last layer by default).

Three readings of one attention matrix ``A[head, query, key]`` of layer ``layer``:

- ``query="cls"`` (default): the attention the first token ([CLS] / ``<s>``) pays to each token, mean over heads;
- ``query="mean"``: the attention each token *receives*, averaged over all non-padding queries and heads;
- ``query="mask"``: the PLM benchmark's masked-segment reading — the attention from the [MASK] positions (the
  masked segment) to each token, averaged over the [MASK] queries. With ``official=True`` it is exactly TrustAI's
  ``attention_predict_fn_on_paddlenlp_pretrain``: the *pre-softmax* scaled scores ``q·kᵀ/√d``, **summed** over
  heads, summed over the [MASK] rows and divided by their number, with no attention mask (QUIRK, REFERENCE §4);
- ``query="mask_key"``: the other direction — the attention each token pays *to* the [MASK] positions ([MASK] as
  key), averaged over the [MASK] columns and the heads. The PLM benchmark paper's formula and TrustAI's code
  disagree on the direction; this reading offers the one TrustAI does not implement.

The scores are computed from the layer's own query/key projections (captured with forward hooks), so no
attention implementation needs switching; for BERT-family self-attention the softmax equals the model's weights.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from transformers import BatchEncoding

from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE, Param
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target

QUERIES = ("cls", "mean", "mask", "mask_key")


def self_attention_modules(model: Model) -> list[torch.nn.Module]:
    """The self-attention modules (with ``query``/``key`` projections and a head count), first layer first."""
    found = [m for m in model.hf.modules()
             if isinstance(getattr(m, "query", None), torch.nn.Linear)
             and isinstance(getattr(m, "key", None), torch.nn.Linear) and hasattr(m, "num_attention_heads")]
    if not found:
        raise ValueError(f"{model.name}: no BERT-style self-attention (query/key projections) found")
    return found


@register("attention")
class Attention(Explainer):
    """Attention of layer ``layer`` (default the last) read from ``query`` rows; see the module docstring."""

    needs_gradients = False
    signed = False

    parameters = {"query": Param(str, choices=QUERIES), "layer": Param(int), "official": Param(bool),
                  "batch_size": BATCH_SIZE}

    def __init__(self, query: str = "cls", layer: int = -1, official: bool = False,
                 batch_size: int | None = None) -> None:
        self.query = query
        self.layer = layer
        self.official = official
        self.batch_size = batch_size

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        if self.query not in QUERIES:
            raise ValueError(f"query must be one of {QUERIES}, got {self.query!r}")
        modules = self_attention_modules(model)
        if not -len(modules) <= self.layer < len(modules):
            raise ValueError(f"layer {self.layer} out of range: {model.name} has {len(modules)} attention layers")
        module = modules[self.layer]
        captured: dict[str, torch.Tensor] = {}
        hooks = [getattr(module, name).register_forward_hook(
            lambda m, args, out, name=name: captured.__setitem__(name, out)) for name in ("query", "key")]
        try:
            with torch.inference_mode():
                model.forward(enc)
        finally:
            for hook in hooks:
                hook.remove()
        heads = module.num_attention_heads
        q, k = (captured[name].float() for name in ("query", "key"))
        b, length, _ = q.shape
        q = q.view(b, length, heads, -1).transpose(1, 2)
        k = k.view(b, length, heads, -1).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])  # [B, heads, query, key]
        mask = enc["attention_mask"].bool()
        if self.official and self.query == "mask":
            matrix = scores.sum(1)
        else:
            scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
            matrix = torch.softmax(scores, -1).mean(1)  # [B, query, key]
        if self.query == "cls":
            return matrix[:, 0].cpu().numpy()
        if self.query == "mean":
            rows = mask.float()
        else:
            if model.tokenizer.mask_token_id is None:
                raise ValueError(f"query={self.query!r} needs a tokenizer with a [MASK] token ({model.name} has none)")
            rows = (enc["input_ids"] == model.tokenizer.mask_token_id).float()
            if bool((rows.sum(1) == 0).any()):
                raise ValueError(f"query={self.query!r} needs at least one [MASK] token in every input")
            if self.query == "mask_key":
                return ((matrix * rows[:, None, :]).sum(2) / rows.sum(1, keepdim=True)).cpu().numpy()
        return ((rows[:, :, None] * matrix).sum(1) / rows.sum(1, keepdim=True)).cpu().numpy()
