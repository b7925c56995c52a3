"""SmoothGrad (Smilkov et al. 2017): saliency averaged over Gaussian-noised embedding outputs (Captum NoiseTunnel).

Noise is added to the embedding-layer output (Captum cannot add noise to token ids, so NoiseTunnel wraps Saliency
on the embeddings block's output, which :class:`~interpeval.explain._captum.EmbeddingScore` feeds back into the
model). QUACKIE's setting is ``NoiseTunnel(Saliency)`` with ``n_samples=5``, ``stdevs=1.0`` and Saliency's
``abs=True``.
"""

from __future__ import annotations

import numpy as np
from captum.attr import NoiseTunnel
from captum.attr import Saliency as CaptumSaliency
from transformers import BatchEncoding

from interpeval.explain._captum import EmbeddingScore, embedding_output, forward_args
from interpeval.explain.base import Explainer
from interpeval.explain.params import BATCH_SIZE, DRAWS, SEED, Param
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("smoothgrad")
class SmoothGrad(Explainer):
    """Mean over ``n_samples`` noisy copies (noise std ``stdevs``) of the saliency, summed over dimensions; ``draws``
    says where each input's noise starts (``"tokens"``: the seed and the input's token ids; ``"seed"``: the seed)."""

    needs_gradients = True
    signed = False
    stochastic = True
    #: one input per call, unpadded: Captum draws the noise for the whole batch at once (its shape includes the
    #: padding), so an input's noise, hence its scores, would depend on the inputs beside it; alone, each input's
    #: draws start from its own seed (:meth:`Explainer.explain`) and its noisy copies still share one pass
    rows_per_call = 1

    parameters = {"n_samples": Param(int, minimum=1), "stdevs": Param(float, minimum=0), "abs": Param(bool),
                  "seed": SEED, "batch_size": BATCH_SIZE, "draws": DRAWS}

    def __init__(self, n_samples: int = 5, stdevs: float = 1.0, abs: bool = True,  # noqa: A002
                 seed: int | None = 0, batch_size: int | None = None, draws: str = "tokens") -> None:
        self.n_samples = n_samples
        self.stdevs = stdevs
        self.abs = abs
        self.seed = seed
        self.batch_size = batch_size
        self.draws = draws

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        rows = enc["input_ids"].shape[0]
        tunnel = NoiseTunnel(CaptumSaliency(EmbeddingScore(model, target)))
        grads = tunnel.attribute(embedding_output(model, enc), nt_type="smoothgrad", nt_samples=self.n_samples,
                                 nt_samples_batch_size=max(1, self._batch_size(model) // rows),
                                 stdevs=self.stdevs, abs=self.abs,
                                 additional_forward_args=(enc["input_ids"], *forward_args(enc)))
        return grads.detach().float().sum(-1).cpu().numpy()
