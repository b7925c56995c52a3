"""Integrated Gradients (Sundararajan et al. 2017) on the embedding-layer output, through Captum.

Path integral of the gradient from a baseline input to the real one; the token scores then sum to
``f(x) − f(baseline)`` up to the quadrature error (completeness), which shrinks as ``n_steps`` grows.

Captum's ``LayerIntegratedGradients`` on the embeddings block runs the whole model twice more per call (on the
inputs and on the baselines) only to read that block's output, then hands it to ``IntegratedGradients``. Here the
block's output is read from the block alone (:func:`~interpeval.explain._captum.embedding_output`) and given to the
same ``IntegratedGradients`` on :class:`~interpeval.explain._captum.EmbeddingScore`, which feeds each path point
back through the same forward hook: the same scores bit for bit, with ``n_steps`` passes instead of ``n_steps + 2``
(``tests/explain/test_integrated_gradients.py``).
"""

from __future__ import annotations

import numpy as np
from captum.attr import IntegratedGradients as CaptumIntegratedGradients
from transformers import BatchEncoding

from interpeval.explain._captum import (
    BASELINES,
    EmbeddingScore,
    baseline_ids,
    embedding_output,
    forward_args,
    token_scores,
)
from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE, SEGMENT, Param
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("integrated_gradients")
class IntegratedGradients(Explainer):
    """IG with ``n_steps`` (QUACKIE: 50), ``baseline`` ``"zero"`` (all ids 0, Captum's and QUACKIE's default) or
    ``"pad"`` ([CLS] [PAD] … [SEP]), Captum's ``method`` (``gausslegendre`` default, or ``riemann_*``) and
    ``internal_batch_size`` rows per forward pass (default: ``batch_size``, itself defaulting to the model's).
    ``segment`` (0 or 1) attributes only that segment: the baseline keeps the special tokens and the other segment
    (QUACKIE's originals: question fixed, context attributed, ``segment=1``).
    """

    needs_gradients = True
    signed = True

    parameters = {"n_steps": Param(int, minimum=1), "baseline": Param(str, choices=BASELINES),
                  "method": Param(str, choices=("gausslegendre", "riemann_left", "riemann_right", "riemann_middle",
                                                "riemann_trapezoid")),
                  "internal_batch_size": BATCH_SIZE, "batch_size": BATCH_SIZE, "segment": SEGMENT}

    def __init__(self, n_steps: int = 50, baseline: str = "zero", method: str = "gausslegendre",
                 internal_batch_size: int | None = None, batch_size: int | None = None,
                 segment: int | None = None) -> None:
        self.n_steps = n_steps
        self.baseline = baseline
        self.method = method
        self.internal_batch_size = internal_batch_size
        self.batch_size = batch_size
        self.segment = segment

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        if self.n_steps < 1:
            raise ValueError(f"n_steps must be >= 1, got {self.n_steps}")
        baseline = {**enc, "input_ids": baseline_ids(model, enc, self.baseline, self.segment)}
        ig = CaptumIntegratedGradients(EmbeddingScore(model, target))
        attributions = ig.attribute(embedding_output(model, enc), baselines=embedding_output(model, baseline),
                                    additional_forward_args=(enc["input_ids"], *forward_args(enc)),
                                    n_steps=self.n_steps, method=self.method,
                                    internal_batch_size=self.internal_batch_size or self._batch_size(model))
        return token_scores(attributions)
