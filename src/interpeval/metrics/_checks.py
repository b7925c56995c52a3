"""Input validation shared by the metric modules: bad input becomes a ValueError that names the argument.

Metrics are called with user arrays; a numpy broadcasting error or an IndexError deep inside a formula tells the
user nothing, so every public metric converts and checks its arguments here first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np


def scores_1d(values: Any, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """``values`` as a finite 1-D float array."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected a 1-D sequence of numbers ({exc})") from None
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D sequence of numbers, got shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name}: is empty")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(f"{name}: value at position {int(bad[0])} is {arr[bad[0]]} (must be finite)")
    return arr


def binary_1d(values: Any, name: str) -> np.ndarray:
    """``values`` (bools or 0/1 numbers) as a 1-D bool array."""
    arr = scores_1d(values, name)
    bad = np.flatnonzero((arr != 0) & (arr != 1))
    if bad.size:
        raise ValueError(f"{name}: value at position {int(bad[0])} is {arr[bad[0]]} (must be 0 or 1)")
    return arr.astype(bool)


def marked_1d(values: Any, name: str) -> np.ndarray:
    """``values`` (0/1) as a 1-D bool array that marks at least one position (a ground truth)."""
    mask = binary_1d(values, name)
    if not mask.any():
        raise ValueError(f"{name}: marks no sentence (a ground truth needs at least one 1)")
    return mask


def same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Raise unless the two arrays have the same length."""
    if len(a) != len(b):
        raise ValueError(f"{name_a} and {name_b} differ in length ({len(a)} != {len(b)})")


def index_list(values: Any, name: str) -> list[int]:
    """``values`` as a list of non-negative int indices (a rationale given as word positions)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"{name}: expected a sequence of integer indices, got {type(values).__name__}")
    out = []
    for pos, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{name}: element {pos} is {v!r} (must be an integer index)")
        if v < 0:
            raise ValueError(f"{name}: element {pos} is {v} (indices must be >= 0)")
        out.append(int(v))
    return out


def positive_int(value: Any, name: str) -> int:
    """``value`` as an int >= 1."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name}: must be an integer >= 1, got {value!r}")
    return int(value)


def non_empty(values: Any, name: str) -> list[Any]:
    """``values`` as a non-empty list."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"{name}: expected a sequence, got {type(values).__name__}")
    out = list(values)
    if not out:
        raise ValueError(f"{name}: is empty")
    return out
