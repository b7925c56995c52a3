"""Kernel SHAP (Lundberg & Lee 2017) over words, through Captum's ``KernelShap``.

Coalitions of words are sampled with the Shapley kernel and the weighted linear regression is Captum's; absent
words are removed as in :mod:`interpeval.explain._perturb`; ``batch_size`` coalitions are scored per forward pass.
With ``regression="lasso"`` the same coalitions and Shapley-kernel weights are fitted by a weighted Lasso instead
(IQS: "Kernel SHAP with the same configuration as LIME", alpha 3e-4).
"""

from __future__ import annotations

import torch
from captum.attr import KernelShap as CaptumKernelShap

from interpeval.explain._perturb import REMOVALS, UNITS, PresenceScore, WordPerturbationExplainer
from interpeval.explain.lime import _Surrogate
from interpeval.explain.params import BATCH_SIZE, DRAWS, SEED, SEGMENT, Param
from interpeval.explain.registry import register

REGRESSIONS = ("linear", "lasso")
LASSO_FIT = {"max_iter": 200_000, "tol": 1e-10}


@register("kernel_shap")
class KernelShap(WordPerturbationExplainer):
    """Kernel SHAP with ``n_samples`` coalitions (QUACKIE: 10 or 100) against the all-words-removed baseline.

    ``segment`` (0 or 1) makes only that segment's words players; the other segment is present in every coalition
    (QUACKIE: ``segment=1``, the question fixed). ``regression``: ``"linear"`` (Captum's weighted least squares)
    or ``"lasso"`` with ``alpha`` (IQS: 3e-4); ``draws``: where each input's coalitions start (``"tokens"``: the
    seed and the input's token ids; ``"seed"``: the seed alone).
    """

    needs_gradients = False
    signed = True
    stochastic = True

    parameters = {"n_samples": Param(int, minimum=1), "unit": Param(str, choices=UNITS),
                  "removal": Param(str, choices=REMOVALS), "seed": SEED, "batch_size": BATCH_SIZE, "segment": SEGMENT,
                  "regression": Param(str, choices=REGRESSIONS), "alpha": Param(float, minimum=0), "draws": DRAWS}

    def __init__(self, n_samples: int = 500, unit: str = "word", removal: str = "attention", seed: int | None = 0,
                 batch_size: int | None = None, segment: int | None = None, regression: str = "linear",
                 alpha: float = 1.0, draws: str = "tokens") -> None:
        self.n_samples = n_samples
        self.unit = unit
        self.removal = removal
        self.seed = seed
        self.batch_size = batch_size
        self.segment = segment
        self.regression = regression
        self.alpha = alpha
        self.draws = draws

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        if self.regression not in REGRESSIONS:
            raise ValueError(f"regression must be one of {REGRESSIONS}, got {self.regression!r}")
        shap = CaptumKernelShap(forward)
        if self.regression == "lasso":  # the all-in / all-out coalitions weigh 1e6: coordinate descent needs a tight
            # tolerance and many iterations to converge (sklearn's defaults stop far from the optimum)
            shap.interpretable_model = _Surrogate("lasso", self.alpha, None, LASSO_FIT)
        return shap.attribute(present, baselines=0.0, feature_mask=feature_mask, n_samples=self.n_samples,
                              perturbations_per_eval=batch, return_input_shape=False)
