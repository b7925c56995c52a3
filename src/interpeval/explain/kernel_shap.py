"""Kernel SHAP (Lundberg & Lee 2017) over words, through Captum's ``KernelShap``.

Coalitions of words are sampled with the Shapley kernel and the weighted linear regression is Captum's; absent
words are removed as in :mod:`interpeval.explain._perturb`; ``batch_size`` coalitions are scored per forward pass.
"""

from __future__ import annotations

import numpy as np
import torch
from captum.attr import KernelShap as CaptumKernelShap
from transformers import BatchEncoding

from interpeval.explain._perturb import PresenceScore, spread, word_features
from interpeval.explain.base import Explainer
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("kernel_shap")
class KernelShap(Explainer):
    """Kernel SHAP with ``n_samples`` coalitions (QUACKIE: 10 or 100) against the all-words-removed baseline."""

    needs_gradients = False
    signed = True
    stochastic = True
    rows_per_call = 1

    def __init__(self, n_samples: int = 500, unit: str = "word", removal: str = "attention", seed: int | None = 0,
                 batch_size: int | None = None) -> None:
        self.n_samples = n_samples
        self.unit = unit
        self.removal = removal
        self.seed = seed
        self.batch_size = batch_size

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        feature_of_token, n = word_features(model, enc, 0, self.unit)
        if n == 0:
            return np.zeros((1, enc["input_ids"].shape[1]))
        forward = PresenceScore(model, enc, 0, target, feature_of_token, self.removal)
        device = feature_of_token.device
        values = CaptumKernelShap(forward).attribute(
            torch.ones(1, n, device=device), baselines=0.0, feature_mask=torch.arange(n, device=device)[None],
            n_samples=self.n_samples, perturbations_per_eval=self._batch_size(model), return_input_shape=False)
        return spread(values.detach().cpu().numpy().reshape(-1), feature_of_token, n)[None]
