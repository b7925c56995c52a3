"""LIME (Ribeiro et al. 2016) over words, through Captum's ``Lime``, set up as ``lime.LimeTextExplainer``.

As the LIME text explainer: the first sample is the original text, every other sample removes a number of words
drawn uniformly from 1..d and then which words uniformly; samples are weighted by the exponential kernel of width
25 on the cosine distance × 100 (Captum's kernel with width 0.25 on the raw distance is the same function); the
surrogate is a weighted ridge regression (alpha 1, with intercept) or, with ``regression="lasso"``, a weighted
Lasso (IQS: alpha 3e-4). The model is called on ``batch_size`` perturbations at a time.

``num_features`` reproduces ``explain_instance(num_features=...)`` (QUACKIE calls it with the library default 10):
LIME's ``feature_selection="auto"`` picks the features — forward selection when ``num_features <= 6``, else the
``highest_weights`` of a weighted ridge (alpha 0.01) fitted on all words — and the surrogate is fitted on those
words only; every other word gets 0. ``None`` (default) gives every word its coefficient.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import torch
from captum._utils.models.linear_model import LinearModel
from captum.attr import Lime as CaptumLime
from captum.attr._core.lime import get_exp_kernel_similarity_function

from interpeval.explain._perturb import REMOVALS, UNITS, PresenceScore, WordPerturbationExplainer
from interpeval.explain.params import BATCH_SIZE, DRAWS, SEED, SEGMENT, Param
from interpeval.explain.registry import register

REGRESSIONS = ("ridge", "lasso")


def lime_text_samples(original: torch.Tensor, num_interp_features: int, **kwargs: Any) -> Iterator[torch.Tensor]:
    """LimeTextExplainer's sampling: the original first, then random word removals (count uniform in 1..d)."""
    d = num_interp_features
    yield torch.ones(1, d, device=original.device)
    while True:
        removed = torch.randperm(d)[:int(torch.randint(1, d + 1, (1,)))]
        sample = torch.ones(1, d, device=original.device)
        sample[0, removed.to(original.device)] = 0
        yield sample


def select_features(x: np.ndarray, y: np.ndarray, w: np.ndarray, num_features: int) -> np.ndarray:
    """LIME's ``feature_selection="auto"`` (``lime_base.LimeBase.feature_selection``): column indices to keep.

    ``num_features <= 6``: forward selection (greedily add the column whose weighted least-squares fit scores
    best); otherwise the ``num_features`` largest ``|coef · x[0]|`` of a weighted ridge (alpha 0.01) on all columns.
    """
    from sklearn.linear_model import Ridge

    if num_features <= 6:
        used: list[int] = []
        for _ in range(min(num_features, x.shape[1])):
            best, best_score = 0, -np.inf
            for feature in range(x.shape[1]):
                if feature in used:
                    continue
                cols = used + [feature]
                clf = Ridge(alpha=0, fit_intercept=True).fit(x[:, cols], y, sample_weight=w)
                score = clf.score(x[:, cols], y, sample_weight=w)
                if score > best_score:
                    best, best_score = feature, score
            used.append(best)
        return np.array(used)
    clf = Ridge(alpha=0.01, fit_intercept=True).fit(x, y, sample_weight=w)
    order = sorted(range(x.shape[1]), key=lambda i: np.abs(clf.coef_[i] * x[0, i]), reverse=True)
    return np.array(order[:num_features])


class _Surrogate(LinearModel):
    """Captum's interpretable model for LIME: weighted ridge or Lasso, fitted on the selected features only."""

    def __init__(self, regression: str, alpha: float, num_features: int | None,
                 lasso: dict[str, Any] | None = None) -> None:
        super().__init__(train_fn=self._train)
        self.regression = regression
        self.alpha = alpha
        self.num_features = num_features
        self.lasso = lasso or {}  # extra sklearn Lasso arguments (Kernel SHAP: max_iter, tol)

    def _train(self, model: LinearModel, dataloader: Any, **kwargs: Any) -> dict[str, float]:
        from sklearn.linear_model import Lasso, Ridge

        xs, ys, ws = zip(*((x.cpu().numpy(), y.cpu().numpy(), w.cpu().numpy()) for x, y, w in dataloader),
                         strict=True)
        x, y, w = np.concatenate(xs), np.concatenate(ys), np.concatenate(ws)
        cols = np.arange(x.shape[1])
        if self.num_features is not None and self.num_features < x.shape[1]:
            cols = select_features(x, y, w, self.num_features)
        surrogate = Ridge(alpha=self.alpha) if self.regression == "ridge" else Lasso(alpha=self.alpha, **self.lasso)
        surrogate.fit(x[:, cols], y, sample_weight=w)
        coef = np.zeros((1, x.shape[1]), dtype=np.float32)
        coef[0, cols] = np.asarray(surrogate.coef_).reshape(-1)
        self._construct_model_params(norm_type=None, weight_values=torch.from_numpy(coef),
                                     bias_value=torch.tensor([float(surrogate.intercept_)]))
        return {}


@register("lime")
class Lime(WordPerturbationExplainer):
    """LIME with ``n_samples`` perturbations (QUACKIE: 10 or 100), ``kernel_width`` 25.

    Parameters: ``regression`` ``"ridge"`` (LIME's default model, ``alpha`` 1) or ``"lasso"`` (IQS: ``alpha``
    3e-4); ``num_features`` (QUACKIE: 10) keeps only that many words, chosen as LIME does; ``segment`` (0 or 1)
    perturbs only that segment's words (QUACKIE: ``segment=1``, the question fixed); ``unit``, ``removal``,
    ``seed``, ``draws``, ``batch_size`` as the other perturbation methods.
    """

    needs_gradients = False
    signed = True
    stochastic = True

    parameters = {"n_samples": Param(int, minimum=1), "kernel_width": Param(float, above=0),
                  "alpha": Param(float, minimum=0), "unit": Param(str, choices=UNITS),
                  "removal": Param(str, choices=REMOVALS), "seed": SEED, "batch_size": BATCH_SIZE,
                  "regression": Param(str, choices=REGRESSIONS), "num_features": Param(int, minimum=1, nullable=True),
                  "segment": SEGMENT, "draws": DRAWS}

    def __init__(self, n_samples: int = 500, kernel_width: float = 25.0, alpha: float = 1.0, unit: str = "word",
                 removal: str = "attention", seed: int | None = 0, batch_size: int | None = None,
                 regression: str = "ridge", num_features: int | None = None, segment: int | None = None,
                 draws: str = "tokens") -> None:
        self.n_samples = n_samples
        self.kernel_width = kernel_width
        self.alpha = alpha
        self.unit = unit
        self.removal = removal
        self.seed = seed
        self.batch_size = batch_size
        self.regression = regression
        self.num_features = num_features
        self.segment = segment
        self.draws = draws

    def _feature_scores(self, forward: PresenceScore, present: torch.Tensor, feature_mask: torch.Tensor,
                        batch: int) -> torch.Tensor:
        if self.regression not in REGRESSIONS:
            raise ValueError(f"regression must be one of {REGRESSIONS}, got {self.regression!r}")
        if self.num_features is not None and (isinstance(self.num_features, bool) or self.num_features < 1):
            raise ValueError(f"num_features must be None or an integer >= 1, got {self.num_features!r}")
        lime = CaptumLime(forward, interpretable_model=_Surrogate(self.regression, self.alpha, self.num_features),
                          similarity_func=get_exp_kernel_similarity_function("cosine", self.kernel_width / 100),
                          perturb_func=lime_text_samples)
        return lime.attribute(present, baselines=0.0, feature_mask=feature_mask, n_samples=self.n_samples,
                              perturbations_per_eval=batch, return_input_shape=False)
