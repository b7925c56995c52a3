"""Occlusion / leave-one-out over words, through Captum's ``FeatureAblation``.

A word's score is ``f(x) − f(x without that word)``: the drop in the target when the word alone is removed
(ferret's ``taucorr_loo`` quantity). ``batch_size`` ablated copies are scored per forward pass.
"""

from __future__ import annotations

import torch
from captum.attr import FeatureAblation

from interpeval.explain._perturb import PresenceScore, WordPerturbationExplainer
from interpeval.explain.registry import register


@register("occlusion")
class Occlusion(WordPerturbationExplainer):
    """Leave-one-word-out (``unit="word"``) or leave-one-subword-out (``unit="token"``); ``segment`` (0 or 1)
    occludes only that segment's words."""

    needs_gradients = False
    signed = True

    def __init__(self, unit: str = "word", removal: str = "attention", batch_size: int | None = None,
                 segment: int | None = None) -> None:
        self.unit = unit
        self.removal = removal
        self.batch_size = batch_size
        self.segment = segment

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        return FeatureAblation(forward).attribute(present, baselines=0.0, feature_mask=feature_mask,
                                                  perturbations_per_eval=batch)
