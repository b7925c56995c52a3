"""Prediction quality of masked-word benchmarks: is the gold word among the model's top-k fillers?

The pretrained-LM rationale benchmark compares *words*, so predictions and targets are normalised before the
exact match: surrounding whitespace is stripped and, with ``lowercase=True`` (English), case is folded. Subword
markers are the caller's job (decode the token first).
"""

from __future__ import annotations

from collections.abc import Sequence

from interpeval.metrics._checks import non_empty, positive_int
from interpeval.metrics.base import register


def normalise_word(word: str, lowercase: bool = True) -> str:
    """Strip whitespace and, for English, lower-case: the form in which words are compared."""
    w = word.strip()
    return w.lower() if lowercase else w


@register("topk_accuracy", "answer", True, (0.0, 1.0), "pretrained-LM rationale benchmark (masked-word prediction)",
          quirks="exact match after strip (+ lower-case with lowercase=True)",
          needs=("predictions", "targets"), level="dataset")
def topk_accuracy(predictions: Sequence[Sequence[str]], targets: Sequence[str], k: int | None = None,
                  lowercase: bool = True) -> float:
    """Share of instances whose target word is among the first ``k`` predicted words (all of them if ``k`` is None)."""
    preds, golds = non_empty(predictions, "predictions"), non_empty(targets, "targets")
    if len(preds) != len(golds):
        raise ValueError(f"predictions and targets differ in length ({len(preds)} != {len(golds)})")
    k = None if k is None else positive_int(k, "k")
    hits = 0
    for i, (ranked, gold) in enumerate(zip(preds, golds, strict=True)):
        if not isinstance(gold, str):
            raise ValueError(f"targets[{i}]: expected a word, got {type(gold).__name__}")
        if isinstance(ranked, str) or not all(isinstance(w, str) for w in ranked):
            raise ValueError(f"predictions[{i}]: expected a ranked list of words")
        top = [normalise_word(w, lowercase) for w in list(ranked)[:k]]
        hits += normalise_word(gold, lowercase) in top
    return hits / len(golds)
