"""LIME (Ribeiro et al. 2016) over words, through Captum's ``Lime``, set up as ``lime.LimeTextExplainer``.

As the LIME text explainer: the first sample is the original text, every other sample removes a number of words
drawn uniformly from 1..d and then which words uniformly; samples are weighted by the exponential kernel of width
25 on the cosine distance × 100 (Captum's kernel with width 0.25 on the raw distance is the same function); the
surrogate is a weighted ridge regression (alpha 1, with intercept). The regression is Captum's ``SkLearnRidge``; the
model is called on ``batch_size`` perturbations at a time. Unlike QUACKIE's call (``num_features=10``), every word
gets its coefficient.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch
from captum._utils.models.linear_model import SkLearnRidge
from captum.attr import Lime as CaptumLime
from captum.attr._core.lime import get_exp_kernel_similarity_function

from interpeval.explain._perturb import PresenceScore, WordPerturbationExplainer
from interpeval.explain.registry import register


def lime_text_samples(original: torch.Tensor, num_interp_features: int, **kwargs: Any) -> Iterator[torch.Tensor]:
    """LimeTextExplainer's sampling: the original first, then random word removals (count uniform in 1..d)."""
    d = num_interp_features
    yield torch.ones(1, d, device=original.device)
    while True:
        removed = torch.randperm(d)[:int(torch.randint(1, d + 1, (1,)))]
        sample = torch.ones(1, d, device=original.device)
        sample[0, removed.to(original.device)] = 0
        yield sample


@register("lime")
class Lime(WordPerturbationExplainer):
    """LIME with ``n_samples`` perturbations (QUACKIE: 10 or 100), ``kernel_width`` 25, ridge ``alpha`` 1."""

    needs_gradients = False
    signed = True
    stochastic = True

    def __init__(self, n_samples: int = 500, kernel_width: float = 25.0, alpha: float = 1.0, unit: str = "word",
                 removal: str = "attention", seed: int | None = 0, batch_size: int | None = None) -> None:
        self.n_samples = n_samples
        self.kernel_width = kernel_width
        self.alpha = alpha
        self.unit = unit
        self.removal = removal
        self.seed = seed
        self.batch_size = batch_size

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        lime = CaptumLime(forward, interpretable_model=SkLearnRidge(alpha=self.alpha),
                          similarity_func=get_exp_kernel_similarity_function("cosine", self.kernel_width / 100),
                          perturb_func=lime_text_samples)
        return lime.attribute(present, baselines=0.0, feature_mask=feature_mask, n_samples=self.n_samples,
                              perturbations_per_eval=batch, return_input_shape=False)
