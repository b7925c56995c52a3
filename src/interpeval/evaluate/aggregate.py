"""Intervals for means over inputs: the percentile bootstrap."""

from __future__ import annotations

import numpy as np


def bootstrap_ci(values: np.ndarray, level: float = 0.95, resamples: int = 2000,
                 seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (NaN, NaN for fewer than 2 values).

    ``resamples`` means of resamples drawn with replacement (seeded, so a table is reproducible); the interval is
    their ``(1 − level)/2`` and ``(1 + level)/2`` quantiles.
    """
    values = np.asarray(values, dtype=float)
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    if values.size < 2:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, values.size, size=(resamples, values.size))].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)
