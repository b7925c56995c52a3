"""Simulated annotators, for tests and demos only: never a human result, and labelled so everywhere.

``model-output``: question 1 is answered with the model's own output (its most probable class, or its score
rounded to the nearest option), flipped / shifted with probability ``noise``; the words are corrected towards a
*reference rationale* taken from the model itself — the ``top_k`` most positive and most negative words of the
study's ``reference`` method on the same sample (Integrated Gradients by default) — and each correction is
dropped with probability ``noise``. Different seeds give different annotators.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from interpeval.benchmarks.iqs.tasks import Task
from interpeval.errors import InterpevalError

KINDS = ("model-output",)


def reference_sets(scores: Sequence[float], top_k: int) -> tuple[set[int], set[int]]:
    """(green, red): the ``top_k`` largest positive and the ``top_k`` most negative word scores."""
    s = np.asarray(scores, dtype=float)
    order = np.argsort(-s, kind="stable")
    green = {int(i) for i in order[:top_k] if s[i] > 0}
    red = {int(i) for i in order[::-1][:top_k] if s[i] < 0}
    return green, red


def simulated_answer(task: Task, payload: Mapping[str, Any], reference_scores: Sequence[float], seed: int,
                     noise: float = 0.1, top_k: int = 3, kind: str = "model-output") -> dict[str, Any]:
    """One simulated annotator's answer to an item, in the study store's answer format."""
    if kind not in KINDS:
        raise InterpevalError(f"unknown simulated annotator {kind!r}; choose from {', '.join(KINDS)}")
    if not 0.0 <= noise <= 1.0:
        raise InterpevalError(f"noise must be in [0, 1], got {noise!r}")
    rng = np.random.default_rng(seed)
    info = payload["iqs"]
    options = payload["questions"][0]["options"]
    if task.kind == "regression":
        value = float(info["y_model"]) + (rng.choice([-1.0, 1.0]) if rng.random() < noise else 0.0)
        label = min(options, key=lambda o: abs(float(o) - value))
    else:
        label = task.sides[int(np.argmax(info["y_model"]))]
        if rng.random() < noise:
            label = task.sides[1 - task.sides.index(label)]
    ref_green, ref_red = reference_sets(reference_scores, top_k)
    green, red = set(info["green"]), set(info["red"])

    def keep(ids: set[int]) -> list[int]:
        return sorted(i for i in ids if rng.random() >= noise)

    answers = {"label": label, "remove_red": keep(red - ref_red), "remove_green": keep(green - ref_green),
               "add_red": keep(ref_red - red), "add_green": keep(ref_green - green)}
    return {"answers": answers, "simulated": {"kind": kind, "seed": seed, "noise": noise, "top_k": top_k}}
