"""Occlusion / leave-one-out over words, computed from its definition.

A word's score is ``f(x) − f(x without that word)``: the drop in the target when the word alone is removed
(ferret's ``taucorr_loo`` quantity). The full input and the n leave-one-out rows go to the model in one call
(batched by ``batch_size``); Captum's ``FeatureAblation`` gives the same numbers but its per-feature bookkeeping
cost 15 % of the model time on a 100-word input (``bench/explainer_overhead.py``).
"""

from __future__ import annotations

import torch

from interpeval.explain._perturb import REMOVALS, UNITS, PresenceScore, WordPerturbationExplainer
from interpeval.explain.params import BATCH_SIZE, SEGMENT, Param
from interpeval.explain.registry import register


@register("occlusion")
class Occlusion(WordPerturbationExplainer):
    """Leave-one-word-out (``unit="word"``) or leave-one-subword-out (``unit="token"``); ``segment`` (0 or 1)
    occludes only that segment's words."""

    needs_gradients = False
    signed = True

    parameters = {"unit": Param(str, choices=UNITS), "removal": Param(str, choices=REMOVALS),
                  "batch_size": BATCH_SIZE, "segment": SEGMENT}

    def __init__(self, unit: str = "word", removal: str = "attention", batch_size: int | None = None,
                 segment: int | None = None) -> None:
        self.unit = unit
        self.removal = removal
        self.batch_size = batch_size
        self.segment = segment

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        n = present.shape[1]
        rows = torch.cat([present, present.expand(n, n) * (1 - torch.eye(n, device=present.device))])
        scores = forward(rows)
        return scores[0] - scores[1:]
