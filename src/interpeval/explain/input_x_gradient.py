"""Input × gradient (Shrikumar et al. 2016) on the embedding-layer output, through Captum."""

from __future__ import annotations

import numpy as np
from captum.attr import LayerGradientXActivation
from transformers import BatchEncoding

from interpeval.explain._captum import ScoreModule, forward_args, token_scores
from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("input_x_gradient")
class InputXGradient(Explainer):
    """Embedding output × gradient, summed over embedding dimensions (signed)."""

    needs_gradients = True
    signed = True

    parameters = {"batch_size": BATCH_SIZE}

    def __init__(self, batch_size: int | None = None) -> None:
        self.batch_size = batch_size

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        method = LayerGradientXActivation(ScoreModule(model, target), model.embedding_layer(),
                                          multiply_by_inputs=True)
        return token_scores(method.attribute(enc["input_ids"], additional_forward_args=forward_args(enc)))
