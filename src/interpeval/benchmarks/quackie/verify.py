"""Ground-truth verification (QUACKIE paper, Table 2): is the answer sentence really what the classifier uses?

For every kept instance the classifier's P(answerable) is measured on the full context, on the context without
the ground-truth sentence, and on the ground-truth sentence alone. If the ground truth is right, removing it should
drop the probability and keeping only it should not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from interpeval.benchmarks.quackie.build import Instance


def gt_sentence(instance: Instance) -> int:
    """The ground-truth sentence named by most gold answers (the first such on ties)."""
    counts = Counter(instance.gt)
    best = max(counts.values())
    return next(j for j in instance.gt if counts[j] == best)


def ablated_contexts(instance: Instance) -> tuple[str, str]:
    """``(context without the GT sentence, the GT sentence alone)``; sentences are re-joined by one space."""
    g = gt_sentence(instance)
    without = " ".join(s for j, s in enumerate(instance.sentences) if j != g)
    return without, instance.sentences[g]


def answerable_probability(model: Any, target: Any, questions: Sequence[str], contexts: Sequence[str]) -> np.ndarray:
    """The classifier's P(answerable) per pair, batched. ``p_answer`` leaves padding out of its softmaxes here, so
    each pair gets the value it has when scored alone, as the original's one-at-a-time ``predict`` does."""
    if target.name == "p_answer":
        target = replace(target, params={**target.params, "exclude_padding": True})
    return np.asarray(model.score_texts(list(questions), list(contexts), target=target), dtype=float)


def ground_truth_check(model: Any, target: Any, instances: Sequence[Instance]) -> list[dict[str, float]]:
    """Per instance: ``p_full``, ``p_without_gt``, ``p_only_gt`` (the explained target, e.g. P(answerable))."""
    if not instances:
        return []
    questions, contexts = [], []
    for inst in instances:
        without, only = ablated_contexts(inst)
        questions += [inst.question] * 3
        contexts += [inst.context, without, only]
    p = answerable_probability(model, target, questions, contexts).reshape(-1, 3)
    return [{"p_full": float(a), "p_without_gt": float(b), "p_only_gt": float(c)} for a, b, c in p]


def summarize_check(rows: Sequence[dict[str, float]], threshold: float = 0.5) -> dict[str, float]:
    """Means of the three probabilities, the mean changes, and how often the prediction stays positive."""
    if not rows:
        return {"n": 0}
    arr = {k: np.array([r[k] for r in rows]) for k in ("p_full", "p_without_gt", "p_only_gt")}
    return {
        "n": len(rows),
        "p_full": float(arr["p_full"].mean()),
        "p_without_gt": float(arr["p_without_gt"].mean()),
        "p_only_gt": float(arr["p_only_gt"].mean()),
        "delta_without_gt": float((arr["p_without_gt"] - arr["p_full"]).mean()),
        "delta_only_gt": float((arr["p_only_gt"] - arr["p_full"]).mean()),
        "positive_without_gt": float((arr["p_without_gt"] > threshold).mean()),
        "positive_only_gt": float((arr["p_only_gt"] > threshold).mean()),
    }
