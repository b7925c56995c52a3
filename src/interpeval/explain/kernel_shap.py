"""Kernel SHAP (Lundberg & Lee 2017) over words, through Captum's ``KernelShap``.

Coalitions of words are sampled with the Shapley kernel and the weighted linear regression is Captum's; absent
words are removed as in :mod:`interpeval.explain._perturb`; ``batch_size`` coalitions are scored per forward pass.
"""

from __future__ import annotations

import torch
from captum.attr import KernelShap as CaptumKernelShap

from interpeval.explain._perturb import PresenceScore, WordPerturbationExplainer
from interpeval.explain.registry import register


@register("kernel_shap")
class KernelShap(WordPerturbationExplainer):
    """Kernel SHAP with ``n_samples`` coalitions (QUACKIE: 10 or 100) against the all-words-removed baseline.

    ``segment`` (0 or 1) makes only that segment's words players; the other segment is present in every coalition
    (QUACKIE: ``segment=1``, the question fixed).
    """

    needs_gradients = False
    signed = True
    stochastic = True

    def __init__(self, n_samples: int = 500, unit: str = "word", removal: str = "attention", seed: int | None = 0,
                 batch_size: int | None = None, segment: int | None = None) -> None:
        self.n_samples = n_samples
        self.unit = unit
        self.removal = removal
        self.seed = seed
        self.batch_size = batch_size
        self.segment = segment

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        return CaptumKernelShap(forward).attribute(present, baselines=0.0, feature_mask=feature_mask,
                                                   n_samples=self.n_samples, perturbations_per_eval=batch,
                                                   return_input_shape=False)
