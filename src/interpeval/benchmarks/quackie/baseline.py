"""QUACKIE's ``Random`` leaderboard row: a random permutation of 0..N−1 over the sentences.

The original draws it per sample with ``np.random.shuffle`` (unseeded); here it is seeded per sample so that a
resumed or repeated run gives the same numbers. There are never ties, so exactly one sentence is selected at k=1.
"""

from __future__ import annotations

import hashlib

import numpy as np


def random_sentence_scores(n_sentences: int, seed: int, instance_id: str) -> np.ndarray:
    """A permutation of ``0..n_sentences-1`` drawn from a generator seeded by ``seed`` and the instance id."""
    if n_sentences < 1:
        raise ValueError(f"n_sentences must be >= 1, got {n_sentences}")
    digest = int.from_bytes(hashlib.sha256(f"{seed}:{instance_id}".encode()).digest()[:8], "little")
    return np.random.default_rng(digest).permutation(n_sentences).astype(float)
