"""Held-out scores of a model on examples of its kind: the card's metrics and the dev score that selects the
best checkpoint."""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from interpeval.models.base import Model
from interpeval.training.batching import choice_pair, make_batch, masked_logits
from interpeval.training.examples import ClassificationExample


def _normalize_answer(text: str) -> str:
    """SQuAD's official answer normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def answer_f1(gold: str, pred: str) -> float:
    """SQuAD token F1 (the official ``evaluate-v2.0.py``: both empty → 1, one empty → 0); with Chinese on either
    side the tokens are CMRC's (each CJK character alone, ExpMRC's normalisation), so a partly right Chinese answer
    scores above 0 as in the CMRC 2018 scorer."""
    from interpeval.metrics.mrc import CJK, mixed_segmentation, normalize_tokens, token_f1

    if CJK.search(gold) or CJK.search(pred):
        return token_f1(normalize_tokens(mixed_segmentation(gold)), normalize_tokens(mixed_segmentation(pred)))
    return token_f1(_normalize_answer(gold).split(), _normalize_answer(pred).split())


def predict_examples(model: Model, examples: Sequence[ClassificationExample]) -> np.ndarray:
    """The model's predictions for classification / regression examples (text pairs when they have them)."""
    pairs = [e.pair for e in examples]
    return model.predict([e.text for e in examples], None if all(p is None for p in pairs) else pairs)


def classification_scores(pred: Sequence[int], gold: Sequence[int], balanced: bool = False) -> dict[str, float]:
    """Accuracy and macro F1 (and, asked for, balanced accuracy: the mean recall over the gold classes)."""
    from sklearn.metrics import f1_score

    pred, gold = np.asarray(pred), np.asarray(gold)
    scores = {"accuracy": float((pred == gold).mean()), "macro_f1": float(f1_score(gold, pred, average="macro"))}
    if balanced:
        scores["balanced_accuracy"] = float(np.mean([(pred[gold == c] == c).mean() for c in np.unique(gold)]))
    return scores


def evaluate(model: Model, kind: str, examples: Sequence[Any], seed: int = 0) -> dict[str, float]:
    """Held-out scores: accuracy (+ macro F1), MSE (+ Pearson r), answer F1 / EM, or masked-token accuracy."""
    if not examples:
        return {}
    if kind == "sequence-classification":
        return classification_scores(predict_examples(model, examples), [e.label for e in examples])
    if kind == "regression":
        pred = predict_examples(model, examples)
        gold = np.array([e.label for e in examples], dtype=float)
        r = float(np.corrcoef(pred, gold)[0, 1]) if len(gold) > 1 and pred.std() > 0 else 0.0
        return {"mse": float(((pred - gold) ** 2).mean()), "pearson": r}
    if kind == "multiple-choice":
        texts = [e.context for e in examples]
        options = [[choice_pair(e.question, o) for o in e.options] for e in examples]
        evidence: list[float] = []
        if model.evidence_head is not None and any(e.evidence_text for e in examples):
            preds = model.predict_evidence(texts, options)
            pred = [p["choice"] for p in preds]
            evidence = [answer_f1(e.evidence_text or "", p["evidence"]["text"]) for e, p in zip(examples, preds,
                                                                                                strict=True)]
        else:
            pred = model.predict(texts, options)
        correct = sum(int(p) == e.label for p, e in zip(pred, examples, strict=True))
        return {"accuracy": correct / len(examples), **({"evidence_f1": float(np.mean(evidence))} if evidence else {})}
    if kind == "extractive-qa":
        preds = model.predict([e.question for e in examples], [e.context for e in examples])
        has_null = any(e.answer_start < 0 for e in examples)
        texts = [("" if has_null and p["p_answer"] < 0.5 else p["text"]) for p in preds]
        f1 = [answer_f1(e.answer_text, t) for e, t in zip(examples, texts, strict=True)]
        em = [float(_normalize_answer(e.answer_text) == _normalize_answer(t)) for e, t in zip(examples, texts,
                                                                                               strict=True)]
        scores = {"answer_f1": float(np.mean(f1)), "exact_match": float(np.mean(em))}
        if model.evidence_head is not None and any(e.evidence_text for e in examples):
            ev = [answer_f1(e.evidence_text or "", p["evidence"]["text"]) for e, p in zip(examples, preds,
                                                                                          strict=True)]
            scores["evidence_f1"] = float(np.mean(ev))
        return scores
    generator = torch.Generator().manual_seed(seed)
    top1 = top3 = total = 0
    with torch.no_grad():
        for start in range(0, len(examples), model.batch_size):
            batch = make_batch(model, kind, examples[start:start + model.batch_size], generator)
            chosen = batch["labels"] != -100
            best = masked_logits(model, batch["inputs"], chosen).topk(3, dim=-1).indices
            gold = batch["labels"][chosen][:, None]
            top1 += int((best[:, :1] == gold).sum())
            top3 += int((best == gold).any(-1).sum())
            total += int(chosen.sum())
    return {"masked_accuracy": top1 / max(total, 1), "masked_top3": top3 / max(total, 1), "masked_tokens": total}


#: the held-out score that picks the best checkpoint on the dev split
PRIMARY_METRIC = {"sequence-classification": "accuracy", "regression": "pearson", "extractive-qa": "answer_f1",
                  "multiple-choice": "accuracy", "masked-lm": "masked_accuracy"}
