"""Every confidence interval interpeval publishes, in one place (numpy only, so any floor may import it).

=================================  ===========================================  =====================================
function                           interval                                     used by
=================================  ===========================================  =====================================
:func:`bootstrap_ci`               percentile bootstrap of a mean (seeded)      evaluate engine, report, leaderboards
:func:`mean_ci`                    mean of the finite values + bootstrap_ci     report views (per-instance metrics)
:func:`wilson`                     Wilson score interval of a proportion        probing accuracies
:func:`normal_half_width`          z · s / √n (normal approximation)            masked-LM tables, IQS scores
=================================  ===========================================  =====================================

All are 95 % by default. The bootstrap is seeded (seed 0) so a published table is re-made bit for bit; the normal
half-width uses z = 1.96 as the masked-LM and IQS tables always have (the exact quantile is :data:`Z95`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

Z95 = 1.959963984540054
"""The standard normal's 97.5 % quantile."""


def bootstrap_ci(values: Sequence[float] | np.ndarray, level: float = 0.95, resamples: int = 2000,
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
    means = values[_resamples(values.size, resamples, seed)].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


#: resample index matrices up to this many entries (8 bytes each) are kept for the next interval of as many values
_KEPT_RESAMPLES = 2_000_000


def _resamples(size: int, resamples: int, seed: int) -> np.ndarray:
    """The ``resamples × size`` indices a seeded bootstrap draws: they depend on nothing else, so the intervals of a
    table's columns (same n) share one draw — drawing is most of an interval's time — and stay bit for bit those of
    a fresh generator."""
    if size * resamples <= _KEPT_RESAMPLES:
        return _kept_resamples(size, resamples, seed)
    return np.random.default_rng(seed).integers(0, size, size=(resamples, size))


@lru_cache(maxsize=4)
def _kept_resamples(size: int, resamples: int, seed: int) -> np.ndarray:
    indices = np.random.default_rng(seed).integers(0, size, size=(resamples, size))
    indices.setflags(write=False)
    return indices


def mean_ci(values: Sequence[float | None], seed: int = 0) -> dict[str, Any]:
    """``{value, n, low, high}``: the mean of the finite values (None and NaN left out) and its 95 % bootstrap
    interval (:func:`bootstrap_ci`); all NaN and n = 0 without a finite value."""
    arr = np.asarray([v for v in values if v is not None], dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return {"value": math.nan, "n": 0, "low": math.nan, "high": math.nan}
    low, high = bootstrap_ci(arr, seed=seed)
    return {"value": float(arr.mean()), "n": int(arr.size), "low": low, "high": high}


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval of the proportion ``successes / n`` (NaN, NaN for n <= 0)."""
    if n <= 0:
        return math.nan, math.nan
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def normal_half_width(values: Sequence[float] | np.ndarray, z: float = 1.96) -> float:
    """Half-width ``z · s / √n`` of the normal-approximation interval of the mean (sample sd, ddof = 1); 0 for
    fewer than 2 values."""
    v = np.asarray(values, dtype=float)
    return z * float(v.std(ddof=1)) / math.sqrt(len(v)) if len(v) > 1 else 0.0
