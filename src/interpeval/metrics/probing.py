"""Probing metrics of the Universal Probing Framework (``probing/metric.py``; REFERENCE §3.2) and selectivity.

The framework scores a probe's argmax predictions with accuracy and sklearn's weighted F1 (its default metric).
Selectivity (Hewitt & Liang 2019) is the task score minus the control-task score: a probe that does as well on
shuffled labels is measuring its own capacity, not the encoder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.metrics import f1_score

from interpeval.metrics.base import register

_SOURCE = "AIRI-Institute/Probing_framework probing/metric.py (8eb7adb)"


def _labels(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    arrays = []
    for name, v in (("y_true", y_true), ("y_pred", y_pred)):
        if isinstance(v, (str, bytes)):
            raise ValueError(f"{name}: expected a sequence of labels, got a string")
        if not hasattr(v, "__iter__"):
            raise ValueError(f"{name}: expected a sequence of labels, got {type(v).__name__} {v!r}")
        a = np.asarray(list(v) if not isinstance(v, np.ndarray) else v)
        if a.ndim != 1:
            raise ValueError(f"{name}: expected a 1-D sequence of labels, got shape {a.shape}")
        if a.size == 0:
            raise ValueError(f"{name}: is empty")
        arrays.append(a)
    if len(arrays[0]) != len(arrays[1]):
        raise ValueError(f"y_true and y_pred differ in length ({len(arrays[0])} != {len(arrays[1])})")
    return arrays[0], arrays[1]


@register("probing_accuracy", "probing", True, (0.0, 1.0), _SOURCE, needs=("y_true", "y_pred"), level="dataset")
def accuracy(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """Share of predictions equal to the true label."""
    t, p = _labels(y_true, y_pred)
    return float(np.mean(t == p))


@register("probing_weighted_f1", "probing", True, (0.0, 1.0), _SOURCE,
          quirks="sklearn f1_score(average='weighted', zero_division=0): a class never predicted scores 0",
          needs=("y_true", "y_pred"), level="dataset")
def weighted_f1(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """Per-class F1 averaged with weights proportional to each class's true count (the framework's default)."""
    t, p = _labels(y_true, y_pred)
    return float(f1_score(t, p, average="weighted", zero_division=0))


@register("selectivity", "probing", True, (-1.0, 1.0), "Hewitt & Liang 2019, control tasks",
          needs=("task_score", "control_score"))
def selectivity(task_score: float, control_score: float) -> float:
    """Task score minus control-task score (both in the same metric)."""
    for name, v in (("task_score", task_score), ("control_score", control_score)):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)) or not np.isfinite(v):
            raise ValueError(f"{name}: must be a finite number, got {v!r}")
    return float(task_score) - float(control_score)
