"""DeepLIFT (Shrikumar et al. 2017) on the embedding-layer output, through Captum's ``LayerDeepLift``.

Captum applies the rescale rule to its supported modules (ReLU, Tanh — e.g. BERT's pooler —, Sigmoid, Softmax
modules, …); GELU modules and functional ops are differentiated as usual, which is Captum's behaviour for
transformers. Scores are multiplied by (embedding output − baseline embedding output) and summed over dimensions.
"""

from __future__ import annotations

import numpy as np
from captum.attr import LayerDeepLift
from transformers import BatchEncoding

from interpeval.explain._captum import BASELINES, ScoreModule, baseline_ids, forward_args, token_scores
from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE, SEGMENT, Param
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("deeplift")
class DeepLift(Explainer):
    """DeepLIFT against ``baseline`` ``"zero"`` (all ids 0) or ``"pad"`` ([CLS] [PAD] … [SEP]); ``segment`` as
    :class:`~interpeval.explain.integrated_gradients.IntegratedGradients` (the other segment stays in the baseline)."""

    needs_gradients = True
    signed = True

    parameters = {"baseline": Param(str, choices=BASELINES), "batch_size": BATCH_SIZE, "segment": SEGMENT}

    def __init__(self, baseline: str = "zero", batch_size: int | None = None, segment: int | None = None) -> None:
        self.baseline = baseline
        self.batch_size = batch_size
        self.segment = segment

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        method = LayerDeepLift(ScoreModule(model, target), model.embedding_layer(), multiply_by_inputs=True)
        scores = []
        step = max(1, self._batch_size(model) // 2)  # DeepLIFT runs inputs and baselines in one batch
        baselines = baseline_ids(model, enc, self.baseline, self.segment)
        for start in range(0, enc["input_ids"].shape[0], step):
            part = slice(start, start + step)
            mask, types = forward_args(enc)
            scores.append(token_scores(method.attribute(
                enc["input_ids"][part], baselines=baselines[part],
                additional_forward_args=(mask[part], None if types is None else types[part]))))
        return np.concatenate(scores)
