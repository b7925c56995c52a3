"""Guided backpropagation (Springenberg et al. 2015) on the embedding-layer output, through Captum.

Captum's ``GuidedBackprop`` only overrides ``nn.ReLU`` modules; transformer encoders use GELU-like activation
modules, where the plain rule would leave the ordinary gradient. Here every activation module (``nn.ReLU``,
``nn.GELU`` and transformers' ``*Activation`` modules) gets the guided rule: negative gradients are zeroed on the way
back through it. Functional activations (not modules) are differentiated as usual.
"""

from __future__ import annotations

import numpy as np
import torch
from captum._utils.common import _register_backward_hook
from captum.attr import GuidedBackprop as CaptumGuidedBackprop
from transformers import BatchEncoding

from interpeval.explain._captum import EmbeddingScore, embedding_output, forward_args
from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


def is_activation(module: torch.nn.Module) -> bool:
    """ReLU, GELU, SiLU, … modules from torch or transformers (not containers, not linear layers)."""
    cls = type(module)
    return (cls.__module__ == "torch.nn.modules.activation" and cls.__name__ not in ("MultiheadAttention", "Softmax",
                                                                                       "LogSoftmax", "Softmin")
            or cls.__module__.startswith("transformers.activations"))


class _ActivationGuidedBackprop(CaptumGuidedBackprop):
    def _register_hooks(self, module: torch.nn.Module) -> None:
        if is_activation(module):
            self.backward_hooks.extend(_register_backward_hook(module, self._backward_hook, self))


@register("guided_backprop")
class GuidedBackprop(Explainer):
    """Guided gradient w.r.t. the embedding-layer output, summed over embedding dimensions (signed)."""

    needs_gradients = True
    signed = True

    parameters = {"batch_size": BATCH_SIZE}

    def __init__(self, batch_size: int | None = None) -> None:
        self.batch_size = batch_size

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        method = _ActivationGuidedBackprop(EmbeddingScore(model, target))
        grads = method.attribute(embedding_output(model, enc),
                                 additional_forward_args=(enc["input_ids"], *forward_args(enc)))
        return grads.detach().float().sum(-1).cpu().numpy()
