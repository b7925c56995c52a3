"""Training data for QUACKIE's two classifiers, split by article so that no evaluated question is trained on.

The paper explains (a) a sequence classifier trained on answerability (question, context) → answerable?, and
(b) an extractive QA model trained on SQuAD 2.0 whose P(answer in context) is the QUACKIE target. Both are trained
here from MiniLM on the SQuAD 2.0 dev articles *not* in :data:`HELD_OUT_ARTICLES`. Negatives are the SQuAD 2.0
unanswerable questions plus question/context mismatches: an answerable question paired with a paragraph of another
article (a documented addition, so the classifier also sees plainly unrelated contexts).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interpeval.benchmarks.quackie.data import HELD_OUT_ARTICLES, SquadQuestion

__all__ = ["HELD_OUT_ARTICLES", "KINDS", "classification_examples", "evaluate_answerability", "mismatches",
           "qa_examples", "split_by_article", "subsample_unanswerable", "write_split"]

KINDS = {"cls": "sequence-classification", "qa": "extractive-qa"}


def split_by_article(questions: Sequence[SquadQuestion], held_out: Sequence[str] = HELD_OUT_ARTICLES
                     ) -> tuple[list[SquadQuestion], list[SquadQuestion]]:
    """``(train, held_out)`` questions: whole articles go to one side only."""
    titles = {q.title for q in questions}
    missing = sorted(set(held_out) - titles)
    if missing:
        raise ValueError(f"held-out articles not in the data: {', '.join(missing)}")
    keep = set(held_out)
    return [q for q in questions if q.title not in keep], [q for q in questions if q.title in keep]


def mismatches(questions: Sequence[SquadQuestion], fraction: float, seed: int = 0) -> list[tuple[str, str]]:
    """``(question, context from another article)`` for a seeded ``fraction`` of the answerable questions."""
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be in [0, 1], got {fraction}")
    rng = random.Random(seed)
    contexts: dict[str, list[str]] = {}
    for q in questions:
        if q.context not in contexts.setdefault(q.title, []):
            contexts[q.title].append(q.context)
    if len(contexts) < 2:
        raise ValueError("mismatched negatives need questions from at least two articles")
    answerable = [q for q in questions if q.answer_starts]
    picked = rng.sample(answerable, round(fraction * len(answerable)))
    out = []
    for q in picked:
        other = rng.choice(sorted(t for t in contexts if t != q.title))
        out.append((q.question, rng.choice(contexts[other])))
    return out


def subsample_unanswerable(questions: Sequence[SquadQuestion], fraction: float, seed: int = 0
                           ) -> list[SquadQuestion]:
    """All answerable questions and a seeded ``fraction`` of the unanswerable ones, in the original order.

    Short training runs collapse to "unanswerable" when negatives dominate; this balances the classes.
    """
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be in [0, 1], got {fraction}")
    negatives = [q.index for q in questions if not q.answer_starts]
    keep = set(random.Random(seed).sample(negatives, round(fraction * len(negatives))))
    return [q for q in questions if q.answer_starts or q.index in keep]


def classification_examples(questions: Sequence[SquadQuestion], mismatch_fraction: float = 0.25,
                            seed: int = 0) -> list[Any]:
    """Answerability pairs: label 1 = answerable; SQuAD 2.0 unanswerable and mismatched pairs are label 0."""
    from interpeval.models.train import ClassificationExample

    out = [ClassificationExample(q.question, int(bool(q.answer_starts)), pair=q.context) for q in questions]
    out += [ClassificationExample(question, 0, pair=context)
            for question, context in mismatches(questions, mismatch_fraction, seed)]
    return out


def qa_examples(questions: Sequence[SquadQuestion], mismatch_fraction: float = 0.25, seed: int = 0) -> list[Any]:
    """Extractive QA examples (first gold answer); unanswerable and mismatched ones have no answer."""
    from interpeval.models.train import QAExample

    out = [QAExample(q.question, q.context, q.answer_starts[0] if q.answer_starts else -1,
                     q.answer_texts[0] if q.answer_starts else "") for q in questions]
    out += [QAExample(question, context, -1, "") for question, context in mismatches(questions, mismatch_fraction,
                                                                                         seed)]
    return out


def write_split(out_dir: str | Path, train: Sequence[SquadQuestion], held_out: Sequence[SquadQuestion],
                source: str, mismatch_fraction: float, seed: int, unanswerable_fraction: float = 1.0) -> Path:
    """Record next to the model which articles it was trained on (the benchmark drops their questions)."""
    path = Path(out_dir) / "quackie_split.json"
    path.write_text(json.dumps({
        "source": source,
        "train_articles": sorted({q.title for q in train}),
        "held_out_articles": sorted({q.title for q in held_out}),
        "train_questions": len(train), "train_answerable": sum(bool(q.answer_starts) for q in train),
        "mismatch_fraction": mismatch_fraction, "unanswerable_fraction": unanswerable_fraction, "seed": seed,
    }, indent=1))
    return path


def evaluate_answerability(model: Any, target: Any, questions: Sequence[SquadQuestion]) -> dict[str, float]:
    """Accuracy, recall and precision of "answerable" (P > 0.5) on questions that fit ``model.max_length``."""
    import numpy as np

    from interpeval.benchmarks.quackie.verify import answerable_probability

    fits = [q for q in questions
            if len(model.tokenizer(q.question, q.context)["input_ids"]) <= model.max_length]
    if not fits:
        return {"n": 0}
    p = answerable_probability(model, target, [q.question for q in fits], [q.context for q in fits])
    pred = p > 0.5
    gold = np.array([bool(q.answer_starts) for q in fits])
    tp = int((pred & gold).sum())
    return {"n": len(fits), "answerable": int(gold.sum()), "accuracy": float((pred == gold).mean()),
            "recall": tp / int(gold.sum()) if gold.any() else float("nan"),
            "precision": tp / int(pred.sum()) if pred.any() else float("nan")}
