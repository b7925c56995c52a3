"""IQS, the Interpretation Quality Score (Xie, Vosoughi, Hassanpour, arXiv 2205.12254; REFERENCE §6).

No official code exists, so this follows the paper: IQS = a1·Plausibility + a2·Simplicity + a3·Reproducibility
with a1 + a2 + a3 = 1. Choices the paper leaves open are explicit parameters and documented in docs/metrics.md:
which words an explanation "marks" (:func:`sign_sets` with a threshold), the Jaccard of two empty sets (1: both
mark nothing, so they agree), and reproducibility as the mean over samples of 1 / (L_i + 1).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Literal

import numpy as np

from interpeval.metrics._checks import non_empty, same_length, scores_1d
from interpeval.metrics.base import register
from interpeval.metrics.plausibility import jaccard

_SOURCE = "IQS paper, Xie, Vosoughi & Hassanpour (arXiv 2205.12254), §3"

#: how far a row of class probabilities may sum from 1 (a float32 softmax row is off by ~1e-7)
PROBABILITY_SUM_TOLERANCE = 1e-6


@register("iqs_plausibility", "quality", True, (0.0, 1.0), _SOURCE,
          quirks="mean over classes of Jaccard(human, method); two empty sets count as agreement (1)",
          needs=("human", "method"))
def iqs_plausibility(human: Mapping[Hashable, Iterable[str]], method: Mapping[Hashable, Iterable[str]]) -> float:
    """Mean over output classes of |H ∩ M| / |H ∪ M| between the human's and the method's marked words."""
    if not isinstance(human, Mapping) or not human:
        raise ValueError("human: expected a non-empty mapping class -> marked words")
    if not isinstance(method, Mapping) or set(method) != set(human):
        raise ValueError(f"method: must be a mapping with the same classes as human ({sorted(map(str, human))})")
    return float(np.mean([jaccard(list(human[c]), list(method[c]), empty=1.0) for c in human]))


@register("iqs_simplicity", "quality", True, (0.0, 1.0), _SOURCE,
          quirks="1 / (ln(N − β) + 1) with β = 9; N − β <= 1 (N <= 10) gives 1, which guards the logarithm",
          needs=("n_chunks",))
def iqs_simplicity(n_chunks: int, beta: float = 9.0) -> float:
    """Fewer cognitive chunks (marked words) is simpler; up to β + 1 chunks (Miller's 7 ± 2) score 1."""
    if isinstance(n_chunks, bool) or not isinstance(n_chunks, (int, np.integer)) or n_chunks < 0:
        raise ValueError(f"n_chunks: must be an integer >= 0, got {n_chunks!r}")
    if n_chunks - beta <= 1:
        return 1.0
    return 1.0 / (math.log(n_chunks - beta) + 1.0)


@register("iqs_reproducibility", "quality", True, (0.0, 1.0), _SOURCE,
          quirks="mean over samples of 1 / (L_i + 1); log loss = −ln p_model(human's label) (clipped at machine "
                 "epsilon), mae = |human − model|, zero_one = 1[human label != model label]",
          needs=("y_human", "y_model"), level="dataset")
def iqs_reproducibility(y_human: Sequence[float], y_model: Sequence[float] | np.ndarray,
                        loss: Literal["log", "mae", "zero_one"] = "log") -> float:
    """How well a human, given the input and the explanation, reproduces the model's output (1 = exactly).

    ``log``: ``y_human`` are the labels the humans answered and ``y_model`` the model's class probabilities
    (samples × classes, each row summing to 1). ``mae``: both are numbers (regression, e.g. STS-B). ``zero_one``: both are labels.
    """
    h = scores_1d(y_human, "y_human")
    if loss == "log":
        try:
            p = np.asarray(y_model, dtype=float)
        except (TypeError, ValueError):
            raise ValueError("y_model: expected class probabilities (samples × classes)") from None
        if p.ndim != 2 or len(p) != len(h):
            raise ValueError(f"y_model: expected shape ({len(h)}, n_classes), got {p.shape}")
        if not np.isfinite(p).all() or (p < 0).any() or (p > 1).any():
            raise ValueError("y_model: probabilities must lie in [0, 1]")
        off = np.flatnonzero(np.abs(p.sum(axis=1) - 1.0) > PROBABILITY_SUM_TOLERANCE)
        if off.size:
            raise ValueError(f"y_model: row {off[0]} sums to {p[off[0]].sum():.9g}, not 1 (class probabilities "
                             f"over every class, within {PROBABILITY_SUM_TOLERANCE:g})")
        if (h != np.round(h)).any() or (h < 0).any() or (h >= p.shape[1]).any():
            raise ValueError(f"y_human: labels must be class indices in 0..{p.shape[1] - 1}")
        eps = np.finfo(float).eps
        losses = -np.log(np.clip(p[np.arange(len(h)), h.astype(int)], eps, 1.0))
    elif loss in ("mae", "zero_one"):
        m = scores_1d(y_model, "y_model")
        same_length(h, m, "y_human", "y_model")
        losses = np.abs(h - m) if loss == "mae" else (h != m).astype(float)
    else:
        raise ValueError(f"loss: must be 'log', 'mae' or 'zero_one', got {loss!r}")
    return float(np.mean(1.0 / (losses + 1.0)))


def _unit(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name}: must be a number in [0, 1], got {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name}: must be in [0, 1], got {value!r}")
    return float(value)


@register("iqs", "quality", True, (0.0, 1.0), _SOURCE, quirks="weights must each lie in [0, 1] and sum to 1",
          needs=("plausibility", "simplicity", "reproducibility"))
def iqs(plausibility: float, simplicity: float, reproducibility: float,
        weights: Sequence[float] = (1 / 3, 1 / 3, 1 / 3)) -> float:
    """a1·plausibility + a2·simplicity + a3·reproducibility (Table 1 of the paper uses 1/3 each)."""
    terms = [_unit(plausibility, "plausibility"), _unit(simplicity, "simplicity"),
             _unit(reproducibility, "reproducibility")]
    w = non_empty(weights, "weights")
    if len(w) != 3:
        raise ValueError(f"weights: expected three weights (a1, a2, a3), got {len(w)}")
    a = [_unit(x, f"weights[{i}]") for i, x in enumerate(w)]
    if abs(sum(a) - 1.0) > 1e-9:
        raise ValueError(f"weights: must sum to 1, got {sum(a)!r}")
    return float(sum(x * y for x, y in zip(a, terms, strict=True)))
