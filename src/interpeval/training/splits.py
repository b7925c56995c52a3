"""Deterministic splits: a seeded held-out share of a file, and hash buckets that keep an article or
paragraph wholly in one part on every machine."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np


def seeded_split(n: int, eval_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(train, eval)`` indices of ``train(..., eval_fraction, seed)``: benchmarks re-derive which rows a head saw."""
    order = np.random.RandomState(seed).permutation(n)
    n_eval = int(round(n * eval_fraction))
    return order[n_eval:], order[:n_eval]



def bucket(key: str, buckets: int = 20) -> int:
    """A stable bucket of a title or paragraph (SHA-1), so the split is the same on every machine."""
    return int(hashlib.sha1(key.encode("utf-8")).hexdigest(), 16) % buckets


def part_of(key: str) -> str:
    """``test`` (buckets 0–3, 20 %), ``dev`` (bucket 4, 5 %) or ``train`` (the rest)."""
    b = bucket(key)
    return "test" if b < 4 else "dev" if b == 4 else "train"



def thirds(n: int, seed: int = 0) -> tuple[list[int], list[int], list[int]]:
    """A seeded split of GLUE dev: test = a third, dev = a tenth of the rest, train = the remainder."""
    order = np.random.RandomState(seed).permutation(n).tolist()
    n_test = n // 3
    n_dev = (n - n_test) // 10
    return order[n_test + n_dev:], order[n_test:n_test + n_dev], order[:n_test]


def linked_groups(rows: Sequence[tuple[str, str]]) -> list[str]:
    """Per row, a key shared by every row linked to it through a common first or second text (union-find): QNLI
    pairs each question with sentences of its paragraph, so a group is a paragraph's questions and sentences."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in rows:
        ra, rb = find("1:" + a), find("2:" + b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)  # the smallest member names the group: the same on every machine
    return [find("1:" + a) for a, _ in rows]
