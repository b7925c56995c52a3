"""Occlusion / leave-one-out over words, through Captum's ``FeatureAblation``.

A word's score is ``f(x) − f(x without that word)``: the drop in the target when the word alone is removed
(ferret's ``taucorr_loo`` quantity). ``batch_size`` ablated copies are scored per forward pass.
"""

from __future__ import annotations

import numpy as np
import torch
from captum.attr import FeatureAblation
from transformers import BatchEncoding

from interpeval.explain._perturb import PresenceScore, spread, word_features
from interpeval.explain.base import Explainer
from interpeval.explain.registry import register
from interpeval.models.base import Model, Target


@register("occlusion")
class Occlusion(Explainer):
    """Leave-one-word-out (``unit="word"``) or leave-one-subword-out (``unit="token"``)."""

    needs_gradients = False
    signed = True
    rows_per_call = 1

    def __init__(self, unit: str = "word", removal: str = "attention", batch_size: int | None = None) -> None:
        self.unit = unit
        self.removal = removal
        self.batch_size = batch_size

    def _attribute(self, model: Model, enc: BatchEncoding, target: Target) -> np.ndarray:
        feature_of_token, n = word_features(model, enc, 0, self.unit)
        if n == 0:
            return np.zeros((1, enc["input_ids"].shape[1]))
        forward = PresenceScore(model, enc, 0, target, feature_of_token, self.removal)
        device = feature_of_token.device
        drops = FeatureAblation(forward).attribute(
            torch.ones(1, n, device=device), baselines=0.0, feature_mask=torch.arange(n, device=device)[None],
            perturbations_per_eval=self._batch_size(model))
        return spread(drops.detach().cpu().numpy().reshape(-1), feature_of_token, n)[None]
