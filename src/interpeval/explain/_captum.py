"""Glue between :class:`~interpeval.models.base.Model` and Captum shared by the gradient explainers.

Captum calls a forward function with the attributed tensor first and the rest as ``additional_forward_args``;
these wrappers turn that into ``model.score(inputs, target)``. Gradient methods attribute to the output of
``model.embedding_layer()`` (word + position + type embeddings + LayerNorm), as QUACKIE does; a token's score is
the signed sum over the embedding dimensions of the per-dimension attribution.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
from transformers import BatchEncoding

from interpeval.explain.base import fixed_mask, special_mask
from interpeval.models.base import Model, Target

BASELINES = ("zero", "pad")


def forward_args(enc: BatchEncoding) -> tuple[torch.Tensor, torch.Tensor | None]:
    """``(attention_mask, token_type_ids or None)``: what Captum passes after the attributed tensor."""
    return enc["attention_mask"], enc.get("token_type_ids")


class ScoreModule(torch.nn.Module):
    """``model.score`` for ``(input_ids, attention_mask, token_type_ids)`` as an ``nn.Module`` (DeepLIFT needs one)."""

    def __init__(self, model: Model, target: Target) -> None:
        super().__init__()
        self.hf = model.hf  # a child module, so Captum's module hooks reach the model's activations
        self.model = model
        self.target = target

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor | None = None) -> torch.Tensor:
        inputs = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
        return self.model.score(inputs, self.target)


class EmbeddingScore(ScoreModule):
    """``model.score`` as a function of the embedding-layer *output*, for Captum's non-layer methods.

    The given tensor replaces the embeddings block's output through a forward hook, exactly what Captum's Layer*
    methods do internally; ``input_ids`` still ride along so targets can find [MASK] / separator positions.
    """

    def forward(self, embeddings: torch.Tensor, input_ids: torch.Tensor,  # type: ignore[override]
                attention_mask: torch.Tensor, token_type_ids: torch.Tensor | None = None) -> torch.Tensor:
        handle = self.model.embedding_layer().register_forward_hook(lambda module, args, output: embeddings)
        try:
            return super().forward(input_ids, attention_mask, token_type_ids)
        finally:
            handle.remove()


class _Captured(Exception):
    """Raised by the capture hook to stop a forward pass once the embeddings are known."""


def embedding_output(model: Model, enc: Mapping[str, Any]) -> torch.Tensor:
    """The embeddings block's output for the model inputs in ``enc`` (no gradient; the rest of the forward pass is
    skipped)."""
    captured: list[torch.Tensor] = []

    def hook(module: Any, args: Any, output: torch.Tensor) -> None:
        captured.append(output.detach())
        raise _Captured

    handle = model.embedding_layer().register_forward_hook(hook)
    try:
        with torch.no_grad():
            model.forward(enc)
    except _Captured:
        pass
    finally:
        handle.remove()
    return captured[0]


def baseline_ids(model: Model, enc: BatchEncoding, baseline: str, segment: int | None = None) -> torch.Tensor:
    """Input ids of the reference input for IG / DeepLIFT.

    ``"zero"``: every id 0 — Captum's default baseline, used by QUACKIE (for BERT vocabularies id 0 is [PAD]).
    ``"pad"``: ``[CLS] [PAD] … [SEP]``, the special tokens kept and every text token replaced by [PAD].
    Both keep the [MASK] tokens of a masked-LM input, so its target still finds the masked positions.
    With ``segment`` only that segment is replaced: the special tokens and the other segment keep their ids
    (question fixed, context attributed), so the other segment's attributions are 0.
    """
    ids = enc["input_ids"]
    if baseline not in BASELINES:
        raise ValueError(f"baseline must be one of {BASELINES}, got {baseline!r}")
    keep = special_mask(model, enc) & (enc["attention_mask"] > 0)
    if segment is not None:
        keep = fixed_mask(model, enc, segment) & (enc["attention_mask"] > 0)
    if baseline == "zero":
        if segment is None:
            masked = special_mask(model, enc) & (ids == model.tokenizer.mask_token_id)
            keep = keep & masked if model.kind == "masked-lm" else torch.zeros_like(keep)
        return torch.where(keep, ids, torch.zeros_like(ids))
    pad = model.tokenizer.pad_token_id
    if pad is None:
        raise ValueError(f"the tokenizer of {model.name} has no [PAD] token; use baseline='zero'")
    return torch.where(keep, ids, torch.full_like(ids, pad))


def token_scores(attributions: torch.Tensor) -> Any:
    """``[B, L, H]`` attributions → ``[B, L]`` token scores (signed sum over dimensions) as numpy."""
    return attributions.detach().float().sum(-1).cpu().numpy()
