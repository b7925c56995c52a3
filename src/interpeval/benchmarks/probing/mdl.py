"""Minimum description length probing, online code (Voita & Titov 2020), for every layer at once.

Accuracy alone cannot tell a probe that reads a property from one that memorises; the online code length of
the training labels (transmit a first block uniformly, then each next block with a probe trained on everything
before it) is lower when the representation makes the property easy to learn from little data.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from interpeval.benchmarks.probing.probes import LayerwiseProbe

#: Voita & Titov's block boundaries, as fractions of the training data.
FRACTIONS = (0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.0625, 0.125, 0.25, 0.5, 1.0)


def online_codelength(x: np.ndarray, y: np.ndarray, n_classes: int, kind: str = "logreg", official: bool = False,
                      seed: int = 0, params: dict[str, Any] | None = None,
                      min_steps: int = 100) -> tuple[np.ndarray, float]:
    """``(bits per layer [L], uniform bits)`` for the labels ``y`` of features ``x [L, N, H]``.

    The data are shuffled with ``seed``; block ends below 2 examples are merged into the first block. Each
    block's probe trains for at least ``min_steps`` updates, so the small early blocks are not left near the
    random initialisation (which would code them worse than uniform).
    """
    n = len(y)
    order = np.random.default_rng(seed).permutation(n)
    x, y = x[:, order], np.asarray(y)[order]
    ends = sorted({min(n, max(2, math.ceil(f * n))) for f in FRACTIONS})
    uniform = n * math.log2(n_classes)
    bits = np.full(x.shape[0], ends[0] * math.log2(n_classes))
    for start, stop in zip(ends[:-1], ends[1:], strict=True):
        probe = LayerwiseProbe(kind, official=official, seed=seed, **(params or {}))
        batches = math.ceil(start / probe._settings()[2])
        probe.epochs = max(probe._settings()[0], math.ceil(min_steps / batches))
        probe.fit(x[:, :start], y[:start], n_classes=n_classes)
        bits += probe.log_loss_bits(x[:, start:stop], y[start:stop])
    return bits, uniform
