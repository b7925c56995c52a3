"""Gradient saliency (Simonyan et al. 2014): the gradient of the target w.r.t. the embedding-layer output.

``Saliency`` follows Captum's ``Saliency`` default (``abs=True``) as QUACKIE uses it: a token's score is the sum of
the absolute gradients over its embedding dimensions. ``Gradient`` is the signed variant (sum of the gradients).
"""

from __future__ import annotations

import numpy as np
from captum.attr import LayerGradientXActivation
from transformers import BatchEncoding

from interpeval.explain._captum import ScoreModule, forward_args
from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE, Param
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("saliency")
class Saliency(Explainer):
    """|gradient| summed over embedding dimensions (``abs=True``), or the signed sum (``abs=False``)."""

    needs_gradients = True
    signed = False

    parameters = {"abs": Param(bool), "batch_size": BATCH_SIZE}

    def __init__(self, abs: bool = True, batch_size: int | None = None) -> None:  # noqa: A002 (Captum's name)
        self.abs = abs
        self.batch_size = batch_size

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        method = LayerGradientXActivation(ScoreModule(model, target), model.embedding_layer(),
                                          multiply_by_inputs=False)
        grads = method.attribute(enc["input_ids"], additional_forward_args=forward_args(enc)).detach().float()
        return (grads.abs() if self.abs else grads).sum(-1).cpu().numpy()


@register("gradient")
class Gradient(Saliency):
    """Signed gradient saliency: the gradient summed over embedding dimensions."""

    signed = True

    def __init__(self, abs: bool = False, batch_size: int | None = None) -> None:  # noqa: A002
        super().__init__(abs=abs, batch_size=batch_size)
