"""How well QUACKIE's classifiers tell answerable from unanswerable questions on data they never saw.

The classifiers themselves are zoo heads made by recipes (``interpeval train recipe minilm-quackie-cls``), whose
split keeps QUACKIE's evaluated articles and samples out of training.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpeval.benchmarks.quackie.data import SquadQuestion

__all__ = ["evaluate_answerability"]


def evaluate_answerability(model: Any, target: Any, questions: Sequence[SquadQuestion]) -> dict[str, float]:
    """Accuracy, recall and precision of "answerable" (P > 0.5) on questions that fit ``model.max_length``, and the
    balanced accuracy (mean recall of the two classes) where both occur."""
    import numpy as np
    from sklearn.metrics import balanced_accuracy_score

    from interpeval.benchmarks.quackie.verify import answerable_probability

    fits = [q for q in questions
            if len(model.tokenizer(q.question, q.context)["input_ids"]) <= model.max_length]
    if not fits:
        return {"n": 0}
    p = answerable_probability(model, target, [q.question for q in fits], [q.context for q in fits])
    pred = p > 0.5
    gold = np.array([bool(q.answer_starts) for q in fits])
    tp = int((pred & gold).sum())
    scores = {"n": len(fits), "answerable": int(gold.sum()), "accuracy": float((pred == gold).mean()),
              "recall": tp / int(gold.sum()) if gold.any() else float("nan"),
              "precision": tp / int(pred.sum()) if pred.any() else float("nan")}
    if gold.any() and not gold.all():
        scores["balanced_accuracy"] = float(balanced_accuracy_score(gold, pred))
    return scores
